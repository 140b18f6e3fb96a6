/* FreeBSD's virtio write cache sysctl: which disk names have one, and what its values
 * mean (sys/dev/virtio/block/virtio_blk.c: vtblk_setup_sysctl, vtblk_write_cache_sysctl,
 * enum vtblk_cache_mode). */
#include "vb_test.h"
#include <string.h>
#include "os/os_internal.h"

static void test_vtbd_disks_name_their_sysctl(void **state)
{
	char name[64];
	(void)state;
	assert_true(vb_os_bsd_vtblk_sysctl("vtbd0", name, sizeof name));
	assert_string_equal(name, "dev.vtblk.0.writecache_mode");
	assert_true(vb_os_bsd_vtblk_sysctl("vtbd12", name, sizeof name));
	assert_string_equal(name, "dev.vtblk.12.writecache_mode");
}

static void test_other_disks_have_none(void **state)
{
	char name[64];
	const char *bad[] = {"ada0", "vtbd", "vtbd0p2", "vtbd01", "vtbdx", "nvd0", "da0",
			     "vtbd1234567", ""};
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(vb_os_bsd_vtblk_sysctl(bad[i], name, sizeof name));
	assert_false(vb_os_bsd_vtblk_sysctl("vtbd0", name, 10));   /* does not fit */
}

static void test_modes(void **state)
{
	(void)state;
	assert_string_equal(vb_os_bsd_vtblk_cache_mode(0), "write through");
	assert_string_equal(vb_os_bsd_vtblk_cache_mode(1), "write back");
	assert_null(vb_os_bsd_vtblk_cache_mode(2));
	assert_null(vb_os_bsd_vtblk_cache_mode(-1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vtbd_disks_name_their_sysctl),
		cmocka_unit_test(test_other_disks_have_none),
		cmocka_unit_test(test_modes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
