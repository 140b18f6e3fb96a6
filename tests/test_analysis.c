/* Drift and instability detection, and the page-cache warning. */
#include "vb_test.h"
#include <stdlib.h>
#include <string.h>
#include "bench/vb_analysis.h"

/* Analyses five one-second runs with the given rates (default configuration). */
static void analyze_rates(const double *rates, struct vb_run_analysis *a)
{
	struct vb_run runs[5];
	struct vb_config cfg;

	vb_config_defaults(&cfg);
	memset(runs, 0, sizeof runs);
	for (int i = 0; i < 5; i++) {
		runs[i].run = (uint64_t)i + 1;
		runs[i].bytes = 1000000;
		runs[i].secs = 1;
		runs[i].bytes_per_sec = (uint64_t)rates[i];
	}
	assert_int_equal(vb_analyze(&cfg, runs, 5, NULL, 0, a), 0);
}

/* An allocator that fails from its fail_from-th call (counting from 1) on. */
static int alloc_calls, fail_from;

static void *failing_calloc(size_t n, size_t size)
{
	return ++alloc_calls >= fail_from ? NULL : calloc(n, size);
}

/* Without memory for the rates or the knees the analysis fails whole: it never gives a
 * summary with the trend or the knee quietly left out. */
static void test_no_memory_fails_the_analysis(void **state)
{
	const double rates[] = {100e6, 92e6, 85e6, 77e6, 69e6};
	struct vb_run runs[5];
	struct vb_config cfg;
	struct vb_run_analysis a;
	(void)state;
	vb_config_defaults(&cfg);
	memset(runs, 0, sizeof runs);
	for (int i = 0; i < 5; i++) {
		runs[i].run = (uint64_t)i + 1;
		runs[i].bytes = 1000000;
		runs[i].secs = 1;
		runs[i].bytes_per_sec = (uint64_t)rates[i];
	}
	for (fail_from = 1; fail_from <= 2; fail_from++) {
		alloc_calls = 0;
		vb_analysis_set_calloc(failing_calloc);
		int rc = vb_analyze(&cfg, runs, 5, NULL, 0, &a);
		vb_analysis_set_calloc(NULL);
		assert_int_equal(rc, -1);
		assert_int_equal(a.completed, 0);
		assert_false(a.drifting);
	}
	alloc_calls = 0;
	fail_from = 3;   /* both allocations succeed */
	vb_analysis_set_calloc(failing_calloc);
	assert_int_equal(vb_analyze(&cfg, runs, 5, NULL, 0, &a), 0);
	vb_analysis_set_calloc(NULL);
	assert_int_equal(a.completed, 5);
	assert_true(a.drifting);
}

static void test_flat_series_says_nothing(void **state)
{
	const double rates[] = {100e6, 101e6, 99e6, 100.5e6, 99.5e6};
	struct vb_run_analysis a;
	char text[256];
	(void)state;
	analyze_rates(rates, &a);
	assert_false(a.drifting);
	assert_false(a.unstable);
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 0);
}

static void test_falling_series_flagged(void **state)
{
	/* Falls about 31% along a fitted line: 100, 92, 85, 77, 69 (slope -7.8 per run,
	 * fitted first 100.0 and last 68.8: -31.2%). */
	const double rates[] = {100e6, 92e6, 85e6, 77e6, 69e6};
	struct vb_run_analysis a;
	char text[256];
	(void)state;
	analyze_rates(rates, &a);
	assert_true(a.drifting);
	assert_true(a.unstable); /* cv is about 14% too */
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 1);
	assert_non_null(strstr(text, "throughput fell 31% from run 1 to run 5"));
	assert_non_null(strstr(text, "results are not stable"));
}

/* Many runs make a tiny slope significant: a fall of 0.02% over 100000 runs is not
 * reported as "throughput fell 0%". */
