#ifndef VB_FLUSH_H
#define VB_FLUSH_H

/* Flushes that do no work: what a flush (the run's sync call) costs on the target against
 * what an ordinary small write costs there. A flush that costs no more than an empty
 * round trip, however much is dirty, persists nothing the write had not already: the
 * host ignores flushes, or the storage persists every write when it acknowledges it
 * (a power-loss-protected cache, or writing through). From inside a guest the two cannot
 * be told apart, so no verdict here ever says "durable": the best is "not proven". */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vb_io.h"

enum vb_flush_verdict {
	VB_FLUSH_NOT_RUN,      /* no probe was made (why says so when one was meant to be) */
	VB_FLUSH_UNDECIDED,    /* the figures do not say either way, or the probe failed */
	VB_FLUSH_NO_WORK,      /* a flush costs what a request costs, dirty or not */
	VB_FLUSH_WORKS         /* a flush costs clearly more: something is being persisted */
};

/* A flush is "no work" when it costs at most this many times a small write, dirty data
 * included, and "work" at this many times or more; in between the probe cannot tell.
 * Flushes and writes are compared by their fastest tenth (p10), the dirty flush by the
 * fastest of its rounds against the median small flush. */
#define VB_FLUSH_SAME 2.0
#define VB_FLUSH_MORE 3.0
/* A flush after dirty data persists it only if it takes at least this share of the time
 * the data took to write: below it, however many times an empty flush it costs, it
 * moved nothing (microseconds of noise on a fast device are not work). */
#define VB_FLUSH_DIRTY_SHARE 0.1
/* Differences below this are the scheduler's and the clock's, not a device's: a flush
 * that costs less than this more than a write persisted nothing a write did not. */
#define VB_FLUSH_NOISE_NS 20000.0
/* Fewest write-and-flush pairs a verdict is made from. */
#define VB_FLUSH_MIN_SAMPLES 5

/* What the probe measured; every time in nanoseconds. */
struct vb_flush_result {
	int verdict;                  /* enum vb_flush_verdict */
	bool full;                    /* --check-flush, not the short automatic form */
	int call;                     /* enum vb_sync_call timed */
	uint32_t write_bytes;         /* size of each small write */
	uint64_t samples;             /* small writes each followed by the call */
	uint64_t flush_p50_ns, flush_p99_ns;
	uint64_t write_p50_ns;        /* the same writes without the call */
	uint64_t flush_p10_ns;        /* the fastest tenth, which the verdict compares: load */
	uint64_t write_p10_ns;        /* from elsewhere only ever adds time */
	uint64_t dirty_bytes;         /* written just before one more call; 0: not done */
	uint64_t dirty_write_ns;      /* the writes of those bytes */
	uint64_t dirty_flush_ns;      /* that call (of three rounds, the fastest call's) */
	uint64_t calls;               /* sync calls the probe made in all */
	uint64_t bytes;               /* bytes the probe wrote in all */
	double secs;                  /* how long the probe took */
	char why[160];                /* not run or undecided: the reason */
};

/* Sets r->verdict from its figures (pure): NO_WORK, WORKS or UNDECIDED as above. A
 * result that already says why (the probe failed, or was skipped) is left as it is. */
void vb_flush_decide(struct vb_flush_result *r);

/* The verdict's sentence for the summary, without "# ": "flush: 38 us p50 (a 4 KiB
 * write: 35 us): flushes do no work here - ...". write_cache is what the guest's kernel
 * believes of the disk's cache ("write back", "write through", "" unknown), where is where
 * it was read. Returns 0 when there is nothing to say. */
int vb_flush_text(const struct vb_flush_result *r, char *buf, size_t n);

/* The sentence about the guest's own belief, or 0 when it is not known. */
int vb_write_cache_text(const char *write_cache, const char *where, char *buf, size_t n);

/* The verdict's word for CSV and JSON: "not-run", "undecided", "no-work", "works". */
const char *vb_flush_verdict_name(int verdict);

#endif
