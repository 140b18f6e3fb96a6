#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "common/vb_hist.h"

void vb_hist_init(struct vb_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min_ns = UINT64_MAX;
}

static uint64_t bucket_upper(unsigned i)
{
	if (i < VB_HIST_SUB)
		return i;
	unsigned e = i / VB_HIST_SUB + VB_HIST_SUB_BITS - 1;
	uint64_t width = 1ULL << (e - VB_HIST_SUB_BITS);
	uint64_t lower = (uint64_t)(VB_HIST_SUB + i % VB_HIST_SUB) * width;
	return lower + width - 1;
}

void vb_hist_merge(struct vb_hist *dst, const struct vb_hist *src)
{
	if (src->count == 0)
		return;
	for (unsigned i = 0; i < VB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	if (dst->count == 0 || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
}

uint64_t vb_hist_quantile(const struct vb_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	if (q >= 1.0)
		return h->max_ns;
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < VB_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			uint64_t v = bucket_upper(i);
			if (v > h->max_ns)
				v = h->max_ns;
			if (v < h->min_ns)
				v = h->min_ns;
			return v;
		}
	}
	return h->max_ns;
}

struct vb_latency vb_hist_summary(const struct vb_hist *h)
{
	struct vb_latency l = {h->count, vb_hist_quantile(h, 0.50), vb_hist_quantile(h, 0.90),
			       vb_hist_quantile(h, 0.99), vb_hist_quantile(h, 0.999), h->max_ns};
	return l;
}
