/* Linux: O_DIRECT, O_TMPFILE, the block-device ioctls, and what /proc and /sys tell of
 * a target: its mount, device and driver, and whatever is layered on it. The readers
 * take a root prefix, so that tests can hand them a fake tree. */
#include "os/os_internal.h"

#if VB_OS_LINUX

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>          /* BLKGETSIZE64, BLKSSZGET, BLKROGET (glibc and musl) */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/loop.h>)
#include <linux/loop.h>
#endif
#endif

/* LOOP_GET_STATUS64 and struct loop_info64 are kernel ABI (include/uapi/linux/loop.h),
 * declared here for C libraries without the kernel's headers (musl). vbench reads the
 * backing file's device and inode; the kernel fills all 232 bytes. */
struct vb_loop_info64 {
	uint64_t lo_device, lo_inode;
	unsigned char rest[216];
};
#define VB_LOOP_GET_STATUS64 0x4C05
_Static_assert(sizeof(struct vb_loop_info64) == 232, "struct loop_info64 is 232 bytes");
#if defined(LOOP_GET_STATUS64)
_Static_assert(LOOP_GET_STATUS64 == VB_LOOP_GET_STATUS64, "the kernel's number");
_Static_assert(sizeof(struct loop_info64) == sizeof(struct vb_loop_info64), "its size");
_Static_assert(offsetof(struct loop_info64, lo_inode) ==
	       offsetof(struct vb_loop_info64, lo_inode), "where the inode is");
#endif

#define MAX_FIELDS 64   /* of a mountinfo line: ten or so, and optional ones */
#define MAX_DEPTH 32    /* of sysfs device trees (a dozen levels): guards against loops */

#define COPY(dst, src) vb_os_copy((dst), sizeof(dst), (src))

const struct vb_caps vb_os_fam_caps = {
	.direct_how = "O_DIRECT",
	.fdatasync_call = "fdatasync",
};

int vb_os_fam_open_flags(const struct vb_open_req *req, int *flags)
{
	*flags = (req->direct ? O_DIRECT : 0) | (req->dsync ? O_DSYNC : 0) |
		 (req->exclusive ? O_EXCL : 0);
	if (req->kind == VB_OPEN_ANON)
		*flags |= O_TMPFILE;
	return 0;
}

int vb_os_fam_sync(int fd, enum vb_sync_call call)
{
	return call == VB_CALL_FDATASYNC ? fdatasync(fd) : fsync(fd);
}

int vb_os_fam_disk(int fd, struct vb_disk *d)
{
	struct stat st;
	uint64_t size = 0;
	int sector = 0;

	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || ioctl(fd, BLKGETSIZE64, &size) != 0)
		return -1;
	d->size_bytes = size;
	if (ioctl(fd, BLKSSZGET, &sector) == 0 && sector > 0)
		d->sector_bytes = (uint32_t)sector;
	/* A read-only disk opens for writing; only its first write fails (EPERM). */
	int ro = 0;
	d->read_only = ioctl(fd, BLKROGET, &ro) == 0 && ro != 0;
	return 0;
}

/* ---- small readers ----------------------------------------------------------------- */

/* Writes a followed by b into buf; -1 when it does not fit (a cut path names another). */
static int join(char *buf, size_t n, const char *a, const char *b)
{
	int len = snprintf(buf, n, "%s%s", a, b);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* Drops the last component of an absolute path, keeping at least "/". */
static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* Parses a decimal after leading blanks, *end after it; strtoull alone takes "-1", "". */
static int parse_u64(const char *s, uint64_t *out, const char **end)
{
	char *stop;
	unsigned long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &stop, 10);
	if (errno != 0)
		return -1;
	*out = v;
	*end = stop;
	return 0;
}

/* Opens dir/name for reading; NULL with errno. */
static FILE *open_at(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (join(path, sizeof path, dir, name) != 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "r");
}

/* Reads the first line of dir/name into buf (without the newline); -1 when absent. */
static int read_line(const char *dir, const char *name, char *buf, size_t n)
{
	FILE *f = open_at(dir, name);
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* A sysfs attribute holding one 32-bit number (a block size); 0 when it does not. */
static uint32_t read_u32(const char *dir, const char *name)
{
	char text[64];
	const char *end;
	uint64_t v;

	if (read_line(dir, name, text, sizeof text) != 0 || parse_u64(text, &v, &end) != 0 ||
	    v > UINT32_MAX || *end != '\0')
		return 0;
	return (uint32_t)v;
}

/* The path of open file fd into path (PATH_MAX bytes), as the kernel names it; false
 * with "cannot tell whether WHAT" and the reason in why when there is none (no /proc, or
 * a path longer than PATH_MAX, which readlink would cut short). */
static bool fd_path(int fd, char *path, const char *what, char *why, size_t n)
{
	char link[64];

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t len = readlink(link, path, PATH_MAX - 1);
	if (len > 0 && len < PATH_MAX - 1) {
		path[len] = '\0';
		return true;
	}
	int e = len < 0 ? errno : ENAMETOOLONG;
	vb_msgf(why, n, "cannot tell whether %s: cannot read its path in /proc/self/fd: %s%s",
		what, strerror(e), e == ENOENT ? " (is /proc mounted?)" : "");
	return false;
}

/* One character of a mountinfo field at *p, "\ooo" decoded; *escaped says it was. */
static char field_char(const char **p, bool *escaped)
{
	const char *c = *p;

	*escaped = c[0] == '\\' && c[1] >= '0' && c[1] <= '3' && c[2] >= '0' && c[2] <= '7' &&
		   c[3] >= '0' && c[3] <= '7';
	if (!*escaped) {
		*p = c + 1;
		return c[0];
	}
	*p = c + 4;
	return (char)((c[1] - '0') * 64 + (c[2] - '0') * 8 + (c[3] - '0'));
}

/* Decodes the \ooo octal escapes the kernel writes for space, tab, newline and
 * backslash in mountinfo and swaps paths, in place. */
static void unescape(char *s)
{
	const char *in = s;
	bool escaped;

	while (*in)
		*s++ = field_char(&in, &escaped);
	*s = '\0';
}

/* "M:m" of a sysfs dev attribute or a mountinfo field into a device number. */
static int parse_devnum(const char *s, uint64_t *dev)
{
	unsigned maj, min;
	char extra;

	if (sscanf(s, "%u:%u%c", &maj, &min, &extra) != 2)
		return -1;
	*dev = (uint64_t)makedev(maj, min);
	return 0;
}

/* The sysfs directory of block device dev into dir (resolved); -1 when there is none. */
static int sysfs_dir(const char *root, uint64_t dev, char *dir)
{
	char link[PATH_MAX];
	int len = snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", root, major(dev),
			   minor(dev));

	if (len < 0 || (size_t)len >= sizeof link || !realpath(link, dir))
		return -1;
	return 0;
}

/* ---- meminfo ----------------------------------------------------------------------- */

uint64_t vb_os_linux_meminfo(const char *root, const char *key)
{
	char line[256];
	const char *end;
	uint64_t kib = 0;
	size_t klen = strlen(key);
	FILE *f = open_at(root, "/proc/meminfo");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		if (parse_u64(line + klen + 1, &kib, &end) != 0 || strncmp(end, " kB", 3) != 0 ||
		    kib > UINT64_MAX / 1024)
			kib = 0;
		break;
	}
	fclose(f);
	return kib * 1024;
}

