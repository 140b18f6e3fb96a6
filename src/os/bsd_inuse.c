/* The BSD in-use check (vb_bsd.h), pure code over a vb_os_bsd_sys so that tests run it
 * anywhere: the disk a name lies on, what mounts, swap, vnode disks and GEOM say holds
 * it, and the parsers of the kernels' answers. A question unanswered refuses the target. */
#include "os/vb_bsd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "dk1" or "rdk1" (a NetBSD wedge, its block or raw node) into w as "dk1". */
static bool wedge_name(const char *name, char *w, size_t n)
{
	const char *p = name[0] == 'r' ? name + 1 : name;

	if (strncmp(p, "dk", 2) != 0 || !is_digit(p[2]))
		return false;
	for (const char *q = p + 2; *q; q++)
		if (!is_digit(*q))
			return false;
	vb_os_copy(w, n, p);
	return true;
}

static bool resolve_at(const struct vb_os_bsd_sys *sys, const char *name, char *disk, size_t n,
		       int depth)
{
	char w[32], buf[128];
	struct vb_fileinfo fi;

	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	/* NetBSD's wedges have no exclusive open (sys/dev/dkwedge/dk.c, dkopen): one in use
	 * is found only through its parent, the disk the kernel names in dkw_parent. */
	if (sys->wedge_parent != NULL && wedge_name(name, w, sizeof w)) {
		char parent[64];
		if (sys->wedge_parent(sys->ctx, w, parent, sizeof parent) != 1)
			return false;
		return vb_os_bsd_disk_of(parent, disk, n);
	}
	if (sys->geom_disk != NULL && sys->geom_disk(sys->ctx, name, disk, n))
		return true;
	if (vb_os_bsd_disk_of(name, disk, n))
		return true;
	/* Another name may be an alias (DragonFly's serno/SERIAL.s1a, part-by-uuid/...: by
	 * make_dev_alias in _setdiskinfo and disk_probe_slice, sys/kern/subr_disk.c, a link
	 * by devfs_alias_create): the node it leads to names the disk. */
	if (depth > 0)
		return false;
	snprintf(buf, sizeof buf, "/dev/%s", name);
	if (sys->stat(sys->ctx, buf, &fi) != 0 || (fi.type != VB_FT_CHR && fi.type != VB_FT_BLK))
		return false;
	if (!sys->devname(sys->ctx, fi.rdev, fi.type == VB_FT_BLK, buf, sizeof buf) ||
	    strcmp(buf, name) == 0)
		return false;
	return resolve_at(sys, buf, disk, n, depth + 1);
}

bool vb_os_bsd_resolve(const struct vb_os_bsd_sys *sys, const char *name, char *disk, size_t n)
{
	return resolve_at(sys, name, disk, n, 0);
}

/* File systems that no disk lies under (memory, network, views of other mounts, the
 * kernel's own); ZFS too where GEOM answers for its pools. */
static bool diskless_fs(const char *fs, bool geom)
{
	static const char *const names[] = {
		"tmpfs", "nfs", "nfs4", "devfs", "procfs", "fdescfs", "fdesc", "nullfs", "null",
		"linprocfs", "linsysfs", "kernfs", "ptyfs", "mfs", "smbfs", "autofs", "unionfs",
		"union", "fusefs", "puffs", "mqueue", "dirfs", "p9fs", "virtiofs", "ctlfs",
	};

	if (strncmp(fs, "fusefs.", 7) == 0 || (geom && strcmp(fs, "zfs") == 0))
		return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(fs, names[i]) == 0)
			return true;
	return false;
}

