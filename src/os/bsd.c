/* FreeBSD, DragonFly and NetBSD: O_DIRECT, disks as character devices sized by ioctls,
 * statfs (statvfs on NetBSD) for the file system, getmntinfo and (FreeBSD) GEOM for what
 * uses a disk, sysctl for memory. The pure rules are in bsd_names.c and bsd_inuse.c. */
#include "os/vb_bsd.h"

#if VB_OS_BSD

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__FreeBSD__)
#include <sys/disk.h>          /* DIOCGMEDIASIZE, DIOCGSECTORSIZE */
#define VB_GEOM 1              /* GEOM knows every consumer of a disk */
#define VB_BSD_NAME "FreeBSD"
#define VB_FDATASYNC 1
#elif defined(__DragonFly__)
#include <sys/diskslice.h>     /* DIOCGPART; its sys/disk.h is for the kernel only */
#define VB_FDATASYNC 0         /* unistd.h has it under "#if 0 XXX missing" */
#define VB_BSD_NAME "DragonFly"
#elif defined(__NetBSD__)
#include <sys/disk.h>          /* struct dkwedge_info */
#include <sys/dkio.h>          /* DIOCGMEDIASIZE, DIOCGSECTORSIZE, DIOCGWEDGEINFO */
#define VB_FDATASYNC 1
#define VB_BSD_NAME "NetBSD"
#endif

/* NetBSD has statvfs only; both have f_fstypename, f_mntonname and f_mntfromname. */
#if defined(__NetBSD__)
typedef struct statvfs vb_fsinfo;
#define vb_fstatfs fstatvfs
#else
typedef struct statfs vb_fsinfo;
#define vb_fstatfs fstatfs
#endif

#if defined(O_DSYNC)
#define VB_DSYNC_FLAG O_DSYNC
#else
#define VB_DSYNC_FLAG O_SYNC   /* FreeBSD before 13: every write durable, metadata too */
#endif

/* Swap is listed by sysctl (struct xswdev: FreeBSD's vm/vm_param.h, DragonFly's in
 * vb_bsd.h) or swapctl (NetBSD); vnd(4) and vn(4) by ioctl. Without the header, the
 * build cannot ask, and refuses. */
#if defined(__FreeBSD__) && defined(__has_include)
#if __has_include(<vm/vm_param.h>)
#include <vm/vm_param.h>
#define VB_XSWDEV 1
#endif
#elif defined(__NetBSD__) && defined(__has_include)
#if __has_include(<sys/swap.h>)
#include <sys/swap.h>
#define VB_SWAPCTL 1
#endif
#if __has_include(<sys/disklabel.h>)
#include <sys/disklabel.h>     /* struct disklabel, DISKPART */
#define VB_DISKLABEL 1
#endif
#if __has_include(<dev/vndvar.h>)
#include <dev/vndvar.h>
#define VB_VNDIOCGET 1
#endif
#endif
#if defined(__DragonFly__) && defined(__has_include)
#if __has_include(<sys/vnioctl.h>)
#include <sys/vnioctl.h>
#endif
#if __has_include(<vfs/hammer/hammer_ioctl.h>)
#include <vfs/hammer/hammer_ioctl.h>   /* HAMMERIOC_LIST_VOLUMES */
#endif
#endif

#define COPY(dst, src) vb_os_copy((dst), sizeof(dst), (src))

const struct vb_caps vb_os_fam_caps = {
#if defined(O_DIRECT)
	.direct_how = "O_DIRECT",
#else
	.direct_how = NULL,
#endif
	.fdatasync_call = VB_FDATASYNC ? "fdatasync" : "fsync",
	.chr_disks = true,
};

int vb_os_fam_open_flags(const struct vb_open_req *req, int *flags)
{
	*flags = 0;
	if (req->kind == VB_OPEN_ANON) {
		errno = EOPNOTSUPP;   /* no O_TMPFILE: a new name per run instead */
		return -1;
	}
#if defined(O_DIRECT)
	if (req->direct)
		*flags |= O_DIRECT;
#endif
	if (req->dsync)
		*flags |= VB_DSYNC_FLAG;
	return 0;
}

int vb_os_fam_sync(int fd, enum vb_sync_call call)
{
#if VB_FDATASYNC
	if (call == VB_CALL_FDATASYNC)
		return fdatasync(fd);
#else
	(void)call;
#endif
	return fsync(fd);
}

