/* The one place that knows which system it is on. Everything here is chosen by testing
 * for a capability (a macro or a header), never by the name of the operating system. */
#include "vb_sysfeatures.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sys/param.h>)
#include <sys/param.h>
#endif
#if __has_include(<sys/mount.h>)
#include <sys/mount.h>          /* BLKSSZGET, BLKGETSIZE64 with glibc and musl */
#endif
#if __has_include(<sys/disk.h>)
#include <sys/disk.h>           /* DIOCGMEDIASIZE, DKIOCGETBLOCKSIZE */
#endif
#if __has_include(<sys/disklabel.h>)
#include <sys/disklabel.h>
#endif
#if __has_include(<sys/dkio.h>)
#include <sys/dkio.h>           /* NetBSD DIOCGMEDIASIZE, DIOCGSECTORSIZE */
#endif
#if __has_include(<sys/sysmacros.h>)
#include <sys/sysmacros.h>      /* major(), minor() */
#endif
#if __has_include(<sys/sysctl.h>)
#include <sys/sysctl.h>
#define VB_HAVE_SYSCTL 1
#endif
#endif

#include "vb_platform.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

static const struct vb_caps caps = {
#if defined(O_DIRECT)
	.direct = VB_DIRECT_OFLAG,
	.direct_oflag = O_DIRECT,
#elif defined(F_NOCACHE)
	.direct = VB_DIRECT_FCNTL,
	.direct_oflag = 0,
#else
	.direct = VB_DIRECT_NONE,
	.direct_oflag = 0,
#endif
#if defined(O_DSYNC)
	.dsync_oflag = O_DSYNC,
#else
	.dsync_oflag = O_SYNC,
#endif
#if defined(O_TMPFILE)
	.tmpfile_oflag = O_TMPFILE,
#else
	.tmpfile_oflag = 0,
#endif
	.nofollow_oflag = O_NOFOLLOW,
#if defined(_POSIX_SYNCHRONIZED_IO) && _POSIX_SYNCHRONIZED_IO > 0
	.have_fdatasync = 1,
#else
	.have_fdatasync = 0,
#endif
#if defined(SIGINFO)
	.have_siginfo = 1,
#else
	.have_siginfo = 0,
#endif
#if defined(BLKGETSIZE64)
	.excl_blockdev = 1,
#else
	.excl_blockdev = 0,
#endif
};

const struct vb_caps *vb_caps(void)
{
	return &caps;
}

int vb_platform_nocache(int fd)
{
#if defined(F_NOCACHE)
	return fcntl(fd, F_NOCACHE, 1) == -1 ? -1 : 0;
#else
	(void)fd;
	errno = ENOTSUP;
	return -1;
#endif
}

int vb_platform_fsync(int fd)
{
#if defined(F_FULLFSYNC)
	/* macOS's fsync leaves data in the drive's cache; F_FULLFSYNC flushes it. Some
	 * filesystems do not support it, and then plain fsync is the best there is; any
	 * other failure (EIO) is the answer. */
	if (fcntl(fd, F_FULLFSYNC) == 0)
		return 0;
	if (errno != ENOTSUP && errno != EINVAL && errno != ENOTTY)
		return -1;
#endif
	return fsync(fd);
}

int vb_platform_fdatasync(int fd)
{
#if defined(_POSIX_SYNCHRONIZED_IO) && _POSIX_SYNCHRONIZED_IO > 0 && !defined(F_FULLFSYNC)
	return fdatasync(fd);
#else
	return vb_platform_fsync(fd);
#endif
}

/* Reads a small decimal number from a sysfs-style file; 0 when absent. */
static unsigned long read_ulong_file(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long v = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* The queue of the disk behind a device number, where a /sys tree describes it (Linux);
 * 0 where there is none. */
static uint32_t sysfs_logical_block(dev_t dev)
{
	char path[128];
	unsigned long v;
	unsigned maj = (unsigned)major(dev), min = (unsigned)minor(dev);

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/queue/logical_block_size", maj, min);
	v = read_ulong_file(path);
	if (v == 0) {
		/* A partition has no queue of its own; its parent disk's applies. */
		snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 maj, min);
		v = read_ulong_file(path);
	}
	return (uint32_t)v;
}