/* The orders the buddy allocator has: the numbers after a /proc/buddyinfo zone's name. */
static unsigned buddy_orders(const char *root)
{
	char line[512];
	const char *p, *end;
	uint64_t v;
	unsigned n = 0;

	if (read_line(root, "/proc/buddyinfo", line, sizeof line) != 0 ||
	    !(p = strstr(line, "zone")))
		return 0;
	p += 4;
	p += strspn(p, " \t");
	p += strcspn(p, " \t");          /* the zone's name */
	for (;;) {
		p += strspn(p, " \t");
		if (parse_u64(p, &v, &end) != 0 || end == p)
			break;
		n++;
		p = end;
	}
	return n;
}

bool vb_os_linux_frees_to_host(const char *root)
{
	char dir[PATH_MAX], text[64], features[256];
	const char *end;
	uint64_t order;
	bool found = false;
	struct dirent *d;
	DIR *dp;

	/* Reporting is paused when its order is above every block the allocator has. */
	if (read_line(root, "/sys/module/page_reporting/parameters/page_reporting_order", text,
		      sizeof text) != 0 || parse_u64(text, &order, &end) != 0 || *end != '\0')
		return false;
	unsigned orders = buddy_orders(root);
	if (orders > 0 && order >= orders)
		return false;
	/* A virtio balloon (device 5) must have agreed to free page reporting (bit 5). */
	if (join(dir, sizeof dir, root, "/sys/bus/virtio/devices") != 0 || !(dp = opendir(dir)))
		return false;
	while (!found && (d = readdir(dp)) != NULL) {
		char dev[PATH_MAX];
		if (d->d_name[0] == '.' ||
		    snprintf(dev, sizeof dev, "%s/%s", dir, d->d_name) >= (int)sizeof dev)
			continue;
		found = read_line(dev, "/device", text, sizeof text) == 0 &&
			strcmp(text, "0x0005") == 0 &&
			read_line(dev, "/features", features, sizeof features) == 0 &&
			strlen(features) > 5 && features[5] == '1';
	}
	closedir(dp);
	return found;
}

uint64_t vb_os_fam_ram_bytes(void)
{
	uint64_t ram = vb_os_linux_meminfo("", "MemTotal");

	if (ram == 0) {
		long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			ram = (uint64_t)pages * (uint64_t)size;
	}
	return ram;
}

/* Only MemAvailable counts reclaimable cache; free pages alone undercount. */
uint64_t vb_os_avail_mem(void)
{
	return vb_os_linux_meminfo("", "MemAvailable");
}

/* ---- mountinfo ----------------------------------------------------------------------- */

struct mline {
	uint64_t dev;
	char *point, *fs, *source, *opts;
};

/* Splits a mountinfo line in place; -1 when it lacks a field. After the optional fields'
 * lone "-" come the filesystem type and the source. */
static int parse_mountinfo(char *line, struct mline *m)
{
	char *tok[MAX_FIELDS], *save = NULL;
	size_t n = 0, sep = 6;

	for (char *t = strtok_r(line, " \n", &save); t && n < MAX_FIELDS;
	     t = strtok_r(NULL, " \n", &save))
		tok[n++] = t;
	while (sep < n && strcmp(tok[sep], "-") != 0)
		sep++;
	if (sep + 2 >= n || n < 5 || parse_devnum(tok[2], &m->dev) != 0)
		return -1;
	m->point = tok[4];
	m->fs = tok[sep + 1];
	m->source = tok[sep + 2];
	m->opts = sep + 3 < n ? tok[sep + 3] : "";
	unescape(m->point);
	unescape(m->fs);
	unescape(m->source);
	/* m->opts stays escaped: split at commas first, then unescaped (overlay_layers). */
	return 0;
}

/* ---- the blocks a file system keeps for the privileged ---------------------------- */

/* Who this process is to the kernel's allocator, from /proc/self/status. */
struct creds {
	uint64_t fsuid, fsgid;
	uint64_t groups[256];
	size_t n_groups;
	bool sys_resource;      /* CAP_SYS_RESOURCE (24) in the effective set */
	bool init_ns;           /* the uids and gids are the initial namespace's own */
	bool init_userns;       /* in the initial user namespace, where alone caps count */
};

/* The n-th (from 0) decimal number after the name of a status line ("Uid:"). */
static int status_field(const char *line, int n, uint64_t *v)
{
	const char *p = strchr(line, ':');

	for (int i = 0; p != NULL; i++) {
		if (parse_u64(p + (i == 0), v, &p) != 0)
			return -1;
		if (i == n)
			return 0;
	}
	return -1;
}

/* Whether an id map (uid_map, gid_map) is the identity: this process's ids are the
 * initial namespace's, which the kernel compares. No map: no user namespaces. */
static bool identity_map(const char *root, const char *name)
{
	char text[128];
	unsigned long long a, b, c;
	char extra;
	FILE *f = open_at(root, name);

	if (f == NULL)
		return errno == ENOENT;
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	return sscanf(text, " %llu %llu %llu %c", &a, &b, &c, &extra) == 3 && a == 0 && b == 0 &&
	       c == 4294967295ULL;
}

/* Whether this process is in the initial user namespace, whose CAP_SYS_RESOURCE alone
 * ext4_has_free_clusters's capable() counts (an identity uid_map does not tell). Its
 * ns/user is "user:[4026531837]": PROC_USER_INIT_INO, 0xEFFFFFFD in
 * include/linux/proc_ns.h, below every proc_alloc_inum number. No link: no user
 * namespaces. */
static bool initial_userns(const char *root)
{
	char path[PATH_MAX], link[64];
	ssize_t n;

	if (join(path, sizeof path, root, "/proc/self/ns/user") != 0)
		return false;
	if ((n = readlink(path, link, sizeof link - 1)) < 0)
		return errno == ENOENT;
	link[n] = '\0';
	return strcmp(link, "user:[4026531837]") == 0;
}

/* Reads c from root's /proc/self/status; -1 when a field is missing. */
static int read_creds(const char *root, struct creds *c)
{
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	uint64_t v;
	FILE *f = open_at(root, "/proc/self/status");

	memset(c, 0, sizeof *c);
	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) != -1) {
		if (strncmp(line, "Uid:", 4) == 0 && status_field(line, 3, &c->fsuid) == 0)
			found |= 1;
		else if (strncmp(line, "Gid:", 4) == 0 && status_field(line, 3, &c->fsgid) == 0)
			found |= 2;
		else if (strncmp(line, "CapEff:", 7) == 0) {
			char *end;
			errno = 0;
			unsigned long long caps = strtoull(line + 7, &end, 16);
			if (errno == 0 && end != line + 7) {
				c->sys_resource = (caps >> 24) & 1;
				found |= 4;
			}
		} else if (strncmp(line, "Groups:", 7) == 0) {
			found |= 8;
			for (int i = 0; c->n_groups < sizeof c->groups / sizeof c->groups[0] &&
					status_field(line, i, &v) == 0; i++)
				c->groups[c->n_groups++] = v;
		}
	}
	free(line);
	fclose(f);
	c->init_ns = identity_map(root, "/proc/self/uid_map") &&
		     identity_map(root, "/proc/self/gid_map");
	c->init_userns = c->init_ns && initial_userns(root);
	return found == 15 ? 0 : -1;
}

/* Option name ("resuid") of a mount's options, else 0; -1 when not a number. */
static int mount_id(const char *opts, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	const char *end;

	*v = 0;
	for (const char *p = opts; *p != '\0'; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return parse_u64(p + n + 1, v, &end) == 0 && (*end == ',' || *end == '\0')
			       ? 0 : -1;
	}
	return 0;
}

