/* Statistics: Welford summaries, Student's t, Welch's test and the drift slope, each
 * against values computed by hand (the comments show how). */
#include "vb_test.h"
#include <math.h>
#include "common/vb_stats.h"

#define NEAR(a, b, tol) do { double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (tol))) fail_msg("%s = %.12g, expected %.12g", #a, a_, b_); \
} while (0)

static void test_known_set(void **state)
{
	/* {2,4,4,4,5,5,7,9}: sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32;
	 * sample variance 32/7, stddev sqrt(32/7) = 2.138089935299395. */
	const double xs[] = {2, 4, 4, 4, 5, 5, 7, 9};
	(void)state;
	struct vb_summary s = vb_summarize(xs, 8);
	assert_int_equal(s.n, 8);
	NEAR(s.mean, 5.0, 1e-12);
	NEAR(s.min, 2.0, 0);
	NEAR(s.max, 9.0, 0);
	NEAR(s.stddev, 2.138089935299395, 1e-12);
	NEAR(s.cv, 2.138089935299395 / 5.0, 1e-12);
}

static void test_bytes_per_sec_set(void **state)
{
	/* The contract's example figures: four rates, mean (27082972 + 32581066 + 29895209
	 * + 30021587) / 4 = 29895208.5; deviations -2812236.5, 2685857.5, 0.5, 126378.5;
	 * the stddev is the square root of their squares' sum over n - 1 = 3. */
	const double xs[] = {27082972, 32581066, 29895209, 30021587};
	(void)state;
	struct vb_summary s = vb_summarize(xs, 4);
	NEAR(s.mean, 29895208.5, 1e-6);
	double ss = 2812236.5 * 2812236.5 + 2685857.5 * 2685857.5 + 0.25 + 126378.5 * 126378.5;
	NEAR(s.stddev, sqrt(ss / 3.0), 1e-6);
}

static void test_one_and_identical(void **state)
{
	const double one[] = {123456789};
	const double same[] = {7, 7, 7, 7};
	(void)state;
	struct vb_summary s = vb_summarize(one, 1);
	assert_int_equal(s.n, 1);
	NEAR(s.mean, 123456789, 0);
	NEAR(s.stddev, 0, 0);
	NEAR(s.cv, 0, 0);
	s = vb_summarize(same, 4);
	NEAR(s.mean, 7, 0);
	NEAR(s.stddev, 0, 0);
	s = vb_summarize(NULL, 0);
	assert_int_equal(s.n, 0);
}

static void test_large_values_keep_precision(void **state)
{
	/* Around 1e15 bytes/sec, the textbook sum-of-squares formula loses every digit of
	 * a stddev of 1; Welford keeps it. Values are exact in a double (below 2^53). */
	const double xs[] = {1e15 + 1, 1e15 + 2, 1e15 + 3};
	(void)state;
	struct vb_summary s = vb_summarize(xs, 3);
	NEAR(s.mean, 1e15 + 2, 0);
	NEAR(s.stddev, 1.0, 1e-9);
}

static void test_welford_incremental_matches(void **state)
{
	struct vb_welford w;
	const double xs[] = {3.5, 1.25, 9.0, 4.75};
	(void)state;
	vb_welford_init(&w);
	for (int i = 0; i < 4; i++)
		vb_welford_add(&w, xs[i]);
	struct vb_summary a = vb_welford_summary(&w), b = vb_summarize(xs, 4);
	NEAR(a.mean, b.mean, 0);
	NEAR(a.stddev, b.stddev, 0);
	NEAR(a.mean, 4.625, 1e-12);
}

