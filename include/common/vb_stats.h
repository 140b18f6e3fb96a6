#ifndef VB_STATS_H
#define VB_STATS_H

#include <stdint.h>

/* Running mean and variance by Welford's method: one pass, no catastrophic cancellation. */
struct vb_welford {
	uint64_t n;
	double mean;
	double m2;     /* sum of squared deviations from the running mean */
	double min;
	double max;
};

/* Summary of a sample; stddev is the sample (n-1) deviation, 0 when n < 2. */
struct vb_summary {
	uint64_t n;
	double mean;
	double min;
	double max;
	double stddev;
	double cv;     /* stddev / mean, 0 when the mean is 0 or n < 2 */
};

/* Empties w; adds one observation; the summary of those added. */
void vb_welford_init(struct vb_welford *w);
void vb_welford_add(struct vb_welford *w, double x);
struct vb_summary vb_welford_summary(const struct vb_welford *w);

/* Summary of the n values in xs (n may be 0). */
struct vb_summary vb_summarize(const double *xs, uint64_t n);

/* Student's t with df > 0 degrees of freedom: the two-sided tail probability of t, and
 * the quantile q (0 < q < 1). */
double vb_student_t_p2(double t, double df);
double vb_student_t_quantile(double q, double df);

/* Welch's unequal-variance t-test of sample a against sample b. */
struct vb_welch {
	double t;          /* (mean_a - mean_b) / standard error */
	double df;         /* Welch-Satterthwaite degrees of freedom */
	double p;          /* two-sided p-value */
	double ratio;      /* mean_a / mean_b */
	double ratio_lo;   /* 95% interval of the ratio (Fieller, with Welch's df) */
	double ratio_hi;
	int valid;         /* 0 when a sample has n < 2, a mean <= 0, or both have no variance */
};

/* Compares a with b; both summaries need n >= 2 for a valid result. */
struct vb_welch vb_welch_test(const struct vb_summary *a, const struct vb_summary *b);

/* Least-squares slope of ys against 1..n with its 95% confidence interval. */
struct vb_trend {
	double slope;      /* change of y per step */
	double lo, hi;     /* 95% interval of the slope */
	int significant;   /* the interval excludes zero (needs n >= 3) */
};

/* Fits the trend of the n values in ys taken in order. */
struct vb_trend vb_trend_fit(const double *ys, uint64_t n);

#endif