/* ext2_has_free_blocks (fs/ext2/balloc.c) and ext4_has_free_clusters (fs/ext4/balloc.c)
 * give the reserve to CAP_SYS_RESOURCE in the initial user namespace, fsuid resuid, or
 * group resgid unless 0. Both print resuid= and resgid= when either is not 0
 * (ext2_show_options, _ext4_show_options), so absent means 0. Other file systems: no. */
static bool reserve_rule(const char *fs, const char *opts, const struct creds *c)
{
	uint64_t resuid, resgid;

	if (strcmp(fs, "ext4") != 0 && strcmp(fs, "ext3") != 0 && strcmp(fs, "ext2") != 0)
		return false;
	if (!c->init_ns || mount_id(opts, "resuid", &resuid) != 0 ||
	    mount_id(opts, "resgid", &resgid) != 0)
		return false;
	if ((c->sys_resource && c->init_userns) || c->fsuid == resuid)
		return true;
	if (resgid == 0)
		return false;
	if (c->fsgid == resgid)
		return true;
	for (size_t i = 0; i < c->n_groups; i++)
		if (c->groups[i] == resgid)
			return true;
	return false;
}

/* ext4 withholds even from the reserve's users its reserved clusters (2%, at most 4096:
 * ext4_calculate_resv_clusters, EXT4_MB_USE_RESERVED in ext4_has_free_clusters), which
 * f_bfree counts (ext4_statfs): /sys/fs/ext4/DEVICE/reserved_clusters, taken as blocks
 * (they are but with bigalloc). -1 when it cannot be read. */
static int ext4_kept(const char *root, uint64_t dev, uint64_t *kept)
{
	char dir[PATH_MAX], attr[PATH_MAX], text[32];
	const char *end;

	if (sysfs_dir(root, dev, dir) != 0 ||
	    snprintf(attr, sizeof attr, "%s/sys/fs/ext4/%s", root, vb_os_base_name(dir)) >=
	    (int)sizeof attr ||
	    read_line(attr, "/reserved_clusters", text, sizeof text) != 0 ||
	    parse_u64(text, kept, &end) != 0 || *end != '\0')
		return -1;
	return 0;
}

bool vb_os_linux_reserve_usable(const char *root, uint64_t dev, uint64_t *kept)
{
	struct creds c;
	char *line = NULL;
	size_t cap = 0;
	bool found = false, usable = true, ext4 = false;
	FILE *f;

	*kept = 0;
	if (read_creds(root, &c) != 0 || !(f = open_at(root, "/proc/self/mountinfo")))
		return false;
	/* Every line of the device (bind mounts share its superblock) must agree. */
	while (getline(&line, &cap, f) != -1) {
		struct mline m;
		if (parse_mountinfo(line, &m) != 0 || m.dev != dev)
			continue;
		found = true;
		usable = usable && reserve_rule(m.fs, m.opts, &c);
		ext4 = ext4 || strcmp(m.fs, "ext4") == 0;
	}
	free(line);
	fclose(f);
	/* The ext4 driver also mounts ext2 and ext3, then with its reserved clusters. */
	if (found && usable && ext4_kept(root, dev, kept) != 0 && ext4)
		return false;
	return found && usable;
}

bool vb_os_fam_reserve_usable(int dirfd, uint64_t *kept)
{
	struct stat st;

	*kept = 0;
	return fstat(dirfd, &st) == 0 && vb_os_linux_reserve_usable("", (uint64_t)st.st_dev, kept);
}

/* How deep mount point mnt holds path: 0 when it does not, else the match length. */
static size_t cover(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!path || n == 0 || strncmp(mnt, path, n) != 0)
		return 0;
	if (strcmp(mnt, "/") == 0 || path[n] == '\0' || path[n] == '/')
		return n;
	return 0;
}

/* The mount chosen for a target, copied out of the line buffer. */
struct mount_pick {
	uint64_t dev;
	char point[1024];
	char fs[64];
	char source[256];
};

/* Picks the mount of the target: of the lines with its device, the one holding path
 * most deeply (a later line, mounted on top, wins a tie). None is "unknown", not a guess
 * by path (a chroot's root is not listed), but for btrfs, whose subvolumes have devices
 * of their own: the deepest btrfs mount holding path. 1 when pick was filled. */
static int find_mount(const char *root, const char *path, uint64_t dev, struct mount_pick *pick)
{
	char *line = NULL;
	size_t cap = 0, best = 0, best_btrfs = 0;   /* best: the depth + 1 picked, or 0 */
	struct mount_pick btrfs;
	FILE *f = open_at(root, "/proc/self/mountinfo");

	if (!f)
		return 0;
	memset(&btrfs, 0, sizeof btrfs);
	while (getline(&line, &cap, f) != -1) {
		struct mline m;
		if (parse_mountinfo(line, &m) != 0)
			continue;
		size_t depth = cover(m.point, path);
		if (m.dev == dev && depth + 1 >= best) {
			pick->dev = m.dev;
			VB_OS_SHOW(pick->point, m.point);
			VB_OS_SHOW(pick->fs, m.fs);
			VB_OS_SHOW(pick->source, m.source);
			best = depth + 1;
		} else if (strcmp(m.fs, "btrfs") == 0 && depth > 0 && depth >= best_btrfs) {
			btrfs.dev = m.dev;
			VB_OS_SHOW(btrfs.point, m.point);
			VB_OS_SHOW(btrfs.fs, m.fs);
			VB_OS_SHOW(btrfs.source, m.source);
			best_btrfs = depth;
		}
	}
	free(line);
	fclose(f);
	if (best == 0 && best_btrfs > 0 && major(dev) == 0) {
		*pick = btrfs;
		return 1;
	}
	return best > 0;
}

/* ---- sysfs: device and driver -------------------------------------------------------- */

/* Block devices without a driver link are virtual, named by what made them; so is an
 * NVMe namespace under native multipathing. */
static const struct {
	const char *name, *driver;
} virtual_disks[] = {
	{"loop", "loop"}, {"dm", "device-mapper"}, {"md", "md"}, {"zram", "zram"},
	{"nbd", "nbd"}, {"ram", "brd"}, {"rbd", "rbd"}, {"nvme", "nvme"}, {NULL, NULL}
};

static const char *virtual_driver(const char *name)
{
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz");

	for (size_t i = 0; virtual_disks[i].name; i++)
		if (strlen(virtual_disks[i].name) == n && strncmp(name, virtual_disks[i].name, n) == 0)
			return virtual_disks[i].driver;
	return vb_os_unknown;
}

/* Reads the name of the driver bound to sysfs device dir into name; -1 when none is. */
static int bound_driver(const char *dir, char *name, size_t n)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t len;

	if (join(link, sizeof link, dir, "/driver") != 0)
		return -1;
	len = readlink(link, target, sizeof target - 1);
	if (len <= 0)
		return -1;
	target[len] = '\0';
	vb_os_copy(name, n, vb_os_base_name(target));
	return 0;
}

/* e->driver of whole disk disk: the first driver up its sysfs devices (the disk's own for
 * virtio, the PCI function for NVMe), but for "sd" (any SCSI disk) with the host
 * adapter's (ahci, virtio_scsi, uas), which tells disks apart: "sd/ahci". None: a
 * virtual disk, named by its kind. */
