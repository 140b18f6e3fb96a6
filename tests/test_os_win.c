/* The pure rules of the Windows backend, checked wherever the tests run: the driver and
 * filesystem labels made of what Windows reports, and the in-use decision for a disk. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>

#include "vb_test.h"

static void test_driver_labels(void **state)
{
	char out[64];
	static const struct {
		int bus;
		const char *service, *want;
	} cases[] = {
		{1, "viostor", "viostor"}, {1, "vioscsi", "vioscsi"}, {11, "storahci", "storahci"},
		{3, "atapi", "atapi"}, {17, "stornvme", "stornvme"}, {11, "StorAHCI", "storahci"},
		{17, NULL, "nvme"}, {11, "", "sata"}, {3, "disk", "ata"}, {7, NULL, "usb"},
		{14, NULL, "virtual"}, {0, NULL, "unknown"}, {99, NULL, "unknown"},
		{-1, "", "unknown"}, {1, "odd name!", "odd_name_"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		vb_win_driver_label(cases[i].bus, cases[i].service, out, sizeof out);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("bus %d service %s: %s, want %s", cases[i].bus,
				 cases[i].service ? cases[i].service : "(none)", out, cases[i].want);
	}
	vb_win_driver_label(1, "averyveryverylongservicename", out, 8);
	assert_string_equal(out, "averyve");
}

static void test_fs_labels(void **state)
{
	char out[32];
	static const char *const cases[][2] = {
		{"NTFS", "ntfs"}, {"ReFS", "refs"}, {"FAT32", "fat32"}, {"exFAT", "exfat"},
		{"FAT", "fat"}, {"RAW", "none"}, {"", "unknown"}, {"UDF", "udf"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		vb_win_fs_label(cases[i][0], out, sizeof out);
		assert_string_equal(out, cases[i][1]);
	}
	vb_win_fs_label(NULL, out, sizeof out);
	assert_string_equal(out, "unknown");
}

static void test_in_use_decision(void **state)
{
	char holder[256];
	const struct vb_win_volume vols[] = {
		{"\\\\?\\Volume{1}\\", "C:\\", "NTFS", false, false},
		{"\\\\?\\Volume{2}\\", "E:\\", "NTFS", true, false},
		{"\\\\?\\Volume{3}\\", "", "RAW", true, true},
		{"\\\\?\\Volume{4}\\", "F:\\", "", true, false},
	};

	(void)state;
	assert_int_equal(vb_win_in_use(vols, 4, holder, sizeof holder), 1);
	assert_string_equal(holder, "volume E:\\ on it holds a NTFS filesystem");
	assert_int_equal(vb_win_in_use(vols + 2, 2, holder, sizeof holder), 1);
	assert_string_equal(holder, "volume \\\\?\\Volume{3}\\ on it is in use by another program");
	assert_int_equal(vb_win_in_use(vols + 3, 1, holder, sizeof holder), 0);
	assert_int_equal(vb_win_in_use(vols, 1, holder, sizeof holder), 0);   /* another disk */
	assert_int_equal(vb_win_in_use(vols, 0, holder, sizeof holder), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_labels),
		cmocka_unit_test(test_fs_labels),
		cmocka_unit_test(test_in_use_decision),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
