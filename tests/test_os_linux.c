/* The Linux platform layer against a fake /proc and /sys tree built in a temporary
 * directory, shaped like the real sysfs (device links, driver links, partitions inside
 * their disks, holders, loop devices): environment detection and the in-use decision;
 * plus a few checks against the machine the tests run on. */
#include "os/os_internal.h"

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sys/sysmacros.h>)
#include <sys/sysmacros.h>
#endif
#endif

#include <fcntl.h>

#include <pthread.h>
#include <time.h>

#include "vb_test.h"
#include "common/vb_env.h"
#include "common/vb_escape.h"
#include "common/vb_io.h"
#include "os/vb_os.h"

#if VB_OS_LINUX

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define VIRTIO "sys/devices/pci0000:00/0000:00:02.0"
#define AHCI "sys/devices/pci0000:00/0000:00:1f.2"
#define SDA AHCI "/ata1/host0/target0:0:0/0:0:0:0"
#define SDB "sys/devices/platform/host1/target1:0:0/1:0:0:0"
#define NVME "sys/devices/pci0000:00/0000:00:04.0"
#define VIRT "sys/devices/virtual/block"

/* One line longer than any fixed buffer a reader might use, as overlayfs writes them. */
static char long_line[12000];

static const char mountinfo[] =
	"21 26 0:20 / /proc rw,relatime - proc proc rw\n"
	"garbage\n"
	"\n"
	"1 2 x:y / /bad rw - ext4 /dev/bad rw\n"
	"3 4 8:0 / /nosep rw shared:1\n"
	"5 6 7:9 / /nofs rw -\n"
	"26 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	"27 26 254:0 / /data rw,relatime master:3 - ext4 /dev/vda rw\n"
	"28 26 7:0 / /mnt/loop rw - ext2 /dev/loop0 rw\n"
	"29 26 0:22 / /tmp rw,nosuid - tmpfs tmpfs rw,size=8m\n"
	"30 26 8:1 / /mnt/my\\040disk rw shared:4 master:2 - xfs /dev/sda1 rw\n"
	"31 26 259:1 / /nvme rw - ext4 /dev/nvme0n1p1 rw\n"
	"32 27 254:0 /sub /data/bind rw - ext4 /dev/vda rw\n"
	"33 26 8:16 / /mnt/sdb rw - ext4 /dev/sdb rw\n"
	"34 26 253:0 / /dm rw - xfs /dev/mapper/vg-root rw\n"
	"35 26 8:32 / /mnt/sdc rw - ext4 /dev/sdc rw\n"
	"36 26 0:40 / /dup rw - tmpfs first rw\n"
	"37 26 0:40 / /dup rw - tmpfs second rw\n"
	"38 26 0:41 / /mnt/back\\134slash rw - vfat /dev/fake rw\n"
	"40 26 0:76 / /srv/vol rw - btrfs /dev/sdb rw\n";

static const char *const files[][2] = {
	{"proc/meminfo", "MemTotal:        2048 kB\nMemFree:          512 kB\n"},
	{VIRTIO "/virtio1/block/vda/queue/logical_block_size", "512\n"},
	{VIRTIO "/virtio1/block/vda/queue/physical_block_size", "4096\n"},
	{VIRTIO "/virtio1/block/vda/vda1/partition", "1\n"},
	{VIRT "/loop0/queue/logical_block_size", "512\n"},
	{VIRT "/loop0/queue/physical_block_size", "512\n"},
	{VIRT "/loop1/queue/logical_block_size", "abc\n"},
	{VIRT "/loop1/queue/physical_block_size", "99999999999\n"},
	{VIRT "/loop0/loop/dio", "0\n"},
	{VIRT "/loop1/loop/dio", "1\n"},
	{VIRT "/dm-0/queue/logical_block_size", "512\n"},
	{SDA "/block/sda/queue/logical_block_size", "512\n"},
	{SDA "/block/sda/queue/physical_block_size", "512\n"},
	{SDA "/block/sda/sda1/partition", "1\n"},
	{SDB "/block/sdb/queue/logical_block_size", "4096\n"},
	{NVME "/nvme/nvme0/nvme0n1/queue/logical_block_size", "4096\n"},
	{NVME "/nvme/nvme0/nvme0n1/queue/physical_block_size", "4096\n"},
	{NVME "/nvme/nvme0/nvme0n1/nvme0n1p1/partition", "1\n"},
	{"sys/devices/virtual/misc/lonely/x", ""},
	{VIRTIO "/virtio1/block/vda/vda1/dev", "254:1\n"},
	{VIRT "/dm-0/dm/name", "vg-root\n"},
	{"images/a.img", "disk image\n"},
	{"images/b.img", "other image\n"},
	{"images/swapfile", "swap\n"},
	{"proc/locks", ""},
	/* an overlay mount at /ov over the layers /lower and /upper: the same image seen
	 * through the overlay (ov/x.img) and in its upper layer (upper/x.img) */
	{"upper/x.img", "image\n"},
	{"ov/x.img", "image, as the overlay shows it\n"},
	{"lower/y.img", "lower\n"},
	{"ov/y.img", "lower, as the overlay shows it\n"},
	{"l:o/z.img", "in a lower layer with a ':' in its name\n"},
	{"ov/z.img", "z, as the overlay shows it\n"},
	{"c,d/w.img", "in an upper layer with a ',' in its name\n"},
	{"ov/w.img", "w, as the overlay shows it\n"},
	{"images/with space.img", "an erofs image\n"},
	{"b\\s/v.img", "in a lower layer with a backslash in its name\n"},
	{"ov/v.img", "v, as the overlay shows it\n"},
	{"top/y.img", "y, as an overlay over the overlay shows it\n"},
	{"sys/block/loop0/loop/backing_file", "/images/a.img\n"},
	{"sys/block/loop5/queue/logical_block_size", "512\n"},
	{"proc/swaps", "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n"
		"/images/swapfile                        file\t\t1024\t0\t-2\n"},
	{SDA "/block/sda/dev", "8:0\n"},
};