static void disk_driver(struct vb_env *e, const char *root, const char *disk)
{
	char link[PATH_MAX], dev[PATH_MAX], limit[PATH_MAX], sys[PATH_MAX];
	char first[64] = "", host[64] = "";
	bool ok = join(link, sizeof link, disk, "/device") == 0 && realpath(link, dev) &&
		  join(sys, sizeof sys, root, "/sys/devices") == 0 && realpath(sys, limit);
	size_t lim = ok ? strlen(limit) : 0;

	for (int depth = 0; ok && depth < MAX_DEPTH; depth++) {
		if (strncmp(dev, limit, lim) != 0 || dev[lim] != '/')
			break;
		if (bound_driver(dev, first[0] ? host : first, sizeof first) == 0 &&
		    (host[0] != '\0' || strcmp(first, "sd") != 0))
			break;
		cut_last(dev);
	}
	if (first[0] == '\0') {
		VB_OS_SHOW(e->driver, virtual_driver(vb_os_base_name(disk)));
		return;
	}
	char both[sizeof first + sizeof host];
	snprintf(both, sizeof both, "%s%s%s", first, host[0] ? "/" : "", host);
	VB_OS_SHOW(e->driver, both);
}

/* Whether sysfs directory dir is a partition (it has a "partition" attribute). */
static bool is_partition(const char *dir)
{
	char part[PATH_MAX];

	return join(part, sizeof part, dir, "/partition") == 0 && access(part, F_OK) == 0;
}

/* A loop device without direct I/O ("loop/dio" 0) writes into its backing file's page
 * cache: e->loop_buffered names it. */
static void loop_direct_io(struct vb_env *e, const char *disk)
{
	char dio[16];

	if (strcmp(virtual_driver(vb_os_base_name(disk)), "loop") == 0 &&
	    read_line(disk, "/loop/dio", dio, sizeof dio) == 0 && strcmp(dio, "0") == 0)
		VB_OS_SHOW(e->loop_buffered, vb_os_base_name(disk));
}

/* What the kernel believes of the disk's write cache (queue/write_cache); with "write
 * through" the block layer drops every flush (blk-core.c, submit_bio_noacct). */
static void write_cache(struct vb_env *e, const char *dir)
{
	char v[32];

	if (read_line(dir, "/queue/write_cache", v, sizeof v) != 0 ||
	    (strcmp(v, "write back") != 0 && strcmp(v, "write through") != 0))
		return;
	COPY(e->write_cache, v);
	snprintf(e->write_cache_where, sizeof e->write_cache_where,
		 "/sys/block/%.32s/queue/write_cache", vb_os_base_name(dir));
}

/* Device, driver and block sizes from dev's sysfs directory; a partition's lies in its
 * disk's, which alone has the queue limits and the hardware link. */
static void sysfs_device(struct vb_env *e, const char *root, uint64_t dev)
{
	char dir[PATH_MAX];

	if (sysfs_dir(root, dev, dir) != 0)
		return;
	VB_OS_SHOW(e->device, vb_os_base_name(dir));
	if (is_partition(dir))
		cut_last(dir);
	loop_direct_io(e, dir);
	e->logical_block = read_u32(dir, "/queue/logical_block_size");
	e->physical_block = read_u32(dir, "/queue/physical_block_size");
	write_cache(e, dir);
	disk_driver(e, root, dir);
}

/* The identity of what backs loop device name, from the kernel where it will say (root
 * only), else from backing_file: 0 with dev, ino (rdev for a node), or -1. */
static int loop_backing(const char *root, const char *name, const char *backing,
			struct stat *out)
{
	char node[PATH_MAX];
	size_t len = strlen(backing);

	if (root[0] == '\0') {
		struct vb_loop_info64 li;
		int fd;
		/* Zeroed: tools that do not know this ioctl (valgrind) see it filled. */
		memset(&li, 0, sizeof li);
		snprintf(node, sizeof node, "/dev/%s", name);
		fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			int ok = ioctl(fd, VB_LOOP_GET_STATUS64, &li) == 0;
			close(fd);
			if (ok) {
				memset(out, 0, sizeof *out);
				out->st_dev = (dev_t)li.lo_device;
				out->st_ino = (ino_t)li.lo_inode;
				/* The node's device number is only known through its path. */
				struct stat st;
				if (join(node, sizeof node, root, backing) == 0 &&
				    stat(node, &st) == 0 && st.st_dev == out->st_dev &&
				    st.st_ino == out->st_ino) {
					out->st_mode = st.st_mode;
					out->st_rdev = st.st_rdev;
				}
				return 0;
			}
		}
	}
	/* A deleted file's name leads nowhere, or to another file: only the kernel's answer
	 * above identifies it. */
	if (len > 10 && strcmp(backing + len - 10, " (deleted)") == 0) {
		errno = ENOENT;
		return -1;
	}
	if (join(node, sizeof node, root, backing) != 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return stat(node, out);
}

/* Major 0 has no block device: tmpfs, NFS, overlay, and btrfs, whose source names its
 * disk. */
static void unnamed_device(struct vb_env *e, const char *root, const char *source)
{
	char node[PATH_MAX];
	struct stat st;

	if (strncmp(source, "/dev/", 5) != 0) {
		VB_OS_SHOW(e->device, source[0] ? source : vb_os_unknown);
		VB_OS_SHOW(e->driver, "none");
		return;
	}
	if (join(node, sizeof node, root, source) == 0 && stat(node, &st) == 0 &&
	    S_ISBLK(st.st_mode))
		sysfs_device(e, root, (uint64_t)st.st_rdev);
	if (strcmp(e->device, vb_os_unknown) == 0)
		VB_OS_SHOW(e->device, vb_os_base_name(source));
}

/* statfs's f_type, from include/uapi/linux/magic.h; ext2-4 share EXT4_SUPER_MAGIC. */
static const struct {
	uint64_t magic;
	const char *name;
} fs_magics[] = {
	{0xEF53, "ext2/3/4"}, {0x58465342, "xfs"}, {0x9123683E, "btrfs"},
	{0x01021994, "tmpfs"}, {0x858458f6, "ramfs"}, {0xF2F52010, "f2fs"},
	{0xE0F5E1E2, "erofs"}, {0x73717368, "squashfs"}, {0x794c7630, "overlay"},
	{0x6969, "nfs"}, {0x65735546, "fuse"}, {0x4d44, "vfat"}, {0x2011BAB0, "exfat"},
	{0x3434, "nilfs2"}, {0x52654973, "reiserfs"}, {0xFF534D42, "cifs"},
	{0xFE534D42, "smb3"}, {0x00c36400, "ceph"}, {0x01021997, "9p"},
	{0x9660, "iso9660"}, {0x15013346, "udf"},
};

/* tmpfs and ramfs keep their files in the page cache, on no disk. */
static void memory_fs(struct vb_env *e)
{
	e->fs_in_memory = strcmp(e->fs, "tmpfs") == 0 || strcmp(e->fs, "ramfs") == 0;
}

void vb_os_linux_fs_unlisted(struct vb_env *e, uint64_t magic)
{
	if (strcmp(e->fs, vb_os_unknown) != 0)
		return;
	for (size_t i = 0; i < sizeof fs_magics / sizeof fs_magics[0]; i++) {
		if (fs_magics[i].magic == magic) {
			VB_OS_SHOW(e->fs, fs_magics[i].name);
			memory_fs(e);
		}
	}
}

