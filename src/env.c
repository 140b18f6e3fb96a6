/* Finds out where a benchmark runs: the filesystem, mount point, block device and driver
 * under a path, and the machine's name, kernel and memory. Linux answers from
 * /proc/self/mountinfo and /sys, read under a root prefix so that tests can hand in a fake
 * tree. Systems whose statfs() or statvfs() names the filesystem and its source device
 * (the BSDs, macOS) answer from that instead. What cannot be found stays "unknown". */
#include "vb_sysfeatures.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sys/sysmacros.h>)
#include <sys/sysmacros.h>      /* major(), minor() on glibc */
#endif
#if __has_include(<sys/mount.h>)
#include <sys/mount.h>          /* struct statfs with f_fstypename on the BSDs and macOS */
#endif
#endif

#include "vb_env.h"

/* NetBSD names the filesystem and its device in struct statvfs (its statfs is gone), the
 * other BSDs and macOS in struct statfs. Each announces those fields with the macro that
 * sizes f_fstypename, so the macro, not the system's name, picks the call. Linux has
 * neither and reads /proc instead. */
#if defined(_VFS_NAMELEN)
#define VB_FSINFO statvfs
#elif defined(MFSNAMELEN)
#define VB_FSINFO statfs
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* A mountinfo line has ten or so fields; this leaves room for many optional ones. */
#define MAX_FIELDS 64
/* Sysfs device trees are a dozen levels deep; the bound only guards against loops. */
#define MAX_DEPTH 32

#define COPY(dst, src) copy((dst), sizeof(dst), (src))

static const char unknown[] = "unknown";

struct name_driver {
	const char *name;
	const char *driver;
};

/* Linux block devices without a driver link in sysfs are virtual ones, and their name
 * says which subsystem made them. An NVMe namespace under native multipathing hangs off
 * a subsystem device with no driver either, hence the "nvme" entry. */
static const struct name_driver virtual_disks[] = {
	{"loop", "loop"}, {"dm", "device-mapper"}, {"md", "md"}, {"zram", "zram"},
	{"nbd", "nbd"}, {"ram", "brd"}, {"rbd", "rbd"}, {"nvme", "nvme"}, {NULL, NULL}
};

/* The BSDs name a disk after the driver that attaches it. "vbd" is DragonFly's virtio
 * disk, so it reports virtio_blk like FreeBSD's "vtbd" (Xen disks are "xbd" there).
 * NetBSD's virtio disks attach as "ld" and OpenBSD's as "sd", which hide the bus.
 * CAM's "ada" may sit on AHCI or legacy ATA, so it stays "ada"; "ad" and "wd" are ATA. */
static const struct name_driver bsd_disks[] = {
	{"vtbd", "virtio_blk"}, {"vbd", "virtio_blk"}, {"xbd", "xbd"},
	{"ada", "ada"}, {"ad", "ata"}, {"wd", "ata"},
	{"da", "scsi"}, {"sd", "scsi"}, {"ld", "ld"},
	{"nvd", "nvme"}, {"nda", "nvme"}, {"nvme", "nvme"},
	{"md", "md"}, {"vnd", "vnd"}, {"vn", "vn"}, {"mmcsd", "mmc"}, {NULL, NULL}
};

/* The mount chosen for a target, copied out of the mountinfo line buffer. */
struct mount {
	unsigned major, minor;
	char point[1024];
	char fs[64];
	char source[256];
};

