/* runs=auto: the decision after each run, over fake sequences of runs. The figures in
 * the comments are worked by hand: t(0.975, 2) = 4.303, t(0.975, 19) = 2.093. */
#include "vb_test.h"
#include <string.h>
#include "bench/vb_autoruns.h"

static struct vb_config cfg;
static double secs[64];

static int setup(void **state)
{
	(void)state;
	vb_config_defaults(&cfg);
	cfg.runs_auto = true;
	cfg.runs = VB_AUTO_MAX_RUNS;
	for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++)
		secs[i] = 1.0;
	return 0;
}

static enum vb_auto_state decide(const double *rates, uint64_t n)
{
	return vb_auto_decide(&cfg, rates, secs, n).state;
}

/* Fewer than three runs never stop, however close they are. */
static void test_at_least_three(void **state)
{
	const double same[] = {100, 100, 100};
	(void)state;
	assert_int_equal(decide(same, 1), VB_AUTO_MORE);
	assert_int_equal(decide(same, 2), VB_AUTO_MORE);
	assert_int_equal(decide(same, 3), VB_AUTO_PRECISE);
}

/* {100, 101, 99}: mean 100, sd 1, half-width 4.303 / sqrt 3 = 2.48% of the mean: within
 * 3%, not within 1%. The last run, 1.5 from the mean of the two before (sd 0.71), is
 * within 3 sd of them. */
static void test_steady_disk_stops_early(void **state)
{
	const double rates[] = {100e6, 101e6, 99e6};
	char text[200];
	(void)state;
	struct vb_auto_decision d = vb_auto_decide(&cfg, rates, secs, 3);
	assert_int_equal(d.state, VB_AUTO_PRECISE);
	assert_false(d.outlier);
	assert_true(d.ci_rel > 0.0247 && d.ci_rel < 0.0249);
	assert_int_equal(vb_auto_text(&d, &cfg, text, sizeof text), 1);
	assert_string_equal(text, "stopped after 3 runs: 95% CI +-2.5% (--precision 3%)");
	cfg.precision = 0.01;
	assert_int_equal(decide(rates, 3), VB_AUTO_MORE);
}

/* Runs alternating 10% above and below 100: the half-width after 20 runs is still
 * 2.093 x 10.26 / sqrt 20 = 4.8%, so the cap ends it, and says the disk is not steady. */
static void test_noisy_disk_hits_the_cap(void **state)
{
	double rates[20];
	char text[200];
	(void)state;
	for (int i = 0; i < 20; i++)
		rates[i] = i % 2 ? 90 : 110;
	for (uint64_t n = 1; n < 20; n++)
		assert_int_equal(decide(rates, n), VB_AUTO_MORE);
	struct vb_auto_decision d = vb_auto_decide(&cfg, rates, secs, 20);
	assert_int_equal(d.state, VB_AUTO_CAPPED);
	assert_int_equal(vb_auto_text(&d, &cfg, text, sizeof text), 1);
	assert_string_equal(text, "reached --max-runs 20 with 95% CI +-4.8%: this disk is not "
			    "steady");
	cfg.runs = 5;   /* --max-runs 5 */
	assert_int_equal(decide(rates, 5), VB_AUTO_CAPPED);
}

/* A run far outside the others asks for another even when the interval is narrow; the
 * next ordinary run ends it. */
static void test_outlier_asks_for_more(void **state)
{
	const double rates[] = {100, 100.1, 99.9, 100, 100.1, 99.9, 100, 100.1, 99.9, 100, 101,
				100};
	(void)state;
	assert_int_equal(decide(rates, 10), VB_AUTO_PRECISE);
	struct vb_auto_decision d = vb_auto_decide(&cfg, rates, secs, 11);
	assert_true(d.outlier);
	assert_true(d.ci_rel < 0.01);
	assert_int_equal(d.state, VB_AUTO_MORE);
	assert_int_equal(decide(rates, 12), VB_AUTO_PRECISE);
	/* at the cap, the outlier is named */
	char text[200];
	cfg.runs = 11;
	d = vb_auto_decide(&cfg, rates, secs, 11);
	assert_int_equal(d.state, VB_AUTO_CAPPED);
	vb_auto_text(&d, &cfg, text, sizeof text);
	assert_non_null(strstr(text, "the last run more than 3 standard deviations"));
}

/* With --max-time, no run starts that would end past the budget, judged by the average
 * run so far; the minimum of three runs comes first. */
static void test_time_budget(void **state)
{
	const double rates[] = {100, 80, 120, 90};
	char text[200];
	(void)state;
	cfg.max_time_secs = 10;
	secs[0] = secs[1] = secs[2] = 2;   /* 6 s spent, the next ends at 8 s */
	assert_int_equal(decide(rates, 3), VB_AUTO_MORE);
	secs[0] = secs[1] = secs[2] = 3;   /* 9 s spent, the next would end at 12 s */
	struct vb_auto_decision d = vb_auto_decide(&cfg, rates, secs, 3);
	assert_int_equal(d.state, VB_AUTO_OUT_OF_TIME);
	vb_auto_text(&d, &cfg, text, sizeof text);
	assert_true(strncmp(text, "stopped by --max-time 10 s after 3 runs with 95% CI +-", 54) == 0);
	secs[0] = secs[1] = 20;            /* over budget before three runs: still three */
	assert_int_equal(decide(rates, 2), VB_AUTO_MORE);
}

/* A mean of zero has no relative interval: never "precise", and the text says no CI. */
static void test_zero_rates(void **state)
{
	const double zeros[] = {0, 0, 0};
	char text[200];
	(void)state;
	cfg.runs = 3;
	struct vb_auto_decision d = vb_auto_decide(&cfg, zeros, secs, 3);
	assert_int_equal(d.state, VB_AUTO_CAPPED);
	vb_auto_text(&d, &cfg, text, sizeof text);
	assert_string_equal(text, "reached --max-runs 3: this disk is not steady");
	d.state = VB_AUTO_MORE;
	assert_int_equal(vb_auto_text(&d, &cfg, text, sizeof text), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_at_least_three, setup),
		cmocka_unit_test_setup(test_steady_disk_stops_early, setup),
		cmocka_unit_test_setup(test_noisy_disk_hits_the_cap, setup),
		cmocka_unit_test_setup(test_outlier_asks_for_more, setup),
		cmocka_unit_test_setup(test_time_budget, setup),
		cmocka_unit_test_setup(test_zero_rates, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