/* Whether mount m lies on disk: 1 (holder says so), 0, or -1 when it cannot tell. */
static int mount_on(const struct vb_os_bsd_sys *sys, const struct vb_os_bsd_mount *m,
		    const char *disk, char *holder, size_t n)
{
	char src[1024], d[64];
	bool hammer = strcmp(m->fstype, "hammer") == 0 || strcmp(m->fstype, "hammer2") == 0;

	if (diskless_fs(m->fstype, sys->geom_busy != NULL))
		return 0;
	vb_os_copy(src, sizeof src, m->from);
	/* HAMMER2 mounts DEVICE@LABEL (mount_hammer2(8)); HAMMER joins volumes by ':'
	 * (mount_hammer(8)). */
	if (strcmp(m->fstype, "hammer2") == 0 && strchr(src, '@') != NULL)
		*strchr(src, '@') = '\0';
	for (char *p = src, *next; p != NULL; p = next) {
		next = hammer ? strchr(p, ':') : NULL;
		if (next != NULL)
			*next++ = '\0';
		/* A root the kernel mounted may name its device without /dev/ ("da0s1d"). A
		 * ZFS source never is one: zfs_domount (zfs_vfsops.c) gives the dataset's name
		 * (vfs_mountedfrom(vfsp, osname)), which may look like a disk's ("wd0"). */
		bool named = strncmp(p, "/dev/", 5) == 0;
		if (!named && (p[0] == '\0' || p[0] == '/' || strcmp(m->fstype, "zfs") == 0 ||
			       !vb_os_bsd_resolve(sys, p, d, sizeof d))) {
			vb_msgf(holder, n, "cannot tell whether it is in use: the %s file system "
				"mounted on %s names no device (its source is \"%s\")", m->fstype,
				m->on, m->from);
			return -1;
		}
		if (named && !vb_os_bsd_resolve(sys, p, d, sizeof d)) {
			vb_msgf(holder, n, "cannot tell whether it is in use: %s (mounted on %s) "
				"lies on a disk vbench cannot name", p, m->on);
			return -1;
		}
		if (strcmp(d, disk) == 0) {
			vb_msgf(holder, n, "%s is mounted on %s", m->from, m->on);
			return 1;
		}
	}
	return 0;
}

static bool same_file(const struct vb_fileinfo *a, uint64_t dev, uint64_t ino)
{
	return a->dev == dev && a->ino == ino;
}

/* The regular file fi: does a vnode disk read it, or the kernel swap to it? */
static int file_in_use(const struct vb_os_bsd_sys *sys, const struct vb_fileinfo *fi,
		       char *holder, size_t n)
{
	const struct vb_os_bsd_backing *b;
	const struct vb_os_bsd_swap *s;
	struct vb_fileinfo at;
	char why[256];
	long k;

	if ((k = sys->backings(sys->ctx, &b, why, sizeof why)) < 0) {
		vb_msgf(holder, n, "cannot list the files memory disks are made from: %s; "
			"vbench refuses a file it cannot check", why);
		return -1;
	}
	for (long i = 0; i < k; i++) {
		if (!b[i].has_id) {
			if (b[i].path == NULL || b[i].path[0] != '/' ||
			    sys->stat(sys->ctx, b[i].path, &at) != 0) {
				vb_msgf(holder, n, "cannot tell whether %s is made from it: its file "
					"%s cannot be examined", b[i].unit,
					b[i].path ? b[i].path : "(not named)");
				return -1;
			}
			if (!same_file(fi, at.dev, at.ino))
				continue;
		} else if (!same_file(fi, b[i].dev, b[i].ino)) {
			continue;
		}
		vb_msgf(holder, n, "%s is a disk made from it", b[i].unit);
		return 1;
	}
	if ((k = sys->swaps(sys->ctx, &s, why, sizeof why)) < 0) {
		vb_msgf(holder, n, "cannot list swap areas: %s; vbench refuses a file it cannot "
			"check", why);
		return -1;
	}
	for (long i = 0; i < k; i++) {
		if (s[i].path == NULL && !s[i].has_rdev) {
			snprintf(holder, n, "cannot tell whether it is used as swap: the system swaps "
				 "to a file it does not name (an NFS swap file)");
			return -1;
		}
		if (s[i].path == NULL || strncmp(s[i].path, "/dev/", 5) == 0)
			continue;
		if (sys->stat(sys->ctx, s[i].path, &at) != 0) {
			vb_msgf(holder, n, "cannot tell whether it is used as swap: the swap file "
				"%s cannot be examined", s[i].path);
			return -1;
		}
		if (same_file(fi, at.dev, at.ino)) {
			vb_msgf(holder, n, "it is used as swap (%s)", s[i].path);
			return 1;
		}
	}
	return 0;
}

/* Whether a swap area lies on disk: 1, 0, or -1 when it cannot tell. */
static int swap_on(const struct vb_os_bsd_sys *sys, const struct vb_os_bsd_swap *s,
		   const char *disk, char *holder, size_t n)
{
	char name[128], d[64];

	if (s->has_rdev) {
		if (!sys->devname(sys->ctx, s->rdev, false, name, sizeof name)) {
			snprintf(holder, n, "cannot tell whether it is in use: a swap device "
				 "(number %#llx) has no name under /dev", (unsigned long long)s->rdev);
			return -1;
		}
	} else if (s->path != NULL && strncmp(s->path, "/dev/", 5) == 0) {
		vb_os_copy(name, sizeof name, s->path + 5);
	} else {
		return 0;   /* a swap file: the file system it is on is mounted */
	}
	if (!vb_os_bsd_resolve(sys, name, d, sizeof d)) {
		vb_msgf(holder, n, "cannot tell whether it is in use: the swap device /dev/%s "
			"lies on a disk vbench cannot name", name);
		return -1;
	}
	if (strcmp(d, disk) != 0)
		return 0;
	vb_msgf(holder, n, "/dev/%s is used as swap", name);
	return 1;
}

