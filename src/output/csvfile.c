#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "output/vb_csvfile.h"
#include "common/vb_io.h"
#include "os/vb_os.h"

/* Another appender holds the lock for one row's write; this is far beyond that. */
#define LOCK_WAIT_MS 10000

enum vb_status vb_csvfile_open(struct vb_csvfile *cf, const char *option, const char *path,
			       struct vb_err *err)
{
	char why[256];

	cf->option = option;
	cf->path = path;
	cf->fd = vb_os_append_open(path, &cf->created, why, sizeof why);
	if (cf->fd < 0)
		return vb_fail(err, VB_E_SETUP, "%s %s: %s", option, path, why);
	return VB_OK;
}

enum vb_status vb_csvfile_append(struct vb_csvfile *cf, const struct vb_buf *header,
				 const struct vb_buf *row, struct vb_err *err)
{
	struct vb_fileinfo fi;
	struct vb_buf all;
	char last = '\n';
	int e = 0;

	if (row->oom || header->oom)
		return vb_fail(err, VB_E_IO, "%s %s: out of memory", cf->option, cf->path);
	if (vb_os_lock(cf->fd, LOCK_WAIT_MS) != 0)
		return vb_fail(err, VB_E_IO, "%s %s: cannot lock it: %s", cf->option, cf->path,
			       errno == ETIMEDOUT ? "another program held the lock for 10 s"
						  : strerror(errno));
	if (vb_os_io.fstat(NULL, cf->fd, &fi) != 0) {
		e = errno;
		vb_os_unlock(cf->fd);
		return vb_fail(err, VB_E_IO, "%s %s: %s", cf->option, cf->path, strerror(e));
	}
	if (fi.nlink == 0) {
		/* Removed meanwhile: a row written now would be lost without a word. */
		vb_os_unlock(cf->fd);
		return vb_fail(err, VB_E_IO, "%s %s: the file was removed while vbench had it "
			       "open; the row is not written", cf->option, cf->path);
	}
	vb_buf_init(&all);
	if (fi.size_bytes == 0)
		vb_buf_add(&all, header->p, header->len);
	else if (vb_os_pread(cf->fd, &last, 1, fi.size_bytes - 1) == 1 && last != '\n')
		vb_buf_puts(&all, "\r\n");   /* never glue a row onto a line cut short */
	vb_buf_add(&all, row->p, row->len);
	if (all.oom) {
		e = ENOMEM;
	} else if (vb_os_write_all(cf->fd, all.p, all.len) != 0) {
		e = errno;
		/* Whole rows or nothing: take back what made it of this one. */
		vb_os_truncate_to(cf->fd, fi.size_bytes);
	}
	vb_buf_free(&all);
	vb_os_unlock(cf->fd);
	if (e != 0)
		return vb_fail(err, VB_E_IO, "%s %s: the row could not be written (%s); "
			       "the file is as it was", cf->option, cf->path, strerror(e));
	return VB_OK;
}

/* Removes the file this session created when empty and still named so; 0 or an errno.
 * Under its lock: another appender wrote its row first, or finds the file removed. */
static int remove_if_empty(struct vb_csvfile *cf)
{
	struct vb_fileinfo fi, now;
	char dir[4096], base[256];
	int e = 0;

	if (vb_os_lock(cf->fd, LOCK_WAIT_MS) != 0)
		return errno;
	if (vb_os_io.fstat(NULL, cf->fd, &fi) != 0) {
		e = errno;
	} else if (fi.size_bytes == 0 && fi.nlink == 1) {
		int dirfd = -1;
		if (!vb_os_path_split(cf->path, dir, sizeof dir, base, sizeof base))
			e = ENAMETOOLONG;
		else if ((dirfd = vb_os_io.open_dir(NULL, dir, false)) < 0)
			e = errno;
		else if (vb_os_io.statat(NULL, dirfd, base, &now) != 0)
			e = errno;
		else if (now.type != VB_FT_REG || now.dev != fi.dev || now.ino != fi.ino)
			e = ESTALE;
		else if (vb_os_io.unlinkat(NULL, dirfd, base) != 0)
			e = errno;
		if (dirfd >= 0)
			vb_os_io.close(NULL, dirfd);
	}
	vb_os_unlock(cf->fd);
	return e;
}

enum vb_status vb_csvfile_close(struct vb_csvfile *cf, struct vb_err *err)
{
	if (cf->fd < 0)
		return VB_OK;
	int gone = cf->created ? remove_if_empty(cf) : 0;
	int rc = vb_os_io.close(NULL, cf->fd);
	int e = errno;
	cf->fd = -1;
	if (gone == ESTALE)
		return vb_fail(err, VB_E_IO, "%s %s no longer names the empty file vbench created "
			       "(another file took its name); both were left alone", cf->option,
			       cf->path);
	if (gone != 0)
		return vb_fail(err, VB_E_IO, "%s %s, the empty file vbench created, could not be "
			       "removed: %s; it is left behind", cf->option, cf->path,
			       strerror(gone));
	if (rc != 0)
		return vb_fail(err, VB_E_IO, "%s %s: %s", cf->option, cf->path, strerror(e));
	return VB_OK;
}
