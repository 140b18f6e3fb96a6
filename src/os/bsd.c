/* FreeBSD, DragonFly and NetBSD: O_DIRECT, disks as character devices sized by their
 * ioctls, statfs (statvfs on NetBSD) for the filesystem and its device, getmntinfo and
 * (on FreeBSD) GEOM for what uses a disk, sysctl for memory. The pure rules (names,
 * partitions, the in-use decision) are in bsd_names.c. Where the three differ, a small
 * part below says so. */
#include "os_internal.h"

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
#define VB_FDATASYNC 1
#elif defined(__DragonFly__)
#include <sys/diskslice.h>     /* DIOCGPART; its sys/disk.h is for the kernel only */
#define VB_FDATASYNC 0         /* unistd.h has it under "#if 0 XXX missing" */
#elif defined(__NetBSD__)
#include <sys/disk.h>          /* struct dkwedge_info */
#include <sys/dkio.h>          /* DIOCGMEDIASIZE, DIOCGSECTORSIZE, DIOCGWEDGEINFO */
#define VB_FDATASYNC 1
#else
#define VB_FDATASYNC 0         /* OpenBSD and others: the common part only */
#endif

/* NetBSD describes filesystems with statvfs (its statfs is gone), the others with statfs;
 * both have f_fstypename, f_mntonname and f_mntfromname. */
#if defined(__NetBSD__)
typedef struct statvfs vb_fsinfo;
#define vb_fstatfs fstatvfs
#else
typedef struct statfs vb_fsinfo;
#define vb_fstatfs fstatfs
#endif

#if defined(O_DSYNC)
#define VB_DSYNC_FLAG O_DSYNC
#define VB_DSYNC_NAME "O_DSYNC"
#else
#define VB_DSYNC_FLAG O_SYNC   /* FreeBSD before 13: every write durable, metadata too */
#define VB_DSYNC_NAME "O_SYNC"
#endif

/* Swap devices are listed by sysctl vm.swap_info (struct xswdev, FreeBSD and DragonFly)
 * or by swapctl (NetBSD), where the headers that declare them are present. */
#if defined(__has_include)
#if __has_include(<vm/vm_param.h>)
#include <vm/vm_param.h>
#define VB_XSWDEV 1
#elif __has_include(<sys/swap.h>)
#include <sys/swap.h>
#define VB_SWAPCTL 1
#endif
#endif

#define COPY(dst, src) vb_os_copy((dst), sizeof(dst), (src))

const struct vb_caps vb_fam_caps = {
#if defined(O_DIRECT)
	.direct_how = "O_DIRECT",
#else
	.direct_how = NULL,
#endif
	.fsync_call = "fsync",
	.fdatasync_call = VB_FDATASYNC ? "fdatasync" : "fsync",
	.dsync_how = VB_DSYNC_NAME,
	.chr_disks = true,
	.status_how = "SIGUSR1 or Ctrl-T (SIGINFO)",
};

int vb_fam_open_flags(const struct vb_open_req *req, int *flags)
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

int vb_fam_after_open(int fd, const struct vb_open_req *req)
{
	(void)fd;
	(void)req;
	return 0;
}

int vb_fam_sync(int fd, enum vb_sync_call call)
{
#if VB_FDATASYNC
	if (call == VB_CALL_FDATASYNC)
		return fdatasync(fd);
#else
	(void)call;
#endif
	return fsync(fd);
}

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
#elif defined(DIOCGMEDIASIZE)
	off_t size = 0;
	u_int ss = 0;
	if (ioctl(fd, DIOCGMEDIASIZE, &size) != 0 || size <= 0)
		return -1;
	*bytes = (uint64_t)size;
	*sector = ioctl(fd, DIOCGSECTORSIZE, &ss) == 0 ? (uint32_t)ss : 0;
	return 0;
#else
	(void)fd;
	(void)bytes;
	(void)sector;
	errno = ENOTTY;
	return -1;
#endif
}

int vb_fam_disk(int fd, struct vb_disk *d)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return -1;
	return disk_geometry(fd, &d->size_bytes, &d->sector_bytes);
}

uint32_t vb_fam_logical_block(int fd)
{
	uint64_t bytes;
	uint32_t sector = 0;

	if (disk_geometry(fd, &bytes, &sector) == 0)
		return sector;
	return 0;   /* a file: 512 is assumed; the first direct write says otherwise */
}