/* Copies src into dst of size n, truncating, always terminated when n > 0. */
static void copy(char *dst, size_t n, const char *src)
{
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i + 1 < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* Appends src to the terminated string in dst of size n, truncating. */
static void append(char *dst, size_t n, const char *src)
{
	size_t len = strlen(dst);

	if (len < n)
		copy(dst + len, n - len, src);
}

/* Writes a followed by b into buf; -1 when it does not fit, because a cut path names
 * some other file. */
static int join(char *buf, size_t n, const char *a, const char *b)
{
	int len = snprintf(buf, n, "%s%s", a, b);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
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

/* Looks the leading letters of a device name ("ada" of "ada0p2") up in table; "r"
 * prefixes the raw twin of a disk on NetBSD and OpenBSD ("rwd0d"), so it is tried
 * without it too. */
static const char *driver_by_name(const struct name_driver *table, const char *name)
{
	char letters[32];
	size_t n = 0;

	while (n + 1 < sizeof letters && ((name[n] >= 'a' && name[n] <= 'z') ||
			(name[n] >= 'A' && name[n] <= 'Z'))) {
		letters[n] = name[n];
		n++;
	}
	letters[n] = '\0';
	for (size_t i = 0; table[i].name; i++)
		if (strcmp(letters, table[i].name) == 0)
			return table[i].driver;
	if (table == bsd_disks && letters[0] == 'r' && letters[1] != '\0')
		return driver_by_name(table, name + 1);
	return unknown;
}

const char *vb_env_driver_for_name(const char *name)
{
	return name ? driver_by_name(bsd_disks, base_name(name)) : unknown;
}

/* Parses a decimal that fills the whole string but for trailing white space; strtoull
 * alone would take "-1", "12abc" and an empty string. */
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

/* Reads a sysfs attribute that holds one 32-bit number, such as a block size; 0 when it
 * is missing or is not one. */
static uint32_t read_u32(const char *dir, const char *name)
{
	char path[PATH_MAX], text[64];
	const char *end;
	uint64_t v;
	FILE *f;
	int ok;

	if (join(path, sizeof path, dir, name) != 0 || !(f = fopen(path, "r")))
		return 0;
	ok = fgets(text, sizeof text, f) != NULL;
	fclose(f);
	if (!ok || parse_u64(text, &v, &end) != 0 || v > UINT32_MAX)
		return 0;
	return *end == '\0' || *end == '\n' ? (uint32_t)v : 0;
}

/* Decodes the \ooo octal escapes the kernel writes for space, tab, newline and
 * backslash in mountinfo paths, in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
				s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Splits one mountinfo line in place into its device number and pointers to the mount
 * point, filesystem type and mount source; -1 when it lacks one of them. The optional
 * fields end at a lone "-", after which come the filesystem type and the source. */
static int parse_mountinfo(char *line, unsigned *major, unsigned *minor, char **field)
{
	char *tok[MAX_FIELDS], *save = NULL, extra;
	size_t n = 0, sep = 6;

	for (char *t = strtok_r(line, " \n", &save); t && n < MAX_FIELDS;
			t = strtok_r(NULL, " \n", &save))
		tok[n++] = t;
	while (sep < n && strcmp(tok[sep], "-") != 0)
		sep++;
	if (sep + 2 >= n || sscanf(tok[2], "%u:%u%c", major, minor, &extra) != 2)
		return -1;
	field[0] = tok[4];
	field[1] = tok[sep + 1];
	field[2] = tok[sep + 2];
	for (int i = 0; i < 3; i++)
		unescape(field[i]);
	return 0;
}

/* How well mount point mnt covers path: 0 when it does not hold it, otherwise the length
 * of the match (at least 1), so that the deepest mount wins. */
static size_t cover(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!path || n == 0 || strncmp(mnt, path, n) != 0)
		return 0;
	if (strcmp(mnt, "/") == 0 || path[n] == '\0' || path[n] == '/')
		return n;
	return 0;
}

/* How a mountinfo line ranks as the mount of a target: first whether it carries the
 * target's device, then how deep its mount point holds the target's path. */
struct rank {
	int dev;
	size_t depth;
};

/* A later line wins a tie because a later mount sits on top of an earlier one. */
static int outranks(struct rank a, struct rank b)
{
	return a.dev > b.dev || (a.dev == b.dev && a.depth >= b.depth);
}

/* Picks the mount of device major:minor that holds path most closely. When no line
 * carries the device, as in a btrfs subvolume whose st_dev is its own, the deepest mount
 * holding the path is the next best answer. Returns 1 when best was filled. */
static int find_mount(FILE *f, const char *path, unsigned major, unsigned minor,
		struct mount *best)
{
	char *line = NULL, *field[3];
	size_t cap = 0;
	struct rank top = {0, 0}, r;
	unsigned maj, min;
	int found = 0;

	while (getline(&line, &cap, f) != -1) {
		if (parse_mountinfo(line, &maj, &min, field) != 0)
			continue;
		r.dev = maj == major && min == minor;
		r.depth = cover(field[0], path);
		if ((!r.dev && r.depth == 0) || (found && !outranks(r, top)))
			continue;
		best->major = maj;
		best->minor = min;
		COPY(best->point, field[0]);
		COPY(best->fs, field[1]);
		COPY(best->source, field[2]);
		top = r;
		found = 1;
	}
	free(line);
	return found;
}

static int read_mountinfo(const char *root, const char *path, unsigned major,
		unsigned minor, struct mount *m)
{
	char file[PATH_MAX];
	FILE *f;
	int found;

	if (join(file, sizeof file, root, "/proc/self/mountinfo") != 0 ||
			!(f = fopen(file, "r")))
		return 0;
	found = find_mount(f, path, major, minor, m);
	fclose(f);
	return found;
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
	copy(name, n, base_name(target));
	return 0;
}

/* Walks from a disk's device up the sysfs tree to the first device with a driver: the
 * disk's own for virtio, the PCI function for an NVMe controller. A SCSI disk's driver is
 * "sd" whatever the bus, so for it the walk goes on to the host adapter's driver (ahci,
 * ata_piix, virtio_scsi, uas), which is what tells disks apart. */
static void walk_drivers(char *dev, const char *limit, char *first, char *host, size_t n)
{
	size_t lim = strlen(limit);

	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		if (strncmp(dev, limit, lim) != 0 || dev[lim] != '/')
			return;
		if (bound_driver(dev, first[0] ? host : first, n) == 0 &&
				(host[0] != '\0' || strcmp(first, "sd") != 0))
			return;
		cut_last(dev);
	}
}

