#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_flushverdict.h"

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The q-quantile of n sorted values, the nearest rank. */
static uint64_t rank(const uint64_t *v, uint64_t n, double q)
{
	uint64_t i = (uint64_t)(q * (double)(n - 1) + 0.5);

	return v[i < n ? i : n - 1];
}

/* P(X <= j) for X binomial with n trials of one half. */
static double binom_cdf(uint64_t n, uint64_t j)
{
	double term = 1, sum = 0;

	for (uint64_t i = 0; i < n; i++)
		term /= 2;
	for (uint64_t i = 0; i <= j && i <= n; i++) {
		sum += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

/* A signed time in the unit that keeps it short: "+38 us", "-5.2 us", "+1.3 ms". */
static void span(char *buf, size_t n, int64_t ns)
{
	double a = (double)(ns < 0 ? -ns : ns);
	char sign = ns < 0 ? '-' : '+';

	if (a < 10000)
		snprintf(buf, n, "%c%.1f us", sign, a / 1e3);
	else if (a < 1000000)
		snprintf(buf, n, "%c%.0f us", sign, a / 1e3);
	else if (a < 1e8)
		snprintf(buf, n, "%c%.1f ms", sign, a / 1e6);
	else if (a < 1e9)
		snprintf(buf, n, "%c%.0f ms", sign, a / 1e6);
	else
		snprintf(buf, n, "%c%.1f s", sign, a / 1e9);
}

void vb_flush_decide(struct vb_flush_result *r)
{
	uint64_t n = r->samples < VB_FLUSH_MAX_PAIRS ? r->samples : VB_FLUSH_MAX_PAIRS;
	int64_t d[VB_FLUSH_MAX_PAIRS];
	uint64_t f[VB_FLUSH_MAX_PAIRS], w[VB_FLUSH_MAX_PAIRS];

	if (n > 0) {
		for (uint64_t i = 0; i < n; i++) {
			d[i] = (int64_t)r->flush_ns[i] - (int64_t)r->write_ns[i];
			f[i] = r->flush_ns[i];
			w[i] = r->write_ns[i];
		}
		qsort(d, (size_t)n, sizeof *d, cmp_i64);
		qsort(f, (size_t)n, sizeof *f, cmp_u64);
		qsort(w, (size_t)n, sizeof *w, cmp_u64);
		r->flush_p10_ns = rank(f, n, 0.10);
		r->flush_p50_ns = rank(f, n, 0.50);
		r->flush_p99_ns = rank(f, n, 0.99);
		r->write_p50_ns = rank(w, n, 0.50);
		r->diff_p50_ns = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	}
	if (r->why[0] != '\0')
		return;
	/* The median lies between the k-th smallest and largest with probability
	 * 1 - 2 P(X <= k - 1), whatever the distribution. */
	uint64_t k = 0;
	for (uint64_t j = 1; j <= n / 2; j++) {
		double c = 1 - 2 * binom_cdf(n, j - 1);
		if (c < VB_FLUSH_CONFIDENCE)
			break;
		k = j;
		r->confidence = c;
	}
	r->verdict = VB_FLUSH_UNDECIDED;
	if (k == 0) {
		r->confidence = 0;
		snprintf(r->why, sizeof r->why, "%llu pairs are too few for a %.0f%% interval",
			 (unsigned long long)n, VB_FLUSH_CONFIDENCE * 100);
		return;
	}
	r->diff_lo_ns = d[k - 1];
	r->diff_hi_ns = d[n - k];
	if (r->diff_lo_ns > VB_FLUSH_MARGIN_NS)
		r->verdict = VB_FLUSH_WORKS;
	else if (r->diff_hi_ns < VB_FLUSH_MARGIN_NS && vb_flush_yardstick(r->flush_p10_ns,
									r->flush_p50_ns,
									r->write_p50_ns))
		r->verdict = VB_FLUSH_NO_WORK;
	else if (r->diff_hi_ns < VB_FLUSH_MARGIN_NS) {
		char fm[32], wm[32];
		span(fm, sizeof fm, (int64_t)r->flush_p50_ns);
		span(wm, sizeof wm, (int64_t)r->write_p50_ns);
		snprintf(r->why, sizeof r->why, "flush %s, %u KiB write %s (medians, %llu pairs): a "
			 "write costs %.0fx a flush here, so it is no yardstick", fm + 1,
			 r->write_bytes / 1024, wm + 1, (unsigned long long)n,
			 (double)r->write_p50_ns / (double)r->flush_p50_ns);
	}
}

void vb_flush_own_metadata(struct vb_flush_result *r, const char *fs)
{
	char d[32];

	if (r->verdict != VB_FLUSH_WORKS)
		return;
	span(d, sizeof d, r->diff_p50_ns);
	r->verdict = VB_FLUSH_UNDECIDED;
	snprintf(r->why, sizeof r->why, "%.16s syncs its own metadata (copy on write): %s over a "
		 "%u KiB write; measure the disk or ext4/xfs", fs, d, r->write_bytes / 1024);
}

bool vb_flush_yardstick(uint64_t flush_p10_ns, uint64_t flush_p50_ns, uint64_t write_p50_ns)
{
	/* A far costlier write (a throttle) hides what the flush does; but every probe flush
	 * follows a write, so one whose fastest tenth is under the margin does no work. */
	return 2 * flush_p50_ns >= write_p50_ns || flush_p10_ns < VB_FLUSH_MARGIN_NS;
}

const char *vb_flush_verdict_name(int verdict)
{
	switch (verdict) {
	case VB_FLUSH_UNDECIDED: return "undecided";
	case VB_FLUSH_NO_WORK: return "no-work";
	case VB_FLUSH_WORKS: return "works";
	default: return "not-run";
	}
}

int vb_flush_text(const struct vb_flush_result *r, char *buf, size_t n)
{
	char mid[32], lo[32], hi[32], figures[192];
	const char *call = r->call == VB_CALL_FDATASYNC ? "fdatasync" : "fsync";
	const char *verdict, *meaning;

	if (r->verdict == VB_FLUSH_NOT_RUN) {
		if (!r->why[0])
			return 0;
		snprintf(buf, n, "flush: not checked: %s", r->why);
		return 1;
	}
	if (r->confidence <= 0 || r->why[0] != '\0') {
		snprintf(buf, n, "flush (%s): cannot tell: %s; not proven durable", call, r->why);
		return 1;
	}
	span(mid, sizeof mid, r->diff_p50_ns);
	span(lo, sizeof lo, r->diff_lo_ns);
	span(hi, sizeof hi, r->diff_hi_ns);
	snprintf(figures, sizeof figures, "flush - %u KiB write %s (%d%%: %s to %s, %llu "
		 "pairs; margin %d us)", r->write_bytes / 1024, mid,
		 (int)(r->confidence * 100), lo, hi, (unsigned long long)r->samples,
		 VB_FLUSH_MARGIN_NS / 1000);
	switch (r->verdict) {
	case VB_FLUSH_NO_WORK:
		verdict = "no work";
		meaning = "ignored, or persisted on write: not proven durable";
		break;
	case VB_FLUSH_WORKS:
		verdict = "takes time";
		meaning = "something persists (not proven durable)";
		break;
	default:
		verdict = "cannot tell";
		meaning = "not proven durable";
		break;
	}
	snprintf(buf, n, "flush (%s): %s: %s; %s", call, verdict, figures, meaning);
	return 1;
}

int vb_write_cache_text(const char *write_cache, const char *where, char *buf, size_t n)
{
	if (write_cache == NULL || write_cache[0] == '\0')
		return 0;
	if (strcmp(write_cache, "write through") == 0)
		snprintf(buf, n, "guest: the kernel believes the disk has no volatile write cache "
			 "(%s: write through), so it sends the disk no flushes at all: a sync here "
			 "costs nothing whatever the storage does", where);
	else if (strcmp(write_cache, "write back") == 0)
		snprintf(buf, n, "guest: the kernel believes the disk has a volatile write cache "
			 "(%s: write back) and sends it flushes", where);
	else
		return 0;
	return 1;
}
