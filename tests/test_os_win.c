/* The pure rules of the Windows backend, checked wherever the tests run: the driver and
 * filesystem labels made of what Windows reports, the in-use decision for a disk, the
 * names refused before anything is opened, the flags CreateFileW is given, long paths,
 * and the name of the Windows version. */
#include "os/os_internal.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

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
		vb_os_win_driver_label(cases[i].bus, cases[i].service, out, sizeof out);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("bus %d service %s: %s, want %s", cases[i].bus,
				 cases[i].service ? cases[i].service : "(none)", out, cases[i].want);
	}
	vb_os_win_driver_label(1, "averyveryverylongservicename", out, 8);
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
		vb_os_win_fs_label(cases[i][0], out, sizeof out);
		assert_string_equal(out, cases[i][1]);
	}
	vb_os_win_fs_label(NULL, out, sizeof out);
	assert_string_equal(out, "unknown");
}

static void test_in_use_decision(void **state)
{
	char holder[256];
	const struct vb_os_win_volume vols[] = {
		{"\\\\?\\Volume{1}\\", "C:\\", "NTFS", VB_WIN_VOL_OFF_DISK, NULL},
		{"\\\\?\\Volume{2}\\", "E:\\", "NTFS", VB_WIN_VOL_ON_DISK, NULL},
		{"\\\\?\\Volume{3}\\", "", "RAW", VB_WIN_VOL_ON_DISK, NULL},
		{"\\\\?\\Volume{4}\\", "F:\\", "", VB_WIN_VOL_ON_DISK, NULL},
		{"\\\\?\\Volume{5}\\", "G:\\", "", VB_WIN_VOL_UNKNOWN,
		 "it cannot be opened: Permission denied"},
		{"\\\\?\\Volume{6}\\", "D:\\", "CDFS", VB_WIN_VOL_OFF_DISK, NULL},
	};

	(void)state;
	/* a volume with a file system Windows reads */
	assert_int_equal(vb_os_win_in_use(vols, 4, true, holder, sizeof holder), 1);
	assert_string_equal(holder, "volume E:\\ on it holds a NTFS file system");
	/* RAW (foreign, BitLocker-locked) is data too, named by its GUID path when it has
	 * no drive letter */
	assert_int_equal(vb_os_win_in_use(vols + 2, 1, true, holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "volume \\\\?\\Volume{3}\\ on it holds a file system "
					  "Windows cannot read"));
	/* a file system that cannot be named at all */
	assert_int_equal(vb_os_win_in_use(vols + 3, 1, true, holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "volume F:\\ on it holds a file system Windows cannot"));
	/* a volume that cannot be examined (locked by format or chkdsk) may be on it */
	assert_int_equal(vb_os_win_in_use(vols + 4, 2, true, holder, sizeof holder), 1);
	assert_string_equal(holder, "volume G:\\ cannot be examined (it cannot be opened: "
				    "Permission denied), so it may lie on it");
	/* a volume on the disk is named before one that could not be examined */
	const struct vb_os_win_volume mixed[] = {vols[4], vols[0], vols[1]};
	assert_int_equal(vb_os_win_in_use(mixed, 3, true, holder, sizeof holder), 1);
	assert_string_equal(holder, "volume E:\\ on it holds a NTFS file system");
	/* only volumes of other disks: free, if the list is all of them */
	const struct vb_os_win_volume others[] = {vols[0], vols[5]};
	assert_int_equal(vb_os_win_in_use(others, 2, true, holder, sizeof holder), 0);
	assert_int_equal(vb_os_win_in_use(others, 0, true, holder, sizeof holder), 0);
	assert_int_equal(vb_os_win_in_use(others, 2, false, holder, sizeof holder), -1);
	assert_non_null(strstr(holder, "cannot all be listed"));
}