static bool sys_devname(void *ctx, uint64_t rdev, bool blk, char *buf, size_t n);

/* Size and sector size of the disk open as fd; -1 when it does not answer. */
static int disk_geometry(int fd, uint64_t *bytes, uint32_t *sector)
{
#if defined(__DragonFly__)
	struct partinfo pi;
	if (ioctl(fd, DIOCGPART, &pi) != 0)
		return -1;
	*bytes = pi.media_size;
	*sector = pi.media_blksize > 0 ? (uint32_t)pi.media_blksize : 0;
	return 0;
#else   /* FreeBSD sys/disk.h, NetBSD sys/dkio.h */
	off_t size = 0;
	u_int ss = 0;
	if (ioctl(fd, DIOCGMEDIASIZE, &size) != 0 || size <= 0)
		return -1;
	*bytes = (uint64_t)size;
	*sector = ioctl(fd, DIOCGSECTORSIZE, &ss) == 0 ? (uint32_t)ss : 0;
#if defined(__NetBSD__)
	/* DIOCGMEDIASIZE is the whole disk's; a wedge's geometry is its own (dk_set_geometry,
	 * sys/dev/dkwedge/dk.c), a label partition's is d_partitions[DISKPART(st_rdev)]
	 * .p_size sectors of d_secsize, the raw partition the whole disk: read as NetBSD's
	 * getdiskinfo (sbin/fsck/partutil.c) does, DIOCGWEDGEINFO first, then DIOCGDINFO. */
	uint64_t part = 0;
	struct dkwedge_info w;
	struct stat st;
	int raw = -1;
	size_t rl = sizeof raw;
	bool whole = ioctl(fd, DIOCGWEDGEINFO, &w) == 0;
	if (!whole && fstat(fd, &st) == 0 &&
	    sysctlbyname("kern.rawpartition", &raw, &rl, NULL, 0) == 0 && raw >= 0 && raw < 26) {
#if defined(VB_DISKLABEL)
		struct disklabel dl;
		if (ioctl(fd, DIOCGDINFO, &dl) == 0) {
			unsigned ptn = (unsigned)DISKPART(st.st_rdev);
			whole = ptn == (unsigned)raw;
			if (!whole && ptn < dl.d_npartitions)
				part = (uint64_t)dl.d_partitions[ptn].p_size * dl.d_secsize;
		}
#endif
		char name[64];
		if (part == 0 && !whole)
			whole = sys_devname(NULL, (uint64_t)st.st_rdev, S_ISBLK(st.st_mode), name,
					    sizeof name) && vb_os_bsd_is_raw_part(name, (char)('a' + raw));
	}
	*bytes = vb_os_bsd_part_bytes(*bytes, part, whole);
	if (*bytes == 0) {
		errno = ENOTTY;
		return -1;   /* a partition whose size this build cannot ask */
	}
#endif
	return 0;
#endif
}

int vb_os_fam_disk(int fd, struct vb_disk *d)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return -1;
	return disk_geometry(fd, &d->size_bytes, &d->sector_bytes);
}

uint32_t vb_os_fam_logical_block(int fd)
{
	uint64_t bytes;
	uint32_t sector = 0;

	if (disk_geometry(fd, &bytes, &sector) == 0)
		return sector;
	return 0;   /* a file: 512 is assumed; the first direct write says otherwise */
}

/* ---- the calls the in-use check (bsd_inuse.c) makes --------------------------------- */

/* What the lists of one check hold until it is over. */
struct sysctx {
	struct vb_os_bsd_mount *mounts;
	struct vb_os_bsd_swap *swaps;
	char (*swap_paths)[PATH_MAX + 1];
	struct vb_os_bsd_backing *backs;
	char *store;
	char *conftxt;          /* FreeBSD: kern.geom.conftxt, read once */
	bool conftxt_read;
	char (*volumes)[1024];  /* DragonFly: each HAMMER mount's volumes, joined by ':' */
	char *disknames;        /* NetBSD, DragonFly: the kernel's list of disks */
};

static bool sys_devname(void *ctx, uint64_t rdev, bool blk, char *buf, size_t n)
{
	/* devname(3): NetBSD numbers block and character devices apart. */
	const char *name = devname((dev_t)rdev, blk ? S_IFBLK : S_IFCHR);

	(void)ctx;
	if (name == NULL || name[0] == '\0' || strcmp(name, "??") == 0 || name[0] == '#')
		return false;
	vb_os_copy(buf, n, name);
	return true;
}