void vb_os_linux_detect(struct vb_env *e, const char *root, const char *path,
			const struct vb_fileinfo *fi)
{
	struct mount_pick m;

	if (fi->type == VB_FT_BLK) {
		VB_OS_SHOW(e->fs, "none");
		VB_OS_SHOW(e->mount, "none");
		sysfs_device(e, root, fi->rdev);
		if (strcmp(e->device, vb_os_unknown) == 0)
			VB_OS_SHOW(e->device, vb_os_base_name(path));
		return;
	}
	memset(&m, 0, sizeof m);
	if (!find_mount(root, path, fi->dev, &m)) {
		/* No mount listed (a chroot): its own device still names the disk. */
		if (major(fi->dev) != 0)
			sysfs_device(e, root, fi->dev);
		return;
	}
	VB_OS_SHOW(e->fs, m.fs);
	VB_OS_SHOW(e->mount, m.point);
	memory_fs(e);
	if (major(m.dev) == 0) {
		unnamed_device(e, root, m.source);
		return;
	}
	sysfs_device(e, root, m.dev);
	if (strcmp(e->device, vb_os_unknown) == 0 && strncmp(m.source, "/dev/", 5) == 0)
		VB_OS_SHOW(e->device, vb_os_base_name(m.source));
}

void vb_os_fam_detect(struct vb_env *e, int fd, const char *path)
{
	char real[PATH_MAX], none[1];
	struct vb_fileinfo fi;
	struct stat st;

	if (fstat(fd, &st) != 0)
		return;
	vb_os_fileinfo(&st, &fi);
	/* The path as the kernel knows it, without links and relative parts. */
	if (!fd_path(fd, real, "", none, sizeof none) || real[0] != '/') {
		if (!realpath(path, real))
			vb_os_copy(real, sizeof real, path);
	}
	vb_os_linux_detect(e, "", real, &fi);
	struct statfs sf;
	if (fi.type != VB_FT_BLK && fstatfs(fd, &sf) == 0)
		vb_os_linux_fs_unlisted(e, (uint64_t)(unsigned long)sf.f_type);
	e->frees_to_host = vb_os_linux_frees_to_host("");
}

uint32_t vb_os_fam_logical_block(int fd)
{
	struct stat st;
	char dir[PATH_MAX];

	if (fstat(fd, &st) != 0)
		return 0;
	if (S_ISBLK(st.st_mode)) {
		int v = 0;
		return ioctl(fd, BLKSSZGET, &v) == 0 && v > 0 ? (uint32_t)v : 0;
	}
	if (sysfs_dir("", (uint64_t)st.st_dev, dir) != 0)
		return 0;
	if (is_partition(dir))
		cut_last(dir);
	return read_u32(dir, "/queue/logical_block_size");
}

/* ---- in use ---------------------------------------------------------------------------- */

/* The target is known by every identity the kernel gives it, and whatever is layered on
 * it (mounts, holders, swap, loop devices, locks) is compared with those. A file: its
 * (device, inode), its inode under a btrfs filesystem's device (as /proc/locks and the
 * loop driver give it), and itself through an overlay or in its layer. A disk: its
 * number, its partitions or its disk, what a loop device is backed by, and its /dev
 * nodes. */

/* The check under root, and where its answer goes. */
struct holder_ctx {
	const char *root;
	char *holder;
	size_t n;
};

/* The answer, printf's fmt and what follows, into h; 1. */
static int held(struct holder_ctx *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vb_vmsgf(h->holder, h->n, fmt, ap);
	va_end(ap);
	return 1;
}

/* What could not be done, and errno e when not 0: EMFILE or EACCES call for other
 * remedies than mounting /proc; -1. */
static int cannot_tell(struct holder_ctx *h, const char *what, const char *path, int e)
{
	vb_msgf(h->holder, h->n, "cannot tell whether it is in use: %s %s%s%s%s", what, path,
		 e ? ": " : "", e ? strerror(e) : "",
		 e == ENOENT && strncmp(path, "/proc", 5) == 0 ? " (is /proc mounted?)" : "");
	return -1;
}

/* The devices of a disk: dev itself and each of its partitions. */
struct devlist {
	uint64_t dev[256];
	char name[256][64];
	size_t n;
};

static void devlist_add(struct devlist *l, uint64_t dev, const char *name)
{
	if (l->n < sizeof l->dev / sizeof l->dev[0]) {
		l->dev[l->n] = dev;
		vb_os_copy(l->name[l->n], sizeof l->name[0], name);
		l->n++;
	}
}

static int find_dev(const struct devlist *l, uint64_t dev)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->dev[i] == dev)
			return (int)i;
	return -1;
}

/* A (device, inode) the kernel may give the storage; same_inode: the one vbench opened
 * (and locked). */
struct file_id {
	uint64_t dev, ino;
	bool same_inode;
	bool by_number;   /* btrfs: the filesystem's device, which every subvolume shares */
};

/* The storage of one target, as every name it goes by. */
struct storage {
	struct devlist devs;          /* block devices the target is, or lies on or under */
	struct file_id files[128];    /* files and device nodes that are the target's */
	size_t n_files;
	uint64_t self_rdev;           /* the target, when it is a block device; else 0 */
	char self_name[64];
};

/* A file is its device and inode together: inode numbers repeat across devices. */
static int find_file(const struct storage *s, uint64_t dev, uint64_t ino)
{
	for (size_t i = 0; i < s->n_files; i++)
		if (s->files[i].dev == dev && s->files[i].ino == ino)
			return (int)i;
	return -1;
}

static void add_file(struct storage *s, uint64_t dev, uint64_t ino, bool same_inode)
{
	int i = find_file(s, dev, ino);

	if (i >= 0)
		s->files[i].same_inode |= same_inode;
	else if (s->n_files < sizeof s->files / sizeof s->files[0])
		s->files[s->n_files++] = (struct file_id){dev, ino, same_inode, false};
}

/* A directory above the target, as a prefix of its path and its identity. */
struct ancestor {
	uint64_t dev, ino;
	size_t len;    /* the target's path from here on is path + len */
};

struct layer_walk {
	struct holder_ctx *h;
	const char *path, *point;
	struct storage *s;
	bool reverse;                 /* path may lie in a layer; look for it in the overlay */
	const struct ancestor *anc;   /* (reverse) the directories above path */
	size_t n_anc;
	int depth;                    /* overlays followed to get to path */
};

static int file_names(struct holder_ctx *h, struct storage *s, const char *path, uint64_t dev,
		      uint64_t ino, bool same_inode, int depth);

/* The regular file at dir/rel (rel "" or "/..."), if any, is the target too, with what
 * it is in turn through another overlay. */
static int layer_file(struct layer_walk *w, const char *dir, const char *rel)
{
	char p[PATH_MAX], full[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof p, "%s%s", dir, rel) >= (int)sizeof p ||
	    join(full, sizeof full, w->h->root, p) != 0 || stat(full, &st) != 0 ||
	    !S_ISREG(st.st_mode) || find_file(w->s, (uint64_t)st.st_dev, (uint64_t)st.st_ino) >= 0)
		return 0;
	if (w->depth >= 8)
		return cannot_tell(w->h, "too many overlays stacked over", p, 0);
	return file_names(w->h, w->s, p, (uint64_t)st.st_dev, (uint64_t)st.st_ino, false,
			  w->depth + 1);
}

static int visit_layer(const char *dir, struct layer_walk *w)
{
	char p[PATH_MAX];
	struct stat st;

	if (dir[0] != '/') {
		/* relative to where the mount was made, which nothing records */
		vb_msgf(w->h->holder, w->h->n, "cannot tell whether it is in use: the overlay "
			"mounted on %s names a layer by a relative path (%s)", w->point, dir);
		return -1;
	}
	if (!w->reverse) {
		/* path is on the overlay: the same name in each layer under it */
		size_t n = strcmp(w->point, "/") == 0 ? 0 : strlen(w->point);
		return layer_file(w, dir, w->path + n);
	}
	/* The layer is known by identity: its name may pass a link or a bind mount. */
	if (join(p, sizeof p, w->h->root, dir) != 0 || stat(p, &st) != 0)
		return 0;   /* out of this mount namespace's sight (man page, SECURITY) */
	int rc = 0;
	for (size_t i = 0; i < w->n_anc && rc == 0; i++)
		if (w->anc[i].dev == (uint64_t)st.st_dev && w->anc[i].ino == (uint64_t)st.st_ino)
			rc = layer_file(w, strcmp(w->point, "/") == 0 ? "" : w->point,
					w->path + w->anc[i].len);
	return rc;
}

