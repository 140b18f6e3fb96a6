/* Whether one run fits, and which count does when it does not. */
#include "vb_test.h"
#include <string.h>
#include "bench/vb_space.h"

static void test_count_that_fits(void **state)
{
	(void)state;
	/* a disk: every byte; a file system: 2% kept for its own blocks */
	assert_int_equal(vb_count_that_fits(1000ULL << 20, 1 << 20, false), 1000);
	assert_int_equal(vb_count_that_fits(1000ULL << 20, 1 << 20, true), 980);
	assert_int_equal(vb_count_that_fits(4095, 4096, false), 0);
	assert_int_equal(vb_count_that_fits(100, 0, false), 0);
}

static void test_directory_short_of_space(void **state)
{
	struct vb_config cfg;
	char why[512];
	(void)state;
	vb_config_defaults(&cfg);   /* 1000 x 1 MiB */
	/* the spare is part of the decision: the count named fits, one more does not */
	assert_int_equal(vb_space_short(&cfg, "/mnt", 1000ULL << 20, true, why, sizeof why), 1);
	assert_string_equal(why, "only 1048576000 bytes are free under /mnt, too few for the "
			    "1048576000 bytes of one run (bs=1048576 count=1000) and the 2% the "
			    "file system needs for its own blocks; count=980 fits");
	cfg.count_blocks = 980;
	assert_int_equal(vb_space_short(&cfg, "/mnt", 1000ULL << 20, true, why, sizeof why), 0);
	cfg.count_blocks = 981;
	assert_int_equal(vb_space_short(&cfg, "/mnt", 1000ULL << 20, true, why, sizeof why), 1);
	assert_non_null(strstr(why, "; count=980 fits"));
	cfg.count_blocks = 1000;
	assert_int_equal(vb_space_short(&cfg, "/mnt", 943718400, true, why, sizeof why), 1);
	assert_string_equal(why, "only 943718400 bytes are free under /mnt, less than the "
			    "1048576000 bytes of one run (bs=1048576 count=1000); count=882 fits");
	assert_int_equal(vb_space_short(&cfg, "/mnt", 1000, true, why, sizeof why), 1);
	assert_non_null(strstr(why, "; not one block of bs=1048576 fits"));
}

static void test_disk_smaller_than_a_run(void **state)
{
	struct vb_config cfg;
	char why[512];
	(void)state;
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 4096;
	cfg.count_blocks = 300;
	assert_int_equal(vb_space_short(&cfg, "/dev/loop3", 1228800, false, why, sizeof why), 0);
	assert_int_equal(vb_space_short(&cfg, "/dev/loop3", 1048576, false, why, sizeof why), 1);
	assert_string_equal(why, "/dev/loop3 holds 1048576 bytes, less than the 1228800 bytes "
			    "of one run (bs=4096 count=300); count=256 fits");
}

static void test_file_size_limit(void **state)
{
	struct vb_config cfg;
	char why[512];
	(void)state;
	vb_config_defaults(&cfg);
	cfg.count_blocks = 8;
	assert_int_equal(vb_fsize_short(&cfg, 8ULL << 20, why, sizeof why), 0);
	assert_int_equal(vb_fsize_short(&cfg, 4ULL << 20, why, sizeof why), 1);
	assert_string_equal(why, "one run writes 8388608 bytes (bs=1048576 count=8), more than "
			    "the 4194304 bytes this process may put in a file (ulimit -f); "
			    "count=4 fits");
	assert_int_equal(vb_fsize_short(&cfg, 102400, why, sizeof why), 1);
	assert_non_null(strstr(why, "(ulimit -f); not one block of bs=1048576 fits"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_that_fits),
		cmocka_unit_test(test_directory_short_of_space),
		cmocka_unit_test(test_disk_smaller_than_a_run),
		cmocka_unit_test(test_file_size_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