bool vb_os_bsd_stacked_unit(const char *disknames, const char *disk, char *unit, size_t n)
{
	for (const char *p = disknames; *p;) {
		size_t len = strcspn(p, " \n");
		char name[128];
		if (len > 0) {
			vb_os_copy(name, sizeof name, p);
			name[len < sizeof name ? len : sizeof name - 1] = '\0';
			if (len >= sizeof name || (!vb_os_bsd_plain_disk(name) && strcmp(name, disk) != 0)) {
				vb_os_copy(unit, n, name);
				return true;
			}
		}
		p += len;
		p += strspn(p, " \n");
	}
	return false;
}

/* Whether a disk made of others is configured: NetBSD's cgd, raid, ccd, LVM volumes
 * (dm_dev_create_ioctl, sys/dev/dm/dm_ioctl.c, attaches each as "vg0-lv0"), DragonFly's
 * dm ("mapper/NAME"). They hold their components open unseen, and vbench does not ask
 * which (cgdconfig -l, raidctl -s, dmsetup deps would), so while one is, every other
 * disk is refused: -1 with why in holder, else 0. */
static int stacked_on(const struct vb_os_bsd_sys *sys, const char *disk, char *holder, size_t n)
{
	char why[256], unit[128];
	const char *names;

	if (sys->disknames == NULL)
		return 0;
	if ((names = sys->disknames(sys->ctx, why, sizeof why)) == NULL) {
		vb_msgf(holder, n, "cannot list the system's disks: %s; vbench refuses a disk "
			"it cannot check", why);
		return -1;
	}
	if (!vb_os_bsd_stacked_unit(names, disk, unit, sizeof unit))
		return 0;
	vb_msgf(holder, n, "cannot tell whether it is in use: %s is configured, and vbench "
		"cannot see which disks it is made of; it refuses every other disk while one "
		"is", unit);
	return -1;
}

int vb_os_bsd_check_in_use(const struct vb_os_bsd_sys *sys, const struct vb_fileinfo *fi,
			char *holder, size_t n)
{
	const struct vb_os_bsd_mount *m;
	const struct vb_os_bsd_swap *s;
	char name[128], disk[64], why[256];
	long k;
	int rc;

	holder[0] = '\0';
	if (fi->type == VB_FT_REG)
		return file_in_use(sys, fi, holder, n);
	if (fi->type != VB_FT_CHR && fi->type != VB_FT_BLK)
		return 0;
	/* NetBSD numbers block and raw devices apart (wd: block major 0, character 3). */
	if (!sys->devname(sys->ctx, fi->rdev, fi->type == VB_FT_BLK, name, sizeof name)) {
		snprintf(holder, n, "cannot tell whether it is in use: it has no name under /dev");
		return -1;
	}
	if (!vb_os_bsd_resolve(sys, name, disk, sizeof disk)) {
		vb_msgf(holder, n, "cannot tell whether it is in use: /dev/%s is not a disk "
			"vbench can name", name);
		return -1;
	}
	if ((k = sys->mounts(sys->ctx, &m, why, sizeof why)) < 0) {
		vb_msgf(holder, n, "cannot list mounted file systems: %s; vbench refuses a "
			"disk it cannot check", why);
		return -1;
	}
	/* A mount on this disk says so even when another could not be placed. */
	int unsure = 0;
	char first[512] = "";
	for (long i = 0; i < k; i++) {
		rc = mount_on(sys, &m[i], disk, holder, n);
		if (rc > 0)
			return 1;
		if (rc < 0 && !unsure++)
			vb_os_copy(first, sizeof first, holder);
	}
	if (sys->geom_busy != NULL) {
		/* GEOM sees every consumer: swap, ZFS, a mirror, what getmntinfo does not. */
		rc = sys->geom_busy(sys->ctx, disk, name, sys->own_r, sys->own_w, holder, n);
		if (rc != 0)
			return rc;
	} else {
		if ((k = sys->swaps(sys->ctx, &s, why, sizeof why)) < 0) {
			vb_msgf(holder, n, "cannot list swap devices: %s; vbench refuses a disk it "
				"cannot check", why);
			return -1;
		}
		for (long i = 0; i < k; i++) {
			rc = swap_on(sys, &s[i], disk, holder, n);
			if (rc > 0)
				return 1;
			if (rc < 0 && !unsure++)
				vb_os_copy(first, sizeof first, holder);
		}
	}
	if (!unsure && stacked_on(sys, disk, first, sizeof first) < 0)
		unsure++;
	if (unsure) {
		vb_os_copy(holder, n, first);
		return -1;
	}
	holder[0] = '\0';
	return 0;
}