/* Calls visit_layer for each layer an overlay's options name (upperdir, lowerdir,
 * data-only), as overlayfs splits them: at unescaped commas, lowerdir at each unescaped
 * ':', a backslash making the next character plain (fs/overlayfs/params.c:
 * ovl_parse_param_split_lowerdirs, ovl_unescape). The first non-zero it returns; -1
 * without memory. */
static int overlay_layers(const char *opts, struct layer_walk *w)
{
	char *copy = strdup(opts), *dir = malloc(strlen(opts) + 1), *save = NULL;
	int rc = 0;

	if (copy == NULL || dir == NULL)
		rc = -1;
	for (char *o = rc ? NULL : strtok_r(copy, ",", &save); o && rc == 0;
	     o = strtok_r(NULL, ",", &save)) {
		const char *q = strchr(o, '=');
		if (!q)
			continue;
		size_t key = (size_t)(q - o);
		/* "lowerdir+=" and "datadir+=" give one layer each, taken as it is */
		bool one = (key == 9 && strncmp(o, "lowerdir+", 9) == 0) ||
			   (key == 8 && strncmp(o, "datadir+", 8) == 0);
		bool list = key == 8 && strncmp(o, "lowerdir", 8) == 0;
		if (!one && !list && !(key == 8 && strncmp(o, "upperdir", 8) == 0))
			continue;
		q++;
		for (size_t n = 0; rc == 0;) {
			bool esc;
			char c = *q ? field_char(&q, &esc) : '\0';
			if (c == '\0' || (list && c == ':' && !esc)) {
				dir[n] = '\0';
				if (n > 0)
					rc = visit_layer(dir, w);
				if (c == '\0')
					break;
				n = 0;
				continue;
			}
			if (c == '\\' && *q && !one)
				c = field_char(&q, &esc);
			dir[n++] = c;
		}
	}
	free(copy);
	free(dir);
	return rc;
}

/* The directories above path, "/" first; NULL without memory. */
static struct ancestor *ancestors_of(const char *root, const char *path, size_t *n)
{
	size_t cap = 1;
	struct ancestor *a;

	for (const char *c = path; *c; c++)
		cap += *c == '/';
	if (!(a = calloc(cap, sizeof *a)))
		return NULL;
	*n = 0;
	for (size_t len = 0; path[len]; len++) {
		char dir[PATH_MAX];
		struct stat st;
		if (path[len] != '/' || (len > 0 && path[len + 1] == '\0'))
			continue;
		if (snprintf(dir, sizeof dir, "%s%.*s", root, len ? (int)len : 1,
			     len ? path : "/") < (int)sizeof dir && stat(dir, &st) == 0 && *n < cap)
			a[(*n)++] = (struct ancestor){(uint64_t)st.st_dev, (uint64_t)st.st_ino, len};
	}
	return a;
}

/* Adds the names of the regular file at path (dev, ino from stat): itself, its inode
 * under its btrfs filesystem's device, and itself in or over any overlay. -1 when
 * mountinfo or a layer cannot be read. */
static int file_names(struct holder_ctx *h, struct storage *s, const char *path, uint64_t dev,
		      uint64_t ino, bool same_inode, int level)
{
	char *line = NULL, point[PATH_MAX] = "", fs[64] = "", *opts = NULL;
	size_t cap = 0, best = 0, n_anc = 0;
	struct ancestor *anc = NULL;
	uint64_t mdev = 0;
	int rc = 0;
	FILE *f;

	add_file(s, dev, ino, same_inode);
	if (path == NULL || path[0] != '/')
		return 0;
	if (!(f = open_at(h->root, "/proc/self/mountinfo")))
		return cannot_tell(h, "cannot read", "/proc/self/mountinfo", errno);
	while (rc == 0 && getline(&line, &cap, f) != -1) {
		struct mline m;
		if (parse_mountinfo(line, &m) != 0)
			continue;
		size_t depth = cover(m.point, path);
		if (depth > 0 && depth >= best) {
			best = depth;
			mdev = m.dev;
			COPY(point, m.point);
			COPY(fs, m.fs);
			free(opts);
			if (!(opts = strdup(m.opts)))
				rc = cannot_tell(h, "out of memory while checking", path, 0);
		}
		if (rc == 0 && strcmp(m.fs, "overlay") == 0) {
			if (anc == NULL && !(anc = ancestors_of(h->root, path, &n_anc))) {
				rc = cannot_tell(h, "out of memory while checking", path, 0);
				break;
			}
			struct layer_walk w = {h, path, m.point, s, true, anc, n_anc, level};
			rc = overlay_layers(m.opts, &w);
		}
	}
	free(line);
	free(anc);
	fclose(f);
	if (rc == 0 && best > 0 && strcmp(fs, "btrfs") == 0) {
		add_file(s, mdev, ino, same_inode);
		int i = find_file(s, mdev, ino);
		if (i >= 0 && mdev != dev)
			s->files[i].by_number = true;
	}
	if (rc == 0 && best > 0 && strcmp(fs, "overlay") == 0) {
		struct layer_walk w = {h, path, point, s, false, NULL, 0, level};
		rc = overlay_layers(opts, &w);
	}
	free(opts);
	if (rc != 0 && h->holder[0] == '\0')
		return cannot_tell(h, "out of memory while checking", path, 0);
	return rc < 0 ? -1 : rc;
}

/* Fills l with dev and its partitions, or for a partition its disk. */
static int disk_and_parts(struct holder_ctx *h, uint64_t dev, struct devlist *l)
{
	char dir[PATH_MAX], sub[PATH_MAX], text[64];
	struct dirent *de;
	DIR *d;

	if (sysfs_dir(h->root, dev, dir) != 0)
		return -1;
	devlist_add(l, dev, vb_os_base_name(dir));
	if (is_partition(dir)) {
		uint64_t whole;
		COPY(sub, dir);
		cut_last(sub);
		if (read_line(sub, "/dev", text, sizeof text) == 0 &&
		    parse_devnum(text, &whole) == 0)
			devlist_add(l, whole, vb_os_base_name(sub));
		return 0;
	}
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) != NULL) {
		uint64_t pdev;
		if (de->d_name[0] == '.' || snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name) >=
		    (int)sizeof sub || !is_partition(sub))
			continue;
		if (read_line(sub, "/dev", text, sizeof text) == 0 && parse_devnum(text, &pdev) == 0)
			devlist_add(l, pdev, de->d_name);
	}
	closedir(d);
	return 0;
}

static int storage_of(struct holder_ctx *h, struct storage *s, const struct vb_fileinfo *fi,
		      const char *path, int depth);

