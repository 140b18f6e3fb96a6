/* The knee detector over synthetic traces: what a cache that runs out looks like, and
 * what must not be taken for one (noise, a slow drift, a short spike). */
#include "vb_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/vb_knee.h"
#include "common/vb_result.h"

#define N 60
#define STEP 0.5

static struct vb_interval iv[N];

/* A reproducible noise in [-1, 1]. */
static double noise(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (double)((*s >> 8) % 20001) / 10000.0 - 1.0;
}

/* Fills n samples of STEP seconds at rate(i) bytes/sec. */
static void trace(size_t n, double (*rate)(size_t i, unsigned *s))
{
	unsigned s = 42;
	for (size_t i = 0; i < n; i++) {
		iv[i].start_secs = (double)i * STEP;
		iv[i].secs = STEP;
		iv[i].bytes = (uint64_t)(rate(i, &s) * STEP);
	}
}

static double steady(size_t i, unsigned *s)
{
	(void)i;
	return 300e6 * (1 + 0.15 * noise(s));
}

/* 2 GB/s for the first 12 samples (12 GB... of a 6 s burst), then 300 MB/s. */
static double step(size_t i, unsigned *s)
{
	return (i < 12 ? 2000e6 : 300e6) * (1 + 0.10 * noise(s));
}

/* Falls steadily to a third of its start over the run: no level, no knee. */
static double drift(size_t i, unsigned *s)
{
	return (900e6 - 600e6 * (double)i / (N - 1)) * (1 + 0.05 * noise(s));
}

/* Steady, with one sample five times faster in the middle and one at the start. */
static double spike(size_t i, unsigned *s)
{
	return (i == 30 || i == 0 ? 1500e6 : 300e6) * (1 + 0.05 * noise(s));
}

/* A dip that recovers: slow for a while, then as fast as before. */
static double dip(size_t i, unsigned *s)
{
	return (i >= 20 && i < 35 ? 100e6 : 400e6) * (1 + 0.05 * noise(s));
}

static void test_steady_noise_has_no_knee(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(N, steady);
	vb_knee_find(iv, N, &k);
	assert_true(k.checked);
	assert_false(k.found);
}

static void test_step_is_a_knee(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(N, step);
	vb_knee_find(iv, N, &k);
	assert_true(k.found);
	assert_true(fabs(k.at_secs - 12 * STEP) < 1e-9);
	assert_true(k.burst_bytes_per_sec > 1800e6 && k.burst_bytes_per_sec < 2200e6);
	assert_true(k.sustained_bytes_per_sec > 280e6 && k.sustained_bytes_per_sec < 320e6);
	uint64_t before = 0;
	for (size_t i = 0; i < 12; i++)
		before += iv[i].bytes;
	assert_int_equal(k.at_bytes, before);
}

static void test_slow_drift_has_no_knee(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(N, drift);
	vb_knee_find(iv, N, &k);
	assert_true(k.checked);
	assert_false(k.found);
}

static void test_short_spike_has_no_knee(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(N, spike);
	vb_knee_find(iv, N, &k);
	assert_false(k.found);
}

static void test_dip_that_recovers_has_no_knee(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(N, dip);
	vb_knee_find(iv, N, &k);
	assert_false(k.found);
}

/* Too short a run is not looked at; the ragged last sample does not make a knee. */
static void test_few_samples_and_ragged_end(void **state)
{
	struct vb_knee k;
	(void)state;
	trace(VB_KNEE_MIN_SAMPLES - 1, step);
	vb_knee_find(iv, VB_KNEE_MIN_SAMPLES - 1, &k);
	assert_false(k.checked);
	trace(N, steady);
	iv[N - 1].secs = 0.001;
	iv[N - 1].bytes = 10;   /* 10 kB/s over a millisecond */
	vb_knee_find(iv, N, &k);
	assert_true(k.checked);
	assert_false(k.found);
}

/* A burst just under the least drop is no knee; the same burst higher is one. */
static void test_drop_must_be_large(void **state)
{
	struct vb_knee k;
	(void)state;
	for (size_t i = 0; i < N; i++) {
		iv[i].start_secs = (double)i * STEP;
		iv[i].secs = STEP;
		iv[i].bytes = (uint64_t)((i < 20 ? 140e6 : 100e6) * STEP);
	}
	vb_knee_find(iv, N, &k);
	assert_false(k.found);
	for (size_t i = 0; i < 20; i++)
		iv[i].bytes = (uint64_t)(160e6 * STEP);
	vb_knee_find(iv, N, &k);
	assert_true(k.found);
}

