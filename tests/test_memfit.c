/* Whether the data buffers fit in memory, and what would when they do not: one rule for
 * memory that is short and for a limit on the process. */
#include "vb_test.h"
#include <stdio.h>
#include <string.h>
#include "bench/vb_memfit.h"
#include "bench/vb_source.h"

/* A probe that has up to *arg bytes, and counts its calls. */
static int probes;

static bool up_to(uint64_t n, void *arg)
{
	probes++;
	return n <= *(const uint64_t *)arg;
}

static void test_fits_says_nothing(void **state)
{
	struct vb_config cfg;
	uint64_t limit = UINT64_MAX;
	char why[512] = "";
	(void)state;
	vb_config_defaults(&cfg);
	assert_int_equal(vb_memory_short(&cfg, 0, up_to, &limit, why, sizeof why), 0);
	assert_int_equal(vb_memory_short(&cfg, 1ULL << 30, up_to, &limit, why, sizeof why), 0);
	assert_string_equal(why, "");
}

/* bs=1G --qd 256 --source random: more than the memory there is; a smaller bs and a
 * shallower queue are named, and each is one that fits by the same rule. */
static void test_more_than_memory(void **state)
{
	struct vb_config cfg;
	uint64_t limit = UINT64_MAX, avail = 24ULL << 30;
	char why[512];
	unsigned long long bs, qd;
	(void)state;
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 1ULL << 30;
	cfg.qd = 256;
	cfg.source = VB_SRC_RANDOM;
	assert_int_equal(vb_memory_short(&cfg, avail, up_to, &limit, why, sizeof why), 1);
	char want[200];
	snprintf(want, sizeof want, "bs=1073741824 --qd 256 --source random needs %llu bytes "
		 "of buffers, more than the %llu bytes of memory available; bs=",
		 (unsigned long long)vb_source_buffer_bytes(VB_SRC_RANDOM, 1ULL << 30, 256,
							    vb_run_bytes(&cfg)),
		 (unsigned long long)avail);
	if (strncmp(why, want, strlen(want)) != 0)
		fail_msg("'%s'", why);
	assert_int_equal(sscanf(strstr(why, "; bs="), "; bs=%llu fits, or --qd %llu", &bs, &qd), 2);
	/* the ones named fit, and twice the bs or one more writer would not */
	cfg.bs_bytes = bs;
	assert_int_equal(vb_memory_short(&cfg, avail, up_to, &limit, why, sizeof why), 0);
	cfg.bs_bytes = 2 * bs;
	assert_int_equal(vb_memory_short(&cfg, avail, up_to, &limit, why, sizeof why), 1);
	cfg.bs_bytes = 1ULL << 30;
	cfg.qd = qd;
	assert_int_equal(vb_memory_short(&cfg, avail, up_to, &limit, why, sizeof why), 0);
	cfg.qd = qd + 1;
	assert_int_equal(vb_memory_short(&cfg, avail, up_to, &limit, why, sizeof why), 1);
}

/* ulimit -v: the memory is there, the process may not have it; the same sentence's
 * shape, and the margin for the rest of the process is asked for too. */
static void test_more_than_the_process_may_have(void **state)
{
	struct vb_config cfg;
	/* one byte short of 32 MiB and the margin */
	uint64_t limit = (32ULL << 20) + VB_MEM_MARGIN - 1;
	char why[512];
	(void)state;
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 64ULL << 20;
	assert_int_equal(vb_memory_short(&cfg, 24ULL << 30, up_to, &limit, why, sizeof why), 1);
	assert_string_equal(why, "bs=67108864 needs 67108864 bytes of buffers, more than this "
			    "process may allocate (a limit on its memory, such as ulimit -v); "
			    "bs=16777216 fits");
	/* 32 MiB would fit but for the margin */
	cfg.bs_bytes = 32ULL << 20;
	assert_int_equal(vb_memory_short(&cfg, 0, up_to, &limit, why, sizeof why), 1);
	limit++;
	assert_int_equal(vb_memory_short(&cfg, 0, up_to, &limit, why, sizeof why), 0);
	/* nothing fits */
	limit = 0;
	probes = 0;
	assert_int_equal(vb_memory_short(&cfg, 0, up_to, &limit, why, sizeof why), 1);
	assert_non_null(strstr(why, "; not even bs=512 fits"));
	assert_true(probes < 64);   /* halving, not counting down */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_says_nothing),
		cmocka_unit_test(test_more_than_memory),
		cmocka_unit_test(test_more_than_the_process_may_have),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