/* A loop device of s (named name): what backs it is the target's storage too. */
static int add_loop_backing(struct holder_ctx *h, struct storage *s, const char *name,
			    int depth)
{
	char ldir[PATH_MAX], backing[PATH_MAX];
	struct stat st;
	struct vb_fileinfo bf;

	if (snprintf(ldir, sizeof ldir, "%s/sys/block/%s/loop", h->root, name) >= (int)sizeof ldir ||
	    read_line(ldir, "/backing_file", backing, sizeof backing) != 0)
		return 0;   /* not a loop device, or not attached */
	if (loop_backing(h->root, name, backing, &st) != 0)
		return cannot_tell(h, "cannot identify the backing file of", name, errno);
	memset(&bf, 0, sizeof bf);
	bf.type = S_ISBLK(st.st_mode) ? VB_FT_BLK : VB_FT_REG;
	bf.dev = (uint64_t)st.st_dev;
	bf.ino = (uint64_t)st.st_ino;
	bf.rdev = (uint64_t)st.st_rdev;
	return storage_of(h, s, &bf, backing, depth + 1);
}

/* Adds each block device node under dir (root/dev, a few levels) of s's devices. */
static void add_nodes(struct storage *s, const char *dir, int depth)
{
	char p[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p ||
		    lstat(p, &st) != 0)
			continue;
		if (S_ISBLK(st.st_mode) && find_dev(&s->devs, (uint64_t)st.st_rdev) >= 0)
			add_file(s, (uint64_t)st.st_dev, (uint64_t)st.st_ino, false);
		else if (S_ISDIR(st.st_mode) && depth < 3 && strcmp(de->d_name, "shm") != 0 &&
			 strcmp(de->d_name, "pts") != 0 && strcmp(de->d_name, "mqueue") != 0)
			add_nodes(s, p, depth + 1);
	}
	closedir(d);
}

/* Fills s with every name of fi (whose path, when known, is path). */
static int storage_of(struct holder_ctx *h, struct storage *s, const struct vb_fileinfo *fi,
		      const char *path, int depth)
{
	if (depth > 8)
		return cannot_tell(h, "too many layers of loop devices under", path ? path : "it",
				   0);
	if (fi->type == VB_FT_REG)
		return file_names(h, s, path, fi->dev, fi->ino, depth == 0, 0);
	if (fi->type != VB_FT_BLK)
		return 0;
	if (depth == 0)
		add_file(s, fi->dev, fi->ino, true);
	size_t first = s->devs.n;
	if (disk_and_parts(h, fi->rdev, &s->devs) != 0) {
		char p[64];
		snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(fi->rdev), minor(fi->rdev));
		return cannot_tell(h, "no", p, 0);
	}
	if (depth == 0 && s->devs.n > first) {
		s->self_rdev = fi->rdev;
		COPY(s->self_name, s->devs.name[first]);
	}
	/* What backs the device, or a partition's disk, if a loop device, is storage too. */
	size_t end = s->devs.n;
	int rc = 0;
	for (size_t i = first; i < end && rc == 0; i++)
		rc = add_loop_backing(h, s, s->devs.name[i], depth);
	return rc;
}

/* dm and md devices, bcache and the like list themselves under holders/. */
static int check_holders(struct holder_ctx *h, const struct devlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		char dir[PATH_MAX], hdir[PATH_MAX];
		struct dirent *de;
		DIR *d;
		if (sysfs_dir(h->root, l->dev[i], dir) != 0 ||
		    join(hdir, sizeof hdir, dir, "/holders") != 0 || !(d = opendir(hdir)))
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			held(h, "%s is held by %s (device-mapper, md or another layer)", l->name[i],
			     de->d_name);
			closedir(d);
			return 1;
		}
		closedir(d);
	}
	return 0;
}

/* A file system on one of the target's devices, or mounted from the target file (erofs
 * and others need no loop device). */
static int check_mounts(struct holder_ctx *h, const struct storage *s)
{
	const struct devlist *l = &s->devs;
	char *line = NULL, node[PATH_MAX];
	size_t cap = 0;
	int rc = 0;
	FILE *f;

	if (!(f = open_at(h->root, "/proc/self/mountinfo")))
		return cannot_tell(h, "cannot read", "/proc/self/mountinfo", errno);
	while (rc == 0 && getline(&line, &cap, f) != -1) {
		struct mline m;
		struct stat st;
		if (parse_mountinfo(line, &m) != 0)
			continue;
		int i = find_dev(l, m.dev);
		bool src = i < 0 && m.source[0] == '/' &&
			   join(node, sizeof node, h->root, m.source) == 0 && stat(node, &st) == 0;
		/* btrfs and others show an anonymous device; their source names the disk. */
		if (src && strncmp(m.source, "/dev/", 5) == 0 && S_ISBLK(st.st_mode))
			i = find_dev(l, (uint64_t)st.st_rdev);
		if (i >= 0)
			rc = held(h, "%s is mounted on %s", l->name[i], m.point);
		else if (src && S_ISREG(st.st_mode) &&
			 find_file(s, (uint64_t)st.st_dev, (uint64_t)st.st_ino) >= 0)
			rc = held(h, "a file system is mounted from it on %s", m.point);
	}
	free(line);
	fclose(f);
	return rc;
}

/* /proc/swaps: "Filename Type Size Used Priority", paths escaped as in mountinfo. */
static int check_swaps(struct holder_ctx *h, const struct storage *s)
{
	char line[PATH_MAX + 64], node[PATH_MAX];
	int rc = 0;
	FILE *f = open_at(h->root, "/proc/swaps");

	if (!f)
		return 0;   /* no swap support at all (a missing /proc fails the lock check) */
	while (rc == 0 && fgets(line, sizeof line, f)) {
		char *name = strtok(line, " \t\n");
		struct stat st;
		if (!name || name[0] != '/')
			continue;
		unescape(name);
		if (join(node, sizeof node, h->root, name) != 0 || stat(node, &st) != 0)
			continue;
		int i = S_ISBLK(st.st_mode) ? find_dev(&s->devs, (uint64_t)st.st_rdev) : -1;
		if (i >= 0)
			rc = held(h, "%s is used as swap", s->devs.name[i]);
		else if (find_file(s, (uint64_t)st.st_dev, (uint64_t)st.st_ino) >= 0)
			rc = held(h, "it is used as swap (%s)", name);
	}
	fclose(f);
	return rc;
}

/* What backs each other attached loop device must not be the target's storage. */
static int check_loops(struct holder_ctx *h, const struct storage *s)
{
	char dir[PATH_MAX], ldir[PATH_MAX], backing[PATH_MAX], text[64];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (join(dir, sizeof dir, h->root, "/sys/block") != 0)
		return cannot_tell(h, "cannot read", "/sys/block", ENAMETOOLONG);
	if (!(d = opendir(dir)))
		return cannot_tell(h, "cannot read", "/sys/block", errno);
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		uint64_t self;
		if (strncmp(de->d_name, "loop", 4) != 0 ||
		    snprintf(ldir, sizeof ldir, "%s/%s/loop", dir, de->d_name) >= (int)sizeof ldir ||
		    read_line(ldir, "/backing_file", backing, sizeof backing) != 0)
			continue;   /* not attached */
		if (s->self_rdev != 0 && read_line(ldir, "/../dev", text, sizeof text) == 0 &&
		    parse_devnum(text, &self) == 0 && find_dev(&s->devs, self) >= 0)
			continue;   /* the target itself, or the disk or device under it */
		if (loop_backing(h->root, de->d_name, backing, &st) != 0) {
			/* Even a deleted file may live on under another link, as the target. */
			rc = cannot_tell(h, "cannot identify the backing file of", de->d_name,
					 errno);
			break;
		}
		int i = S_ISBLK(st.st_mode) ? find_dev(&s->devs, (uint64_t)st.st_rdev) : -1;
		if (i >= 0)
			rc = held(h, "loop device %s is backed by %s", de->d_name, s->devs.name[i]);
		else if (!S_ISBLK(st.st_mode) &&
			 find_file(s, (uint64_t)st.st_dev, (uint64_t)st.st_ino) >= 0)
			rc = s->self_rdev != 0
			     ? held(h, "loop device %s is backed by the same file as %s",
				    de->d_name, s->self_name)
			     : held(h, "loop device %s is backed by it", de->d_name);
	}
	closedir(d);
	return rc;
}