/* Sets e->driver for the whole-disk sysfs directory disk: "sd/ahci" for a SCSI disk on
 * an AHCI port, "virtio_blk", "nvme", or for a virtual disk the name of its kind. */
static void disk_driver(struct vb_env *e, const char *root, const char *disk)
{
	char link[PATH_MAX], dev[PATH_MAX], limit[PATH_MAX], sys[PATH_MAX];
	char first[64] = "", host[64] = "";

	if (join(link, sizeof link, disk, "/device") == 0 && realpath(link, dev) &&
			join(sys, sizeof sys, root, "/sys/devices") == 0 && realpath(sys, limit))
		walk_drivers(dev, limit, first, host, sizeof first);
	if (first[0] == '\0') {
		COPY(e->driver, driver_by_name(virtual_disks, base_name(disk)));
		return;
	}
	COPY(e->driver, first);
	if (host[0] != '\0') {
		append(e->driver, sizeof e->driver, "/");
		append(e->driver, sizeof e->driver, host);
	}
}

/* Fills device, driver and block sizes from ROOT/sys/dev/block/MAJ:MIN, a link to the
 * device's directory. A partition's directory sits inside its disk's, and only the disk
 * has the queue limits and the link to the hardware. */
static void sysfs_device(struct vb_env *e, const char *root, unsigned major,
		unsigned minor)
{
	char link[PATH_MAX], dir[PATH_MAX], part[PATH_MAX];
	int len = snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", root, major, minor);

	if (len < 0 || (size_t)len >= sizeof link || !realpath(link, dir))
		return;
	COPY(e->device, base_name(dir));
	if (join(part, sizeof part, dir, "/partition") == 0 && access(part, F_OK) == 0)
		cut_last(dir);
	e->logical_block = read_u32(dir, "/queue/logical_block_size");
	e->physical_block = read_u32(dir, "/queue/physical_block_size");
	disk_driver(e, root, dir);
}

/* Device major 0 has no block device of its own: tmpfs, proc, overlay, NFS, and also
 * btrfs, whose mount source still names the disk under it, which is then looked up. */
static void unnamed_device(struct vb_env *e, const char *root, const char *source)
{
	char node[PATH_MAX];
	struct stat st;

	if (strncmp(source, "/dev/", 5) != 0) {
		COPY(e->device, source[0] ? source : unknown);
		COPY(e->driver, "none");
		return;
	}
	if (join(node, sizeof node, root, source) == 0 && stat(node, &st) == 0 &&
			S_ISBLK(st.st_mode))
		sysfs_device(e, root, major(st.st_rdev), minor(st.st_rdev));
	if (strcmp(e->device, unknown) == 0)
		COPY(e->device, base_name(source));
}

static void reset_target(struct vb_env *e)
{
	COPY(e->fs, unknown);
	COPY(e->mount, unknown);
	COPY(e->device, unknown);
	COPY(e->driver, unknown);
	e->logical_block = 0;
	e->physical_block = 0;
}

void vb_env_detect_dev(struct vb_env *e, const char *path, unsigned major, unsigned minor,
		const char *root)
{
	struct mount m;

	reset_target(e);
	if (!root)
		root = "";
	m.source[0] = '\0';
	if (read_mountinfo(root, path, major, minor, &m)) {
		COPY(e->fs, m.fs);
		COPY(e->mount, m.point);
		major = m.major;
		minor = m.minor;
	}
	if (major == 0) {
		unnamed_device(e, root, m.source);
		return;
	}
	sysfs_device(e, root, major, minor);
	if (strcmp(e->device, unknown) == 0 && strncmp(m.source, "/dev/", 5) == 0)
		COPY(e->device, base_name(m.source));
}

/* Total RAM from the MemTotal line of ROOT/proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_ram(const char *root)
{
	char file[PATH_MAX], line[256];
	const char *end;
	uint64_t kib = 0;
	FILE *f;

	if (join(file, sizeof file, root, "/proc/meminfo") != 0 || !(f = fopen(file, "r")))
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "MemTotal:", 9) != 0)
			continue;
		if (parse_u64(line + 9, &kib, &end) != 0 || strncmp(end, " kB", 3) != 0 ||
				kib > UINT64_MAX / 1024)
			kib = 0;
		break;
	}
	fclose(f);
	return kib * 1024;
}

/* Only the real system may fall back to sysconf: a fake root describes another machine,
 * whose RAM this one's would misreport. */
