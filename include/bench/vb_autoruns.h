#ifndef VB_AUTORUNS_H
#define VB_AUTORUNS_H

/* runs=auto: whether another measured run is needed. At least VB_AUTO_MIN_RUNS runs;
 * then more while the 95% confidence interval of the mean (Student's t) is wider than
 * the precision asked for, or while the latest run lies more than 3 standard deviations
 * from the mean of the runs before it; never more than max_runs, and no run that would
 * end past the time budget. Pure: the engine asks it after every run, and the summary
 * asks it again to say why the runs stopped. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Standard deviations beyond which the latest run is taken for an outlier. */
#define VB_AUTO_OUTLIER_SD 3.0

enum vb_auto_state {
	VB_AUTO_MORE,       /* another run is needed */
	VB_AUTO_PRECISE,    /* the mean is known within the precision */
	VB_AUTO_CAPPED,     /* max_runs reached before that */
	VB_AUTO_OUT_OF_TIME /* the next run would end past the time budget */
};

struct vb_auto_decision {
	enum vb_auto_state state;
	uint64_t n;         /* runs decided on */
	double ci_rel;      /* half-width of the mean's 95% CI over the mean; -1 if unknown */
	bool outlier;       /* the latest run is more than 3 SD from the runs before it */
};

/* Decides after the n measured runs with rates (bytes/sec) and durations secs, under
 * cfg's precision, cfg->runs (the cap) and cfg->max_time_secs. */
struct vb_auto_decision vb_auto_decide(const struct vb_config *cfg, const double *rates,
				       const double *secs, uint64_t n);

/* Says why the runs stopped ("stopped after 9 runs: 95% CI +-2.7%") into buf; returns 0
 * (buf untouched) while d says more runs were needed, which is the case when the runs
 * ended for another reason (an error, a signal). */
int vb_auto_text(const struct vb_auto_decision *d, const struct vb_config *cfg, char *buf,
		 size_t n);

#endif