static void test_names(void **state)
{
	char why[512];
	static const struct {
		const char *path;
		enum vb_os_win_name want;
		const char *says;
	} cases[] = {
		{"NUL", VB_WIN_NAME_NUL, NULL},
		{"nul", VB_WIN_NAME_NUL, NULL},
		{"NUL:", VB_WIN_NAME_NUL, NULL},
		{"\\\\.\\NUL", VB_WIN_NAME_NUL, NULL},
		{"//./nul", VB_WIN_NAME_NUL, NULL},
		{"\\\\.\\PhysicalDrive1", VB_WIN_NAME_DISK, NULL},
		{"\\\\.\\physicaldrive12", VB_WIN_NAME_DISK, NULL},
		{"D:\\t\\com1.img", VB_WIN_NAME_REFUSED, "names the device COM1"},
		{"D:\\t", VB_WIN_NAME_PLAIN, NULL},
		{"D:\\t\\x.img", VB_WIN_NAME_PLAIN, NULL},
		{"D:\\t\\com10", VB_WIN_NAME_PLAIN, NULL},
		{"D:\\t\\console", VB_WIN_NAME_PLAIN, NULL},
		{"D:\\t\\lpt", VB_WIN_NAME_PLAIN, NULL},
		{"D:\\nulled\\x", VB_WIN_NAME_PLAIN, NULL},
		{"\\\\?\\D:\\t\\x.img", VB_WIN_NAME_PLAIN, NULL},
		{"\\\\server\\share\\x", VB_WIN_NAME_PLAIN, NULL},
		{"\\\\?\\UNC\\server\\share\\x", VB_WIN_NAME_PLAIN, NULL},
		{"COM1", VB_WIN_NAME_REFUSED, "names the device COM1"},
		{"com1", VB_WIN_NAME_REFUSED, "names the device COM1"},
		{"CON", VB_WIN_NAME_REFUSED, "names the device CON"},
		{"AUX", VB_WIN_NAME_REFUSED, "names the device AUX"},
		{"LPT1", VB_WIN_NAME_REFUSED, "names the device LPT1"},
		{"prn", VB_WIN_NAME_REFUSED, "names the device PRN"},
		{"COM1:", VB_WIN_NAME_REFUSED, "names the device COM1"},
		{"D:\\t\\com1.dat", VB_WIN_NAME_REFUSED, "\"com1.dat\" is a reserved device name"},
		{"D:\\t\\Com9.tar.gz", VB_WIN_NAME_REFUSED, "names the device COM9"},
		{"D:\\t\\nul.img", VB_WIN_NAME_REFUSED, "names the device NUL"},
		{"D:\\nul", VB_WIN_NAME_REFUSED, "only NUL alone is written"},
		{"D:/t/aux/x.img", VB_WIN_NAME_REFUSED, "names the device AUX"},
		{"D:\\t\\lpt3 .txt", VB_WIN_NAME_REFUSED, "names the device LPT3"},
		{"D:\\t\\COM0", VB_WIN_NAME_REFUSED, "names the device COM0"},
		{"D:\\t\\COM\xc2\xb9", VB_WIN_NAME_REFUSED, "names the device COM\xc2\xb9"},
		{"D:\\t\\lpt\xc2\xb3.x", VB_WIN_NAME_REFUSED, "names the device LPT\xc2\xb3"},
		{"CONIN$", VB_WIN_NAME_REFUSED, "names the device CONIN$"},
		{"conout$", VB_WIN_NAME_REFUSED, "names the device CONOUT$"},
		{"\\\\?\\D:\\t\\com1.dat", VB_WIN_NAME_REFUSED, "names the device COM1"},
		{"\\\\.\\COM1", VB_WIN_NAME_REFUSED, "a device vbench does not write to"},
		{"\\\\.\\C:", VB_WIN_NAME_REFUSED, "is a volume"},
		{"\\\\.\\e:\\", VB_WIN_NAME_REFUSED, "is a volume"},
		{"//./E:", VB_WIN_NAME_REFUSED, "is a volume"},
		{"\\\\?\\Volume{12345678-0000-0000-0000-000000000000}", VB_WIN_NAME_REFUSED,
		 "is a volume"},
		{"\\\\.\\PhysicalDrive", VB_WIN_NAME_REFUSED, "a device vbench does not write to"},
		{"\\\\.\\PhysicalDrive1x", VB_WIN_NAME_REFUSED, "a device vbench does not write to"},
		{"\\\\.\\Tape0", VB_WIN_NAME_REFUSED, "a device vbench does not write to"},
		{"\\\\?\\GLOBALROOT\\Device\\Harddisk0\\Partition0", VB_WIN_NAME_REFUSED,
		 "namespace vbench does not write to"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum vb_os_win_name got = vb_os_win_name_kind(cases[i].path, why, sizeof why);
		if (got != cases[i].want)
			fail_msg("%s: kind %d, want %d (%s)", cases[i].path, (int)got,
				 (int)cases[i].want, why);
		if (cases[i].says != NULL && strstr(why, cases[i].says) == NULL)
			fail_msg("%s: \"%s\" lacks \"%s\"", cases[i].path, why, cases[i].says);
		if (got != VB_WIN_NAME_REFUSED && why[0] != '\0')
			fail_msg("%s: a reason where none is due: %s", cases[i].path, why);
	}
	assert_true(vb_os_win_is_reserved("com1.dat"));
	assert_true(vb_os_win_is_reserved("NUL"));
	assert_true(vb_os_win_is_reserved("aux "));
	assert_false(vb_os_win_is_reserved("vbench-abcdefgh.tmp"));
	assert_false(vb_os_win_is_reserved("PhysicalDrive1"));
	assert_false(vb_os_win_is_reserved("auxiliary"));
	assert_false(vb_os_win_is_reserved(""));
}

static void test_open_flags(void **state)
{
	static const struct vb_open_req reqs[] = {
		{VB_OPEN_ANON, false, false, false, false}, {VB_OPEN_ANON, true, true, false, false},
		{VB_OPEN_CREATE, false, false, false, false}, {VB_OPEN_CREATE, true, false, false, false},
		{VB_OPEN_EXISTING, false, true, false, false}, {VB_OPEN_EXISTING, true, true, true, false},
		{VB_OPEN_EXISTING, false, false, false, true},
	};
	struct vb_os_win_open o;

	(void)state;
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		for (int dev = 0; dev < 2; dev++) {
			const struct vb_open_req *r = &reqs[i];
			if (dev && r->kind != VB_OPEN_EXISTING)
				continue;
			vb_os_win_open_flags(r, dev, &o);
			/* never a file Windows may keep in memory and never write */
			assert_int_equal(o.flags & VB_WIN_ATTRIBUTE_TEMPORARY, 0);
			/* write access only to write: a file examined is opened for reading */
			assert_int_equal(!!(o.access & VB_WIN_GENERIC_WRITE), !r->read_only);
			if (r->read_only)
				assert_true(o.access & VB_WIN_GENERIC_READ);
			assert_int_equal(!!(o.flags & VB_WIN_FLAG_NO_BUFFERING), r->direct);
			assert_int_equal(!!(o.flags & VB_WIN_FLAG_WRITE_THROUGH), r->dsync);
			assert_int_equal(!!(o.flags & VB_WIN_FLAG_DELETE_ON_CLOSE),
					 r->kind == VB_OPEN_ANON);
			assert_int_equal(!!(o.access & VB_WIN_DELETE), r->kind == VB_OPEN_ANON);
			assert_int_equal(o.creation, r->kind == VB_OPEN_EXISTING ?
							     VB_WIN_OPEN_EXISTING : VB_WIN_CREATE_NEW);
			if (dev) {
				/* a disk: read for its ioctls, read and write sharing, which
				 * Windows requires of a disk, and nothing else */
				assert_true(o.access & VB_WIN_GENERIC_READ);
				assert_int_equal(o.share, VB_WIN_SHARE_READ | VB_WIN_SHARE_WRITE);
				assert_int_equal(o.flags & VB_WIN_FLAG_OPEN_REPARSE_POINT, 0);
			} else {
				/* a file: a link is opened as itself, never followed; read
				 * only to be examined */
				assert_int_equal(!!(o.access & VB_WIN_GENERIC_READ), r->read_only);
				assert_true(o.flags & VB_WIN_FLAG_OPEN_REPARSE_POINT);
			}
		}
	}
}

