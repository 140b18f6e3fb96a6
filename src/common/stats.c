#define _XOPEN_SOURCE 700   /* lgamma and log1p: NetBSD's math.h shows them only to X/Open */
#include <math.h>

#include "common/vb_stats.h"

void vb_welford_init(struct vb_welford *w)
{
	*w = (struct vb_welford){0};
}

void vb_welford_add(struct vb_welford *w, double x)
{
	w->n++;
	double delta = x - w->mean;
	w->mean += delta / (double)w->n;
	w->m2 += delta * (x - w->mean);
	if (w->n == 1 || x < w->min)
		w->min = x;
	if (w->n == 1 || x > w->max)
		w->max = x;
}

struct vb_summary vb_welford_summary(const struct vb_welford *w)
{
	struct vb_summary s = {w->n, w->mean, w->min, w->max, 0, 0};
	if (w->n >= 2) {
		s.stddev = sqrt(w->m2 / (double)(w->n - 1));
		if (s.mean != 0)
			s.cv = s.stddev / s.mean;
	}
	return s;
}

struct vb_summary vb_summarize(const double *xs, uint64_t n)
{
	struct vb_welford w;
	vb_welford_init(&w);
	for (uint64_t i = 0; i < n; i++)
		vb_welford_add(&w, xs[i]);
	return vb_welford_summary(&w);
}

/* pi, which C11 does not name. */
#define M_PI_VALUE 3.14159265358979323846

/* Continued fraction of the regularized incomplete beta function (modified Lentz);
 * converges quickly for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	double h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1.0) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * beta_cf(b, a, 1.0 - x) / b;
}

double vb_student_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return inc_beta(df / 2.0, 0.5, df / (df + t * t));
}

double vb_student_t_quantile(double q, double df)
{
	if (!(q > 0 && q < 1) || !(df > 0))
		return NAN;
	if (q == 0.5)
		return 0;
	double tail = q > 0.5 ? 2.0 * (1.0 - q) : 2.0 * q; /* two-sided tail wanted */
	double lo = 0, hi = 1;
	while (vb_student_t_p2(hi, df) > tail && hi < 1e12) {
		lo = hi;
		hi *= 2;
	}
	/* Newton's method on p2(t) - tail (slope -2 density(t)), bisecting when a step
	 * would leave [lo, hi]: a few evaluations instead of a bisection's hundred. The
	 * density of t is exp(lc - (df + 1) / 2 * log1p(t * t / df)). */
	double lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI_VALUE);
	double t = 0.5 * (lo + hi);
	for (int i = 0; i < 200; i++) {
		double f = vb_student_t_p2(t, df) - tail;
		if (f == 0)
			break;
		if (f > 0)
			lo = t;   /* the tail is still too big: t lies further out */
		else
			hi = t;
		double d = exp(lc - (df + 1) / 2 * log1p(t * t / df));
		double next = d > 0 ? t + f / (2.0 * d) : 0.5 * (lo + hi);
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - t) <= 1e-15 * fabs(t) || hi - lo <= 1e-15 * hi) {
			t = next;
			break;
		}
		t = next;
	}
	return q > 0.5 ? t : -t;
}

struct vb_welch vb_welch_test(const struct vb_summary *a, const struct vb_summary *b)
{
	struct vb_welch w = {NAN, NAN, NAN, NAN, NAN, NAN, 0};
	if (a->n >= 1 && b->n >= 1 && b->mean != 0)
		w.ratio = a->mean / b->mean;
	if (a->n < 2 || b->n < 2 || !(a->mean > 0) || !(b->mean > 0))
		return w;
	double va = a->stddev * a->stddev / (double)a->n;
	double vb = b->stddev * b->stddev / (double)b->n;
	if (va + vb <= 0)
		return w;
	w.t = (a->mean - b->mean) / sqrt(va + vb);
	w.df = (va + vb) * (va + vb) /
	       (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w.p = vb_student_t_p2(w.t, w.df);
	/* Fieller's interval, with Welch's df: it excludes 1 exactly when the t-test is
	 * significant, so the interval and the verdict never disagree. */
	double tq = vb_student_t_quantile(0.975, w.df);
	double qa = b->mean * b->mean - tq * tq * vb;
	double qb = -2.0 * a->mean * b->mean;
	double qc = a->mean * a->mean - tq * tq * va;
	double disc = qb * qb - 4.0 * qa * qc;
	if (qa > 0 && disc >= 0) {
		w.ratio_lo = (-qb - sqrt(disc)) / (2.0 * qa);
		w.ratio_hi = (-qb + sqrt(disc)) / (2.0 * qa);
	} else {
		/* The baseline's mean is not distinguishable from 0: no upper bound. */
		w.ratio_lo = 0;
		w.ratio_hi = INFINITY;
	}
	w.valid = 1;
	return w;
}

struct vb_trend vb_trend_fit(const double *ys, uint64_t n)
{
	struct vb_trend tr = {0, 0, 0, 0};
	if (n < 2)
		return tr;
	double xbar = ((double)n + 1.0) / 2.0, ybar = 0;
	for (uint64_t i = 0; i < n; i++)
		ybar += ys[i];
	ybar /= (double)n;
	double sxx = 0, sxy = 0;
	for (uint64_t i = 0; i < n; i++) {
		double dx = (double)(i + 1) - xbar;
		sxx += dx * dx;
		sxy += dx * (ys[i] - ybar);
	}
	tr.slope = sxy / sxx;
	tr.lo = tr.hi = tr.slope;
	if (n < 3)
		return tr;
	double sse = 0;
	for (uint64_t i = 0; i < n; i++) {
		double fit = ybar + tr.slope * ((double)(i + 1) - xbar);
		sse += (ys[i] - fit) * (ys[i] - fit);
	}
	double se = sqrt(sse / (double)(n - 2) / sxx);
	double tq = vb_student_t_quantile(0.975, (double)(n - 2));
	tr.lo = tr.slope - tq * se;
	tr.hi = tr.slope + tq * se;
	tr.significant = (tr.lo > 0 || tr.hi < 0);
	return tr;
}
