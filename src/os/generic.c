/* Any other POSIX system: what POSIX alone gives. No direct I/O, no anonymous files, no
 * way to tell whether a disk is in use (so disks are refused), nothing detected beyond
 * uname. */
#include "os_internal.h"

#if VB_OS_GENERIC

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

const struct vb_caps vb_fam_caps = {
	.direct_how = NULL,
	.fsync_call = "fsync",
	.fdatasync_call = "fsync",
#if defined(O_DSYNC)
	.dsync_how = "O_DSYNC",
#else
	.dsync_how = "O_SYNC",
#endif
	.chr_disks = false,
	.status_how = "SIGUSR1",
};

int vb_fam_open_flags(const struct vb_open_req *req, int *flags)
{
#if defined(O_DSYNC)
	*flags = req->dsync ? O_DSYNC : 0;
#else
	*flags = req->dsync ? O_SYNC : 0;
#endif
	if (req->kind == VB_OPEN_ANON || req->direct) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return 0;
}

int vb_fam_sync(int fd, enum vb_sync_call call)
{
	(void)call;
	return fsync(fd);
}

int vb_fam_disk(int fd, struct vb_disk *d)
{
	(void)fd;
	(void)d;
	return -1;
}

uint32_t vb_fam_logical_block(int fd)
{
	(void)fd;
	return 0;
}

void vb_fam_detect(struct vb_env *e, int fd, const char *path)
{
	(void)e;
	(void)fd;
	(void)path;
}

uint64_t vb_fam_ram_bytes(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages > 0 && size > 0)
		return (uint64_t)pages * (uint64_t)size;
#endif
	return 0;
}

#else
typedef int vb_os_generic_unused;
#endif