static void test_components(void **state)
{
	char out[64];
	static const char *const good[][2] = {
		{"x.img", "x.img"}, {"vbench-abc.tmp", "vbench-abc.tmp"}, {"file.", "file"},
		{"file . .", "file"}, {"a b", "a b"}, {".hidden", ".hidden"},
		{"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"},
	};
	static const char *const bad[] = {
		"", ".", "..", "...", " ", "a\\b", "a/b", "x.img:stream", "a*", "a?", "a\"b", "a<b",
		"a>b", "a|b", "tab\there",
	};

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (!vb_os_win_component(good[i][0], out, sizeof out))
			fail_msg("\"%s\" refused", good[i][0]);
		assert_string_equal(out, good[i][1]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (vb_os_win_component(bad[i], out, sizeof out))
			fail_msg("\"%s\" taken as \"%s\"", bad[i], out);
	/* longer than the room: refused, not cut */
	assert_false(vb_os_win_component("abcdefghij", out, 10));
	assert_true(vb_os_win_component("abcdefghi", out, 10));
}

static void test_nt_create(void **state)
{
	static const struct vb_open_req reqs[] = {
		{VB_OPEN_ANON, false, false, false, false}, {VB_OPEN_ANON, true, true, false, false},
		{VB_OPEN_CREATE, false, true, false, false}, {VB_OPEN_EXISTING, true, false, false, false},
	};
	struct vb_os_win_open o;
	struct vb_os_win_nt nt;

	(void)state;
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		const struct vb_open_req *r = &reqs[i];
		vb_os_win_open_flags(r, false, &o);
		vb_os_win_nt_create(&o, &nt);
		assert_int_equal(nt.disposition, r->kind == VB_OPEN_EXISTING ? VB_NT_FILE_OPEN
									       : VB_NT_FILE_CREATE);
		/* the same promise as CreateFileW's flags, in NtCreateFile's words */
		assert_int_equal(nt.attributes, VB_WIN_ATTRIBUTE_NORMAL);
		assert_int_equal(!!(nt.options & VB_NT_NO_INTERMEDIATE_BUFFERING), r->direct);
		assert_int_equal(!!(nt.options & VB_NT_WRITE_THROUGH), r->dsync);
		assert_int_equal(!!(nt.options & VB_NT_DELETE_ON_CLOSE), r->kind == VB_OPEN_ANON);
		assert_true(nt.options & VB_NT_OPEN_REPARSE_POINT);
		assert_true(nt.options & VB_NT_NON_DIRECTORY_FILE);
		assert_true(nt.options & VB_NT_SYNCHRONOUS_IO_NONALERT);
		assert_false(nt.options & VB_NT_OPEN_FOR_BACKUP_INTENT);
	}
	/* TEMPORARY never reaches the file, even if asked */
	o.flags |= VB_WIN_ATTRIBUTE_TEMPORARY;
	vb_os_win_nt_create(&o, &nt);
	assert_int_equal(nt.attributes & VB_WIN_ATTRIBUTE_TEMPORARY, 0);
	/* backup semantics (a look at a name that may be a directory) */
	o.flags = VB_WIN_FLAG_BACKUP_SEMANTICS | VB_WIN_FLAG_OPEN_REPARSE_POINT;
	o.creation = VB_WIN_OPEN_EXISTING;
	vb_os_win_nt_create(&o, &nt);
	assert_true(nt.options & VB_NT_OPEN_FOR_BACKUP_INTENT);
	assert_false(nt.options & VB_NT_NON_DIRECTORY_FILE);
	assert_int_equal(nt.attributes, 0);
}

