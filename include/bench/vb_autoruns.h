#ifndef VB_AUTORUNS_H
#define VB_AUTORUNS_H

/* runs=auto: at least VB_AUTO_MIN_RUNS runs, then more while the mean's 95% CI is wider
 * than the precision or the latest run is an outlier; never past max_runs or the time
 * budget. Pure: asked after every run, and again by the summary. */

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

/* Decides after n measured runs with these rates (bytes/sec) and durations. */
struct vb_auto_decision vb_auto_decide(const struct vb_config *cfg, const double *rates,
				       const double *secs, uint64_t n);

/* Why the runs stopped ("stopped after 9 runs: 95% CI +-2.7%") into buf; 0 (buf
 * untouched) when d says more were needed (they ended for another reason). */
int vb_auto_text(const struct vb_auto_decision *d, const struct vb_config *cfg, char *buf,
		 size_t n);

#endif
