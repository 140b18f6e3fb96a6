#ifndef VB_FLUSHVERDICT_H
#define VB_FLUSHVERDICT_H

/* Flushes that do no work: a flush timed against a small write beside it, in pairs. One
 * costing no more than a write (within a margin) persists nothing the write had not; a
 * guest cannot tell whether flushes are ignored, so no verdict says "durable". */

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

/* Pairs the full probe takes (the short one an eighth): enough to decide under
 * emulation, where times vary by hundreds of us. */
#define VB_FLUSH_MAX_PAIRS 256
/* What a flush must cost beyond a small write to be work: a cache flush on top of the
 * round trip a write costs too (figures in bench/README.md). */
#define VB_FLUSH_MARGIN_NS 20000
/* The median difference's interval is the sign test's (distribution-free), at least this. */
#define VB_FLUSH_CONFIDENCE 0.99
/* Fewest pairs it exists for: all 8 on one side of the median has a chance of 2/256. */
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
	int stop;                     /* the stop flag that ended it, 0 when none did */
	char leftover[64];            /* the probe's file, when left behind; "" otherwise */
	int leftover_err;             /* why it could not be */
	char why[200];                /* not run or undecided: the reason */
};

/* Sets r's figures and verdict from its pairs (pure): WORKS when the median difference's
 * interval lies above VB_FLUSH_MARGIN_NS, NO_WORK when below it and a write is a
 * yardstick, else UNDECIDED (why says why). A result that already says why keeps it. */
void vb_flush_decide(struct vb_flush_result *r);

/* On a copy-on-write fs a slow flush may be its own work: WORKS becomes UNDECIDED. */
void vb_flush_own_metadata(struct vb_flush_result *r, const char *fs);

/* Whether a write can stand for a flush's round trip: the flush costs at least half the
 * write, or its fastest tenth costs less than the margin. */
bool vb_flush_yardstick(uint64_t flush_p10_ns, uint64_t flush_p50_ns, uint64_t write_p50_ns);

/* The verdict's sentence for the summary (no "# ", at most 158 characters); 0: none. */
int vb_flush_text(const struct vb_flush_result *r, char *buf, size_t n);

/* The sentence about the guest's own belief, or 0 when it is not known. */
int vb_write_cache_text(const char *write_cache, const char *where, char *buf, size_t n);

/* The verdict's word for CSV and JSON: "not-run", "undecided", "no-work", "works". */
const char *vb_flush_verdict_name(int verdict);

#endif