/* A slow disk with large writes: the slow part's samples each span one long write, far
 * longer than the interval, the fast part's are the interval. Both count. */
static void test_samples_of_unequal_length(void **state)
{
	struct vb_knee k;
	double t = 0;
	uint64_t fast = 0;
	(void)state;
	for (size_t i = 0; i < 44; i++) {
		double secs = i < 5 ? 0.1 : 0.25;
		double rate = i < 5 ? 32e6 : 4e6;
		iv[i].start_secs = t;
		iv[i].secs = secs;
		iv[i].bytes = (uint64_t)(rate * secs);
		if (i < 5)
			fast += iv[i].bytes;
		t += secs;
	}
	vb_knee_find(iv, 44, &k);
	assert_true(k.found);
	assert_int_equal(k.at_bytes, fast);
}

static void test_summary_and_text(void **state)
{
	struct vb_knee_acc a;
	struct vb_knee k;
	char text[512];
	(void)state;
	memset(&a, 0, sizeof a);
	trace(N, step);
	vb_knee_find(iv, N, &k);
	vb_knee_add(&a, &k);
	trace(N, steady);
	vb_knee_find(iv, N, &k);
	vb_knee_add(&a, &k);
	vb_knee_summary_end(&a);
	assert_int_equal(a.s.checked, 2);
	assert_int_equal(a.s.found, 1);
	assert_int_equal(vb_knee_text(&a.s, 0, text, sizeof text), 1);
	assert_non_null(strstr(text, "burst 2."));
	assert_non_null(strstr(text, "GB/s for the first "));
	assert_non_null(strstr(text, "MB/s sustained (in 1 of 2 runs)"));
	/* twice the 12 samples of 1 GB at 2 GB/s, 12 GB (11.2 GiB): 23 GiB */
	assert_non_null(strstr(text, "such as --size 23g"));
	assert_non_null(strstr(text, "a cache or burst allowance of about "));
	memset(&a, 0, sizeof a);
	assert_int_equal(vb_knee_text(&a.s, 0, text, sizeof text), 0);
}

/* The ragged end counts for nothing even when it is fast: four samples at the burst
 * rate, four at the sustained one, then a short last one at the burst rate again (the
 * writes that ended the run went fast). Counted as a sample, it would put a burst-rate
 * sample among the slow ones, and the two parts would overlap. */
static void test_fast_short_last_sample_after_the_drop(void **state)
{
	struct vb_knee k;
	(void)state;
	for (size_t i = 0; i < 9; i++) {
		iv[i].start_secs = (double)i * STEP;
		iv[i].secs = i < 8 ? STEP : STEP / 10;
		iv[i].bytes = (uint64_t)((i < 4 || i == 8 ? 2000e6 : 300e6) * iv[i].secs);
	}
	vb_knee_find(iv, 9, &k);
	assert_true(k.checked);
	assert_true(k.found);
	assert_true(k.sustained_bytes_per_sec > 299e6 && k.sustained_bytes_per_sec < 301e6);
	assert_int_equal(k.at_bytes, 4 * (uint64_t)(2000e6 * STEP));
}

/* Recorded (attack F5 on issue 33): vbench --force --direct -s 510M -r 1 --trace on a
 * direct-io loop device over a qemu-storage-daemon FUSE export of an nbdkit memory disk
 * behind --filter=rate rate=800M, whose burst allowance took 262 MB, half the run, in
 * the first 0.5 s sample; and the same made again on this machine, the allowance spent
 * over two samples. Both are a burst, found in six usable samples. */