static void test_trend_that_rounds_to_zero_is_no_fall(void **state)
{
	const uint64_t n = 100000;
	struct vb_run *runs = calloc(n, sizeof *runs);
	struct vb_config cfg;
	struct vb_run_analysis a;
	char text[256];
	(void)state;
	assert_non_null(runs);
	vb_config_defaults(&cfg);
	for (uint64_t i = 0; i < n; i++) {
		runs[i].run = i + 1;
		runs[i].bytes = 1000000;
		runs[i].secs = 1;
		/* a steady fall of 20000 bytes/sec in all, with a little noise */
		runs[i].bytes_per_sec = 100000000 - i / 5 + (i % 3) * 10;
	}
	assert_int_equal(vb_analyze(&cfg, runs, n, NULL, 0, &a), 0);
	assert_true(a.trend.significant);   /* the case: sure, but tiny */
	assert_true(a.change_pct < 0 && a.change_pct > -0.5);
	assert_false(a.drifting);
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 0);
	/* ten times steeper, 0.2%, still rounds to 0% */
	for (uint64_t i = 0; i < n; i++)
		runs[i].bytes_per_sec = 100000000 - 2 * i + (i % 3) * 10;
	assert_int_equal(vb_analyze(&cfg, runs, n, NULL, 0, &a), 0);
	assert_false(a.drifting);
	/* 1% is said */
	for (uint64_t i = 0; i < n; i++)
		runs[i].bytes_per_sec = 100000000 - 10 * i + (i % 3) * 10;
	assert_int_equal(vb_analyze(&cfg, runs, n, NULL, 0, &a), 0);
	assert_true(a.drifting);
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 1);
	assert_non_null(strstr(text, "throughput fell 1% from run 1 to run 100000"));
	free(runs);
}

static void test_noisy_but_flat_is_unstable_only(void **state)
{
	const double rates[] = {100e6, 140e6, 90e6, 135e6, 95e6};
	struct vb_run_analysis a;
	char text[256];
	(void)state;
	analyze_rates(rates, &a);
	assert_false(a.drifting);
	assert_true(a.unstable);
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 1);
	assert_null(strstr(text, "fell"));
	assert_non_null(strstr(text, "coefficient of variation above 10%"));
}

/* Issue 37: "runs vary by N%" says what to do: runs=auto, or a run four times larger
 * (given as --size, a multiple of bs); with runs=auto already, only the larger run. */
static void test_varying_runs_say_what_to_do(void **state)
{
	const double rates[] = {100e6, 140e6, 90e6, 135e6, 95e6};
	struct vb_run_analysis a;
	char text[512];
	(void)state;
	analyze_rates(rates, &a);
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 1);
	assert_non_null(strstr(text, "runs vary by "));
	assert_non_null(strstr(text, "; for a mean to rely on, use runs=auto, or a larger run "
				     "(--size 4000M)"));
	a.runs_auto = 1;
	assert_int_equal(vb_analysis_stability_text(&a, text, sizeof text), 1);
	assert_null(strstr(text, "runs=auto"));
	assert_non_null(strstr(text, "; for a mean to rely on, a larger run (--size 4000M)"));
}

/* Issue 37: a file system in memory gets a note, with --direct too (it is not about the
 * page cache: there is no disk at all). */
static void test_memory_fs_note(void **state)
{
	char text[256];
	(void)state;
	assert_int_equal(vb_analysis_memory_fs_text("ext4", false, text, sizeof text), 0);
	assert_int_equal(vb_analysis_memory_fs_text("tmpfs", true, text, sizeof text), 1);
	assert_string_equal(text, "tmpfs keeps its files in memory: these figures are of RAM, "
			    "not of a disk, with --direct too");
}

