/* The pure rules of the BSD backend, checked wherever the tests run: disk names and
 * their drivers, partitions, slices and labels to their disk, filesystem names, and the
 * in-use decision fed with what getmntinfo, swap and GEOM would report. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>

#include "vb_test.h"

static void test_driver_names(void **state)
{
	static const char *const cases[][2] = {
		{"vtbd0", "virtio_blk"}, {"vtbd1p2", "virtio_blk"}, {"vbd0s1d", "virtio_blk"},
		{"xbd0", "xbd"}, {"ada0p2", "ata"}, {"ad4s1a", "ata"}, {"wd0a", "ata"},
		{"rwd0d", "ata"}, {"da0", "scsi"}, {"sd0a", "scsi"}, {"rsd1c", "scsi"},
		{"ld0e", "ld"}, {"nvd0", "nvme"}, {"nda0p1", "nvme"}, {"nvme0s1a", "nvme"},
		{"md0", "md"}, {"vnd0a", "vnd"}, {"/dev/ada1", "ata"}, {"dk3", "dk"},
		{"disk1s1", "unknown"}, {"r", "unknown"}, {"", "unknown"}, {"0", "unknown"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(vb_bsd_driver_for_name(cases[i][0]), cases[i][1]) != 0)
			fail_msg("%s: %s, want %s", cases[i][0], vb_bsd_driver_for_name(cases[i][0]),
				 cases[i][1]);
	assert_string_equal(vb_bsd_driver_for_name(NULL), "unknown");
}

/* Partitions (GPT p2), slices (s1) with their labels (s1a), label partitions (a) and
 * raw twins (r...) all lie on one whole disk. */
static void test_partition_to_disk(void **state)
{
	static const char *const cases[][2] = {
		{"vtbd0p2", "vtbd0"}, {"ada0s1a", "ada0"}, {"ada0s1", "ada0"}, {"ada0", "ada0"},
		{"wd0a", "wd0"}, {"rwd1d", "wd1"}, {"sd2e", "sd2"}, {"da10p15", "da10"},
		{"vbd0s1d", "vbd0"}, {"nvd0p1", "nvd0"}, {"nda1", "nda1"}, {"ld0", "ld0"},
		{"/dev/ada3p4", "ada3"}, {"nvme0s1a", "nvme0"},
	};
	static const char *const not_disks[] = {
		"", "ada", "gpt/rootfs", "zroot/ROOT", "ada0x", "ada0s", "ada0s1az", "tmpfs",
		"vtbd0q1", "diskid/DISK-1",
	};
	char disk[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (!vb_bsd_disk_of(cases[i][0], disk, sizeof disk))
			fail_msg("%s: not a disk name", cases[i][0]);
		assert_string_equal(disk, cases[i][1]);
	}
	for (size_t i = 0; i < sizeof not_disks / sizeof not_disks[0]; i++)
		if (vb_bsd_disk_of(not_disks[i], disk, sizeof disk))
			fail_msg("%s taken for disk %s", not_disks[i], disk);
	assert_true(vb_bsd_source_on_disk("/dev/ada0p2", "ada0"));
	assert_false(vb_bsd_source_on_disk("/dev/ada10p2", "ada1"));
	assert_false(vb_bsd_source_on_disk("ada0p2", "ada0"));
	assert_false(vb_bsd_source_on_disk("/dev/gpt/rootfs", "ada0"));
}