static void test_recorded_burst_allowance(void **state)
{
	static const double a[7][2] = {{0.502174, 262144000}, {0.500034, 52428800},
		{0.500002, 52428800}, {0.500117, 52428800}, {0.500376, 52428800},
		{0.500055, 52428800}, {0.100098, 10485760}};
	static const double b[7][2] = {{0.502319, 199229440}, {0.501319, 115343360},
		{0.500008, 52428800}, {0.523786, 53477376}, {0.501314, 53477376},
		{0.504833, 53477376}, {0.069896, 7340032}};
	const double (*tr[2])[2] = {a, b};
	struct vb_knee k;
	(void)state;
	for (size_t t = 0; t < 2; t++) {
		double start = 0;
		for (size_t i = 0; i < 7; i++) {
			iv[i].start_secs = start;
			iv[i].secs = tr[t][i][0];
			iv[i].bytes = (uint64_t)tr[t][i][1];
			start += iv[i].secs;
		}
		vb_knee_find(iv, 7, &k);
		assert_true(k.checked);
		assert_true(k.found);
		assert_true(k.burst_bytes_per_sec > 1.5 * k.sustained_bytes_per_sec);
	}
	/* The second splits after its first sample, which holds a third of its bytes: the
	 * rest of the allowance counts as sustained. */
	assert_int_equal(k.at_bytes, 199229440);
	assert_true(k.sustained_bytes_per_sec > 100e6 && k.sustained_bytes_per_sec < 140e6);
	/* The first: the allowance, and the throttle's rate after it. */
	for (size_t i = 0; i < 7; i++) {
		iv[i].secs = a[i][0];
		iv[i].bytes = (uint64_t)a[i][1];
	}
	vb_knee_find(iv, 7, &k);
	assert_int_equal(k.at_bytes, 262144000);
	assert_true(k.burst_bytes_per_sec > 520e6 && k.burst_bytes_per_sec < 524e6);
	assert_true(k.sustained_bytes_per_sec > 104e6 && k.sustained_bytes_per_sec < 105e6);
	/* A first sample with less than a third of the bytes is still a spike, and a short
	 * steady run has no knee. */
	for (size_t i = 0; i < 7; i++) {
		iv[i].start_secs = (double)i * STEP;
		iv[i].secs = STEP;
		iv[i].bytes = (uint64_t)((i == 0 ? 290e6 : 100e6) * STEP);
	}
	vb_knee_find(iv, 7, &k);
	assert_true(k.checked);
	assert_false(k.found);
	trace(6, steady);
	vb_knee_find(iv, 6, &k);
	assert_true(k.checked);
	assert_false(k.found);
}

/* The --size suggested fits the target: twice a 131 MiB burst does not fit a 256 MiB
 * disk, so all of it is suggested; a disk hardly larger than the burst gets none. */
static void test_suggested_size_fits(void **state)
{
	struct vb_knee_summary s;
	char text[1024];
	(void)state;
	memset(&s, 0, sizeof s);
	s.checked = s.found = 1;
	s.burst_bytes_per_sec = 2e9;
	s.sustained_bytes_per_sec = 3e8;
	s.at_bytes = 131.0 * 1048576;
	assert_int_equal(vb_knee_text(&s, 0, text, sizeof text), 1);
	assert_non_null(strstr(text, "such as --size 262m"));
	assert_int_equal(vb_knee_text(&s, 256ULL << 20, text, sizeof text), 1);
	assert_non_null(strstr(text, "such as --size 256m"));
	assert_null(strstr(text, "262m"));
	assert_int_equal(vb_knee_text(&s, (256ULL << 20) + 4095, text, sizeof text), 1);
	assert_non_null(strstr(text, "such as --size 256m"));
	assert_int_equal(vb_knee_text(&s, 132ULL << 20, text, sizeof text), 1);
	assert_null(strstr(text, "--size"));
	assert_non_null(strstr(text, "too small to write well beyond it"));
	/* GiB suggestions that do not fit fall back to whole MiB */
	s.at_bytes = 3.0 * 1073741824;
	assert_int_equal(vb_knee_text(&s, 5ULL << 30, text, sizeof text), 1);
	assert_non_null(strstr(text, "such as --size 5120m"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_short_last_sample_after_the_drop),
		cmocka_unit_test(test_suggested_size_fits),
		cmocka_unit_test(test_steady_noise_has_no_knee),
		cmocka_unit_test(test_step_is_a_knee),
		cmocka_unit_test(test_slow_drift_has_no_knee),
		cmocka_unit_test(test_short_spike_has_no_knee),
		cmocka_unit_test(test_dip_that_recovers_has_no_knee),
		cmocka_unit_test(test_few_samples_and_ragged_end),
		cmocka_unit_test(test_drop_must_be_large),
		cmocka_unit_test(test_samples_of_unequal_length),
		cmocka_unit_test(test_recorded_burst_allowance),
		cmocka_unit_test(test_summary_and_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
