/* macOS: F_NOCACHE, F_FULLFSYNC, the DKIOC ioctls, statfs and sysctl. Nothing tells
 * whether a disk is in use, so disks are refused (vb_os_fam_in_use). */
#include "os/os_internal.h"

#if VB_OS_MACOS

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
/* sys/disk.h is in every Mac's SDK but not in zig cc's headers; without it disks, which
 * are refused here anyway, are not sized. */
#if defined(__has_include)
#if __has_include(<sys/disk.h>)
#include <sys/disk.h>
#endif
#endif
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <unistd.h>

#define COPY(dst, src) vb_os_copy((dst), sizeof(dst), (src))

const struct vb_caps vb_os_fam_caps = {
	.direct_how = "F_NOCACHE",
	.fdatasync_call = "F_FULLFSYNC",
};

int vb_os_fam_open_flags(const struct vb_open_req *req, int *flags)
{
	*flags = req->dsync ? O_DSYNC : 0;
	if (req->kind == VB_OPEN_ANON) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return 0;
}

/* macOS bypasses the cache per descriptor, after the open. */
int vb_os_fam_after_open(int fd, const struct vb_open_req *req)
{
	if (req->direct && fcntl(fd, F_NOCACHE, 1) == -1)
		return -1;
	return 0;
}

/* fsync leaves data in the drive's cache; F_FULLFSYNC flushes it. Where a file system
 * lacks it, fsync is the best there is; any other failure (EIO) is the answer. */
int vb_os_fam_sync(int fd, enum vb_sync_call call)
{
	(void)call;
	if (fcntl(fd, F_FULLFSYNC) == 0)
		return 0;
	if (errno != ENOTSUP && errno != EINVAL && errno != ENOTTY)
		return -1;
	return fsync(fd);
}

int vb_os_fam_disk(int fd, struct vb_disk *d)
{
#if defined(DKIOCGETBLOCKCOUNT) && defined(DKIOCGETBLOCKSIZE)
	uint64_t blocks = 0;
	uint32_t size = 0;

	if (ioctl(fd, DKIOCGETBLOCKCOUNT, &blocks) != 0 ||
	    ioctl(fd, DKIOCGETBLOCKSIZE, &size) != 0)
		return -1;
	d->size_bytes = blocks * size;
	d->sector_bytes = size;
	return 0;
#else
	(void)fd;
	(void)d;
	errno = ENOTTY;
	return -1;
#endif
}

uint32_t vb_os_fam_logical_block(int fd)
{
#if defined(DKIOCGETBLOCKSIZE)
	uint32_t size = 0;

	return ioctl(fd, DKIOCGETBLOCKSIZE, &size) == 0 ? size : 0;
#else
	(void)fd;
	return 0;
#endif
}

void vb_os_fam_detect(struct vb_env *e, int fd, const char *path)
{
	struct statfs f;
	struct stat st;

	if (fstat(fd, &st) != 0)
		return;
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		VB_OS_SHOW(e->fs, "none");
		VB_OS_SHOW(e->mount, "none");
		VB_OS_SHOW(e->device, vb_os_base_name(path));
		return;
	}
	if (fstatfs(fd, &f) != 0)
		return;
	VB_OS_SHOW(e->fs, f.f_fstypename);
	VB_OS_SHOW(e->mount, f.f_mntonname);
	if (strncmp(f.f_mntfromname, "/dev/", 5) == 0) {
		VB_OS_SHOW(e->device, f.f_mntfromname + 5);
	} else {
		VB_OS_SHOW(e->device, f.f_mntfromname[0] ? f.f_mntfromname : vb_os_unknown);
		VB_OS_SHOW(e->driver, "none");
	}
}

/* No exclusive open, no holders list tells of a disk's users: fail closed. */
int vb_os_fam_in_use(int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	(void)fd;
	if (fi->type != VB_FT_BLK && fi->type != VB_FT_CHR)
		return 0;
	snprintf(holder, n, "this build of vbench cannot tell whether a disk is in use here");
	return -1;
}

uint64_t vb_os_fam_ram_bytes(void)
{
	uint64_t v = 0;
	size_t len = sizeof v;

	return sysctlbyname("hw.memsize", &v, &len, NULL, 0) == 0 ? v : 0;
}

#else
typedef int vb_os_macos_unused;
#endif