static void test_student_t(void **state)
{
	(void)state;
	/* Two-sided tails checked by numerically integrating the t density (Python, 2e5
	 * midpoint steps): t=1, df=3 -> 0.3910022190; t=6.1237244, df=4 -> 0.0036022326. */
	NEAR(vb_student_t_p2(1.0, 3), 0.3910022190, 1e-8);
	NEAR(vb_student_t_p2(6.123724356957945, 4), 0.0036022326, 1e-8);
	NEAR(vb_student_t_p2(0, 7), 1.0, 1e-12);
	/* Printed tables: t(0.975, df) = 12.7062 (1), 2.7764 (4), 2.2281 (10), 1.9600 (inf). */
	NEAR(vb_student_t_quantile(0.975, 1), 12.7062, 1e-4);
	NEAR(vb_student_t_quantile(0.975, 4), 2.7764, 1e-4);
	NEAR(vb_student_t_quantile(0.975, 10), 2.2281, 1e-4);
	NEAR(vb_student_t_quantile(0.975, 1e7), 1.9600, 1e-4);
	NEAR(vb_student_t_quantile(0.025, 10), -2.2281, 1e-4);
	NEAR(vb_student_t_p2(2.228138851986, 10), 0.05, 1e-9);
}

static void test_welch(void **state)
{
	/* a = {10,12,14}, b = {20,22,24}: variances 4 and 4, se = sqrt(4/3 + 4/3) = 1.632993;
	 * t = -10 / 1.632993 = -6.1237244; df = (8/3)^2 / ((4/3)^2/2 * 2) = 4; p from the
	 * integration above, 0.0036022. */
	const double a[] = {10, 12, 14}, b[] = {20, 22, 24};
	(void)state;
	struct vb_summary sa = vb_summarize(a, 3), sb = vb_summarize(b, 3);
	struct vb_welch w = vb_welch_test(&sa, &sb);
	assert_true(w.valid);
	NEAR(w.t, -6.123724356957945, 1e-9);
	NEAR(w.df, 4.0, 1e-9);
	NEAR(w.p, 0.0036022326, 1e-8);
	NEAR(w.ratio, 12.0 / 22.0, 1e-12);
	/* Fieller's interval with t(0.975, 4) = 2.776445: the roots of
	 * (22^2 - t^2 (4/3)) r^2 - 2 (12)(22) r + (12^2 - t^2 (4/3)) = 0, computed with
	 * mpmath at 40 digits: [0.38908695, 0.72549126]. */
	NEAR(w.ratio_lo, 0.38908695, 1e-7);
	NEAR(w.ratio_hi, 0.72549126, 1e-7);
	assert_true(w.ratio_lo < w.ratio && w.ratio < w.ratio_hi);
	assert_true(w.ratio_hi < 1.0);
}

static void test_welch_needs_two_runs(void **state)
{
	const double a[] = {10}, b[] = {20, 22, 24};
	(void)state;
	struct vb_summary sa = vb_summarize(a, 1), sb = vb_summarize(b, 3);
	struct vb_welch w = vb_welch_test(&sa, &sb);
	assert_false(w.valid);
	NEAR(w.ratio, 10.0 / 22.0, 1e-12);
}

static void test_trend(void **state)
{
	const double flat[] = {100, 100, 100, 100, 100};
	const double noisy_flat[] = {100, 102, 98, 101, 99};
	const double falling[] = {100, 90, 80, 70, 60};
	const double falling_noisy[] = {100, 93, 85, 76, 69};
	(void)state;
	struct vb_trend t = vb_trend_fit(flat, 5);
	NEAR(t.slope, 0, 1e-12);
	assert_false(t.significant);
	t = vb_trend_fit(noisy_flat, 5);
	assert_false(t.significant);
	/* Slope by hand: x = 1..5, xbar 3, Sxx = 10; Sxy = -2*100+... = -100 -> -10. */
	t = vb_trend_fit(falling, 5);
	NEAR(t.slope, -10.0, 1e-12);
	assert_true(t.significant);
	/* Sxy = (-2)(100)+(-1)(93)+0+(1)(76)+(2)(69) - 0 = -79 -> slope -7.9. */
	t = vb_trend_fit(falling_noisy, 5);
	NEAR(t.slope, -7.9, 1e-12);
	assert_true(t.significant);
	assert_true(t.hi < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_set),
		cmocka_unit_test(test_bytes_per_sec_set),
		cmocka_unit_test(test_one_and_identical),
		cmocka_unit_test(test_large_values_keep_precision),
		cmocka_unit_test(test_welford_incremental_matches),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_needs_two_runs),
		cmocka_unit_test(test_trend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