/* Link, target: relative targets exactly as the kernel writes them. */
static const char *const links[][2] = {
	{"sys/dev/block/254:0", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda"},
	{"sys/dev/block/254:1", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1"},
	{VIRTIO "/virtio1/block/vda/device", "../../../virtio1"},
	{VIRTIO "/virtio1/driver", "../../../../bus/virtio/drivers/virtio_blk"},
	{VIRTIO "/driver", "../../../bus/pci/drivers/virtio-pci"},
	{"sys/dev/block/7:0", "../../devices/virtual/block/loop0"},
	{"sys/dev/block/7:1", "../../devices/virtual/block/loop1"},
	{"sys/dev/block/253:0", "../../devices/virtual/block/dm-0"},
	{"sys/dev/block/8:0", "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
		"0:0:0:0/block/sda"},
	{"sys/dev/block/8:1", "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
		"0:0:0:0/block/sda/sda1"},
	{SDA "/block/sda/device", "../../../0:0:0:0"},
	{SDA "/driver", "../../../../../../../bus/scsi/drivers/sd"},
	{AHCI "/driver", "../../../bus/pci/drivers/ahci"},
	{"sys/dev/block/8:16", "../../devices/platform/host1/target1:0:0/1:0:0:0/block/sdb"},
	{SDB "/block/sdb/device", "../../../1:0:0:0"},
	{SDB "/driver", "../../../../../bus/scsi/drivers/sd"},
	{"sys/dev/block/259:0", "../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1"},
	{"sys/dev/block/259:1", "../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1/"
		"nvme0n1p1"},
	{NVME "/nvme/nvme0/nvme0n1/device", "../../nvme0"},
	{NVME "/driver", "../../../bus/pci/drivers/nvme"},
	{"sys/dev/block/9:9", "../../devices/virtual/misc/lonely/missing"},
	{SDA "/block/sda/holders/dm-0", "../../../../../../../../virtual/block/dm-0"},
	{VIRT "/dm-0/slaves/sda", "../../../../pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
		"0:0:0:0/block/sda"},
};

static char root[PATH_MAX];
static char bad_root[PATH_MAX];

/* Writes base/rel into path; -1 when it does not fit. */
static int path_of(char *path, const char *base, const char *rel)
{
	int len = snprintf(path, PATH_MAX, "%s/%s", base, rel);

	return len < 0 || len >= PATH_MAX ? -1 : 0;
}

/* Creates every directory leading to the file rel under base. */
static void make_parents(const char *base, const char *rel)
{
	char path[PATH_MAX];
	char *p;

	if (path_of(path, base, rel) != 0)
		return;
	for (p = path + strlen(base) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static int put(const char *base, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	make_parents(base, rel);
	if (path_of(path, base, rel) != 0 || !(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int link_to(const char *base, const char *rel, const char *target)
{
	char path[PATH_MAX];

	make_parents(base, rel);
	return path_of(path, base, rel) == 0 ? symlink(target, path) : -1;
}

/* Appends an overlay mount whose super options run past any small line buffer. */
static int put_mountinfo(void)
{
	static const char head[] = "39 26 0:50 / /over rw - overlay overlay rw,lowerdir=/";
	char *text;
	size_t n = sizeof mountinfo + sizeof head + sizeof long_line;
	int rc = -1;

	memset(long_line, 'a', sizeof long_line - 1);
	long_line[sizeof long_line - 1] = '\0';
	if (!(text = malloc(n)))
		return -1;
	if (snprintf(text, n, "%s%s%s\n", mountinfo, head, long_line) == (int)n - 2)
		rc = put(root, "proc/self/mountinfo", text);
	free(text);
	return rc;
}

static int build_bad_root(void)
{
	if (path_of(bad_root, root, "bad") != 0 || mkdir(bad_root, 0755) != 0)
		return -1;
	if (put(bad_root, "proc/self/mountinfo", "nonsense\n- - -\n1 2 3\n") != 0)
		return -1;
	return put(bad_root, "proc/meminfo", "MemTotal: lots kB\n");
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof root, "%s/vbench-env.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(root) || put_mountinfo() != 0)
		return -1;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (put(root, files[i][0], files[i][1]) != 0)
			return -1;
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
		if (link_to(root, links[i][0], links[i][1]) != 0)
			return -1;
	return build_bad_root();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Detects the target at path on device major:minor of the fake tree. */
static void detect(struct vb_env *e, const char *path, unsigned major, unsigned minor)
{
	struct vb_fileinfo fi = {VB_FT_DIR, makedev(major, minor), 1, 0, 1, 0, 0};

	memset(e, 0x5a, sizeof *e);
	vb_os_env_reset(e);
	vb_os_linux_detect(e, root, path, &fi);
}

/* Detects a block device major:minor of the fake tree given as the target itself. */
static void detect_raw(struct vb_env *e, const char *path, unsigned major, unsigned minor)
{
	struct vb_fileinfo fi = {VB_FT_BLK, 1, 1, makedev(major, minor), 1, 0, 0};

	vb_os_env_reset(e);
	vb_os_linux_detect(e, root, path, &fi);
}

static void test_virtio_partition(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	detect(&e, "/home/user/bench.dat", 254, 1);
	assert_string_equal(e.fs, "ext4");
	assert_string_equal(e.mount, "/");
	assert_string_equal(e.device, "vda1");
	assert_string_equal(e.driver, "virtio_blk");
	assert_int_equal(e.logical_block, 512);
	assert_int_equal(e.physical_block, 4096);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "ext4-virtio_blk");
}

static void test_virtio_disk(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/data/x", 254, 0);
	assert_string_equal(e.fs, "ext4");
	assert_string_equal(e.mount, "/data");
	assert_string_equal(e.device, "vda");
	assert_string_equal(e.driver, "virtio_blk");
	assert_int_equal(e.logical_block, 512);
}

/* The same device mounted twice: the deepest mount holding the path wins, and without a
 * path the last one listed. */
static void test_deepest_then_last_mount(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/data/bind/f", 254, 0);
	assert_string_equal(e.mount, "/data/bind");
	detect(&e, "/data/binder", 254, 0);
	assert_string_equal(e.mount, "/data");
	detect(&e, "/elsewhere", 254, 0);
	assert_string_equal(e.mount, "/data/bind");
	detect(&e, "/dup/f", 0, 40);
	assert_string_equal(e.device, "second");
}

static void test_loop(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	detect(&e, "/mnt/loop", 7, 0);
	assert_string_equal(e.fs, "ext2");
	assert_string_equal(e.mount, "/mnt/loop");
	assert_string_equal(e.device, "loop0");
	assert_string_equal(e.driver, "loop");
	assert_int_equal(e.logical_block, 512);
	assert_int_equal(e.physical_block, 512);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "ext2-loop");
	/* loop0 has no direct I/O on its backing file (loop/dio 0): said; loop1 has it */
	assert_string_equal(e.loop_buffered, "loop0");
	detect_raw(&e, "/dev/loop0", 7, 0);
	assert_string_equal(e.loop_buffered, "loop0");
	detect_raw(&e, "/dev/loop1", 7, 1);
	assert_string_equal(e.loop_buffered, "");
	detect(&e, "/data/x", 254, 0);
	assert_string_equal(e.loop_buffered, "");
}

/* In a chroot the mount holding the target is not listed in mountinfo: the disk, its
 * driver and block sizes still come from the file's own device through sysfs, and only
 * the file system and mount point stay unknown. */
static void test_chroot_device_from_st_dev(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	detect(&e, "/srv/chroot/var/tmp", 8, 0);
	assert_string_equal(e.fs, "unknown");
	assert_string_equal(e.mount, "unknown");
	assert_string_equal(e.device, "sda");
	assert_string_equal(e.driver, "sd/ahci");
	assert_int_equal(e.logical_block, 512);
	assert_int_equal(e.physical_block, 512);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "unknown-sd_ahci");
	detect(&e, "/srv/chroot/var/tmp", 254, 1);   /* listed: found as before */
	assert_string_equal(e.fs, "ext4");
}

/* The file system vb_os_linux_fs_unlisted names by magic where nothing was known, or
 * NULL. */
static const char *fs_by_magic(uint64_t magic)
{
	static struct vb_env e;

	vb_os_env_reset(&e);
	vb_os_linux_fs_unlisted(&e, magic);
	return strcmp(e.fs, "unknown") != 0 ? e.fs : NULL;
}

/* Issue 37: in a chroot statfs's magic still names the file system, as far as the magic
 * can: ext2, ext3 and ext4 share 0xEF53. A magic not known, or a mount that is listed,
 * changes nothing; tmpfs and ramfs found that way are memory too. */
static void test_chroot_fs_by_magic(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	assert_string_equal(fs_by_magic(0xEF53), "ext2/3/4");
	assert_string_equal(fs_by_magic(0x58465342), "xfs");
	assert_string_equal(fs_by_magic(0x9123683E), "btrfs");
	assert_string_equal(fs_by_magic(0x01021994), "tmpfs");
	assert_string_equal(fs_by_magic(0x858458f6), "ramfs");
	assert_null(fs_by_magic(0x12345678));
	detect(&e, "/srv/chroot/var/tmp", 8, 0);
	vb_os_linux_fs_unlisted(&e, 0xEF53);
	assert_string_equal(e.fs, "ext2/3/4");
	assert_string_equal(e.mount, "unknown");
	assert_false(e.fs_in_memory);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "ext2_3_4-sd_ahci");
	detect(&e, "/srv/chroot/var/tmp", 8, 0);
	vb_os_linux_fs_unlisted(&e, 0x12345678);
	assert_string_equal(e.fs, "unknown");
	detect(&e, "/srv/chroot/var/tmp", 8, 0);
	vb_os_linux_fs_unlisted(&e, 0x01021994);
	assert_string_equal(e.fs, "tmpfs");
	assert_true(e.fs_in_memory);
	detect(&e, "/srv/chroot/var/tmp", 254, 1);   /* listed: mountinfo's name stays */
	vb_os_linux_fs_unlisted(&e, 0x58465342);
	assert_string_equal(e.fs, "ext4");
}

static void test_tmpfs(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	detect(&e, "/tmp/a b", 0, 22);
	assert_string_equal(e.fs, "tmpfs");
	assert_true(e.fs_in_memory);   /* issue 37: memory, said in a note */
	assert_string_equal(e.mount, "/tmp");
	assert_string_equal(e.device, "tmpfs");
	assert_string_equal(e.driver, "none");
	assert_int_equal(e.logical_block, 0);
	assert_int_equal(e.physical_block, 0);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "tmpfs");
}

/* A SCSI disk reports its disk driver and, found by walking up sysfs, its host adapter's;
 * the mount point also carries an escaped space. */
static void test_scsi_on_ahci(void **state)
{
	struct vb_env e;
	char label[64];

	(void)state;
	detect(&e, "/mnt/my disk/f", 8, 1);
	assert_string_equal(e.fs, "xfs");
	assert_string_equal(e.mount, "/mnt/my disk");
	assert_string_equal(e.device, "sda1");
	assert_string_equal(e.driver, "sd/ahci");
	assert_int_equal(e.logical_block, 512);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "xfs-sd_ahci");
}

static void test_scsi_without_host_driver(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/mnt/sdb", 8, 16);
	assert_string_equal(e.device, "sdb");
	assert_string_equal(e.driver, "sd");
	assert_int_equal(e.logical_block, 4096);
	assert_int_equal(e.physical_block, 0);
}

/* A mount source and mount point longer than vb_env keeps are cut at a whole character
 * and marked, never silently; no character is split (each field once odd, once even). */
static void test_long_text_cut_and_marked(void **state)
{
	static char line[4096], point[1400];
	char sub[PATH_MAX + 16], src[302];
	struct vb_env e;
	(void)state;

	memset(src, 's', sizeof src - 1);
	src[sizeof src - 1] = '\0';
	for (int pad = 0; pad < 2; pad++) {
		strcpy(point, pad ? "/mx" : "/m");
		while (strlen(point) + 2 < sizeof point)
			strcat(point, "\xc3\xa4");
		snprintf(sub, sizeof sub, "%s/cut%d", root, pad);
		assert_int_equal(mkdir(sub, 0755), 0);
		snprintf(line, sizeof line, "45 26 0:60 / %s rw - tmpfs %s rw\n", point, src);
		assert_int_equal(put(sub, "proc/self/mountinfo", line), 0);
		struct vb_fileinfo fi = {VB_FT_DIR, makedev(0, 60), 1, 0, 1, 0, 0};
		vb_os_env_reset(&e);
		vb_os_linux_detect(&e, sub, point, &fi);
		size_t dn = strlen(e.device), mn = strlen(e.mount), cn = strlen(VB_CUT_END);
		assert_true(dn > cn && dn < sizeof e.device);
		assert_string_equal(e.device + dn - cn, VB_CUT_END);
		assert_memory_equal(e.device, src, dn - cn);
		assert_true(mn > cn + 2 && mn < sizeof e.mount);
		assert_string_equal(e.mount + mn - cn - 2, "\xc3\xa4" VB_CUT_END);
		assert_memory_equal(e.mount, point, mn - cn);
	}
}

/* An NVMe namespace's device link leads to the controller, which has no driver; the PCI
 * function above it has. */
static void test_nvme(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/nvme", 259, 1);
	assert_string_equal(e.fs, "ext4");
	assert_string_equal(e.device, "nvme0n1p1");
	assert_string_equal(e.driver, "nvme");
	assert_int_equal(e.logical_block, 4096);
	assert_int_equal(e.physical_block, 4096);
}

static void test_device_mapper(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/dm", 253, 0);
	assert_string_equal(e.fs, "xfs");
	assert_string_equal(e.device, "dm-0");
	assert_string_equal(e.driver, "device-mapper");
}

static void test_escapes_and_long_lines(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/mnt/back\\slash", 0, 41);
	assert_string_equal(e.mount, "/mnt/back\\slash");
	assert_string_equal(e.fs, "vfat");
	/* A /dev source that is no block device under root still names the device. */
	assert_string_equal(e.device, "fake");
	assert_string_equal(e.driver, "unknown");
	detect(&e, "/over/x", 0, 50);
	assert_string_equal(e.fs, "overlay");
	assert_string_equal(e.device, "overlay");
}

/* A device number found in no mountinfo line (as in a chroot, where the mount holding
 * the root is not listed) has an "unknown" mount, not the deepest mount that happens to
 * cover the path; only btrfs, whose subvolumes have device numbers of their own, is
 * looked up by path. */
static void test_no_guess_by_path(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/mnt/loop/sub/vol", 0, 99);
	assert_string_equal(e.mount, "unknown");
	assert_string_equal(e.fs, "unknown");
	assert_string_equal(e.device, "unknown");
	detect(&e, "/srv/vol/sub/f", 0, 77);
	assert_string_equal(e.fs, "btrfs");
	assert_string_equal(e.mount, "/srv/vol");
	assert_string_equal(e.device, "sdb");
}

/* An unmounted device given as the target still has its sysfs facts; unreadable numbers
 * are 0. */
static void test_raw_device_garbage_sizes(void **state)
{
	struct vb_env e;

	(void)state;
	detect_raw(&e, "/dev/loop1", 7, 1);
	assert_string_equal(e.fs, "none");
	assert_string_equal(e.mount, "none");
	assert_string_equal(e.device, "loop1");
	assert_string_equal(e.driver, "loop");
	assert_int_equal(e.logical_block, 0);
	assert_int_equal(e.physical_block, 0);
	detect_raw(&e, "/dev/odd", 9, 9);
	assert_string_equal(e.device, "odd");
}

static void test_missing_sysfs(void **state)
{
	struct vb_env e;

	(void)state;
	detect(&e, "/mnt/sdc", 8, 32);
	assert_string_equal(e.fs, "ext4");
	assert_string_equal(e.device, "sdc");
	assert_string_equal(e.driver, "unknown");
	detect(&e, "/x", 9, 9);
	assert_string_equal(e.device, "unknown");
	assert_string_equal(e.driver, "unknown");
	detect(&e, "/x", 7, 9);
	assert_string_equal(e.fs, "unknown");
}

static void assert_all_unknown(const struct vb_env *e)
{
	assert_string_equal(e->fs, "unknown");
	assert_string_equal(e->mount, "unknown");
	assert_string_equal(e->device, "unknown");
	assert_string_equal(e->driver, "unknown");
	assert_int_equal(e->logical_block, 0);
	assert_int_equal(e->physical_block, 0);
}

static void test_garbage_and_missing(void **state)
{
	struct vb_env e;
	struct vb_fileinfo fi = {VB_FT_DIR, makedev(254, 0), 1, 0, 1, 0, 0};
	char label[64];

	(void)state;
	vb_os_env_reset(&e);
	vb_os_linux_detect(&e, bad_root, "/x", &fi);
	assert_all_unknown(&e);
	vb_os_linux_detect(&e, "/nonexistent-vbench-root", "/x", &fi);
	assert_all_unknown(&e);
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "unknown");
	assert_int_equal(vb_os_linux_meminfo(bad_root, "MemTotal"), 0);
	assert_int_equal(vb_os_linux_meminfo("/nonexistent-vbench-root", "MemTotal"), 0);
}

/* A fake system for vb_os_linux_frees_to_host under root/name: the reporting order (NULL:
 * no such file), /proc/buddyinfo with `orders` orders (0: no file), and virtio device
 * virtio0 of type dev with the features bit string feats (NULL: no device). */
static void fake_reporting(char *sub, const char *name, const char *order, int orders,
			   const char *dev, const char *feats)
{
	char line[256];
	int len;

	assert_int_equal(path_of(sub, root, name), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	if (order != NULL)
		assert_int_equal(put(sub, "sys/module/page_reporting/parameters/"
				      "page_reporting_order", order), 0);
	if (orders > 0) {
		len = snprintf(line, sizeof line, "Node 0, zone   Normal");
		for (int i = 0; i < orders; i++)
			len += snprintf(line + len, sizeof line - (size_t)len, " %6d", 100 - i);
		snprintf(line + len, sizeof line - (size_t)len, " \n");
		assert_int_equal(put(sub, "proc/buddyinfo", line), 0);
	}
	if (dev != NULL) {
		assert_int_equal(put(sub, "sys/bus/virtio/devices/virtio0/device", dev), 0);
		assert_int_equal(put(sub, "sys/bus/virtio/devices/virtio0/features", feats), 0);
	}
}

/* Free page reporting is on where a virtio balloon agreed to it (feature bit 5) and the
 * reporting order is below the allocator's largest: then every buffered run is warned. */
static void test_frees_to_host(void **state)
{
	static const char on[] = "0110010100000000000000000000000010000000\n";
	static const char off[] = "0110000100000000000000000000000010000000\n";
	static const struct {
		const char *name, *order;
		int orders;
		const char *dev, *feats;
		bool want;
	} cases[] = {
		{"fph-on", "9\n", 11, "0x0005\n", on, true},
		/* the kernel's largest order (10 here) still reports blocks of that order */
		{"fph-top", "10\n", 11, "0x0005\n", on, true},
		/* paused: no free block is that large */
		{"fph-paused", "11\n", 11, "0x0005\n", on, false},
		/* without /proc/buddyinfo a small order still counts as on */
		{"fph-nobuddy", "9\n", 0, "0x0005\n", on, true},
		/* a balloon that did not agree to it, another device with the bit, no device */
		{"fph-nofeat", "9\n", 11, "0x0005\n", off, false},
		{"fph-blk", "9\n", 11, "0x0002\n", on, false},
		{"fph-nodev", "9\n", 11, NULL, NULL, false},
		/* a kernel without page reporting, a knob without a number, short features */
		{"fph-noknob", NULL, 11, "0x0005\n", on, false},
		{"fph-garbage", "nine\n", 11, "0x0005\n", on, false},
		{"fph-short", "9\n", 11, "0x0005\n", "0110\n", false},
	};
	char sub[PATH_MAX];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fake_reporting(sub, cases[i].name, cases[i].order, cases[i].orders, cases[i].dev,
			       cases[i].feats);
		if (vb_os_linux_frees_to_host(sub) != cases[i].want)
			fail_msg("%s: expected %d", cases[i].name, cases[i].want);
	}
}

/* /proc/self/status as the kernel writes it, for the fsuid, fsgid, groups and caps. */
#define STATUS(uid, gid, groups, capeff) \
	"Name:\tvbench\nUmask:\t0022\nState:\tR (running)\nUid:\t" uid "\t" uid "\t" uid \
	"\t" uid "\nGid:\t" gid "\t" gid "\t" gid "\t" gid "\nFDSize:\t64\nGroups:\t" groups \
	" \nCapInh:\t0000000000000000\nCapPrm:\t" capeff "\nCapEff:\t" capeff "\n"
#define NO_SYS_RESOURCE "000001fffeffffff"   /* root on our machines: bit 24 clear */
#define ALL_CAPS "000001ffffffffff"
#define NO_CAPS "0000000000000000"
#define IDENTITY "         0          0 4294967295\n"

/* Who may use the blocks ext2/3/4 keep back (ext4_has_free_clusters): CAP_SYS_RESOURCE,
 * the fsuid resuid, or a group resgid other than 0; resuid and resgid are 0 unless the
 * mount options say otherwise. Everything else, and whatever cannot be read, is no. */
static void test_reserve_usable(void **state)
{
	static const struct {
		const char *name, *status, *uid_map, *line;
		bool want;
	} cases[] = {
		/* root without the capability: resuid 0 is still its own */
		{"rs-root", STATUS("0", "0", "", NO_SYS_RESOURCE), IDENTITY,
		 "45 27 7:0 / /m rw,relatime - ext4 /dev/loop0 rw\n", true},
		{"rs-root-resuid", STATUS("0", "0", "", NO_SYS_RESOURCE), IDENTITY,
		 "45 27 7:0 / /m rw,relatime - ext4 /dev/loop0 rw,resuid=65534\n", false},
		{"rs-cap", STATUS("0", "0", "", ALL_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw,resuid=65534\n", true},
		{"rs-user", STATUS("65534", "65534", "65534", NO_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", false},
		{"rs-user-resuid", STATUS("65534", "65534", "65534", NO_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext3 /dev/loop0 rw,resuid=65534,resgid=7\n", true},
		/* a supplementary group; the fsgid; group 0 grants nothing */
		{"rs-group", STATUS("1000", "1000", "10 100", NO_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext2 /dev/loop0 rw,resgid=100\n", true},
		{"rs-fsgid", STATUS("1000", "100", "", NO_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw,resgid=100\n", true},
		{"rs-group0", STATUS("1000", "0", "0", NO_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", false},
		/* a child user namespace mapping every id: the ids are the kernel's, its
		 * capabilities are not (capable() asks the initial namespace) */
		{"rs-childns-cap", STATUS("0", "0", "", ALL_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw,resuid=65534\n", false},
		{"rs-childns-root", STATUS("0", "0", "", ALL_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", true},
		/* in a user namespace neither the ids nor the capability are the kernel's */
		{"rs-userns", STATUS("0", "0", "", ALL_CAPS), "0 1000 1\n",
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", false},
		/* no user namespaces at all: the ids are the kernel's */
		{"rs-nons", STATUS("0", "0", "", NO_CAPS), NULL,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", true},
		/* another file system; another device; a value that is no number */
		{"rs-xfs", STATUS("0", "0", "", ALL_CAPS), IDENTITY,
		 "45 27 7:0 / /m rw - xfs /dev/loop0 rw\n", false},
		{"rs-otherdev", STATUS("0", "0", "", ALL_CAPS), IDENTITY,
		 "45 27 7:1 / /m rw - ext4 /dev/loop1 rw\n", false},
		{"rs-garbage", STATUS("0", "0", "", NO_SYS_RESOURCE), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw,resuid=x\n", false},
		/* a status without the capability line */
		{"rs-nocap", "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n", IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n", false},
		/* a bind mount of it under other options is one super block: both must agree */
		{"rs-two", STATUS("0", "0", "", NO_SYS_RESOURCE), IDENTITY,
		 "45 27 7:0 / /m rw - ext4 /dev/loop0 rw\n"
		 "46 27 7:0 /d /n rw - ext4 /dev/loop0 rw,resuid=1\n", false},
	};
	char sub[PATH_MAX];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(path_of(sub, root, cases[i].name), 0);
		assert_int_equal(mkdir(sub, 0755), 0);
		assert_int_equal(put(sub, "proc/self/status", cases[i].status), 0);
		assert_int_equal(put(sub, "proc/self/mountinfo", cases[i].line), 0);
		if (cases[i].uid_map != NULL) {
			assert_int_equal(put(sub, "proc/self/uid_map", cases[i].uid_map), 0);
			assert_int_equal(put(sub, "proc/self/gid_map", IDENTITY), 0);
			/* the initial user namespace's number, or a child's */
			assert_int_equal(link_to(sub, "proc/self/ns/user",
						 strncmp(cases[i].name, "rs-childns", 10) == 0 ?
						 "user:[4026532561]" : "user:[4026531837]"), 0);
		}
		assert_int_equal(link_to(sub, "sys/dev/block/7:0",
					 "../../devices/virtual/block/loop0"), 0);
		assert_int_equal(put(sub, "sys/devices/virtual/block/loop0/size", "131072\n"), 0);
		assert_int_equal(put(sub, "sys/fs/ext4/loop0/reserved_clusters", "1310\n"), 0);
		uint64_t kept = 99;
		if (vb_os_linux_reserve_usable(sub, makedev(7, 0), &kept) != cases[i].want)
			fail_msg("%s: expected %d", cases[i].name, cases[i].want);
		if (cases[i].want && kept != 1310)
			fail_msg("%s: %llu blocks kept back, expected 1310", cases[i].name,
				 (unsigned long long)kept);
	}
	/* nothing to read: no */
	uint64_t kept;
	assert_false(vb_os_linux_reserve_usable("/nonexistent-vbench-root", makedev(7, 0), &kept));
}

/* What ext4 keeps back even from those who may use the reserve (its reserved clusters)
 * must be known, or the reserve is not counted; the ext2 driver keeps nothing back. */
static void test_reserve_kept_back(void **state)
{
	static const struct {
		const char *name, *fs, *clusters;
		bool want;
		uint64_t kept;
	} cases[] = {
		{"rk-ext4", "ext4", "4096\n", true, 4096},
		{"rk-ext4-none", "ext4", NULL, false, 0},
		{"rk-ext4-garbage", "ext4", "12x\n", false, 0},
		{"rk-ext2", "ext2", NULL, true, 0},          /* the ext2 driver */
		{"rk-ext3", "ext3", "77\n", true, 77},       /* the ext4 driver's ext3 */
	};
	char sub[PATH_MAX], line[128];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(path_of(sub, root, cases[i].name), 0);
		assert_int_equal(mkdir(sub, 0755), 0);
		assert_int_equal(put(sub, "proc/self/status", STATUS("0", "0", "", NO_CAPS)), 0);
		snprintf(line, sizeof line, "45 27 8:1 / /m rw - %s /dev/vdb1 rw\n", cases[i].fs);
		assert_int_equal(put(sub, "proc/self/mountinfo", line), 0);
		assert_int_equal(link_to(sub, "sys/dev/block/8:1",
					 "../../devices/pci0000:00/vdb/vdb1"), 0);
		assert_int_equal(put(sub, "sys/devices/pci0000:00/vdb/vdb1/partition", "1\n"), 0);
		if (cases[i].clusters != NULL)
			assert_int_equal(put(sub, "sys/fs/ext4/vdb1/reserved_clusters",
					     cases[i].clusters), 0);
		uint64_t kept = 99;
		if (vb_os_linux_reserve_usable(sub, makedev(8, 1), &kept) != cases[i].want ||
		    (cases[i].want && kept != cases[i].kept))
			fail_msg("%s: expected %d with %llu kept back, got %llu", cases[i].name,
				 cases[i].want, (unsigned long long)cases[i].kept,
				 (unsigned long long)kept);
	}
}

/* RAM comes from meminfo; one reader serves MemTotal and MemAvailable. */
static void test_meminfo(void **state)
{
	(void)state;
	assert_int_equal(vb_os_linux_meminfo(root, "MemTotal"), 2048 * 1024);
	assert_int_equal(vb_os_linux_meminfo(root, "MemFree"), 512 * 1024);
	assert_int_equal(vb_os_linux_meminfo(root, "MemAvailable"), 0);
	assert_int_equal(vb_os_linux_meminfo(root, "Mem"), 0);
}

/* Host, system and kernel come from uname, RAM from the running system. */
static void test_system_facts(void **state)
{
	struct vb_env e;
	struct utsname u;
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(uname(&u), 0);
	vb_os_detect(&e, fd, "/");
	close(fd);
	assert_string_equal(e.host, u.nodename);
	assert_string_equal(e.os, u.sysname);
	assert_string_equal(e.kernel, u.release);
	assert_true(e.ram_bytes > 0);
}

/* Name of the driver behind the disk holding "/" here, read straight from sysfs, so the
 * real-machine test runs only where it can succeed. */
static int root_disk_driver(char *name, size_t n)
{
	static const char *const forms[] = {"%u:%u/device/driver", "%u:%u/../device/driver"};
	char rel[64], link[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t len;

	if (stat("/", &st) != 0)
		return -1;
	for (size_t i = 0; i < 2; i++) {
		snprintf(rel, sizeof rel, forms[i], major(st.st_dev), minor(st.st_dev));
		snprintf(link, sizeof link, "/sys/dev/block/%s", rel);
		len = readlink(link, target, sizeof target - 1);
		if (len > 0) {
			target[len] = '\0';
			len = snprintf(name, n, "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 :
					target);
			return len >= 0 && (size_t)len < n ? 0 : -1;
		}
	}
	return -1;
}

/* Whether /proc/self/mounts lists "/" as it is on the machine vbench was written on. */
static int root_is_ext4_on_vda(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mounts", "r");
	int yes = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "/dev/vda / ", 11) == 0)
			yes = strncmp(line + 11, "ext4 ", 5) == 0;
	fclose(f);
	return yes;
}

/* Whether this process sees a mount at "/" (a chroot on a subdirectory does not). */
static int root_is_a_mount(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int yes = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		char mnt[8];
		if (sscanf(line, "%*s %*s %*s %*s %7s", mnt) == 1 && strcmp(mnt, "/") == 0)
			yes = 1;
	}
	fclose(f);
	return yes;
}

static void test_real_root(void **state)
{
	struct vb_env e;
	char driver[64], label[128];

	(void)state;
	if (root_disk_driver(driver, sizeof driver) != 0 || strcmp(driver, "virtio_blk") != 0 ||
	    !root_is_a_mount()) {
		print_message("skip: / is not a mount on a virtio disk here (a chroot, a container "
			      "or another disk): real root detection\n");
		skip();
	}
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	vb_os_detect(&e, fd, "/");
	close(fd);
	assert_string_equal(e.mount, "/");
	assert_string_equal(e.driver, "virtio_blk");
	assert_memory_equal(e.device, "vd", 2);
	assert_true(e.logical_block >= 512);
	assert_true(e.ram_bytes > 0);
	if (root_is_ext4_on_vda()) {
		assert_string_equal(e.fs, "ext4");
		assert_string_equal(e.device, "vda");
		vb_env_label(&e, label, sizeof label);
		assert_string_equal(label, "ext4-virtio_blk");
	}
}

/* Only stats the node: a block device given as target is reported raw. */
static void test_real_raw_device(void **state)
{
	struct vb_env e;
	struct stat st;
	char label[128];

	(void)state;
	if (stat("/dev/loop0", &st) != 0 || !S_ISBLK(st.st_mode) ||
	    access("/sys/dev/block", F_OK) != 0) {
		print_message("skip: no /dev/loop0 or no /sys/dev/block here\n");
		skip();
	}
	int fd = open("/dev/loop0", O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		print_message("skip: /dev/loop0 cannot be opened\n");
		skip();
	}
	vb_os_detect(&e, fd, "/dev/loop0");
	close(fd);
	assert_string_equal(e.fs, "none");
	assert_string_equal(e.mount, "none");
	assert_string_equal(e.device, "loop0");
	assert_string_equal(e.driver, "loop");
	vb_env_label(&e, label, sizeof label);
	assert_string_equal(label, "raw-loop");
}

/* ---- in use ------------------------------------------------------------------------- */

/* The identity of a file of the fake tree. */
static struct vb_fileinfo file_info(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	struct vb_fileinfo fi = {VB_FT_REG, 0, 0, 0, 1, 0, 0};

	assert_int_equal(path_of(path, root, rel), 0);
	assert_int_equal(stat(path, &st), 0);
	fi.dev = st.st_dev;
	fi.ino = st.st_ino;
	return fi;
}

static struct vb_fileinfo disk_info(unsigned major, unsigned minor)
{
	struct vb_fileinfo fi = {VB_FT_BLK, 5, 5, makedev(major, minor), 1, 0, 0};
	return fi;
}

static int in_use(const struct vb_fileinfo *fi, char *holder, size_t n)
{
	return vb_os_linux_in_use(root, fi, NULL, false, holder, n);
}

static void expect_held(const struct vb_fileinfo *fi, int want, const char *text)
{
	char holder[512];
	int rc = in_use(fi, holder, sizeof holder);

	if (rc != want || (text != NULL && strstr(holder, text) == NULL))
		fail_msg("in use %d (want %d): '%s', want '%s'", rc, want, holder, text ? text : "");
}

/* A file behind a loop device is in use, whatever the loop device is used for. */
static void test_file_backing_a_loop_device(void **state)
{
	struct vb_fileinfo a = file_info("images/a.img"), b = file_info("images/b.img");

	(void)state;
	expect_held(&a, 1, "loop device loop0 is backed by it");
	expect_held(&b, 0, NULL);
}

/* A loop device's file that was deleted may live on under another link (the target):
 * without the kernel's answer (no device node to ask, a fake root) it cannot be told. */
static void test_deleted_loop_backing_fails_closed(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img");
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(put(root, "sys/block/loop9/loop/backing_file",
			     "/images/gone.img (deleted)\n"), 0);
	expect_held(&b, -1, "cannot identify the backing file of loop9");
	assert_int_equal(path_of(path, root, "sys/block/loop9/loop/backing_file"), 0);
	assert_int_equal(unlink(path), 0);
	expect_held(&b, 0, NULL);
}

static void test_swap_file(void **state)
{
	struct vb_fileinfo sw = file_info("images/swapfile");

	(void)state;
	expect_held(&sw, 1, "used as swap");
}

/* A program that locks its disk image (QEMU does) has it in use. */
static void test_locked_file(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img");
	char line[256];

	(void)state;
	snprintf(line, sizeof line, "1: POSIX  ADVISORY  WRITE 4242 %02x:%02x:%llu 0 EOF\n"
		 "2: -> POSIX  ADVISORY  WRITE 77 %02x:%02x:%llu 0 EOF\n",
		 major(b.dev), minor(b.dev), (unsigned long long)b.ino, 0u, 0u, 1ULL);
	assert_int_equal(put(root, "proc/locks", line), 0);
	expect_held(&b, 1, "process 4242 holds a POSIX lock");
	assert_int_equal(put(root, "proc/locks", ""), 0);
	expect_held(&b, 0, NULL);
}

/* The end-of-run calls really reach the kernel: on a pipe, fsync and fdatasync fail
 * with EINVAL, where a call made of nothing would say yes. */
static void test_sync_calls_reach_the_kernel(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	errno = 0;
	assert_int_equal(vb_os_io.sync(NULL, p[1], VB_CALL_FDATASYNC), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(vb_os_io.sync(NULL, p[1], VB_CALL_FSYNC), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(vb_os_io.sync(NULL, p[1], VB_CALL_NONE), 0);
	close(p[0]);
	close(p[1]);
}

/* --direct and --sync dsync open the file with O_DIRECT and O_DSYNC themselves (as the
 * kernel reports the open file's flags), where the filesystem takes them. */
static void test_open_flags_reach_the_kernel(void **state)
{
	char dir[] = "/var/tmp/vbench-flags.XXXXXX";
	struct vb_open_req req = {VB_OPEN_CREATE, true, true, false, false};

	(void)state;
	assert_non_null(mkdtemp(dir));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	int fd = vb_os_io.openat(NULL, dfd, "f", &req);
	if (fd < 0 && errno == EINVAL) {
		unlinkat(dfd, "f", 0);
		close(dfd);
		rmdir(dir);
		print_message("skip: /var/tmp takes no O_DIRECT\n");
		skip();
	}
	assert_true(fd >= 0);
	int fl = fcntl(fd, F_GETFL);
	assert_true((fl & O_DIRECT) != 0);
	assert_true((fl & O_DSYNC) == O_DSYNC);
	close(fd);
	req.kind = VB_OPEN_EXISTING;
	req.direct = req.dsync = false;
	fd = vb_os_io.openat(NULL, dfd, "f", &req);
	assert_true(fd >= 0);
	fl = fcntl(fd, F_GETFL);
	assert_true((fl & O_DIRECT) == 0);
	assert_true((fl & O_NONBLOCK) == 0);   /* opened without waiting, then cleared */
	close(fd);
	unlinkat(dfd, "f", 0);
	close(dfd);
	rmdir(dir);
}

/* Without /proc/locks, nothing can tell whether a program has the file locked. */
static void test_no_proc_locks_fails_closed(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img");
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(path_of(path, root, "proc/locks"), 0);
	assert_int_equal(unlink(path), 0);
	/* with why, the errno named */
	expect_held(&b, -1, "cannot read /proc/locks: No such file or directory (is /proc "
		    "mounted?)");
	assert_int_equal(put(root, "proc/locks", ""), 0);
	expect_held(&b, 0, NULL);
}

/* With a path, the rule needs mountinfo; these tests add their mounts to the fake one. */
static void add_mounts(const char *lines)
{
	char text[sizeof mountinfo + 2048];

	snprintf(text, sizeof text, "%s%s", mountinfo, lines);
	assert_int_equal(put(root, "proc/self/mountinfo", text), 0);
}

static int in_use_at(const struct vb_fileinfo *fi, const char *path, char *holder, size_t n)
{
	return vb_os_linux_in_use(root, fi, path, false, holder, n);
}

/* btrfs: stat gives a subvolume's anonymous device, /proc/locks the filesystem's (the
 * one mountinfo shows). A lock under the filesystem's device is a lock on the file. */
static void test_btrfs_lock_under_filesystem_device(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img");
	char line[256], holder[512];

	(void)state;
	add_mounts("70 26 0:77 / /images rw - btrfs /dev/vdb rw,subvol=/\n");
	snprintf(line, sizeof line, "1: OFDLCK ADVISORY  READ -1 00:4d:%llu 100 101\n",
		 (unsigned long long)b.ino);
	assert_int_equal(put(root, "proc/locks", line), 0);
	assert_int_equal(in_use_at(&b, "/images/b.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "open-file READ lock"));
	/* which could be another subvolume's file with that number: the message says so */
	assert_non_null(strstr(holder, "or a file of another subvolume"));
	/* the same file on another filesystem is not this one */
	assert_int_equal(in_use_at(&b, "/upper/b.img", holder, sizeof holder), 0);
	assert_int_equal(put(root, "proc/locks", ""), 0);
	assert_int_equal(put_mountinfo(), 0);
}

/* overlayfs: a loop device attached through the overlay reports the overlay's device
 * and inode; the file in the upper layer is the same storage, and the reverse. */
static void test_overlay_layers_are_one_file(void **state)
{
	struct vb_fileinfo up = file_info("upper/x.img"), ov = file_info("ov/x.img");
	struct vb_fileinfo low = file_info("lower/y.img");
	char holder[512], path[PATH_MAX];

	(void)state;
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/lower,upperdir=/upper,"
		   "workdir=/work\n");
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/x.img\n"), 0);
	assert_int_equal(in_use_at(&up, "/upper/x.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "loop device loop6 is backed by it"));
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/upper/x.img\n"), 0);
	assert_int_equal(in_use_at(&ov, "/ov/x.img", holder, sizeof holder), 1);
	/* a lower layer's file, and the overlay's view of it */
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/y.img\n"), 0);
	assert_int_equal(in_use_at(&low, "/lower/y.img", holder, sizeof holder), 1);
	assert_int_equal(path_of(path, root, "sys/block/loop6/loop/backing_file"), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(in_use_at(&up, "/upper/x.img", holder, sizeof holder), 0);
	/* without mountinfo the layers cannot be known */
	assert_int_equal(path_of(path, root, "proc/self/mountinfo"), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(in_use_at(&up, "/upper/x.img", holder, sizeof holder), -1);
	assert_int_equal(put_mountinfo(), 0);
}

/* A file system mounted from a regular file, without a loop device (erofs can): the
 * file is in use. Its name in mountinfo is escaped as the kernel writes it. */
static void test_file_mounted_from_the_file(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img"), a = file_info("images/a.img");
	struct vb_fileinfo sp = file_info("images/with space.img");
	char holder[512];

	(void)state;
	add_mounts("90 26 0:91 / /mnt/ero ro - erofs /images/b.img ro\n"
		   "91 26 0:92 / /mnt/sp ro - erofs /images/with\\040space.img ro\n");
	assert_int_equal(in_use_at(&b, "/images/b.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "a file system is mounted from it on /mnt/ero"));
	assert_int_equal(in_use_at(&sp, "/images/with space.img", holder, sizeof holder), 1);
	assert_int_equal(in_use_at(&a, "/images/a.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "loop device loop0"));   /* not the erofs mounts */
	assert_int_equal(put_mountinfo(), 0);
	assert_int_equal(in_use_at(&b, "/images/b.img", holder, sizeof holder), 0);
}

/* Overlay layers are known by what they are: a layer named through a link, a target
 * reached through another name of the layer's directory (as through a bind mount), a
 * lower layer with an escaped ':' in its name, an upper one with a ',' (which mountinfo
 * escapes). A layer named by a relative path cannot be found: that fails closed. */
static void test_overlay_layers_by_identity(void **state)
{
	struct vb_fileinfo up = file_info("upper/x.img"), z = file_info("l:o/z.img");
	struct vb_fileinfo w = file_info("c,d/w.img"), v = file_info("b\\s/v.img");
	struct vb_fileinfo low = file_info("lower/y.img");
	char holder[512], path[PATH_MAX];

	(void)state;
	assert_int_equal(link_to(root, "uplink", "upper"), 0);
	assert_int_equal(link_to(root, "alias", "upper"), 0);
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/x.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/lower,upperdir=/uplink,"
		   "workdir=/work\n");
	assert_int_equal(in_use_at(&up, "/upper/x.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "loop device loop6 is backed by it"));
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/lower,upperdir=/upper,"
		   "workdir=/work\n");
	assert_int_equal(in_use_at(&up, "/alias/x.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "loop device loop6 is backed by it"));
	/* a ':' escaped by the user ("l\:o"; mountinfo writes the backslash as \134) */
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/z.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/l\\134:o:/lower,"
		   "upperdir=/upper,workdir=/work\n");
	assert_int_equal(in_use_at(&z, "/l:o/z.img", holder, sizeof holder), 1);
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/w.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/lower,"
		   "upperdir=/c\\054d,workdir=/work\n");
	assert_int_equal(in_use_at(&w, "/c,d/w.img", holder, sizeof holder), 1);
	/* "lowerdir+=" gives one layer as it is: its ':' and '\\' are the name's */
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/z.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir+=/l:o,"
		   "upperdir=/upper,workdir=/work\n");
	assert_int_equal(in_use_at(&z, "/l:o/z.img", holder, sizeof holder), 1);
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/ov/v.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir+=/b\\134s,"
		   "upperdir=/upper,workdir=/work\n");
	assert_int_equal(in_use_at(&v, "/b\\s/v.img", holder, sizeof holder), 1);
	/* an overlay over an overlay: the loop device reads the top one's view of a file
	 * in the bottom one's lower layer */
	assert_int_equal(put(root, "sys/block/loop6/loop/backing_file", "/top/y.img\n"), 0);
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=/lower,upperdir=/upper,"
		   "workdir=/work\n"
		   "81 26 0:98 / /top rw - overlay overlay rw,lowerdir=/ov,upperdir=/up2,"
		   "workdir=/work2\n");
	assert_int_equal(in_use_at(&low, "/lower/y.img", holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "loop device loop6 is backed by it"));
	/* relative layers: where they are depends on where the mount was made */
	add_mounts("80 26 0:99 / /ov rw - overlay overlay rw,lowerdir=lower,upperdir=upper,"
		   "workdir=work\n");
	assert_int_equal(in_use_at(&w, "/c,d/w.img", holder, sizeof holder), -1);
	assert_non_null(strstr(holder, "names a layer by a relative path (lower)"));
	/* mounted on a point longer than the message: the point is cut, marked, the end kept */
	char line[1024] = "80 26 0:99 / /";
	memset(line + strlen(line), 'p', 600);
	strcat(line, " rw - overlay overlay rw,lowerdir=lower,upperdir=upper,workdir=work\n");
	add_mounts(line);
	assert_int_equal(in_use_at(&w, "/c,d/w.img", holder, sizeof holder), -1);
	assert_non_null(strstr(holder, VB_CUT_MIDDLE));
	assert_non_null(strstr(holder, "names a layer by a relative path (lower)"));
	assert_int_equal(path_of(path, root, "sys/block/loop6/loop/backing_file"), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(put_mountinfo(), 0);
	assert_int_equal(in_use_at(&up, "/alias/x.img", holder, sizeof holder), 0);
}

/* A loop device whose backing file cannot be identified might be backed by anything. */
static void test_unidentified_loop_fails_closed(void **state)
{
	struct vb_fileinfo b = file_info("images/b.img");
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(put(root, "sys/block/loop7/loop/backing_file", "/images/moved.img\n"), 0);
	expect_held(&b, -1, "cannot identify the backing file of loop7");
	assert_int_equal(path_of(path, root, "sys/block/loop7/loop/backing_file"), 0);
	assert_int_equal(unlink(path), 0);
	expect_held(&b, 0, NULL);
}

/* A disk whose partition is mounted, held by device-mapper, or mounted itself. */
static void test_disk_mounted_or_held(void **state)
{
	struct vb_fileinfo vda = disk_info(254, 0), sda = disk_info(8, 0), sdb = disk_info(8, 16);
	struct vb_fileinfo loop1 = disk_info(7, 1), gone = disk_info(9, 99);

	(void)state;
	expect_held(&vda, 1, "vda1 is mounted on /");
	expect_held(&sda, 1, "sda is held by dm-0");
	expect_held(&sdb, 1, "sdb is mounted on /mnt/sdb");
	expect_held(&loop1, 0, NULL);
	expect_held(&gone, -1, "cannot tell");
}

/* A loop device over a disk (the attack: loop over loop, the outer one mounted). Device
 * nodes need root to be made, so this part is skipped otherwise. */
static void test_disk_backing_a_loop_device(void **state)
{
	struct vb_fileinfo loop1 = disk_info(7, 1);
	char node[PATH_MAX];

	(void)state;
	if (geteuid() != 0) {
		print_message("skip: making device nodes needs root\n");
		skip();
	}
	assert_int_equal(path_of(node, root, "dev/loop1"), 0);
	make_parents(root, "dev/loop1");
	assert_int_equal(mknod(node, S_IFBLK | 0600, makedev(7, 1)), 0);
	assert_int_equal(put(root, "sys/block/loop3/loop/backing_file", "/dev/loop1\n"), 0);
	expect_held(&loop1, 1, "loop device loop3 is backed by loop1");
	char path[PATH_MAX];
	assert_int_equal(path_of(path, root, "sys/block/loop3/loop/backing_file"), 0);
	unlink(path);
	/* A mount that shows an anonymous device (btrfs does) but names the disk. */
	expect_held(&loop1, 0, NULL);
	char line[sizeof mountinfo + 128];
	snprintf(line, sizeof line, "%s50 26 0:88 / /mnt/b rw - btrfs /dev/loop1 rw\n", mountinfo);
	assert_int_equal(put(root, "proc/self/mountinfo", line), 0);
	expect_held(&loop1, 1, "loop1 is mounted on /mnt/b");
	assert_int_equal(put_mountinfo(), 0);
	unlink(node);
}

static void expect_shared(const struct vb_fileinfo *fi, const struct vb_fileinfo *other,
			  int want, const char *text)
{
	char why[512];
	int rc = vb_os_linux_shared(root, fi, NULL, other, why, sizeof why);

	if (rc != want || (text != NULL && strstr(why, text) == NULL))
		fail_msg("shared %d (want %d): '%s', want '%s'", rc, want, why, text ? text : "");
}

/* An output (standard output, the CSV file) and the target are one storage when one is
 * the disk or a partition of the other, a file lies on the other, or a loop device is
 * backed by the other; a character device (a terminal, /dev/null) is no storage. */
static void test_output_on_the_target_storage(void **state)
{
	struct vb_fileinfo vda = disk_info(254, 0), vda1 = disk_info(254, 1);
	struct vb_fileinfo sdb = disk_info(8, 16), loop0 = disk_info(7, 0);
	struct vb_fileinfo a = file_info("images/a.img"), b = file_info("images/b.img");
	struct vb_fileinfo on_vda1 = {VB_FT_REG, makedev(254, 1), 12, 0, 1, 0, 0};
	struct vb_fileinfo dir_on_vda1 = {VB_FT_DIR, makedev(254, 1), 2, 0, 1, 0, 0};
	struct vb_fileinfo tty = {VB_FT_CHR, 5, 6, makedev(136, 0), 1, 0, 0};

	(void)state;
	expect_shared(&vda, &vda, 1, "it is vda, the same disk");
	expect_shared(&vda, &vda1, 1, "it is vda1, the same disk or a part of it");
	expect_shared(&vda1, &vda, 1, "it is vda, the same disk or a part of it");
	expect_shared(&vda, &sdb, 0, NULL);
	expect_shared(&on_vda1, &vda, 1, "it is vda1, where the target lies");
	expect_shared(&dir_on_vda1, &vda1, 1, "where the target lies");
	expect_shared(&dir_on_vda1, &sdb, 0, NULL);
	expect_shared(&vda, &on_vda1, 1, "the file lies on vda1");
	expect_shared(&a, &loop0, 1, "it is loop0, backed by the same file");
	expect_shared(&loop0, &a, 1, "it is the same file");
	expect_shared(&b, &loop0, 0, NULL);
	expect_shared(&vda, &tty, 0, NULL);
	expect_shared(&a, &b, 0, NULL);
	expect_shared(&a, &a, 1, "it is the same file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_virtio_partition),
		cmocka_unit_test(test_virtio_disk),
		cmocka_unit_test(test_deepest_then_last_mount),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_chroot_device_from_st_dev),
		cmocka_unit_test(test_chroot_fs_by_magic),
		cmocka_unit_test(test_tmpfs),
		cmocka_unit_test(test_scsi_on_ahci),
		cmocka_unit_test(test_scsi_without_host_driver),
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_device_mapper),
		cmocka_unit_test(test_escapes_and_long_lines),
		cmocka_unit_test(test_long_text_cut_and_marked),
		cmocka_unit_test(test_no_guess_by_path),
		cmocka_unit_test(test_raw_device_garbage_sizes),
		cmocka_unit_test(test_missing_sysfs),
		cmocka_unit_test(test_garbage_and_missing),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_frees_to_host),
		cmocka_unit_test(test_reserve_usable),
		cmocka_unit_test(test_reserve_kept_back),
		cmocka_unit_test(test_system_facts),
		cmocka_unit_test(test_real_root),
		cmocka_unit_test(test_real_raw_device),
		cmocka_unit_test(test_file_backing_a_loop_device),
		cmocka_unit_test(test_swap_file),
		cmocka_unit_test(test_locked_file),
		cmocka_unit_test(test_unidentified_loop_fails_closed),
		cmocka_unit_test(test_no_proc_locks_fails_closed),
		cmocka_unit_test(test_sync_calls_reach_the_kernel),
		cmocka_unit_test(test_open_flags_reach_the_kernel),
		cmocka_unit_test(test_btrfs_lock_under_filesystem_device),
		cmocka_unit_test(test_overlay_layers_are_one_file),
		cmocka_unit_test(test_overlay_layers_by_identity),
		cmocka_unit_test(test_file_mounted_from_the_file),
		cmocka_unit_test(test_deleted_loop_backing_fails_closed),
		cmocka_unit_test(test_disk_mounted_or_held),
		cmocka_unit_test(test_disk_backing_a_loop_device),
		cmocka_unit_test(test_output_on_the_target_storage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

#else
int main(void)
{
	puts("skip: the Linux platform layer is not compiled on this system");
	return 0;
}
#endif
