/* The latency histogram: percentiles of known distributions within its bound. */
#include "vb_test.h"
#include <math.h>
#include <stdlib.h>
#include "common/vb_hist.h"

/* The documented bound: a reported value is within 1/VB_HIST_SUB of the true one. */
static void within_bound(uint64_t got, uint64_t want)
{
	double rel = fabs((double)got - (double)want) / (double)want;
	if (rel > 1.0 / VB_HIST_SUB)
		fail_msg("got %llu, want %llu (relative error %.4f)", (unsigned long long)got,
			 (unsigned long long)want, rel);
}

static void test_uniform(void **state)
{
	static struct vb_hist h;
	(void)state;
	vb_hist_init(&h);
	/* 1..100000 us in ns: the q-quantile is q * 100000 us. */
	for (uint64_t i = 1; i <= 100000; i++)
		vb_hist_add(&h, i * 1000);
	assert_int_equal(h.count, 100000);
	within_bound(vb_hist_quantile(&h, 0.50), 50000000);
	within_bound(vb_hist_quantile(&h, 0.90), 90000000);
	within_bound(vb_hist_quantile(&h, 0.99), 99000000);
	within_bound(vb_hist_quantile(&h, 0.999), 99900000);
	assert_int_equal(vb_hist_quantile(&h, 1.0), 100000000);
	assert_int_equal(h.max_ns, 100000000);
	assert_int_equal(h.min_ns, 1000);
}

static void test_exponential_tail(void **state)
{
	static struct vb_hist h;
	uint64_t *xs = malloc(200000 * sizeof *xs);
	(void)state;
	assert_non_null(xs);
	vb_hist_init(&h);
	/* Deterministic exponential sample by inverse transform over an even grid: the
	 * exact q-quantile of the grid is -mean * ln(1 - q). */
	for (int i = 0; i < 200000; i++) {
		double u = (i + 0.5) / 200000.0;
		xs[i] = (uint64_t)(-2e6 * log(1.0 - u));
		vb_hist_add(&h, xs[i]);
	}
	within_bound(vb_hist_quantile(&h, 0.5), (uint64_t)(-2e6 * log(0.5)));
	within_bound(vb_hist_quantile(&h, 0.99), (uint64_t)(-2e6 * log(0.01)));
	within_bound(vb_hist_quantile(&h, 0.999), (uint64_t)(-2e6 * log(0.001)));
	free(xs);
}

static void test_small_values_exact_and_empty(void **state)
{
	static struct vb_hist h;
	(void)state;
	vb_hist_init(&h);
	assert_int_equal(vb_hist_quantile(&h, 0.5), 0);
	for (uint64_t v = 0; v < VB_HIST_SUB; v++)
		vb_hist_add(&h, v);
	assert_int_equal(vb_hist_quantile(&h, 0.5), VB_HIST_SUB / 2 - 1);
	assert_int_equal(vb_hist_quantile(&h, 0.01), 0);
}

static void test_single_and_huge(void **state)
{
	static struct vb_hist h;
	(void)state;
	vb_hist_init(&h);
	vb_hist_add(&h, 123456789);
	assert_int_equal(vb_hist_quantile(&h, 0.5), 123456789); /* capped at the maximum */
	vb_hist_add(&h, UINT64_MAX);                           /* clamped, not a crash */
	assert_int_equal(h.max_ns, UINT64_MAX);
	assert_int_equal(h.count, 2);
}

static void test_merge(void **state)
{
	static struct vb_hist a, b;
	(void)state;
	vb_hist_init(&a);
	vb_hist_init(&b);
	for (int i = 1; i <= 1000; i++)
		vb_hist_add(i <= 500 ? &a : &b, (uint64_t)i * 1000);
	vb_hist_merge(&a, &b);
	assert_int_equal(a.count, 1000);
	assert_int_equal(a.max_ns, 1000000);
	assert_int_equal(a.min_ns, 1000);
	within_bound(vb_hist_quantile(&a, 0.9), 900000);
}

/* The bucket of v, piece by piece as the header describes it: below VB_HIST_SUB one
 * each; above, e the top bit, SUB buckets per power of two; clamped at 2^MAX_BITS. */
static unsigned model_bucket(uint64_t v)
{
	if (v >= (1ULL << VB_HIST_MAX_BITS))
		v = (1ULL << VB_HIST_MAX_BITS) - 1;
	if (v < VB_HIST_SUB)
		return (unsigned)v;
	unsigned e = 63;
	while (!(v >> e))
		e--;
	return (e - VB_HIST_SUB_BITS + 1) * VB_HIST_SUB +
	       (unsigned)(v >> (e - VB_HIST_SUB_BITS)) - VB_HIST_SUB;
}

/* The one-formula bucket (no branch in the write loop) is that model: every value below
 * 2^20, the edges of every power of two, and the clamp. */
static void test_bucket_formula(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < (1u << 20); v++)
		if (vb_hist_bucket(v) != model_bucket(v))
			fail_msg("bucket of %llu: %u, want %u", (unsigned long long)v,
				 vb_hist_bucket(v), model_bucket(v));
	for (unsigned e = 0; e < 64; e++)
		for (int d = -2; d <= 2; d++) {
			uint64_t v = (1ULL << e) + (uint64_t)(int64_t)d;
			assert_int_equal(vb_hist_bucket(v), model_bucket(v));
		}
	assert_int_equal(vb_hist_bucket(UINT64_MAX), VB_HIST_BUCKETS - 1);
	assert_int_equal(vb_hist_bucket((1ULL << VB_HIST_MAX_BITS) - 1), VB_HIST_BUCKETS - 1);
	/* an empty histogram's minimum is above every value; the first one sets it */
	static struct vb_hist h;
	vb_hist_init(&h);
	vb_hist_add(&h, 7);
	assert_int_equal(h.min_ns, 7);
	assert_int_equal(h.max_ns, 7);
}

/* The summary reports each quantile as its own: one value in a hundred above all the
 * others moves p99 and max, not p90. */
static void test_summary_quantiles_are_their_own(void **state)
{
	struct vb_hist h;
	(void)state;
	vb_hist_init(&h);
	for (int i = 0; i < 89; i++)
		vb_hist_add(&h, 1000);
	for (int i = 0; i < 10; i++)
		vb_hist_add(&h, 100000);
	vb_hist_add(&h, 10000000);
	struct vb_latency l = vb_hist_summary(&h);
	assert_int_equal(l.writes, 100);
	assert_true(l.p50_ns >= 900 && l.p50_ns <= 1100);
	assert_true(l.p90_ns >= 90000 && l.p90_ns <= 110000);
	assert_true(l.p99_ns >= 90000 && l.p99_ns <= 110000);
	/* one in a thousand of a hundred: the top value */
	assert_true(l.p999_ns >= 9000000 && l.p999_ns <= 11000000);
	assert_int_equal(l.max_ns, 10000000);
	/* with the tail one write in ten, p99 sits in it and p90 does not */
	vb_hist_init(&h);
	for (int i = 0; i < 95; i++)
		vb_hist_add(&h, 1000);
	for (int i = 0; i < 5; i++)
		vb_hist_add(&h, 1000000);
	l = vb_hist_summary(&h);
	assert_true(l.p90_ns >= 900 && l.p90_ns <= 1100);
	assert_true(l.p99_ns >= 900000 && l.p99_ns <= 1100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_exponential_tail),
		cmocka_unit_test(test_small_values_exact_and_empty),
		cmocka_unit_test(test_single_and_huge),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_bucket_formula),
		cmocka_unit_test(test_summary_quantiles_are_their_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
