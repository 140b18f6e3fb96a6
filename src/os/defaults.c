/* The family calls most POSIX families do alike (fio's os/ way); a family with its own
 * says so with a VB_FAM_HAS_ macro in os_internal.h. */
#include "os/os_internal.h"

#if VB_OS_POSIX

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !VB_FAM_HAS_AFTER_OPEN
/* Nothing follows the open: the open flags said everything. */
int vb_os_fam_after_open(int fd, const struct vb_open_req *req)
{
	(void)fd;
	(void)req;
	return 0;
}
#endif

#if !VB_FAM_HAS_AVAIL_MEM
/* Free pages alone undercount what can be allocated, so no figure is given. */
uint64_t vb_os_avail_mem(void)
{
	return 0;
}
#endif

#if !VB_FAM_HAS_RESERVE
/* Who may use a file system's reserve is not looked up here, so it is not counted:
 * a run that would fit only in it is refused, never left to fail mid-run. */
bool vb_os_fam_reserve_usable(int dirfd, uint64_t *kept)
{
	(void)dirfd;
	*kept = 0;
	return false;
}
#endif

/* The name is examined, then opened without waiting (for a FIFO's reader) and checked to
 * be the file examined. In between the name can be swapped for a device node, but only
 * by a user who can make one or link to one in that directory. */
int vb_os_open_regular_by_name(const char *path, int flags, struct stat *st, char *why,
			       size_t n)
{
	struct stat now;

	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return VB_REG_NONE;
		snprintf(why, n, "%s", strerror(errno));
		return VB_REG_FAIL;
	}
	if (!S_ISREG(st->st_mode))
		return VB_REG_OTHER;
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return VB_REG_FAIL;
	}
	if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		snprintf(why, n, "changed while vbench examined it");
		return VB_REG_FAIL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*st = now;
	return fd;
}

#if !VB_FAM_HAS_OPEN_REGULAR
int vb_os_fam_open_regular(const char *path, int flags, struct stat *st, char *why, size_t n)
{
	return vb_os_open_regular_by_name(path, flags, st, why, n);
}
#endif

#else
typedef int vb_os_defaults_unused;
#endif