/* ---- the kernels' answers ------------------------------------------------------------ */

long vb_os_dfly_swap_parse(const void *buf, size_t len, struct vb_os_bsd_swap *out, size_t max)
{
	const unsigned char *p = buf;
	struct vb_os_dfly_xswdev x;
	size_t stride;
	long k = 0;

	if (len < sizeof x)
		return len == 0 ? 0 : -1;
	memcpy(&x, p, sizeof x);
	/* The kernel's struct may have grown (libkvm's kvm_getswapinfo_sysctl steps by
	 * xsw_size too), never shrunk. */
	stride = x.xsw_size;
	if (stride < sizeof x || stride > 4096 || len % stride != 0)
		return -1;
	for (size_t off = 0; off < len; off += stride) {
		memcpy(&x, p + off, sizeof x);
		if (x.xsw_size != stride || x.xsw_version != 1)
			return -1;
		if ((x.xsw_flags & 0x01) == 0)
			continue;   /* not SW_FREED: an empty slot */
		if ((size_t)k == max)
			return -1;
		out[k].path = NULL;
		out[k].has_rdev = x.xsw_dev != UINT32_MAX;   /* NODEV: (dev_t)-1 */
		out[k].rdev = x.xsw_dev;
		k++;
	}
	return k;
}

/* The first needle in [s, end), or NULL. */
static const char *find_in(const char *s, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; s + n <= end; s++)
		if (memcmp(s, needle, n) == 0)
			return s;
	return NULL;
}

long vb_os_fbsd_md_files(const char *conftxt, struct vb_os_bsd_backing *out, size_t max,
			 char *store, size_t sn)
{
	static const char file_at[] = " t vnode file ";
	size_t used = 0;
	long k = 0;

	for (const char *p = conftxt; *p;) {
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p);
		char unit[64];
		unsigned depth;
		int at = 0;
		/* g_md_dumpconf (sys/dev/md/md.c) writes " u UNIT s SECTOR f HEADS fs SECTORS
		 * l LENGTH t TYPE", " file %s" for an open vnode disk, then (FreeBSD 13 on)
		 * " label %s", empty unless mdconfig -L gave one. The path ends at " label"
		 * before a space or the end; a line with two such places is not read. */
		if (sscanf(p, "%u MD %63s%n", &depth, unit, &at) == 2 && at > 0 && p + at <= end) {
			const char *f = find_in(p + at, end, file_at), *lab = NULL;
			if (f != NULL) {
				f += strlen(file_at);
				for (const char *q = f; (q = find_in(q, end, " label")) != NULL; q++) {
					if (q + 6 != end && q[6] != ' ')
						continue;
					if (lab != NULL)
						return -1;
					lab = q;
				}
				size_t fl = (size_t)((lab ? lab : end) - f), ul = strlen(unit);
				if ((size_t)k == max || used + fl + ul + 2 > sn)
					return -1;
				memcpy(store + used, f, fl);
				store[used + fl] = '\0';
				out[k].path = store + used;
				used += fl + 1;
				memcpy(store + used, unit, ul + 1);
				out[k].unit = store + used;
				used += ul + 1;
				out[k].has_id = false;
				out[k].dev = out[k].ino = 0;
				k++;
			}
		}
		p = eol ? eol + 1 : end;
	}
	return k;
}