static void test_handle_kinds(void **state)
{
	static const struct {
		struct vb_os_win_handle h;
		enum vb_ftype want;
		bool sink;
	} cases[] = {
		/* COM1, CON, LPT1: character devices, never sinks */
		{{VB_WIN_FILE_TYPE_CHAR, false, 0, false, false}, VB_FT_CHR, false},
		/* the null device, opened as NUL */
		{{VB_WIN_FILE_TYPE_CHAR, false, 0, false, true}, VB_FT_CHR, true},
		{{VB_WIN_FILE_TYPE_PIPE, false, 0, false, false}, VB_FT_FIFO, false},
		/* a name that was to be NUL but is not a character device is no sink */
		{{VB_WIN_FILE_TYPE_DISK, true, 0x80, false, true}, VB_FT_REG, false},
		{{VB_WIN_FILE_TYPE_DISK, true, 0x20, false, false}, VB_FT_REG, false},
		{{VB_WIN_FILE_TYPE_DISK, true, 0x10, false, false}, VB_FT_DIR, false},
		{{VB_WIN_FILE_TYPE_DISK, true, 0x410, false, false}, VB_FT_LINK, false},
		{{VB_WIN_FILE_TYPE_DISK, true, 0x400, false, false}, VB_FT_LINK, false},
		/* a disk opened as a device: no file information, a disk number */
		{{VB_WIN_FILE_TYPE_DISK, false, 0, true, false}, VB_FT_BLK, false},
		/* neither: a device that is not a disk (a tape, a dynamic volume) */
		{{VB_WIN_FILE_TYPE_DISK, false, 0, false, false}, VB_FT_OTHER, false},
		{{0, false, 0, true, false}, VB_FT_OTHER, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool sink = !cases[i].sink;
		enum vb_ftype got = vb_os_win_handle_kind(&cases[i].h, &sink);
		if (got != cases[i].want || sink != cases[i].sink)
			fail_msg("case %zu: kind %d sink %d, want %d %d", i, (int)got, (int)sink,
				 (int)cases[i].want, (int)cases[i].sink);
	}
}

static void test_long_paths(void **state)
{
	wchar_t out[64];
	static const wchar_t *const cases[][2] = {
		{L"C:\\t\\x.img", L"\\\\?\\C:\\t\\x.img"},
		{L"z:\\", L"\\\\?\\z:\\"},
		{L"\\\\server\\share\\x", L"\\\\?\\UNC\\server\\share\\x"},
		{L"\\\\?\\C:\\t", L"\\\\?\\C:\\t"},
		{L"\\\\.\\PhysicalDrive1", L"\\\\.\\PhysicalDrive1"},
		{L"\\\\.\\NUL", L"\\\\.\\NUL"},
		{L"relative", L"relative"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_true(vb_os_win_long_path(cases[i][0], out, 64));
		if (wcscmp(out, cases[i][1]) != 0)
			fail_msg("case %zu: %ls, want %ls", i, out, cases[i][1]);
	}
	/* the room the result needs, counted with its terminator */
	assert_true(vb_os_win_long_path(L"C:\\ab", out, 10));
	assert_false(vb_os_win_long_path(L"C:\\abc", out, 10));
}

/* Finding 9: the volume under a folder mount point is opened by its GUID name, as
 * GetVolumeNameForVolumeMountPointW writes it, without the root's backslash. */
static void test_volume_devices(void **state)
{
	wchar_t out[64];

	(void)state;
	assert_true(vb_os_win_volume_device(L"\\\\?\\Volume{26a21bda-a627-11d7-9931-806e6f6e6963}\\",
					    out, 64));
	assert_true(wcscmp(out, L"\\\\?\\Volume{26a21bda-a627-11d7-9931-806e6f6e6963}") == 0);
	assert_false(vb_os_win_volume_device(L"\\\\?\\Volume{26a21bda-a627-11d7-9931-806e6f6e6963}",
					     out, 64));
	assert_false(vb_os_win_volume_device(L"C:\\", out, 64));
	assert_false(vb_os_win_volume_device(L"\\\\?\\Volume{26a21bda-a627-11d7-9931-806e6f6e69zz}\\",
					     out, 64));
	assert_false(vb_os_win_volume_device(L"\\\\?\\Volume{26a21bda-a627-11d7-9931-806e6f6e6963}\\",
					     out, 48));
}

static void test_version_names(void **state)
{
	char out[64];
	static const struct {
		unsigned major, minor, build;
		bool server, x64;
		const char *want;
	} cases[] = {
		{5, 1, 2600, false, false, "XP (5.1.2600)"},
		{5, 2, 3790, false, true, "XP x64 (5.2.3790)"},
		{5, 2, 3790, true, false, "Server 2003 (5.2.3790)"},
		{5, 2, 3790, true, true, "Server 2003 (5.2.3790)"},
		{6, 0, 6002, false, false, "Vista (6.0.6002)"},
		{6, 0, 6003, true, true, "Server 2008 (6.0.6003)"},
		{6, 1, 7601, false, true, "7 (6.1.7601)"},
		{6, 1, 7601, true, true, "Server 2008 R2 (6.1.7601)"},
		{6, 3, 9600, false, true, "8.1 (6.3.9600)"},
		{10, 0, 19045, false, true, "10 (10.0.19045)"},
		{10, 0, 22000, false, true, "11 (10.0.22000)"},
		{10, 0, 26100, false, true, "11 (10.0.26100)"},
		{10, 0, 17763, true, true, "Server 2019 (10.0.17763)"},
		{10, 0, 20348, true, true, "Server 2022 (10.0.20348)"},
		{10, 0, 14393, true, true, "Server 2016 (10.0.14393)"},
		{11, 0, 30000, false, true, "11.0.30000"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		vb_os_win_version_name(cases[i].major, cases[i].minor, cases[i].build, cases[i].server,
				       cases[i].x64, out, sizeof out);
		assert_string_equal(out, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_labels),
		cmocka_unit_test(test_fs_labels),
		cmocka_unit_test(test_in_use_decision),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_handle_kinds),
		cmocka_unit_test(test_components),
		cmocka_unit_test(test_nt_create),
		cmocka_unit_test(test_long_paths),
		cmocka_unit_test(test_volume_devices),
		cmocka_unit_test(test_version_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
