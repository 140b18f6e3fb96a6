/* Data sources: zeros, and random data whose every 4 KiB sector is unique. */
#include "vb_test.h"
#include <stdlib.h>
#include <string.h>
#include "vb_source.h"

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(a, b, VB_STAMP_STRIDE);
}

/* Copies every block of `runs` runs into one buffer and checks no two sectors match. */
static void check_unique(enum vb_source kind, size_t bs, uint64_t blocks, uint64_t runs)
{
	struct vb_source_buf s;
	size_t total = bs * blocks * runs;
	unsigned char *all = malloc(total);
	assert_non_null(all);
	assert_int_equal(vb_source_init(&s, kind, bs, 4096, 7, 1), 0);
	for (uint64_t r = 0; r < runs; r++)
		for (uint64_t b = 0; b < blocks; b++)
			memcpy(all + (r * blocks + b) * bs, vb_source_block(&s, r + 1, b), bs);
	size_t n = total / VB_STAMP_STRIDE;
	qsort(all, n, VB_STAMP_STRIDE, cmp_sector);
	for (size_t i = 1; i < n; i++)
		if (memcmp(all + (i - 1) * VB_STAMP_STRIDE, all + i * VB_STAMP_STRIDE,
			   VB_STAMP_STRIDE) == 0)
			fail_msg("two equal sectors (bs %zu)", bs);
	vb_source_free(&s);
	free(all);
}

static void test_random_sectors_unique(void **state)
{
	(void)state;
	/* Enough blocks to wrap around the pool more than once. */
	check_unique(VB_SRC_RANDOM, 1 << 20, 10, 3);
	check_unique(VB_SRC_RANDOM, 4096, 3000, 2);
	check_unique(VB_SRC_RANDOM, 512, 20000, 2);
}

static void test_urandom_sectors_unique(void **state)
{
	(void)state;
	check_unique(VB_SRC_URANDOM, 65536, 100, 2);
}

static void test_zero_is_zero(void **state)
{
	struct vb_source_buf s;
	(void)state;
	assert_int_equal(vb_source_init(&s, VB_SRC_ZERO, 8192, 4096, 0, 0), 0);
	assert_int_equal(s.pool_bytes, 8192);
	const unsigned char *p = vb_source_block(&s, 3, 17);
	for (size_t i = 0; i < 8192; i++)
		assert_int_equal(p[i], 0);
	vb_source_free(&s);
}

static void test_pool_size_and_alignment(void **state)
{
	struct vb_source_buf s;
	(void)state;
	assert_int_equal(vb_source_pool_bytes(VB_SRC_RANDOM, 4096), VB_POOL_MIN_BYTES);
	assert_int_equal(vb_source_pool_bytes(VB_SRC_RANDOM, 3000) % 3000, 0);
	assert_int_equal(vb_source_pool_bytes(VB_SRC_RANDOM, 64 << 20), 64 << 20);
	assert_int_equal(vb_source_pool_bytes(VB_SRC_ZERO, 4096), 4096);
	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 1 << 20, 4096, 1, 1), 0);
	assert_int_equal((uintptr_t)s.pool % 4096, 0);
	assert_int_equal((uintptr_t)vb_source_block(&s, 1, 3) % 4096, 0);
	vb_source_free(&s);
}

static void test_seed_reproducible(void **state)
{
	struct vb_source_buf a, b, c;
	(void)state;
	assert_int_equal(vb_source_init(&a, VB_SRC_RANDOM, 4096, 4096, 99, 1), 0);
	assert_int_equal(vb_source_init(&b, VB_SRC_RANDOM, 4096, 4096, 99, 1), 0);
	assert_int_equal(vb_source_init(&c, VB_SRC_RANDOM, 4096, 4096, 100, 1), 0);
	assert_memory_equal(vb_source_block(&a, 1, 5), vb_source_block(&b, 1, 5), 4096);
	assert_memory_not_equal(vb_source_block(&a, 1, 5), vb_source_block(&c, 1, 5), 4096);
	vb_source_free(&a);
	vb_source_free(&b);
	vb_source_free(&c);
}

static void test_prng_bytes_balanced(void **state)
{
	uint64_t st[4];
	static unsigned char buf[1 << 20];
	size_t counts[256] = {0};
	(void)state;
	vb_prng_seed(st, 1);
	vb_prng_fill(st, buf, sizeof buf);
	for (size_t i = 0; i < sizeof buf; i++)
		counts[buf[i]]++;
	/* 4096 expected per byte value; a generator this far off would compress. */
	for (int v = 0; v < 256; v++)
		assert_true(counts[v] > 3600 && counts[v] < 4600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_sectors_unique),
		cmocka_unit_test(test_urandom_sectors_unique),
		cmocka_unit_test(test_zero_is_zero),
		cmocka_unit_test(test_pool_size_and_alignment),
		cmocka_unit_test(test_seed_reproducible),
		cmocka_unit_test(test_prng_bytes_balanced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