uint32_t vb_platform_logical_block(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return 512;
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
#if defined(BLKSSZGET)
		int v = 0;
		if (ioctl(fd, BLKSSZGET, &v) == 0 && v > 0)
			return (uint32_t)v;
#elif defined(DIOCGSECTORSIZE)
		unsigned v = 0;
		if (ioctl(fd, DIOCGSECTORSIZE, &v) == 0 && v > 0)
			return (uint32_t)v;
#elif defined(DKIOCGETBLOCKSIZE)
		uint32_t v = 0;
		if (ioctl(fd, DKIOCGETBLOCKSIZE, &v) == 0 && v > 0)
			return v;
#endif
		return 512;
	}
	uint32_t v = sysfs_logical_block(st.st_dev);
	return v ? v : 512;
}

int vb_platform_device_bytes(int fd, uint64_t *out_bytes)
{
#if defined(BLKGETSIZE64)
	uint64_t v = 0;
	if (ioctl(fd, BLKGETSIZE64, &v) == 0) {
		*out_bytes = v;
		return 0;
	}
	return -1;
#elif defined(DIOCGMEDIASIZE)
	off_t v = 0;
	if (ioctl(fd, DIOCGMEDIASIZE, &v) == 0) {
		*out_bytes = (uint64_t)v;
		return 0;
	}
	return -1;
#elif defined(DKIOCGETBLOCKCOUNT) && defined(DKIOCGETBLOCKSIZE)
	uint64_t blocks = 0;
	uint32_t size = 0;
	if (ioctl(fd, DKIOCGETBLOCKCOUNT, &blocks) == 0 &&
	    ioctl(fd, DKIOCGETBLOCKSIZE, &size) == 0) {
		*out_bytes = blocks * size;
		return 0;
	}
	return -1;
#else
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		*out_bytes = (uint64_t)st.st_size;
		return 0;
	}
	errno = ENOTSUP;
	return -1;
#endif
}

uint64_t vb_platform_avail_mem(void)
{
	/* Only a kernel that counts reclaimable cache as available (Linux's MemAvailable)
	 * gives a figure worth refusing a block size for; free pages alone undercount. */
	FILE *f = fopen("/proc/meminfo", "r");
	uint64_t v = 0;

	if (f == NULL)
		return 0;
	char line[256];
	unsigned long long kb;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			v = kb * 1024ULL;
			break;
		}
	}
	fclose(f);
	return v;
}

uint64_t vb_platform_total_mem(void)
{
#if defined(_SC_PHYS_PAGES)
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages > 0 && size > 0)
		return (uint64_t)pages * (uint64_t)size;
#endif
#if defined(VB_HAVE_SYSCTL) && defined(CTL_HW) && defined(HW_PHYSMEM64)
	{
		int mib[2] = {CTL_HW, HW_PHYSMEM64};
		int64_t v = 0;
		size_t len = sizeof v;
		if (sysctl(mib, 2, &v, &len, NULL, 0) == 0)
			return (uint64_t)v;
	}
#elif defined(VB_HAVE_SYSCTL) && defined(CTL_HW) && defined(HW_MEMSIZE)
	{
		int mib[2] = {CTL_HW, HW_MEMSIZE};
		uint64_t v = 0;
		size_t len = sizeof v;
		if (sysctl(mib, 2, &v, &len, NULL, 0) == 0)
			return v;
	}
#endif
	return 0;
}

int vb_platform_urandom(void *buf, size_t n)
{
	unsigned char *p = buf;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (n > 0) {
		ssize_t got = read(fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			int e = got < 0 ? errno : EIO;
			close(fd);
			errno = e;
			return -1;
		}
		p += got;
		n -= (size_t)got;
	}
	close(fd);
	return 0;
}

uint64_t vb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
