#ifndef VB_HIST_H
#define VB_HIST_H

#include <stdint.h>

/* Log-linear histogram of durations in ns: each power of two split into VB_HIST_SUB
 * buckets, every value known within 3.1%, in fixed memory. */
#define VB_HIST_SUB_BITS 5
#define VB_HIST_SUB (1u << VB_HIST_SUB_BITS)
#define VB_HIST_MAX_BITS 42  /* larger values (over 73 minutes) are clamped */
#define VB_HIST_BUCKETS ((VB_HIST_MAX_BITS - VB_HIST_SUB_BITS + 1) * VB_HIST_SUB)

struct vb_hist {
	uint64_t count;
	uint64_t max_ns;
	uint64_t min_ns;
	uint64_t buckets[VB_HIST_BUCKETS];
};

/* The figures kept of a histogram once a run is over. */
struct vb_latency {
	uint64_t writes;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
};

/* Empties h (its min_ns above every value). */
void vb_hist_init(struct vb_hist *h);

/* The position of the highest bit set in v (v > 0). */
static inline unsigned vb_hist_log2(uint64_t v)
{
#if defined(__GNUC__)
	return 63u - (unsigned)__builtin_clzll(v);
#else
	unsigned e = 0;
	while (v >>= 1)
		e++;
	return e;
#endif
}

/* One formula without a branch (it runs once per write): a v below SUB has e = SUB_BITS
 * and lands in bucket v. */
static inline unsigned vb_hist_bucket(uint64_t v)
{
	const uint64_t top = (1ULL << VB_HIST_MAX_BITS) - 1;

	v = v < top ? v : top;
	unsigned e = vb_hist_log2(v | VB_HIST_SUB);
	return (e - VB_HIST_SUB_BITS + 1) * VB_HIST_SUB +
	       (unsigned)(v >> (e - VB_HIST_SUB_BITS)) - VB_HIST_SUB;
}

/* Records one duration (inline: once per write, in the timed loop). */
static inline void vb_hist_add(struct vb_hist *h, uint64_t ns)
{
	h->buckets[vb_hist_bucket(ns)]++;
	h->min_ns = ns < h->min_ns ? ns : h->min_ns;
	h->max_ns = ns > h->max_ns ? ns : h->max_ns;
	h->count++;
}

/* Adds every value recorded in src to dst. */
void vb_hist_merge(struct vb_hist *dst, const struct vb_hist *src);

/* Value at quantile q (0..1): its bucket's upper edge, capped at the maximum; 0: empty. */
uint64_t vb_hist_quantile(const struct vb_hist *h, double q);

/* The count, p50, p90, p99, p99.9 and maximum of h. */
struct vb_latency vb_hist_summary(const struct vb_hist *h);

#endif