static void test_page_cache_warning(void **state)
{
	struct vb_config cfg;
	struct vb_run_analysis a;
	char text[512];
	(void)state;
	vb_config_defaults(&cfg);
	vb_analyze(&cfg, NULL, 0, NULL, 1ULL << 30, &a);
	assert_int_equal(vb_analysis_cache_text(&a, &cfg, 1ULL << 30, text, sizeof text), 0);
	cfg.sync = VB_SYNC_NONE;
	vb_analyze(&cfg, NULL, 0, NULL, 1ULL << 30, &a);
	assert_int_equal(vb_analysis_cache_text(&a, &cfg, 1ULL << 30, text, sizeof text), 1);
	assert_non_null(strstr(text, "less than twice"));
	cfg.direct = true;
	vb_analyze(&cfg, NULL, 0, NULL, 1ULL << 30, &a);
	assert_int_equal(vb_analysis_cache_text(&a, &cfg, 1ULL << 30, text, sizeof text), 0);
}

/* A guest that gives freed memory back to its host: a buffered invocation is warned,
 * with the way out; --direct does not use the page cache, and a host that keeps it says
 * nothing. */
static void test_host_memory_warning(void **state)
{
	struct vb_config cfg;
	char text[1024];

	(void)state;
	vb_config_defaults(&cfg);
	assert_int_equal(vb_analysis_host_memory_text(&cfg, false, text, sizeof text), 0);
	assert_int_equal(vb_analysis_host_memory_text(&cfg, true, text, sizeof text), 1);
	/* Issue 37: one plain sentence, on one line, saying what happens and what to do;
	 * the detail (how to pause the reporting) is in the man page. */
	assert_string_equal(text, "free page reporting is on: this guest hands the memory it "
			    "frees back to its host, so a buffered run can be slowed waiting for "
			    "memory; use --direct (see vbench(1), DIAGNOSTICS)");
	cfg.sync = VB_SYNC_NONE;
	assert_int_equal(vb_analysis_host_memory_text(&cfg, true, text, sizeof text), 1);
	cfg.direct = true;
	assert_int_equal(vb_analysis_host_memory_text(&cfg, true, text, sizeof text), 0);
}

/* A loop device without direct I/O is named, with the fix; none, nothing said. */
static void test_loop_warning(void **state)
{
	char text[512];

	(void)state;
	assert_int_equal(vb_analysis_loop_text("", text, sizeof text), 0);
	assert_int_equal(vb_analysis_loop_text("loop3", text, sizeof text), 1);
	assert_true(strncmp(text, "loop3 has no direct I/O on its backing file", 43) == 0);
	assert_non_null(strstr(text, "losetup --direct-io=on"));
}

/* The warning for a label naming another file system names both, and where. */
static void test_label_fs_warning(void **state)
{
	struct vb_env e;
	char text[1024];

	(void)state;
	memset(&e, 0, sizeof e);
	strcpy(e.fs, "ext4");
	strcpy(e.device, "vda");
	strcpy(e.mount, "/");
	assert_int_equal(vb_analysis_label_fs_text("ext4-virtio_blk", &e, "mnt/x", text,
						   sizeof text), 0);
	assert_int_equal(vb_analysis_label_fs_text("xfs", &e, "mnt/xfs", text, sizeof text), 1);
	assert_string_equal(text, "the label names xfs, but mnt/xfs is on ext4 (vda, mounted on "
			    "/): these runs measure that, not xfs (a mount that failed leaves an "
			    "empty directory on the disk under it)");
	strcpy(e.fs, "unknown");
	assert_int_equal(vb_analysis_label_fs_text("xfs", &e, "mnt/\nxfs", text, sizeof text), 1);
	assert_string_equal(text, "the label names xfs, but the file system of mnt/\\x0axfs "
			    "cannot be told: nothing confirms these runs measure xfs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_series_says_nothing),
		cmocka_unit_test(test_falling_series_flagged),
		cmocka_unit_test(test_trend_that_rounds_to_zero_is_no_fall),
		cmocka_unit_test(test_noisy_but_flat_is_unstable_only),
		cmocka_unit_test(test_varying_runs_say_what_to_do),
		cmocka_unit_test(test_memory_fs_note),
		cmocka_unit_test(test_page_cache_warning),
		cmocka_unit_test(test_loop_warning),
		cmocka_unit_test(test_label_fs_warning),
		cmocka_unit_test(test_host_memory_warning),
		cmocka_unit_test(test_no_memory_fails_the_analysis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
