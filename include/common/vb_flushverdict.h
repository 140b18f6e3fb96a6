#ifndef VB_FLUSHVERDICT_H
#define VB_FLUSHVERDICT_H

/* Flushes that do no work: what a flush (the run's sync call) costs on the target beside
 * what an ordinary small write costs there, measured in pairs: each flush against a
 * write made just before or after it. A flush that costs no more than a write, give or
 * take a margin no real flush stays under, persists nothing the write had not already:
 * the host ignores flushes, or the storage persists every write when it acknowledges it
 * (a power-loss-protected cache, or writing through). From inside a guest the two cannot
 * be told apart, so no verdict here ever says "durable": the best is "not proven". */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_io.h"

enum vb_flush_verdict {
	VB_FLUSH_NOT_RUN,      /* no probe was made (why says so when one was meant to be) */
	VB_FLUSH_UNDECIDED,    /* the figures do not say either way, or the probe failed */
	VB_FLUSH_NO_WORK,      /* a flush reliably costs less than a write and the margin */
	VB_FLUSH_WORKS         /* a flush reliably costs more than a write and the margin */
};

/* Pairs the full probe takes; the short one takes an eighth. Under emulation a write
 * and a flush vary by hundreds of us: so many pairs narrow the interval enough to decide
 * in a fraction of a second. */
#define VB_FLUSH_MAX_PAIRS 256
/* What a flush must cost beyond a small write to be work: a host fdatasync that reaches
 * a disk with a volatile cache (real or virtual) costs a cache flush on top of a
 * request's round trip; a flush the host ignores costs the round trip alone, which a
 * write costs too, or less. The figures each side of it are in bench/README.md. */
#define VB_FLUSH_MARGIN_NS 20000
/* The interval of the median difference is a distribution-free one (order statistics,
 * the sign test's), at this confidence or more: noise from the scheduler only widens it. */
#define VB_FLUSH_CONFIDENCE 0.99
/* Fewest pairs such an interval exists for: all of 8 differences on one side of the
 * median has a chance of 2 in 256, under 1%. */
#define VB_FLUSH_MIN_PAIRS 8

/* What the probe measured and what was concluded; every time in nanoseconds. */
struct vb_flush_result {
	int verdict;                  /* enum vb_flush_verdict */
	bool full;                    /* --check-flush, not the short automatic form */
	int call;                     /* enum vb_sync_call timed */
	uint32_t write_bytes;         /* size of each small write */
	uint64_t samples;             /* pairs recorded */
	uint64_t flush_ns[VB_FLUSH_MAX_PAIRS];   /* pair i: a write followed by the call, */
	uint64_t write_ns[VB_FLUSH_MAX_PAIRS];   /* the call's time; and a plain write's */
	/* Set by vb_flush_decide from the pairs: */
	int64_t diff_p50_ns;          /* median of flush - write */
	int64_t diff_lo_ns, diff_hi_ns;   /* its interval */
	double confidence;            /* of that interval; 0: too few pairs for one */
	uint64_t flush_p10_ns, flush_p50_ns, flush_p99_ns, write_p50_ns;
	/* Set by the probe: */
	uint64_t calls;               /* sync calls the probe made in all */
	uint64_t bytes;               /* bytes the probe wrote in all */
	double secs;                  /* how long the probe took */
	int stop;                     /* the stop flag that ended it (a signal, or
				       * VB_STOPFLAG_TIMEOUT), 0 when none did */
	char leftover[64];            /* the name of the probe's file, when it could not be
				       * removed and is left behind; "" otherwise */
	int leftover_err;             /* why it could not be */
	char why[200];                /* not run or undecided: the reason */
};

/* Sets r's figures and verdict from its pairs (pure): WORKS when the interval of the
 * median difference lies above VB_FLUSH_MARGIN_NS, NO_WORK when below it and a write is
 * a yardstick for the flush (vb_flush_yardstick), UNDECIDED otherwise (straddling it, a
 * write that is no yardstick, or too few pairs for an interval: why says which). A result that already
 * says why (the probe failed, or was skipped) keeps its verdict. */
void vb_flush_decide(struct vb_flush_result *r);

/* On a file of copy-on-write file system fs (vb_fs_copy_on_write), a flush that takes
 * time may be the file system's own work: WORKS becomes UNDECIDED, saying so (pure). */
void vb_flush_own_metadata(struct vb_flush_result *r, const char *fs);

/* Whether a write's cost can stand for the round trip of a flush that costs flush_p50_ns
 * (medians): when the flush costs at least half the write, or when its fastest tenth
 * (flush_p10_ns; the median where no more is known) costs less than the margin. */
bool vb_flush_yardstick(uint64_t flush_p10_ns, uint64_t flush_p50_ns, uint64_t write_p50_ns);

/* The verdict's sentence for the summary, without "# ", at most 158 characters: the
 * figures the verdict used and the verdict. Returns 0 when there is nothing to say. */
int vb_flush_text(const struct vb_flush_result *r, char *buf, size_t n);

/* The sentence about the guest's own belief, or 0 when it is not known. */
int vb_write_cache_text(const char *write_cache, const char *where, char *buf, size_t n);

/* The verdict's word for CSV and JSON: "not-run", "undecided", "no-work", "works". */
const char *vb_flush_verdict_name(int verdict);

#endif
