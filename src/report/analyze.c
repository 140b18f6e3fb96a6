#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vb_report.h"
#include "vb_stats.h"
#include "report_internal.h"

/* The analysis of `vbench report`: the runs grouped by label, each label compared with
 * the baseline, and the verdicts. */

/* Significance level of the verdicts. */
#define ALPHA 0.05

/* ---------------------------------------------------------------------------------- */
/* Analysis                                                                           */
/* ---------------------------------------------------------------------------------- */

void vb_comparison_free(struct vb_comparison *a)
{
	for (size_t i = 0; i < a->n_groups; i++) {
		free(a->groups[i].label);
		free(a->groups[i].samples);
	}
	free(a->groups);
	memset(a, 0, sizeof *a);
}

/* Copies the samples of each label of d into its group, in input order. */
static int fill_groups(const struct vb_dataset *d, struct vb_comparison *a)
{
	for (size_t s = 0; s < d->n_samples; s++)
		a->groups[d->samples[s].label].n++;
	for (size_t g = 0; g < a->n_groups; g++) {
		struct vb_group *gr = &a->groups[g];
		gr->label = vbr_dup_n(d->labels[g], strlen(d->labels[g]));
		gr->samples = malloc((gr->n ? gr->n : 1) * sizeof *gr->samples);
		if (gr->label == NULL || gr->samples == NULL)
			return -1;
		if (gr->n > a->max_runs)
			a->max_runs = gr->n;
		gr->n = 0;
	}
	for (size_t s = 0; s < d->n_samples; s++) {
		struct vb_group *gr = &a->groups[d->samples[s].label];
		gr->samples[gr->n++] = d->samples[s];
	}
	return 0;
}

/* The summary of a group's bytes/sec. */
static struct vb_summary summarize_group(const struct vb_group *g)
{
	struct vb_welford w;
	vb_welford_init(&w);
	for (size_t i = 0; i < g->n; i++)
		vb_welford_add(&w, g->samples[i].bytes_per_sec);
	return vb_welford_summary(&w);
}

/* Compares g with the baseline b and decides the verdict. */
static void compare(struct vb_group *g, const struct vb_group *b, bool is_base)
{
	g->cmp = vb_welch_test(&g->sum, &b->sum);
	if (is_base)
		g->verdict = VB_VERDICT_BASELINE;
	else if (g->n < 2)
		g->verdict = VB_VERDICT_ONE_RUN;
	else if (b->n < 2)
		g->verdict = VB_VERDICT_BASE_ONE_RUN;
	else if (!(g->sum.mean > 0) || !(b->sum.mean > 0))
		g->verdict = VB_VERDICT_ZERO_MEAN;
	else if (!g->cmp.valid)
		g->verdict = VB_VERDICT_NO_TEST;
	else if (!(g->cmp.p < ALPHA))
		g->verdict = VB_VERDICT_SAME;
	else
		g->verdict = g->cmp.ratio >= 1 ? VB_VERDICT_FASTER : VB_VERDICT_SLOWER;
}

/* Index of the group named label, or SIZE_MAX. */
static size_t group_index(const struct vb_comparison *a, const char *label)
{
	for (size_t g = 0; g < a->n_groups; g++)
		if (strcmp(a->groups[g].label, label) == 0)
			return g;
	return SIZE_MAX;
}

/* The error for --baseline naming no label: lists the labels there are. */
static void unknown_baseline(const struct vb_comparison *a, const char *label, char *err,
			     size_t errlen)
{
	if (err == NULL || errlen == 0)
		return;
	size_t used = (size_t)snprintf(err, errlen, "unknown baseline label \"%s\"; the labels are:",
				       label);
	for (size_t g = 0; g < a->n_groups && used < errlen; g++)
		used += (size_t)snprintf(err + used, errlen - used, "%s \"%s\"", g ? "," : "",
					 a->groups[g].label);
}

int vb_report_compare(const struct vb_dataset *d, const char *baseline, struct vb_comparison *a,
		      char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	if (d->n_samples == 0) {
		if (err && errlen)
			snprintf(err, errlen, "no runs to report");
		return -1;
	}
	a->groups = calloc(d->n_labels, sizeof *a->groups);
	if (a->groups == NULL || (a->n_groups = d->n_labels, fill_groups(d, a) < 0)) {
		vb_comparison_free(a);
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	a->baseline = baseline ? group_index(a, baseline) : 0;
	if (a->baseline == SIZE_MAX) {
		unknown_baseline(a, baseline, err, errlen);
		vb_comparison_free(a);
		return -1;
	}
	for (size_t g = 0; g < a->n_groups; g++)
		a->groups[g].sum = summarize_group(&a->groups[g]);
	for (size_t g = 0; g < a->n_groups; g++)
		compare(&a->groups[g], &a->groups[a->baseline], g == a->baseline);
	return 0;
}

void vb_report_verdict(const struct vb_group *g, char *buf, size_t n)
{
	double r = g->cmp.ratio;
	switch (g->verdict) {
	case VB_VERDICT_BASELINE:
		snprintf(buf, n, "baseline");
		break;
	case VB_VERDICT_FASTER:
		snprintf(buf, n, "%.2fx faster, significant at p<0.05", r);
		break;
	case VB_VERDICT_SLOWER:
		snprintf(buf, n, "%.2fx (%.2fx slower), significant at p<0.05", r, 1 / r);
		break;
	case VB_VERDICT_SAME:
		snprintf(buf, n, "no significant difference (p=%.2g)", g->cmp.p);
		break;
	case VB_VERDICT_ONE_RUN:
		snprintf(buf, n, "one run: no stddev, no t-test");
		break;
	case VB_VERDICT_BASE_ONE_RUN:
		snprintf(buf, n, "baseline has one run: no t-test");
		break;
	case VB_VERDICT_ZERO_MEAN:
		snprintf(buf, n, "a mean of 0 bytes/sec: no t-test");
		break;
	default:
		snprintf(buf, n, "no variance in either label: no t-test");
		break;
	}
}
