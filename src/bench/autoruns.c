#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>

#include "bench/vb_autoruns.h"
#include "common/vb_stats.h"

/* Whether the latest rate lies beyond VB_AUTO_OUTLIER_SD deviations of those before it
 * (at least two; when all equal, any difference stands out). */
static bool latest_outlier(const double *rates, uint64_t n)
{
	if (n < 3)
		return false;
	struct vb_summary before = vb_summarize(rates, n - 1);
	double d = fabs(rates[n - 1] - before.mean);
	if (before.stddev == 0)
		return d > 0;
	return d > VB_AUTO_OUTLIER_SD * before.stddev;
}

struct vb_auto_decision vb_auto_decide(const struct vb_config *cfg, const double *rates,
				       const double *secs, uint64_t n)
{
	struct vb_auto_decision d = {VB_AUTO_MORE, n, -1, false};
	double spent = 0;

	if (n >= 2) {
		struct vb_summary s = vb_summarize(rates, n);
		double t = vb_student_t_quantile(0.975, (double)(n - 1));
		if (s.mean > 0)
			d.ci_rel = t * s.stddev / sqrt((double)n) / s.mean;
	}
	d.outlier = latest_outlier(rates, n);
	if (n < VB_AUTO_MIN_RUNS)
		return d;
	if (d.ci_rel >= 0 && d.ci_rel <= cfg->precision && !d.outlier)
		d.state = VB_AUTO_PRECISE;
	else if (n >= cfg->runs)
		d.state = VB_AUTO_CAPPED;
	else if (cfg->max_time_secs > 0) {
		/* The next run is taken to last as long as the average one so far. */
		for (uint64_t i = 0; i < n; i++)
			spent += secs[i];
		if (spent + spent / (double)n > cfg->max_time_secs)
			d.state = VB_AUTO_OUT_OF_TIME;
	}
	return d;
}

/* " with 95% CI +-6.1%", or "" when it is not known (a mean of 0). */
static void ci_words(const struct vb_auto_decision *d, char *buf, size_t n)
{
	if (d->ci_rel >= 0)
		snprintf(buf, n, " with 95%% CI +-%.1f%%", d->ci_rel * 100);
	else
		snprintf(buf, n, "%s", "");
}

int vb_auto_text(const struct vb_auto_decision *d, const struct vb_config *cfg, char *buf,
		 size_t n)
{
	char ci[48];
	const char *why = d->outlier ? ", the last run more than 3 standard deviations from "
				       "the others" : "";

	ci_words(d, ci, sizeof ci);
	switch (d->state) {
	case VB_AUTO_MORE:
		return 0;
	case VB_AUTO_PRECISE:
		snprintf(buf, n, "stopped after %llu runs: 95%% CI +-%.1f%% (--precision %g%%)",
			 (unsigned long long)d->n, d->ci_rel * 100, cfg->precision * 100);
		return 1;
	case VB_AUTO_CAPPED:
		snprintf(buf, n, "reached --max-runs %llu%s%s: this disk is not steady",
			 (unsigned long long)d->n, ci, why);
		return 1;
	case VB_AUTO_OUT_OF_TIME:
		snprintf(buf, n, "stopped by --max-time %g s after %llu runs%s%s, short of "
			 "--precision %g%%", cfg->max_time_secs, (unsigned long long)d->n, ci, why,
			 cfg->precision * 100);
		return 1;
	}
	return 0;
}
