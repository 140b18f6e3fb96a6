/* Linux: a file is examined through an O_PATH descriptor, which opens nothing (open(2):
 * no device's open is called, no FIFO reader woken), then reopened through
 * /proc/self/fd, which is that very inode whatever its name has become. Without /proc
 * (an initramfs), by the name. */
#include "os/os_internal.h"

#if VB_OS_LINUX

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int vb_os_fam_open_regular(const char *path, int flags, struct stat *st, char *why, size_t n)
{
	char self[64];
	struct stat now;
	int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (pfd < 0) {
		if (errno == ENOENT)
			return VB_REG_NONE;
		snprintf(why, n, "%s", strerror(errno));
		return VB_REG_FAIL;
	}
	if (fstat(pfd, st) != 0) {
		snprintf(why, n, "cannot examine it: %s", strerror(errno));
		close(pfd);
		return VB_REG_FAIL;
	}
	if (!S_ISREG(st->st_mode)) {
		close(pfd);
		return VB_REG_OTHER;
	}
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	int fd = open(self, flags);
	int e = errno;
	close(pfd);
	if (fd < 0 && e == ENOENT)
		return vb_os_open_regular_by_name(path, flags, st, why, n);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(e));
		return VB_REG_FAIL;
	}
	if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		snprintf(why, n, "changed while vbench examined it");
		return VB_REG_FAIL;
	}
	*st = now;
	return fd;
}

#else
typedef int vb_os_linux_open_unused;
#endif