static int sys_stat(void *ctx, const char *path, struct vb_fileinfo *fi)
{
	struct stat st;

	(void)ctx;
	if (stat(path, &st) != 0)
		return -1;
	memset(fi, 0, sizeof *fi);
	fi->type = S_ISCHR(st.st_mode) ? VB_FT_CHR : S_ISBLK(st.st_mode) ? VB_FT_BLK
		 : S_ISREG(st.st_mode) ? VB_FT_REG : S_ISDIR(st.st_mode) ? VB_FT_DIR : VB_FT_OTHER;
	fi->dev = (uint64_t)st.st_dev;
	fi->ino = (uint64_t)st.st_ino;
	fi->rdev = (uint64_t)st.st_rdev;
	fi->nlink = (uint64_t)st.st_nlink;
	return 0;
}

#if defined(VB_GEOM) || defined(__DragonFly__) || defined(__NetBSD__)
/* A sysctl by name (ctx) for vb_os_bsd_read_grown. */
static int sysctl_get(void *ctx, void *buf, size_t *len)
{
	return sysctlbyname((const char *)ctx, buf, len, NULL, 0);
}
#endif

#if defined(__DragonFly__) || defined(__NetBSD__)
/* NetBSD's hw.disknames names every disk attached (iostati_getnames, sys/kern/
 * subr_iostat.c), cgd, RAIDframe and ccd once configured (cgd_ioctl_set, sys/dev/cgd.c;
 * raidinit, rf_netbsdkintf.c; ccdioctl CCDIOCSET, ccd.c); DragonFly's kern.disks every
 * disk (sysctl_disks, sys/kern/subr_disk.c), device-mapper ones as "mapper/NAME"
 * (dm_dev_create, sys/dev/disk/dm/dm_dev.c). */
static const char *sys_disknames(void *ctx, char *why, size_t wn)
{
	struct sysctx *c = ctx;
#if defined(__NetBSD__)
	const char *name = "hw.disknames";
#else
	const char *name = "kern.disks";
#endif
	size_t len;

	if (c->disknames == NULL)
		c->disknames = vb_os_bsd_read_grown(sysctl_get, (void *)name, &len);
	if (c->disknames == NULL)
		vb_msgf(why, wn, "sysctl %s: %s", name, strerror(errno));
	return c->disknames;
}
#endif

