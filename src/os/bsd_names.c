/* The pure rules of the BSD backend: disk names and their drivers, partitions and
 * slices, filesystem names, and the in-use decision. Compiled on every system, so that
 * the unit tests check them where the tests run. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>

struct name_driver {
	const char *name;
	const char *driver;
};

/* The BSDs name a disk after the driver that attaches it. FreeBSD: vtbd (virtio), ada
 * and ad (ATA, AHCI), da (SCSI and USB, CAM), nvd and nda (NVMe), md (memory); DragonFly:
 * vbd (virtio), ad, da, nvme; NetBSD: ld (virtio and others), wd (ATA), sd (SCSI),
 * dk (a wedge, resolved to its parent by the backend). */
static const struct name_driver disks[] = {
	{"vtbd", "virtio_blk"}, {"vbd", "virtio_blk"}, {"xbd", "xbd"},
	{"ada", "ata"}, {"ad", "ata"}, {"wd", "ata"},
	{"da", "scsi"}, {"sd", "scsi"}, {"ld", "ld"}, {"cd", "cd"},
	{"nvd", "nvme"}, {"nda", "nvme"}, {"nvme", "nvme"},
	{"md", "md"}, {"vnd", "vnd"}, {"vn", "vn"}, {"mmcsd", "mmc"}, {"dk", "dk"},
	{NULL, NULL}
};

/* The letters that start name, into letters; their count. */
static size_t letters_of(const char *name, char *letters, size_t n)
{
	size_t k = 0;

	while (k + 1 < n && name[k] >= 'a' && name[k] <= 'z') {
		letters[k] = name[k];
		k++;
	}
	letters[k] = '\0';
	return k;
}

static const char *lookup(const char *letters)
{
	for (size_t i = 0; disks[i].name; i++)
		if (strcmp(letters, disks[i].name) == 0)
			return disks[i].driver;
	return NULL;
}

/* The name without the "r" of a NetBSD or OpenBSD raw twin ("rwd0d" -> "wd0d"). */
static const char *unraw(const char *name)
{
	char letters[32];

	letters_of(name, letters, sizeof letters);
	if (name[0] == 'r' && lookup(letters) == NULL && lookup(letters + 1) != NULL)
		return name + 1;
	return name;
}

const char *vb_bsd_driver_for_name(const char *name)
{
	char letters[32];
	const char *d;

	if (name == NULL)
		return vb_os_unknown;
	name = unraw(vb_os_base_name(name));
	letters_of(name, letters, sizeof letters);
	d = lookup(letters);
	return d ? d : vb_os_unknown;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A partition suffix after the unit number: "p2" (GPT), "s1" or "s1a" (MBR slice and
 * label), "a" to "p" (a BSD label partition). */
static bool part_suffix(const char *s)
{
	if (*s == '\0')
		return true;
	if ((s[0] == 'p' || s[0] == 's') && is_digit(s[1])) {
		s++;
		while (is_digit(*s))
			s++;
		if (*s >= 'a' && *s <= 'p')
			s++;
		return *s == '\0';
	}
	return s[0] >= 'a' && s[0] <= 'p' && s[1] == '\0';
}

bool vb_bsd_disk_of(const char *name, char *disk, size_t n)
{
	char letters[32];
	size_t k;

	name = unraw(vb_os_base_name(name));
	k = letters_of(name, letters, sizeof letters);
	if (k == 0 || lookup(letters) == NULL || !is_digit(name[k]))
		return false;
	while (is_digit(name[k]))
		k++;
	if (!part_suffix(name + k) || k >= n)
		return false;
	memcpy(disk, name, k);
	disk[k] = '\0';
	return true;
}

bool vb_bsd_source_on_disk(const char *from, const char *disk)
{
	char d[64];

	return strncmp(from, "/dev/", 5) == 0 && vb_bsd_disk_of(from + 5, d, sizeof d) &&
	       strcmp(d, disk) == 0;
}

/* The names the BSDs report a filesystem by. Most are kept as they are; FAT goes by
 * "msdos" on NetBSD and DragonFly and by "msdosfs" on FreeBSD. */
static const struct name_driver fs_names[] = {
	{"ufs", "ufs"}, {"ffs", "ffs"}, {"zfs", "zfs"}, {"hammer", "hammer"},
	{"hammer2", "hammer2"}, {"tmpfs", "tmpfs"}, {"msdosfs", "msdosfs"}, {"msdos", "msdosfs"},
	{"ext2fs", "ext2fs"}, {"nfs", "nfs"}, {"mfs", "mfs"}, {"cd9660", "cd9660"},
	{"fusefs", "fusefs"}, {"nullfs", "nullfs"}, {"devfs", "devfs"}, {NULL, NULL}
};

const char *vb_bsd_fs_name(const char *fstypename)
{
	for (size_t i = 0; fs_names[i].name; i++)
		if (strcmp(fstypename, fs_names[i].name) == 0)
			return fs_names[i].driver;
	return fstypename;
}

bool vb_fs_direct_may_cache(const char *fs)
{
	/* ZFS takes O_DIRECT as a hint at most: the data still passes its ARC. */
	return strcmp(fs, "zfs") == 0;
}

int vb_bsd_in_use(const struct vb_bsd_use *uses, size_t n_uses, const char *disk,
		  char *holder, size_t n)
{
	const struct vb_bsd_use *unknown = NULL;

	for (size_t i = 0; i < n_uses; i++) {
		const struct vb_bsd_use *u = &uses[i];
		if (u->disk != NULL && strcmp(u->disk, disk) == 0) {
			if (strcmp(u->where, "swap") == 0)
				snprintf(holder, n, "%s is used as swap", u->what);
			else
				snprintf(holder, n, "%s is mounted on %s", u->what, u->where);
			return 1;
		}
		if (u->disk == NULL && strncmp(u->what, "/dev/", 5) == 0 && unknown == NULL)
			unknown = u;
	}
	if (unknown != NULL) {
		snprintf(holder, n, "cannot tell whether it is in use: %s (%s) lies on a disk "
			 "vbench cannot name", unknown->what,
			 strcmp(unknown->where, "swap") == 0 ? "swap" : unknown->where);
		return -1;
	}
	return 0;
}

bool vb_bsd_geom_disk(const char *conftxt, const char *name, char *disk, size_t n)
{
	/* The DISK ancestor of each depth so far; a provider's line follows its parents. */
	char stack[16][128];
	const char *p = conftxt;

	memset(stack, 0, sizeof stack);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512], cls[32], prov[128];
		unsigned depth;
		if (len < sizeof line) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (sscanf(line, "%u %31s %127s", &depth, cls, prov) == 3 && depth < 16) {
				if (strcmp(cls, "DISK") == 0 || depth == 0)
					snprintf(stack[depth], sizeof stack[depth], "%s", prov);
				else
					memcpy(stack[depth], stack[depth - 1], sizeof stack[depth]);
				if (strcmp(prov, name) == 0 && stack[depth][0] != '\0') {
					snprintf(disk, n, "%s", stack[depth]);
					return true;
				}
			}
		}
		p = eol ? eol + 1 : p + len;
	}
	return false;
}