/* /proc/locks: a program that locks its disk or image (QEMU) has it in use. Files are
 * "MAJ:MIN:INODE", hex, hex, decimal; vbench's own locks do not count. Without
 * /proc/locks nothing can be told. */
static int check_locks(struct holder_ctx *h, const struct storage *s, bool own_locks)
{
	char line[512];
	int rc = 0;
	FILE *f = open_at(h->root, "/proc/locks");

	if (!f)
		return cannot_tell(h, "cannot read", "/proc/locks", errno);
	while (rc == 0 && fgets(line, sizeof line, f)) {
		char cls[16], kind[16], pid[32];
		unsigned maj, min;
		unsigned long long ino;
		if (strstr(line, "->") != NULL)
			continue;   /* a waiter, not a holder */
		if (sscanf(line, "%*s %15s %*s %15s %31s %x:%x:%llu", cls, kind, pid, &maj, &min,
			   &ino) != 6)
			continue;
		int i = find_file(s, (uint64_t)makedev(maj, min), ino);
		if (i < 0)
			continue;
		if (own_locks && s->files[i].same_inode &&
		    (strcmp(cls, "OFDLCK") == 0 || strcmp(cls, "FLOCK") == 0))
			continue;   /* while vbench holds both, no other can be on that inode */
		/* A btrfs file's device there is shared by every subvolume's inodes. */
		const char *on = s->files[i].by_number
				 ? "on a file with its inode number in this btrfs filesystem (it, or "
				   "a file of another subvolume: the kernel does not say which)"
				 : "on it";
		if (strcmp(pid, "-1") == 0)
			rc = held(h, "a program holds an open-file %s lock %s (QEMU locks what "
				  "it uses; so does another vbench)", kind, on);
		else
			rc = held(h, "process %s holds a %s lock %s (a program such as QEMU is "
				  "using it)", pid, cls, on);
	}
	fclose(f);
	return rc;
}

int vb_os_linux_in_use(const char *root, const struct vb_fileinfo *fi, const char *path,
		       bool own_locks, char *holder, size_t n)
{
	struct holder_ctx h = {root, holder, n};
	struct storage *s;
	int rc;

	holder[0] = '\0';
	if (fi->type != VB_FT_REG && fi->type != VB_FT_BLK)
		return 0;
	if (!(s = calloc(1, sizeof *s)))
		return cannot_tell(&h, "out of memory while checking", "the target", 0);
	if ((rc = storage_of(&h, s, fi, path, 0)) == 0 && fi->type == VB_FT_BLK) {
		char dev[PATH_MAX];
		if (join(dev, sizeof dev, root, "/dev") == 0)
			add_nodes(s, dev, 0);
	}
	if (rc == 0 && (rc = check_holders(&h, &s->devs)) == 0 &&
	    (rc = check_mounts(&h, s)) == 0 && (rc = check_swaps(&h, s)) == 0 &&
	    (rc = check_loops(&h, s)) == 0)
		rc = check_locks(&h, s, own_locks);
	free(s);
	return rc;
}

/* Whether f is the device node fi itself, which stores nothing. */
static bool is_node(const struct vb_fileinfo *fi, const struct file_id *f)
{
	return fi->type == VB_FT_BLK && f->dev == fi->dev && f->ino == fi->ino;
}

/* Whether storages a (of the target fi) and b (of an output, other) meet: one disk or
 * a part of it (another partition shares the disk with the runs), one file, or a file
 * of one on a disk of the other. */
static int storages_meet(struct holder_ctx *h, const struct storage *a,
			 const struct vb_fileinfo *fi, const struct storage *b,
			 const struct vb_fileinfo *other)
{
	int k;

	for (size_t i = 0; i < b->devs.n; i++)
		if (find_dev(&a->devs, b->devs.dev[i]) >= 0)
			return held(h, "it is %s, the same disk or a part of it", b->devs.name[0]);
	for (size_t i = 0; i < b->n_files; i++) {
		if (is_node(other, &b->files[i]) ||
		    (k = find_file(a, b->files[i].dev, b->files[i].ino)) < 0 ||
		    is_node(fi, &a->files[k]))
			continue;
		if (other->type == VB_FT_BLK)
			return held(h, "it is %s, backed by the same file", b->devs.name[0]);
		return held(h, "it is the same file");
	}
	for (size_t i = 0; i < b->n_files; i++)
		if (!is_node(other, &b->files[i]) && (k = find_dev(&a->devs, b->files[i].dev)) >= 0)
			return held(h, "the file lies on %s", a->devs.name[k]);
	for (size_t i = 0; i < a->n_files; i++)
		if (!is_node(fi, &a->files[i]) && (k = find_dev(&b->devs, a->files[i].dev)) >= 0)
			return held(h, "it is %s, where the target lies", b->devs.name[k]);
	return 0;
}

int vb_os_linux_shared(const char *root, const struct vb_fileinfo *fi, const char *path,
		       const struct vb_fileinfo *other, char *why, size_t n)
{
	struct holder_ctx h = {root, why, n};
	struct storage *s, *o;
	int rc;

	why[0] = '\0';
	if (other->type != VB_FT_REG && other->type != VB_FT_BLK)
		return 0;   /* a terminal, a pipe: no storage */
	s = calloc(1, sizeof *s);
	o = calloc(1, sizeof *o);
	if (!s || !o)
		rc = cannot_tell(&h, "out of memory while checking", "the target", 0);
	else if (fi->type == VB_FT_DIR) {
		/* a directory's new files: only its filesystem's device is known */
		add_file(s, fi->dev, fi->ino, true);
		rc = 0;
	} else
		rc = storage_of(&h, s, fi, path, 0);
	if (rc == 0 && (rc = storage_of(&h, o, other, NULL, 0)) == 0)
		rc = storages_meet(&h, s, fi, o, other);
	free(s);
	free(o);
	return rc;
}

int vb_os_fam_in_use(int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	char path[PATH_MAX];
	bool own = vb_os_held.set && vb_os_held.dev == fi->dev && vb_os_held.ino == fi->ino;

	if (fi->type == VB_FT_REG && !fd_path(fd, path, "it is in use", holder, n))
		return -1;
	return vb_os_linux_in_use("", fi, fi->type == VB_FT_REG ? path : NULL, own, holder, n);
}

int vb_os_same_storage(int fd, const struct vb_fileinfo *other, char *why, size_t n)
{
	char path[PATH_MAX];
	struct stat a;
	struct vb_fileinfo fa;

	if (other->type != VB_FT_REG && other->type != VB_FT_BLK)
		return 0;   /* a terminal, a pipe: no storage */
	if (fstat(fd, &a) != 0) {
		snprintf(why, n, "cannot examine it: %s", strerror(errno));
		return -1;
	}
	vb_os_fileinfo(&a, &fa);
	if (fa.type != VB_FT_REG && fa.type != VB_FT_BLK && fa.type != VB_FT_DIR)
		return 0;
	if (fa.type == VB_FT_REG && !fd_path(fd, path, "it is the same storage", why, n))
		return -1;
	return vb_os_linux_shared("", &fa, fa.type == VB_FT_REG ? path : NULL, other, why, n);
}

#else
typedef int vb_os_linux_unused;
#endif
