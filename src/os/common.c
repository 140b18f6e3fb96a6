/* Small helpers every platform file shares; compiled on every system. */
#include "os/os_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#if VB_OS_POSIX
#include <sys/stat.h>
#endif

const char vb_os_unknown[] = "unknown";

#if VB_OS_POSIX
static enum vb_ftype ftype(mode_t m)
{
	if (S_ISREG(m))
		return VB_FT_REG;
	if (S_ISDIR(m))
		return VB_FT_DIR;
	if (S_ISLNK(m))
		return VB_FT_LINK;
	if (S_ISBLK(m))
		return VB_FT_BLK;
	if (S_ISCHR(m))
		return VB_FT_CHR;
	if (S_ISFIFO(m))
		return VB_FT_FIFO;
	return VB_FT_OTHER;
}

void vb_os_fileinfo(const struct stat *st, struct vb_fileinfo *fi)
{
	fi->type = ftype(st->st_mode);
	fi->dev = (uint64_t)st->st_dev;
	fi->ino = (uint64_t)st->st_ino;
	fi->rdev = (uint64_t)st->st_rdev;
	fi->nlink = (uint64_t)st->st_nlink;
	fi->size_bytes = st->st_size > 0 ? (uint64_t)st->st_size : 0;
	/* st_blocks counts 512-byte units on every POSIX system vbench runs on */
	fi->alloc_bytes = st->st_blocks > 0 ? (uint64_t)st->st_blocks * 512 : 0;
}

/* (Windows: win_threads.c, on the system time, which is what its waits measure.) */
struct timespec vb_os_deadline_in(uint64_t ns)
{
	struct timespec ts = {0, 0};

	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t nsec = (uint64_t)ts.tv_nsec + ns % 1000000000ULL;
	ts.tv_sec += (time_t)(ns / 1000000000ULL + nsec / 1000000000ULL);
	ts.tv_nsec = (long)(nsec % 1000000000ULL);
	return ts;
}
#endif

void vb_os_copy(char *dst, size_t n, const char *src)
{
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i + 1 < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

const char *vb_os_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void vb_os_env_reset(struct vb_env *e)
{
	memset(e, 0, sizeof *e);
	vb_os_copy(e->host, sizeof e->host, vb_os_unknown);
	vb_os_copy(e->os, sizeof e->os, vb_os_unknown);
	vb_os_copy(e->kernel, sizeof e->kernel, vb_os_unknown);
	vb_os_copy(e->fs, sizeof e->fs, vb_os_unknown);
	vb_os_copy(e->mount, sizeof e->mount, vb_os_unknown);
	vb_os_copy(e->device, sizeof e->device, vb_os_unknown);
	vb_os_copy(e->driver, sizeof e->driver, vb_os_unknown);
}

bool vb_os_path_split_at(const char *path, const char *seps, char *dir, size_t dn, char *base,
			 size_t bn)
{
	size_t len = strlen(path), cut = len;
	int w;

	if (len == 0 || strchr(seps, path[len - 1]) != NULL)
		return false;
	while (cut > 0 && strchr(seps, path[cut - 1]) == NULL)
		cut--;
	if (cut == 0)
		w = snprintf(dir, dn, ".");
	else if (cut == 1)
		w = snprintf(dir, dn, "%c", path[0]);
	else
		w = snprintf(dir, dn, "%.*s", (int)(cut - 1), path);
	if (w < 0 || (size_t)w >= dn)
		return false;
	w = snprintf(base, bn, "%s", path + cut);
	return w > 0 && (size_t)w < bn;
}

struct vb_os_held vb_os_held;