long vb_os_bsd_vnd_walk(const char *disknames, const char *drv, bool listed_idle,
			int (*get)(void *ctx, int unit, uint64_t *dev, uint64_t *ino), void *ctx,
			struct vb_os_bsd_backing *out, char (*names)[16], size_t max, char *why,
			size_t wn)
{
	size_t dl = strlen(drv);
	long k = 0;

	/* The units are those the disk list names, not numbers walked until an error:
	 * NetBSD's VNDIOCGET answers 0/0 for any number (vnd_cget, sys/dev/vnd.c: "unused is
	 * not an error"), and DragonFly's vn clones have no bound. A vnd unit is listed while
	 * configured (VNDIOCSET disk_attaches it, vnddoclear detaches it), a vn unit from its
	 * creation (disk_create in vn_create, sys/dev/disk/vn/vn.c; vn0-vn3 always). */
	for (const char *p = disknames; *p; p += strspn(p, " \n")) {
		size_t len = strcspn(p, " \n"), d = dl;
		int unit = 0;
		uint64_t dev = 0, ino = 0;
		const char *word = p;
		p += len;
		if (len <= dl || strncmp(word, drv, dl) != 0 || !is_digit(word[dl]))
			continue;
		while (d < len && d < dl + 9 && is_digit(word[d]))
			unit = unit * 10 + (word[d++] - '0');
		if (d < len && is_digit(word[d])) {
			vb_msgf(why, wn, "the disk list names a %s unit vbench cannot number", drv);
			return -1;
		}
		if (d < len)
			continue;   /* another driver's name */
		if (get(ctx, unit, &dev, &ino) != 0) {
			vb_msgf(why, wn, "%s %s%d: %s", listed_idle ? "VNIOCGET" : "VNDIOCGET", drv,
				unit, strerror(errno));
			return -1;
		}
		if (dev == 0 && ino == 0 && listed_idle)
			continue;
		if (dev == 0 && ino == 0) {
			vb_msgf(why, wn, "%s%d is attached, but VNDIOCGET names no file for it", drv,
				unit);
			return -1;
		}
		if ((size_t)k == max) {
			vb_msgf(why, wn, "more than %zu %s units are configured", max, drv);
			return -1;
		}
		snprintf(names[k], sizeof names[k], "%s%d", drv, unit);
		out[k] = (struct vb_os_bsd_backing){names[k], NULL, dev, ino, true};
		k++;
	}
	return k;
}

char *vb_os_bsd_read_grown(int (*get)(void *ctx, void *buf, size_t *len), void *ctx,
			size_t *len)
{
	for (int tries = 0; tries < 8; tries++) {
		size_t want = 0;
		if (get(ctx, NULL, &want) != 0)
			return NULL;
		/* Room for what may be added before the read. */
		size_t room = want + want / 4 + 4096;
		char *buf = malloc(room + 1);
		if (buf == NULL)
			return NULL;
		*len = room;
		if (get(ctx, buf, len) == 0) {
			buf[*len] = '\0';
			return buf;
		}
		int e = errno;
		free(buf);
		if (e != ENOMEM) {
			errno = e;
			return NULL;
		}
	}
	errno = ENOMEM;
	return NULL;
}

uint64_t vb_os_bsd_part_bytes(uint64_t media, uint64_t part_bytes, bool raw)
{
	if (part_bytes > 0)
		return part_bytes;
	return raw ? media : 0;
}

bool vb_os_bsd_is_raw_part(const char *name, char raw_letter)
{
	size_t len = strlen(name);
	char disk[64];

	return len >= 2 && name[len - 1] == raw_letter && is_digit(name[len - 2]) &&
	       vb_os_bsd_disk_of(name, disk, sizeof disk);
}

enum vb_cache vb_os_bsd_cache_truth(const char *sys, const char *fs, bool chr_disk)
{
	if (chr_disk)
		return VB_CACHE_NONE;
	/* FreeBSD's ffs_write (sys/ufs/ffs/ffs_vnops.c; DragonFly's ufs_readwrite.c alike)
	 * hands a full IO_DIRECT block to cluster_write, through the buffer cache. HAMMER2
	 * writes "via the logical buffer cache" (hammer2_vnops.c, hammer2_write_file). */
	if (((strcmp(sys, "FreeBSD") == 0 || strcmp(sys, "DragonFly") == 0) &&
	     strcmp(fs, "ufs") == 0) || strcmp(fs, "hammer2") == 0)
		return VB_CACHE_FS_BUFFERS;
	/* NetBSD's genfs_directio (sys/miscfs/genfs/genfs_io.c) buffers a chunk that "extends
	 * past the current EOF", genfs_do_directio one over a hole: only rewrites go direct. */
	if (strcmp(sys, "NetBSD") == 0 && strcmp(fs, "ffs") == 0)
		return VB_CACHE_FS_BUFFERS_EXTENDING;
	/* Any other file system is not said to write directly: its source was not read to
	 * show it (tmpfs is memory; ext2fs and fusefs take cluster_write; NFS, msdosfs, ZFS,
	 * HAMMER, NetBSD's others). */
	return VB_CACHE_FS_MAY_BUFFER;
}