static void test_fs_names(void **state)
{
	static const char *const cases[][2] = {
		{"ufs", "ufs"}, {"zfs", "zfs"}, {"hammer", "hammer"}, {"hammer2", "hammer2"},
		{"ffs", "ffs"}, {"tmpfs", "tmpfs"}, {"msdosfs", "msdosfs"}, {"msdos", "msdosfs"},
		{"ext2fs", "ext2fs"}, {"nfs", "nfs"}, {"fusefs.sshfs", "fusefs.sshfs"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(vb_bsd_fs_name(cases[i][0]), cases[i][1]);
	assert_true(vb_fs_direct_may_cache("zfs"));
	assert_false(vb_fs_direct_may_cache("ufs"));
	assert_false(vb_fs_direct_may_cache("ext4"));
}

/* What getmntinfo and swap report, as the backend hands it over. */
static const struct vb_bsd_use uses[] = {
	{"/dev/ada0p2", "/", "ada0"},
	{"/dev/gpt/data", "/data", "ada1"},
	{"zroot/usr", "/usr", NULL},
	{"tmpfs", "/tmp", NULL},
	{"/dev/vtbd1p3", "swap", "vtbd1"},
};

static void test_in_use_decision(void **state)
{
	char holder[256];

	(void)state;
	assert_int_equal(vb_bsd_in_use(uses, 5, "ada0", holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/ada0p2 is mounted on /");
	assert_int_equal(vb_bsd_in_use(uses, 5, "ada1", holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/gpt/data is mounted on /data");
	assert_int_equal(vb_bsd_in_use(uses, 5, "vtbd1", holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/vtbd1p3 is used as swap");
	assert_int_equal(vb_bsd_in_use(uses, 5, "vtbd2", holder, sizeof holder), 0);
	assert_int_equal(vb_bsd_in_use(uses, 0, "ada0", holder, sizeof holder), 0);
	/* A device in use that could not be resolved might be the disk: fail closed. */
	const struct vb_bsd_use odd[] = {{"/dev/mirror/gm0", "/home", NULL}};
	assert_int_equal(vb_bsd_in_use(odd, 1, "ada2", holder, sizeof holder), -1);
	assert_non_null(strstr(holder, "/dev/mirror/gm0"));
}

static const char conftxt[] =
	"0 DISK ada0 21474836480 512 hd 16 sc 63\n"
	"1 PART ada0p3 2147483648 512 i 3 o 19327401984 ty freebsd-swap\n"
	"1 PART ada0p2 19327352832 512 i 2 o 20480 ty freebsd-ufs\n"
	"2 LABEL gpt/rootfs 19327352832 512 i 0 o 0\n"
	"1 PART ada0p1 524288 512 i 1 o 20480 ty freebsd-boot\n"
	"0 DISK vtbd1 1073741824 512 hd 16 sc 63\n"
	"1 LABEL diskid/DISK-BHYVE 1073741824 512 i 0 o 0\n";

static void test_geom_names_to_disks(void **state)
{
	char disk[64];

	(void)state;
	assert_true(vb_bsd_geom_disk(conftxt, "gpt/rootfs", disk, sizeof disk));
	assert_string_equal(disk, "ada0");
	assert_true(vb_bsd_geom_disk(conftxt, "ada0p3", disk, sizeof disk));
	assert_string_equal(disk, "ada0");
	assert_true(vb_bsd_geom_disk(conftxt, "diskid/DISK-BHYVE", disk, sizeof disk));
	assert_string_equal(disk, "vtbd1");
	assert_true(vb_bsd_geom_disk(conftxt, "vtbd1", disk, sizeof disk));
	assert_string_equal(disk, "vtbd1");
	assert_false(vb_bsd_geom_disk(conftxt, "ada9", disk, sizeof disk));
	assert_false(vb_bsd_geom_disk("", "ada0", disk, sizeof disk));
}

static const char confxml[] =
	"<?xml version=\"1.0\"?>\n<mesh>\n"
	" <class id=\"0x1\"><name>DISK</name>\n"
	"  <geom id=\"0x10\"><class ref=\"0x1\"/><name>ada0</name><rank>1</rank>\n"
	"   <provider id=\"0x100\"><geom ref=\"0x10\"/><mode>r2w2e5</mode><name>ada0</name>"
	"<mediasize>21474836480</mediasize></provider>\n  </geom>\n"
	"  <geom id=\"0x11\"><class ref=\"0x1\"/><name>ada1</name><rank>1</rank>\n"
	"   <provider id=\"0x101\"><geom ref=\"0x11\"/><mode>r1w1e0</mode><name>ada1</name>"
	"</provider>\n  </geom>\n </class>\n"
	" <class id=\"0x2\"><name>PART</name>\n"
	"  <geom id=\"0x20\"><class ref=\"0x2\"/><name>ada0</name><rank>2</rank>\n"
	"   <config><scheme>GPT</scheme></config>\n"
	"   <consumer id=\"0x200\"><geom ref=\"0x20\"/><provider ref=\"0x100\"/>"
	"<mode>r2w2e5</mode></consumer>\n"
	"   <provider id=\"0x201\"><geom ref=\"0x20\"/><mode>r1w1e1</mode><name>ada0p2</name>"
	"</provider>\n"
	"   <provider id=\"0x202\"><geom ref=\"0x20\"/><mode>r1w1e0</mode><name>ada0p3</name>"
	"</provider>\n  </geom>\n"
	"  <geom id=\"0x21\"><class ref=\"0x2\"/><name>ada1</name><rank>2</rank>\n"
	"   <consumer id=\"0x210\"><geom ref=\"0x21\"/><provider ref=\"0x101\"/>"
	"<mode>r0w0e0</mode></consumer>\n"
	"   <provider id=\"0x211\"><geom ref=\"0x21\"/><mode>r0w0e0</mode><name>ada1p1</name>"
	"</provider>\n  </geom>\n </class>\n"
	" <class id=\"0x3\"><name>SWAP</name>\n"
	"  <geom id=\"0x30\"><class ref=\"0x3\"/><name>swap</name>\n"
	"   <consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x202\"/>"
	"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n"
	" <class id=\"0x4\"><name>DEV</name>\n"
	"  <geom id=\"0x40\"><class ref=\"0x4\"/><name>ada1</name>\n"
	"   <consumer id=\"0x400\"><geom ref=\"0x40\"/><provider ref=\"0x101\"/>"
	"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n"
	"</mesh>\n";

/* GEOM: a disk with a swap partition is held (by the swap, the deepest holder); a disk
 * only a device node has open (vbench itself) is free. */
static void test_geom_consumers(void **state)
{
	char holder[256];

	(void)state;
	assert_int_equal(vb_bsd_geom_busy(confxml, "ada0", holder, sizeof holder), 1);
	assert_string_equal(holder, "ada0p3 is held by GEOM class SWAP (swap, access r1w1e0)");
	assert_int_equal(vb_bsd_geom_busy(confxml, "ada1", holder, sizeof holder), 0);
	assert_int_equal(vb_bsd_geom_busy(confxml, "ada9", holder, sizeof holder), 0);
	assert_int_equal(vb_bsd_geom_busy("<mesh></mesh>", "ada0", holder, sizeof holder), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_names),
		cmocka_unit_test(test_partition_to_disk),
		cmocka_unit_test(test_fs_names),
		cmocka_unit_test(test_in_use_decision),
		cmocka_unit_test(test_geom_names_to_disks),
		cmocka_unit_test(test_geom_consumers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
