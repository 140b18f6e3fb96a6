/* The default label made from what the platform layer detected. */
#include "vb_test.h"
#include <stdio.h>
#include <string.h>
#include "common/vb_env.h"

static void label_of(const char *fs, const char *driver, char *buf, size_t n)
{
	struct vb_env e;

	memset(&e, 0, sizeof e);
	snprintf(e.fs, sizeof e.fs, "%s", fs);
	snprintf(e.driver, sizeof e.driver, "%s", driver);
	vb_env_label(&e, buf, n);
}

static void test_label(void **state)
{
	static const char *const cases[][3] = {
		{"ext4", "virtio_blk", "ext4-virtio_blk"}, {"tmpfs", "none", "tmpfs"},
		{"zfs", "unknown", "zfs"}, {"none", "virtio_blk", "raw-virtio_blk"},
		{"none", "unknown", "raw"}, {"unknown", "unknown", "unknown"},
		{"", "", "unknown"}, {"unknown", "nvme", "unknown-nvme"},
		{"fuse.sshfs", "none", "fuse.sshfs"}, {"my fs", "dr:v/x", "my_fs-dr_v_x"},
		{"ext4", "sd/ata_piix", "ext4-sd_ata_piix"}, {"caf\xc3\xa9", "a,b\"c", "caf__-a_b_c"},
		{"hammer2", "virtio_blk", "hammer2-virtio_blk"}, {"ntfs", "viostor", "ntfs-viostor"},
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		label_of(cases[i][0], cases[i][1], buf, sizeof buf);
		assert_string_equal(buf, cases[i][2]);
	}
}

static void test_label_truncates(void **state)
{
	char buf[8];

	(void)state;
	label_of("ext4", "virtio_blk", buf, 5);
	assert_string_equal(buf, "ext4");
	label_of("ext4", "virtio_blk", buf, 8);
	assert_string_equal(buf, "ext4-vi");
	label_of("ext4", "virtio_blk", buf, 1);
	assert_string_equal(buf, "");
	buf[0] = 'x';
	label_of("ext4", "virtio_blk", buf, 0);
	assert_int_equal(buf[0], 'x');
}

/* Issue 22: what the header calls the writes follows what the platform found. */
static void test_io_mode(void **state)
{
	struct vb_env e;

	(void)state;
	memset(&e, 0, sizeof e);
	assert_string_equal(vb_io_mode(&e, false, false, 0, false), "buffered I/O");
	assert_string_equal(vb_io_mode(&e, true, false, 0, false), "direct I/O");
	e.cache = VB_CACHE_NONE;
	assert_string_equal(vb_io_mode(&e, false, false, 0, false), "raw disk I/O (never cached)");
	assert_null(strstr(vb_io_mode(&e, true, false, 0, false), "buffer"));
	e.cache = VB_CACHE_FS_BUFFERS;
	assert_string_equal(vb_io_mode(&e, false, false, 0, false), "buffered I/O");
	assert_string_equal(vb_io_mode(&e, true, true, 1, false),
			    "direct requested; this file system buffers it");
	e.cache = VB_CACHE_FS_BUFFERS_EXTENDING;
	assert_string_equal(vb_io_mode(&e, false, false, 0, false), "buffered I/O");
	assert_non_null(strstr(vb_io_mode(&e, true, false, 0, false),
			       "direct requested; this file system buffers it"));
	assert_non_null(strstr(vb_io_mode(&e, true, true, 0, false), "first run extends the file"));
	assert_string_equal(vb_io_mode(&e, true, true, 1, false),
			    "direct I/O (in place: the warm-up wrote the file)");
	/* vbench wrote the file before the clock: every measured write is in place. */
	assert_string_equal(vb_io_mode(&e, true, false, 0, true),
			    "direct I/O (in place: the file was written once before the clock, "
			    "as this file system buffers direct writes that extend a file)");
	assert_string_equal(vb_io_mode(&e, false, false, 0, true), "buffered I/O");
	e.cache = VB_CACHE_FS_MAY_BUFFER;
	assert_string_equal(vb_io_mode(&e, true, false, 0, false),
			    "direct requested; this file system may buffer it");
	assert_string_equal(vb_io_mode(&e, false, false, 0, false), "buffered I/O");
	e.cache = VB_CACHE_AS_ASKED;
	assert_string_equal(vb_io_mode(&e, true, false, 0, true), "direct I/O");
}

/* A label naming another file system than the target's is told; the same file system
 * by another system's name is not (issue 32: a failed mount measured the root disk). */
static void test_label_names_other_fs(void **state)
{
	static const struct { const char *label, *fs, *word; } cases[] = {
		{"xfs", "ext4", "xfs"},
		{"ext4-virtio_blk", "ext4", NULL},
		{"ext4", "ext2fs", NULL},          /* FreeBSD's ext2fs reads ext4 */
		{"ffs-wd0", "ufs", NULL},          /* NetBSD's FFS is UFS */
		{"XFS on nvme", "xfs", NULL},
		{"ext4-vs-xfs", "xfs", NULL},      /* one of the names is the one measured */
		{"btrfs", "unknown", "btrfs"},
		{"my-disk", "ext4", NULL},
		{"fast-zfs-pool", "ZFS", NULL},
		{"ntfs", "NTFS", NULL},
		{"FAT32-stick", "vfat", NULL},
		{"fast", "ext4", NULL},
		{"xfs2", "ext4", NULL},            /* no such type: a word of its own */
		{"virtio hammer2", "hammer", "hammer2"},
		{"vm1/ufs/ada0", "zfs", "ufs"},
		{"", "ext4", NULL},
	};
	char word[64];
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool got = vb_label_names_other_fs(cases[i].label, cases[i].fs, word, sizeof word);
		if (got != (cases[i].word != NULL))
			fail_msg("\"%s\" on %s: %d", cases[i].label, cases[i].fs, got);
		if (got)
			assert_string_equal(word, cases[i].word);
	}
}

/* ZFS alone takes O_DIRECT as a hint and still caches, whichever system names it. */
static void test_direct_may_cache(void **state)
{
	(void)state;
	assert_true(vb_fs_direct_may_cache("zfs"));
	assert_false(vb_fs_direct_may_cache("ufs"));
	assert_false(vb_fs_direct_may_cache("ext4"));
	assert_false(vb_fs_direct_may_cache("btrfs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_label_truncates),
		cmocka_unit_test(test_io_mode),
		cmocka_unit_test(test_label_names_other_fs),
		cmocka_unit_test(test_direct_may_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
