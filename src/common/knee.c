#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_knee.h"
#include "common/vb_result.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile q of the n sorted values xs, by linear interpolation between ranks. */
static double quantile(const double *xs, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return xs[n - 1];
	return xs[i] + (pos - (double)i) * (xs[i + 1] - xs[i]);
}

/* The 10th and 90th percentiles of the n rates at rate, which it sorts. */
static void spread(double *rate, size_t n, double *p10, double *p90)
{
	qsort(rate, n, sizeof *rate, cmp_double);
	*p10 = quantile(rate, n, 0.10);
	*p90 = quantile(rate, n, 0.90);
}

/* The samples of positive length, the last (which ends with the run) only when at least
 * half the median length. */
static size_t usable(const struct vb_interval *iv, uint64_t n, size_t *keep)
{
	double *len = malloc((size_t)n * sizeof *len);
	size_t m = 0, out = 0;

	if (len == NULL)
		return 0;
	for (uint64_t i = 0; i < n; i++)
		if (iv[i].secs > 0)
			len[m++] = iv[i].secs;
	if (m == 0) {
		free(len);
		return 0;
	}
	qsort(len, m, sizeof *len, cmp_double);
	double floor = len[m / 2] / 2;
	free(len);
	for (uint64_t i = 0; i < n; i++)
		if (iv[i].secs > 0 && (i + 1 < n || iv[i].secs >= floor))
			keep[out++] = (size_t)i;
	return out;
}

/* The split k ([0,k) fast, [k,m) slow) with the largest between-groups sum of squares. */
static size_t best_split(const double *rate, size_t m, size_t min_before, size_t min_after)
{
	double total = 0, left = 0, best = -1;
	size_t at = 0;

	for (size_t i = 0; i < m; i++)
		total += rate[i];
	for (size_t k = 1; k < m; k++) {
		left += rate[k - 1];
		if (k < min_before || m - k < min_after)
			continue;
		double d = left / (double)k - (total - left) / (double)(m - k);
		double score = (double)k * (double)(m - k) / (double)m * d * d;
		if (d > 0 && score > best) {
			best = score;
			at = k;
		}
	}
	return at;
}

void vb_knee_find(const struct vb_interval *iv, uint64_t n, struct vb_knee *k)
{
	memset(k, 0, sizeof *k);
	if (n < VB_KNEE_MIN_SAMPLES)
		return;
	size_t *keep = malloc((size_t)n * sizeof *keep);
	double *rate = malloc((size_t)n * sizeof *rate);
	size_t m = keep != NULL && rate != NULL ? usable(iv, n, keep) : 0;

	if (m < VB_KNEE_MIN_SAMPLES)
		goto out;
	k->checked = true;
	uint64_t all = 0;
	for (size_t i = 0; i < m; i++) {
		rate[i] = (double)iv[keep[i]].bytes / iv[keep[i]].secs;
		all += iv[keep[i]].bytes;
	}
	/* A one-sample burst is a spike unless it holds a third of the bytes (a throttle's
	 * allowance); what follows lasts three samples and a tenth of the run. */
	size_t min_before = 3 * iv[keep[0]].bytes >= all ? 1 : 2;
	size_t min_after = m / 10 > 3 ? m / 10 : 3;
	size_t at = best_split(rate, m, min_before, min_after);
	if (at == 0)
		goto out;
	/* [0] before the knee, [1] after it */
	uint64_t bytes[2] = {0, 0};
	double secs[2] = {0, 0};
	for (size_t i = 0; i < m; i++) {
		bytes[i >= at] += iv[keep[i]].bytes;
		secs[i >= at] += iv[keep[i]].secs;
	}
	double burst = (double)bytes[0] / secs[0];
	double sustained = (double)bytes[1] / secs[1];
	double f10, f90, s10, s90;
	spread(rate, at, &f10, &f90);
	spread(rate + at, m - at, &s10, &s90);
	double gap = f10 - s90;
	double widest = f90 - f10 > s90 - s10 ? f90 - f10 : s90 - s10;
	if (burst < VB_KNEE_MIN_DROP * sustained || gap <= widest)
		goto out;
	k->found = true;
	k->burst_bytes_per_sec = burst;
	k->sustained_bytes_per_sec = sustained;
	k->at_secs = iv[keep[at]].start_secs;
	for (uint64_t i = 0; i < keep[at]; i++)
		k->at_bytes += iv[i].bytes;
out:
	free(keep);
	free(rate);
}