static uint64_t detect_ram(const char *root)
{
	uint64_t ram = meminfo_ram(root);

#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	if (ram == 0 && root[0] == '\0') {
		long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			ram = (uint64_t)pages * (uint64_t)size;
	}
#endif
	return ram;
}

/* The host, system and kernel always come from uname: they describe the running kernel,
 * which a root prefix cannot change. */
static void detect_system(struct vb_env *e, const char *root)
{
	struct utsname u;

	if (uname(&u) == 0) {
		COPY(e->host, u.nodename);
		COPY(e->os, u.sysname);
		COPY(e->kernel, u.release);
	}
	e->ram_bytes = detect_ram(root);
}

/* Resolves path to an absolute one without symlinks. Callers may name a file vbench is
 * about to create; it will live on the filesystem of its nearest existing ancestor, so
 * components are dropped from the end until what is left exists. */
static int resolve_existing(const char *path, char *out)
{
	char tmp[PATH_MAX];
	char *slash;

	if (strlen(path) >= sizeof tmp)
		return -1;
	COPY(tmp, path);
	while (!realpath(tmp[0] ? tmp : ".", out)) {
		if (tmp[0] == '\0' || strcmp(tmp, "/") == 0)
			return -1;
		slash = strrchr(tmp, '/');
		if (!slash)
			tmp[0] = '\0';
		else if (slash == tmp)
			tmp[1] = '\0';
		else
			*slash = '\0';
	}
	return 0;
}

/* A device as target is written raw, with no filesystem or mount in between. */
static void set_raw(struct vb_env *e)
{
	COPY(e->fs, "none");
	COPY(e->mount, "none");
}

#if defined(VB_FSINFO)
/* The mount source is a device node such as /dev/ada0p2 for a disk, or something else
 * for filesystems without one: a ZFS dataset, "tmpfs", a server path. */
static void bsd_source(struct vb_env *e, const char *from)
{
	if (strncmp(from, "/dev/", 5) != 0) {
		COPY(e->device, from[0] ? from : unknown);
		COPY(e->driver, "none");
		return;
	}
	COPY(e->device, from + 5);
	COPY(e->driver, vb_env_driver_for_name(from + 5));
}

/* The BSDs serve disks as character devices, so either kind of node is a raw target. */
static void detect_target(struct vb_env *e, const char *path, const struct stat *st,
		const char *root)
{
	struct VB_FSINFO f;

	(void)root;
	if (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) {
		set_raw(e);
		COPY(e->device, base_name(path));
		COPY(e->driver, vb_env_driver_for_name(e->device));
		return;
	}
	if (VB_FSINFO(path, &f) != 0)
		return;
	COPY(e->fs, f.f_fstypename);
	COPY(e->mount, f.f_mntonname);
	bsd_source(e, f.f_mntfromname);
}
#else
static void detect_target(struct vb_env *e, const char *path, const struct stat *st,
		const char *root)
{
	if (!S_ISBLK(st->st_mode)) {
		vb_env_detect_dev(e, path, major(st->st_dev), minor(st->st_dev), root);
		return;
	}
	set_raw(e);
	sysfs_device(e, root, major(st->st_rdev), minor(st->st_rdev));
	if (strcmp(e->device, unknown) == 0)
		COPY(e->device, base_name(path));
}
#endif

void vb_env_detect(struct vb_env *e, const char *path, const char *root)
{
	char real[PATH_MAX];
	struct stat st;

	if (!root)
		root = "";
	COPY(e->host, unknown);
	COPY(e->os, unknown);
	COPY(e->kernel, unknown);
	reset_target(e);
	detect_system(e, root);
	if (!path || resolve_existing(path, real) != 0 || stat(real, &st) != 0)
		return;
	detect_target(e, real, &st, root);
}

/* "none" and "unknown" say nothing about the setup, so they are left out of a label. */
static int telling(const char *s)
{
	return s[0] != '\0' && strcmp(s, "none") != 0 && strcmp(s, unknown) != 0;
}

/* Labels end up in file names, CSV cells and shell loops, so only a safe set of
 * characters is kept. */
static void sanitize(char *s)
{
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				c == '.' || c == '_' || c == '-'))
			*s = '_';
	}
}

void vb_env_label(const struct vb_env *e, char *buf, size_t n)
{
	const char *fs = strcmp(e->fs, "none") == 0 ? "raw" : e->fs;

	if (n == 0)
		return;
	copy(buf, n, fs[0] ? fs : unknown);
	if (telling(e->driver)) {
		append(buf, n, "-");
		append(buf, n, e->driver);
	}
	sanitize(buf);
}
