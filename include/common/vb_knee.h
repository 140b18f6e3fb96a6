#ifndef VB_KNEE_H
#define VB_KNEE_H

/* A "knee": a lasting drop of the write rate within a run, the mark of a cache that
 * fills in front of the disk. Pure functions over a run's interval samples. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vb_interval;   /* vb_result.h */

/* Fewest usable samples a split can have (one before, three after). */
#define VB_KNEE_MIN_SAMPLES 4
/* The burst must be at least this many times the sustained rate. */
#define VB_KNEE_MIN_DROP 1.5
/* The interval vbench samples at when --interval is not given. */
#define VB_KNEE_DEFAULT_INTERVAL_SECS 0.5

/* Where a run's rate fell for good, and the rates on both sides. */
struct vb_knee {
	bool checked;                   /* there were enough samples to look */
	bool found;
	double burst_bytes_per_sec;     /* before the knee: bytes / seconds of those samples */
	double sustained_bytes_per_sec; /* after it, to the end of the run */
	uint64_t at_bytes;              /* written before the knee */
	double at_secs;                 /* time into the run where the knee is */
};

/* Looks for a knee in one run's n samples: a split into a fast and a slow part, the fast
 * at least VB_KNEE_MIN_DROP times the slow and not overlapping it. A steady run, a slow
 * drift and a short spike have none. */
void vb_knee_find(const struct vb_interval *iv, uint64_t n, struct vb_knee *k);

/* What the knees of the runs of one session say together. */
struct vb_knee_summary {
	uint64_t checked;               /* runs with enough samples */
	uint64_t found;                 /* runs with a knee */
	double burst_bytes_per_sec;     /* medians over the runs with a knee */
	double sustained_bytes_per_sec;
	double at_bytes;
	double at_secs;
};

/* Adds one run's knee (a zeroed first); vb_knee_summary_end makes the medians. */
#define VB_KNEE_MAX_RUNS 64
struct vb_knee_acc {
	struct vb_knee_summary s;
	uint64_t n;
	double burst[VB_KNEE_MAX_RUNS], sustained[VB_KNEE_MAX_RUNS];
	double bytes[VB_KNEE_MAX_RUNS], secs[VB_KNEE_MAX_RUNS];
};
void vb_knee_add(struct vb_knee_acc *a, const struct vb_knee *k);
void vb_knee_summary_end(struct vb_knee_acc *a);

/* The summary's sentence ("burst 1.92 GB/s for the first 2.1 GB, then ..."), with a
 * --size beyond the burst that fits room_bytes (0: not known); 0 when no knee. */
int vb_knee_text(const struct vb_knee_summary *s, uint64_t room_bytes, char *buf, size_t n);

#endif