void vb_knee_add(struct vb_knee_acc *a, const struct vb_knee *k)
{
	if (!k->checked)
		return;
	a->s.checked++;
	if (!k->found)
		return;
	a->s.found++;
	if (a->n >= VB_KNEE_MAX_RUNS)
		return;
	a->burst[a->n] = k->burst_bytes_per_sec;
	a->sustained[a->n] = k->sustained_bytes_per_sec;
	a->bytes[a->n] = (double)k->at_bytes;
	a->secs[a->n] = k->at_secs;
	a->n++;
}

static double median(double *xs, size_t n)
{
	qsort(xs, n, sizeof *xs, cmp_double);
	return quantile(xs, n, 0.5);
}

void vb_knee_summary_end(struct vb_knee_acc *a)
{
	if (a->n == 0)
		return;
	a->s.burst_bytes_per_sec = median(a->burst, (size_t)a->n);
	a->s.sustained_bytes_per_sec = median(a->sustained, (size_t)a->n);
	a->s.at_bytes = median(a->bytes, (size_t)a->n);
	a->s.at_secs = median(a->secs, (size_t)a->n);
}

/* A quantity in decimal units with three significant digits: "1.92 GB", "310 MB". */
static void si(char *buf, size_t n, double v, const char *unit)
{
	static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
	size_t i = 0;

	while (v >= 1000 && i + 1 < sizeof prefix / sizeof prefix[0]) {
		v /= 1000;
		i++;
	}
	snprintf(buf, n, v >= 100 ? "%.0f %s%s" : v >= 10 ? "%.1f %s%s" : "%.2f %s%s", v,
		 prefix[i], unit);
}

/* A --size of at least twice bytes ("30m", "5g") within room (0: no bound), else the
 * most that fits, or "" when that is not a MiB beyond bytes. */
static void twice(char *buf, size_t n, double bytes, double room)
{
	double want = 2 * bytes, unit = want >= 1073741824.0 ? 1073741824.0 : 1048576.0;
	double k = ceil(want / unit);

	if (k < 1)
		k = 1;
	if (room > 0 && k * unit > room) {
		unit = 1048576.0;
		k = floor(room / unit);
	}
	if (k * unit <= bytes + 1048576.0)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "%.0f%c", k, unit > 1048576.0 ? 'g' : 'm');
}

int vb_knee_text(const struct vb_knee_summary *s, uint64_t room_bytes, char *buf, size_t n)
{
	char burst[32], at[32], sustained[32], runs[64] = "", size[32], advice[128];

	if (s->found == 0)
		return 0;
	si(burst, sizeof burst, s->burst_bytes_per_sec, "B/s");
	si(at, sizeof at, s->at_bytes, "B");
	si(sustained, sizeof sustained, s->sustained_bytes_per_sec, "B/s");
	if (s->checked > 1)
		snprintf(runs, sizeof runs, " (in %llu of %llu runs)", (unsigned long long)s->found,
			 (unsigned long long)s->checked);
	twice(size, sizeof size, s->at_bytes, (double)room_bytes);
	if (size[0] != '\0')
		snprintf(advice, sizeof advice, "to measure the disk, use a size well beyond it, "
			 "such as --size %s", size);
	else
		snprintf(advice, sizeof advice, "this target is too small to write well beyond "
			 "it");
	snprintf(buf, n, "burst %s for the first %s, then %s sustained%s: a cache or burst "
		 "allowance of about %s sits in front of this disk; %s", burst, at, sustained,
		 runs, at, advice);
	return 1;
}