#if defined(__NetBSD__) && defined(DIOCGWEDGEINFO)
static int sys_wedge_parent(void *ctx, const char *name, char *parent, size_t n)
{
	char node[64];
	struct dkwedge_info w;

	(void)ctx;
	snprintf(node, sizeof node, "/dev/r%s", name);
	int fd = open(node, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	int rc = ioctl(fd, DIOCGWEDGEINFO, &w);
	int e = errno;
	close(fd);
	if (rc != 0) {
		errno = e;
		return -1;
	}
	w.dkw_parent[sizeof w.dkw_parent - 1] = '\0';
	vb_os_copy(parent, n, w.dkw_parent);
	return 1;
}
#endif

#if defined(VB_GEOM)
static const char *conftxt(struct sysctx *c)
{
	size_t len;

	if (!c->conftxt_read) {
		c->conftxt = vb_os_bsd_read_grown(sysctl_get, (void *)"kern.geom.conftxt", &len);
		c->conftxt_read = true;
	}
	return c->conftxt;
}

static bool sys_geom_disk(void *ctx, const char *name, char *disk, size_t n)
{
	const char *txt = conftxt(ctx);

	return txt != NULL && vb_os_bsd_geom_disk(txt, name, disk, n);
}

static int sys_geom_busy(void *ctx, const char *disk, const char *target, int own_r,
			 int own_w, char *holder, size_t n)
{
	size_t len;
	char *xml = vb_os_bsd_read_grown(sysctl_get, (void *)"kern.geom.confxml", &len);

	(void)ctx;
	if (xml == NULL) {
		snprintf(holder, n, "cannot read GEOM's configuration: sysctl kern.geom.confxml: "
			 "%s; vbench refuses a disk it cannot check", strerror(errno));
		return -1;
	}
	int rc = vb_os_bsd_geom_busy(xml, disk, target, own_r, own_w, holder, n);
	free(xml);
	return rc;
}
#endif

static long sys_mounts(void *ctx, const struct vb_os_bsd_mount **out, char *why, size_t wn)
{
	struct sysctx *c = ctx;
	vb_fsinfo *mnt;
	int k = getmntinfo(&mnt, MNT_NOWAIT);

	if (k <= 0) {
		snprintf(why, wn, "getmntinfo: %s", k < 0 ? strerror(errno) : "no mounts listed");
		return -1;
	}
	c->mounts = calloc((size_t)k, sizeof *c->mounts);
	if (c->mounts == NULL) {
		snprintf(why, wn, "%s", strerror(ENOMEM));
		return -1;
	}
	for (int i = 0; i < k; i++) {
		c->mounts[i].from = mnt[i].f_mntfromname;
		c->mounts[i].on = mnt[i].f_mntonname;
		c->mounts[i].fstype = mnt[i].f_fstypename;
#if defined(__DragonFly__) && defined(HAMMERIOC_LIST_VOLUMES)
		/* HAMMER shows its label as the source; its volumes are what hammer(8)
		 * volume-list asks, HAMMERIOC_LIST_VOLUMES (hammer_ioc_volume_list,
		 * sys/vfs/hammer/hammer_volume.c). Unanswered, the label stays and is refused. */
		if (strcmp(mnt[i].f_fstypename, "hammer") == 0) {
			if (c->volumes == NULL)
				c->volumes = calloc((size_t)k, sizeof *c->volumes);
			struct hammer_ioc_volume *vols = calloc(256, sizeof *vols);
			struct hammer_ioc_volume_list ioc = {vols, 256};
			int fd = c->volumes && vols ? open(mnt[i].f_mntonname, O_RDONLY) : -1;
			if (fd >= 0 && ioctl(fd, HAMMERIOC_LIST_VOLUMES, &ioc) == 0 && ioc.nvols > 0) {
				char *j = c->volumes[i];
				bool whole = true;
				for (int v = 0; v < ioc.nvols && v < 256 && whole; v++) {
					vols[v].device_name[sizeof vols[v].device_name - 1] = '\0';
					size_t used = strlen(j);
					whole = (size_t)snprintf(j + used, sizeof c->volumes[i] - used,
								 "%s%s", v ? ":" : "",
								 vols[v].device_name) <
						sizeof c->volumes[i] - used;
				}
				if (whole)
					c->mounts[i].from = j;
			}
			if (fd >= 0)
				close(fd);
			free(vols);
		}
#endif
	}
	*out = c->mounts;
	return k;
}

static long sys_swaps(void *ctx, const struct vb_os_bsd_swap **out, char *why, size_t wn)
{
	struct sysctx *c = ctx;
#if defined(__DragonFly__)
	/* Every swap slot in one sysctl (sys/vm/vm_swap.c, sysctl_vm_swap_info; libkvm's
	 * kvm_getswapinfo_sysctl reads it the same way). */
	size_t len;
	char *buf = vb_os_bsd_read_grown(sysctl_get, (void *)"vm.swap_info_array", &len);
	if (buf == NULL) {
		snprintf(why, wn, "sysctl vm.swap_info_array: %s", strerror(errno));
		return -1;
	}
	size_t max = len / sizeof(struct vb_os_dfly_xswdev) + 1;
	c->swaps = calloc(max, sizeof *c->swaps);
	long k = c->swaps ? vb_os_dfly_swap_parse(buf, len, c->swaps, max) : -1;
	free(buf);
	if (k < 0) {
		snprintf(why, wn, "sysctl vm.swap_info_array: %s", c->swaps ? "not an array of "
			 "struct xswdev as DragonFly lays it out" : strerror(ENOMEM));
		return -1;
	}
	*out = c->swaps;
	return k;
#elif defined(VB_SWAPCTL)
	/* swapctl(2): SWAP_NSWAP counts, SWAP_STATS names each device or file. */
	int want = swapctl(SWAP_NSWAP, NULL, 0);
	if (want < 0) {
		snprintf(why, wn, "swapctl SWAP_NSWAP: %s", strerror(errno));
		return -1;
	}
	struct swapent *se = calloc((size_t)want + 1, sizeof *se);
	c->swaps = calloc((size_t)want + 1, sizeof *c->swaps);
	c->swap_paths = calloc((size_t)want + 1, sizeof *c->swap_paths);
	int got = se && c->swaps && c->swap_paths ? swapctl(SWAP_STATS, se, want + 1) : -1;
	if (got < 0 || got > want) {
		/* one added between the two calls: say so rather than miss it */
		snprintf(why, wn, "swapctl SWAP_STATS: %s", got < 0 ? strerror(errno)
			 : "the list changed while it was read");
		free(se);
		return -1;
	}
	for (int i = 0; i < got; i++) {
		vb_os_copy(c->swap_paths[i], sizeof c->swap_paths[i], se[i].se_path);
		c->swaps[i].path = c->swap_paths[i];
	}
	free(se);
	*out = c->swaps;
	return got;
#elif defined(VB_XSWDEV)
	/* FreeBSD: vm.swap_info.N, one struct xswdev each, until ENOENT (swapinfo(8)). */
	int mib[16];
	size_t miblen = sizeof mib / sizeof mib[0] - 1;
	if (sysctlnametomib("vm.swap_info", mib, &miblen) != 0) {
		snprintf(why, wn, "sysctl vm.swap_info: %s", strerror(errno));
		return -1;
	}
	long k = 0;
	for (int i = 0;; i++) {
		struct xswdev x;
		size_t len = sizeof x;
		mib[miblen] = i;
		if (sysctl(mib, (u_int)miblen + 1, &x, &len, NULL, 0) != 0) {
			if (errno == ENOENT)
				break;
			snprintf(why, wn, "sysctl vm.swap_info.%d: %s", i, strerror(errno));
			return -1;
		}
		struct vb_os_bsd_swap *s = realloc(c->swaps, (size_t)(k + 1) * sizeof *s);
		if (s == NULL) {
			snprintf(why, wn, "%s", strerror(ENOMEM));
			return -1;
		}
		c->swaps = s;
		s[k].path = NULL;
		s[k].has_rdev = x.xsw_dev != NODEV;
		s[k].rdev = (uint64_t)x.xsw_dev;
		k++;
	}
	*out = c->swaps;
	return k;
#else
	(void)c;
	(void)out;
	snprintf(why, wn, "this build of vbench has no way to list them (no vm/vm_param.h or "
		 "sys/swap.h when it was compiled)");
	return -1;
#endif
}

#if defined(VB_VNDIOCGET) || (defined(__DragonFly__) && defined(VNIOCGET))
/* VNDIOCGET (NetBSD) or VNIOCGET (DragonFly) of unit on the node open as *ctx; a
 * DragonFly swap-backed unit is made from no file and answers as one not configured. */
static int unit_get(void *ctx, int unit, uint64_t *dev, uint64_t *ino)
{
#if defined(VB_VNDIOCGET)
	struct vnd_user vnu;
	unsigned long req = VNDIOCGET;
#else
	struct vn_user vnu;
	unsigned long req = VNIOCGET;
#endif
	bool swap = false;

	memset(&vnu, 0, sizeof vnu);
	vnu.vnu_unit = unit;
	if (ioctl(*(int *)ctx, req, &vnu) != 0)
		return -1;
#if !defined(VB_VNDIOCGET)
	swap = strcmp(vnu.vnu_file, "swap") == 0;
#endif
	*dev = swap ? 0 : (uint64_t)vnu.vnu_dev;
	*ino = swap ? 0 : (uint64_t)vnu.vnu_ino;
	return 0;
}

/* vb_os_bsd_vnd_walk through the node open as fd, which is closed. */
static long walk_units(struct sysctx *c, const char *names, const char *drv, bool idle, int fd,
		       const struct vb_os_bsd_backing **out, char *why, size_t wn)
{
	c->backs = calloc(256, sizeof *c->backs);
	c->store = calloc(256, 16);
	long k = c->backs && c->store ? vb_os_bsd_vnd_walk(names, drv, idle, unit_get, &fd,
							 c->backs, (char (*)[16])c->store, 256,
							 why, wn) : -1;
	if (k < 0 && (c->backs == NULL || c->store == NULL))
		snprintf(why, wn, "%s", strerror(ENOMEM));
	close(fd);
	*out = c->backs;
	return k;
}
#endif

static long sys_backings(void *ctx, const struct vb_os_bsd_backing **out, char *why, size_t wn)
{
	struct sysctx *c = ctx;
#if defined(VB_GEOM)
	/* md(4) disks are GEOM providers; conftxt names the file of each vnode one. */
	const char *txt = conftxt(c);
	if (txt == NULL) {
		snprintf(why, wn, "sysctl kern.geom.conftxt: %s", strerror(errno));
		return -1;
	}
	size_t max = 64, sn = strlen(txt) + 1;
	c->backs = calloc(max, sizeof *c->backs);
	c->store = malloc(sn + 64 * 70);
	long k = c->backs && c->store ? vb_os_fbsd_md_files(txt, c->backs, max, c->store,
							  sn + 64 * 70) : -1;
	if (k < 0) {
		snprintf(why, wn, "kern.geom.conftxt: an md(4) line vbench cannot read");
		return -1;
	}
	*out = c->backs;
	return k;
#elif defined(VB_VNDIOCGET)
	/* VNDIOCGET on any vnd node gives unit vnu_unit's file as vnu_dev and vnu_ino (its
	 * va_fsid and va_fileid, sys/dev/vnd.c, vndioctl); the node asked is the raw
	 * partition of the first unit hw.disknames lists. */
	const char *names = sys_disknames(c, why, wn);
	if (names == NULL)
		return -1;
	const char *first = names + strspn(names, " \n");
	while (*first && strncmp(first, "vnd", 3) != 0) {
		first += strcspn(first, " \n");
		first += strspn(first, " \n");
	}
	if (*first == '\0') {
		*out = NULL;
		return 0;   /* no vnd(4) unit configured */
	}
	char node[32];
	int raw = 3;
	size_t rl = sizeof raw;
	if (sysctlbyname("kern.rawpartition", &raw, &rl, NULL, 0) != 0 || raw < 0 || raw > 15) {
		snprintf(why, wn, "sysctl kern.rawpartition: %s", strerror(errno));
		return -1;
	}
	snprintf(node, sizeof node, "/dev/r%.*s%c", (int)strcspn(first, " \n"), first,
		 'a' + raw);
	int fd = open(node, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		vb_msgf(why, wn, "open %s: %s", node, strerror(errno));
		return -1;
	}
	return walk_units(c, names, "vnd", false, fd, out, why, wn);
#elif defined(__DragonFly__) && defined(VNIOCGET)
	/* VNIOCGET on any vn node gives unit vnu_unit's file's va_fsid and va_fileid, "swap"
	 * in vnu_file for a swap-backed unit, 0/0 for one not configured (sys/dev/disk/vn/
	 * vn.c, vnget); the node asked is vn0, which vn_modevent always makes. */
	const char *names = sys_disknames(c, why, wn);
	if (names == NULL)
		return -1;
	int fd = open("/dev/vn0", O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		if ((errno == ENOENT || errno == ENXIO) && strstr(names, "vn") == NULL) {
			*out = NULL;
			return 0;   /* no vn(4) in this kernel */
		}
		snprintf(why, wn, "open /dev/vn0: %s", strerror(errno));
		return -1;
	}
	return walk_units(c, names, "vn", true, fd, out, why, wn);
#else
	(void)c;
	(void)out;
#if defined(__DragonFly__)
	const char *drv = "vn(4)";
#else
	const char *drv = "vnd(4)";   /* NetBSD: FreeBSD asks GEOM */
#endif
	vb_msgf(why, wn, "this build of vbench cannot ask %s (its header was missing when "
		"it was compiled)", drv);
	return -1;
#endif
}

static void sys_init(struct vb_os_bsd_sys *sys, struct sysctx *c)
{
	memset(c, 0, sizeof *c);
	*sys = (struct vb_os_bsd_sys){c, sys_devname, sys_stat, NULL, NULL, sys_mounts, sys_swaps,
				   sys_backings, NULL, NULL, 0, 0};
#if defined(__NetBSD__) && defined(DIOCGWEDGEINFO)
	sys->wedge_parent = sys_wedge_parent;
#endif
#if defined(__DragonFly__) || defined(__NetBSD__)
	sys->disknames = sys_disknames;
#endif
#if defined(VB_GEOM)
	sys->geom_disk = sys_geom_disk;
	sys->geom_busy = sys_geom_busy;
#endif
}

static void sys_done(struct sysctx *c)
{
	free(c->mounts);
	free(c->swaps);
	free(c->swap_paths);
	free(c->backs);
	free(c->store);
	free(c->conftxt);
	free(c->volumes);
	free(c->disknames);
}

int vb_os_fam_in_use(int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	struct vb_os_bsd_sys sys;
	struct sysctx c;

	/* The kernel counts each open(2) of a disk node (g_dev_open): vbench's own is taken
	 * out. */
	int fl = fd >= 0 ? fcntl(fd, F_GETFL) : 0;
	if (fl == -1) {
		snprintf(holder, n, "cannot tell whether it is in use: fcntl: %s", strerror(errno));
		return -1;
	}
	sys_init(&sys, &c);
	if (fd >= 0) {
		sys.own_r = (fl & O_ACCMODE) != O_WRONLY;
		sys.own_w = (fl & O_ACCMODE) != O_RDONLY;
	}
	int rc = vb_os_bsd_check_in_use(&sys, fi, holder, n);
	sys_done(&c);
	return rc;
}

/* The driver of the disk e->device lies on, and what FreeBSD's virtio driver believes
 * of its write cache (see bsd_wcache.c). */
static void describe_disk(struct vb_env *e, const struct vb_os_bsd_sys *sys)
{
	char disk[64];

	if (!vb_os_bsd_resolve(sys, e->device, disk, sizeof disk))
		return;
	VB_OS_SHOW(e->driver, vb_os_bsd_driver_for_name(disk));
#if defined(__FreeBSD__)
	char name[64];
	int mode = -1;
	size_t len = sizeof mode;
	const char *what;

	if (vb_os_bsd_vtblk_sysctl(disk, name, sizeof name) &&
	    sysctlbyname(name, &mode, &len, NULL, 0) == 0 && len == sizeof mode &&
	    (what = vb_os_bsd_vtblk_cache_mode(mode)) != NULL) {
		COPY(e->write_cache, what);
		VB_OS_SHOW(e->write_cache_where, name);
	}
#endif
}

void vb_os_fam_detect(struct vb_env *e, int fd, const char *path)
{
	struct stat st;
	vb_fsinfo f;
	char name[64];
	struct vb_os_bsd_sys sys;
	struct sysctx c;

	if (fstat(fd, &st) != 0)
		return;
	sys_init(&sys, &c);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		uint64_t bytes;
		uint32_t sector = 0;
		VB_OS_SHOW(e->fs, "none");
		VB_OS_SHOW(e->mount, "none");
		VB_OS_SHOW(e->device, sys_devname(&c, (uint64_t)st.st_rdev, S_ISBLK(st.st_mode), name,
					    sizeof name) ? name : strncmp(path, "/dev/", 5) == 0 ?
			     path + 5 : path);
		describe_disk(e, &sys);
		if (disk_geometry(fd, &bytes, &sector) == 0) {
			e->logical_block = sector;
			e->cache = vb_os_bsd_cache_truth(VB_BSD_NAME, e->fs, S_ISCHR(st.st_mode));
		}
	} else if (vb_fstatfs(fd, &f) == 0) {
		VB_OS_SHOW(e->fs, vb_os_bsd_fs_name(f.f_fstypename));
		e->fs_in_memory = vb_os_bsd_fs_in_memory(f.f_fstypename);
		VB_OS_SHOW(e->mount, f.f_mntonname);
		e->cache = vb_os_bsd_cache_truth(VB_BSD_NAME, e->fs, false);
		if (strncmp(f.f_mntfromname, "/dev/", 5) != 0) {
			/* a ZFS dataset, "tmpfs", a server path: no disk of its own */
			VB_OS_SHOW(e->device, f.f_mntfromname[0] ? f.f_mntfromname : vb_os_unknown);
			VB_OS_SHOW(e->driver, "none");
		} else {
			VB_OS_SHOW(e->device, f.f_mntfromname + 5);
			describe_disk(e, &sys);
		}
	}
	sys_done(&c);
}

uint64_t vb_os_fam_ram_bytes(void)
{
#if defined(__NetBSD__)
	uint64_t v = 0;
	size_t len = sizeof v;
	if (sysctlbyname("hw.physmem64", &v, &len, NULL, 0) == 0)
		return v;
#else
	unsigned long v = 0;
	size_t len = sizeof v;
	if (sysctlbyname("hw.physmem", &v, &len, NULL, 0) == 0)
		return (uint64_t)v;
#endif
	return 0;
}

#else
typedef int vb_os_bsd_unused;
#endif