/* The name a device number has under /dev ("ada0p2"), or NULL. */
static const char *dev_name(uint64_t rdev, char *buf, size_t n)
{
	const char *name = devname((dev_t)rdev, S_IFCHR);

	if (name == NULL || strcmp(name, "??") == 0 || strncmp(name, "#", 1) == 0)
		return NULL;
	vb_os_copy(buf, n, name);
	return buf;
}

/* The disk a device name lies on: a NetBSD wedge by asking it for its parent, a GEOM
 * provider (a label, a partition) through GEOM, else by the rules of bsd_names.c. */
static bool disk_of(const char *name, char *disk, size_t n)
{
#if defined(__NetBSD__) && defined(DIOCGWEDGEINFO)
	if (strncmp(name, "dk", 2) == 0 && name[2] >= '0' && name[2] <= '9') {
		char node[64];
		struct dkwedge_info w;
		snprintf(node, sizeof node, "/dev/r%s", name);
		int fd = open(node, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			return false;
		int ok = ioctl(fd, DIOCGWEDGEINFO, &w) == 0;
		close(fd);
		if (ok)
			vb_os_copy(disk, n, w.dkw_parent);
		return ok;
	}
#endif
#if VB_GEOM
	size_t len = 0;
	if (sysctlbyname("kern.geom.conftxt", NULL, &len, NULL, 0) == 0 && len > 0) {
		char *txt = malloc(len + 1);
		bool found = false;
		if (txt != NULL && sysctlbyname("kern.geom.conftxt", txt, &len, NULL, 0) == 0) {
			txt[len] = '\0';
			found = vb_bsd_geom_disk(txt, name, disk, n);
		}
		free(txt);
		if (found)
			return true;
	}
#endif
	return vb_bsd_disk_of(name, disk, n);
}

/* Every mount whose source is a device, resolved to its disk where possible. */
static size_t collect_uses(struct vb_bsd_use **out, char (**disks)[64])
{
	vb_fsinfo *mnt;
	int n = getmntinfo(&mnt, MNT_NOWAIT);
	struct vb_bsd_use *uses;

	*out = NULL;
	*disks = NULL;
	if (n <= 0)
		return 0;
	uses = calloc((size_t)n, sizeof *uses);
	*disks = calloc((size_t)n, sizeof **disks);
	if (uses == NULL || *disks == NULL) {
		free(uses);
		free(*disks);
		*disks = NULL;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		uses[i].what = mnt[i].f_mntfromname;
		uses[i].where = mnt[i].f_mntonname;
		uses[i].disk = NULL;
		if (strncmp(mnt[i].f_mntfromname, "/dev/", 5) == 0 &&
		    disk_of(mnt[i].f_mntfromname + 5, (*disks)[i], sizeof (*disks)[i]))
			uses[i].disk = (*disks)[i];
	}
	*out = uses;
	return (size_t)n;
}

#if !VB_GEOM
/* The swap areas, as device names resolved to their disks like mounts; appended to
 * uses. Returns the new count, or -1 when this build cannot list them. */
static long add_swaps(struct vb_bsd_use **uses, char (**disks)[64], size_t k)
{
#if VB_XSWDEV || VB_SWAPCTL
	char names[32][64];
	size_t m = 0;
#endif
#if VB_XSWDEV
	int mib[16];
	size_t miblen = sizeof mib / sizeof mib[0] - 1;
	if (sysctlnametomib("vm.swap_info", mib, &miblen) != 0)
		return (long)k;   /* no swap configured at all */
	for (int i = 0; m < 32; i++) {
		struct xswdev x;
		size_t len = sizeof x;
		mib[miblen] = i;
		if (sysctl(mib, (u_int)miblen + 1, &x, &len, NULL, 0) != 0)
			break;
		if (dev_name((uint64_t)x.xsw_dev, names[m], sizeof names[m]) != NULL)
			m++;
	}
#elif VB_SWAPCTL
	struct swapent se[32];
	int got = swapctl(SWAP_STATS, se, 32);
	for (int i = 0; i < got && m < 32; i++) {
		if (strncmp(se[i].se_path, "/dev/", 5) == 0)
			vb_os_copy(names[m++], sizeof names[0], se[i].se_path + 5);
	}
#else
	(void)uses;
	(void)disks;
	(void)k;
	return -1;
#endif
#if VB_XSWDEV || VB_SWAPCTL
	struct vb_bsd_use *u = realloc(*uses, (k + m + 1) * sizeof *u);
	char (*d)[64] = realloc(*disks, (k + m + 1) * sizeof *d);
	if (u != NULL)
		*uses = u;
	if (d != NULL)
		*disks = d;
	if (u == NULL || d == NULL)
		return -1;
	/* The mounts' pointers into *disks moved with it. */
	for (size_t i = 0; i < k; i++)
		if (u[i].disk != NULL)
			u[i].disk = d[i];
	for (size_t i = 0; i < m; i++) {
		static char path[32][72];
		snprintf(path[i], sizeof path[i], "/dev/%s", names[i]);
		u[k + i].what = path[i];
		u[k + i].where = "swap";
		u[k + i].disk = disk_of(names[i], d[k + i], sizeof d[k + i]) ? d[k + i] : NULL;
	}
	return (long)(k + m);
#endif
}
#endif

int vb_fam_in_use(int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	char name[64], disk[64];
	struct vb_bsd_use *uses;
	char (*disks)[64];

	(void)fd;
	holder[0] = '\0';
	if (fi->type != VB_FT_CHR && fi->type != VB_FT_BLK)
		return 0;   /* files behind md(4) or vnd(4) are not seen here: see SECURITY */
	if (dev_name(fi->rdev, name, sizeof name) == NULL || !disk_of(name, disk, sizeof disk)) {
		snprintf(holder, n, "cannot tell whether it is in use: its name under /dev is "
			 "not a disk's");
		return -1;
	}
	size_t k = collect_uses(&uses, &disks);
	int rc = vb_bsd_in_use(uses, k, disk, holder, n);
#if VB_GEOM
	/* GEOM sees every consumer: swap, ZFS, a mirror, whatever getmntinfo does not. */
	size_t len = 0;
	if (rc == 0 && sysctlbyname("kern.geom.confxml", NULL, &len, NULL, 0) == 0 && len > 0) {
		char *xml = malloc(len + 1);
		if (xml != NULL && sysctlbyname("kern.geom.confxml", xml, &len, NULL, 0) == 0) {
			xml[len] = '\0';
			rc = vb_bsd_geom_busy(xml, disk, holder, n);
		}
		free(xml);
	}
#else
	if (rc == 0) {
		long m = add_swaps(&uses, &disks, k);
		if (m < 0) {
			snprintf(holder, n, "cannot tell whether it is used as swap: this build of "
				 "vbench cannot list the swap devices");
			rc = -1;
		} else {
			rc = vb_bsd_in_use(uses, (size_t)m, disk, holder, n);
		}
	}
#endif
	free(uses);
	free(disks);
	return rc;
}

void vb_fam_detect(struct vb_env *e, int fd, const char *path)
{
	struct stat st;
	vb_fsinfo f;
	char name[64], disk[64];

	if (fstat(fd, &st) != 0)
		return;
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		uint64_t bytes;
		uint32_t sector = 0;
		COPY(e->fs, "none");
		COPY(e->mount, "none");
		COPY(e->device, dev_name((uint64_t)st.st_rdev, name, sizeof name) ?
			name : vb_os_base_name(path));
		if (disk_of(e->device, disk, sizeof disk))
			COPY(e->driver, vb_bsd_driver_for_name(disk));
		if (disk_geometry(fd, &bytes, &sector) == 0)
			e->logical_block = sector;
		return;
	}
	if (vb_fstatfs(fd, &f) != 0)
		return;
	COPY(e->fs, vb_bsd_fs_name(f.f_fstypename));
	COPY(e->mount, f.f_mntonname);
	if (strncmp(f.f_mntfromname, "/dev/", 5) != 0) {
		/* a ZFS dataset, "tmpfs", a server path: no disk of its own */
		COPY(e->device, f.f_mntfromname[0] ? f.f_mntfromname : vb_os_unknown);
		COPY(e->driver, "none");
		return;
	}
	COPY(e->device, f.f_mntfromname + 5);
	COPY(e->driver, disk_of(e->device, disk, sizeof disk) ? vb_bsd_driver_for_name(disk)
							     : vb_os_unknown);
}

uint64_t vb_fam_ram_bytes(void)
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

/* Free pages alone undercount what can be allocated, so no figure is given. */
uint64_t vb_fam_avail_mem(void)
{
	return 0;
}

void vb_fam_worker_child(void)
{
	/* No parent-death signal here: a worker whose parent died fails on its next
	 * report (the channel is closed) and stops. */
}

#else
typedef int vb_os_bsd_unused;
#endif
