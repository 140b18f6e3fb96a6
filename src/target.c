#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vb_platform.h"
#include "vb_target.h"

#define SETUP_ERROR 2

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return SETUP_ERROR;
}

void vb_target_unique_name(char *buf, size_t n, const char *dir, unsigned serial)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	struct timespec ts;
	char tag[7];

	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned long long x = (unsigned long long)ts.tv_nsec * 2654435761ULL ^
			       (unsigned long long)getpid() * 40503ULL ^ serial * 2246822519ULL;
	for (int i = 0; i < 6; i++) {
		tag[i] = digits[x % 36];
		x /= 36;
	}
	tag[6] = '\0';
	snprintf(buf, n, "%s/vbench-%s.tmp", dir, tag);
}

/* Flags every run's open gets: direct I/O and O_DSYNC as configured. */
static int mode_flags(const struct vb_config *cfg)
{
	const struct vb_caps *c = vb_caps();
	int f = 0;
	if (cfg->direct && c->direct == VB_DIRECT_OFLAG)
		f |= c->direct_oflag;
	if (cfg->sync == VB_SYNC_DSYNC)
		f |= c->dsync_oflag;
	return f;
}

static const char *direct_hint(int e)
{
	return e == EINVAL ? "the filesystem refuses O_DIRECT (tmpfs and some others do); "
			     "drop --direct or test a disk-backed filesystem"
			   : strerror(e);
}

/* Checks that bs suits O_DIRECT on the device under fd. */
static int check_alignment(struct vb_target *t, const struct vb_config *cfg, int fd,
			   char *err, size_t errlen)
{
	t->align_bytes = vb_platform_logical_block(fd);
	if (!cfg->direct || t->align_bytes == 0 || cfg->bs_bytes % t->align_bytes == 0)
		return 0;
	return fail(err, errlen,
		    "bs=%llu with --direct: O_DIRECT needs a multiple of the %u-byte logical "
		    "block size of the device under %s (e.g. bs=%llu)",
		    (unsigned long long)cfg->bs_bytes, t->align_bytes, cfg->target_path,
		    (unsigned long long)((cfg->bs_bytes / t->align_bytes + 1) * t->align_bytes));
}

/* Creates a file vbench owns at t->path (exclusive, no links followed, mode 0600). */
static int create_owned(struct vb_target *t, const struct vb_config *cfg, char *err,
			size_t errlen)
{
	const int base = O_WRONLY | O_CREAT | O_EXCL | vb_caps()->nofollow_oflag | O_CLOEXEC;
	struct stat st;
	int fd = open(t->path, base, 0600);

	if (fd < 0 && errno == ENOENT)
		return fail(err, errlen, "cannot create %s: its directory does not exist", t->path);
	if (fd < 0)
		return fail(err, errlen, "cannot create %s: %s", t->path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		unlink(t->path);
		return fail(err, errlen, "cannot examine %s: %s", t->path, strerror(e));
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->created = true;
	t->keep = cfg->keep;
	int rc = check_alignment(t, cfg, fd, err, errlen);
	close(fd);
	if (rc == 0 && mode_flags(cfg) != 0) {
		fd = open(t->path, O_WRONLY | vb_caps()->nofollow_oflag | O_CLOEXEC | mode_flags(cfg));
		if (fd < 0)
			rc = fail(err, errlen, "cannot open %s for direct or synchronous writes: %s",
				  t->path, direct_hint(errno));
		else
			close(fd);
	}
	if (rc != 0) {
		t->keep = false;
		vb_target_cleanup(t);
	}
	return rc;
}

/* Tries an anonymous O_TMPFILE in dir; 1 if usable, 0 if unsupported, else an exit code. */
static int probe_tmpfile(struct vb_target *t, const struct vb_config *cfg, char *err,
			 size_t errlen)
{
	int tmpflag = vb_caps()->tmpfile_oflag;
	if (tmpflag == 0 || cfg->keep || cfg->overwrite)
		return 0;
	int fd = open(t->dir, tmpflag | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EACCES || errno == EROFS || errno == ENOSPC || errno == EDQUOT)
			return fail(err, errlen, "cannot create a file in %s: %s", t->dir,
				    strerror(errno));
		return 0; /* the filesystem has no O_TMPFILE: fall back to named files */
	}
	int rc = check_alignment(t, cfg, fd, err, errlen);
	close(fd);
	if (rc != 0)
		return rc;
	if (mode_flags(cfg) != 0) {
		fd = open(t->dir, tmpflag | O_WRONLY | O_CLOEXEC | mode_flags(cfg), 0600);
		if (fd < 0)
			return fail(err, errlen, "cannot open a file in %s for direct or "
				    "synchronous writes: %s", t->dir, direct_hint(errno));
		close(fd);
	}
	return 1;
}

static int prepare_dir(struct vb_target *t, const struct vb_config *cfg, char *err,
		       size_t errlen)
{
	t->kind = VB_TGT_DIR;
	snprintf(t->dir, sizeof t->dir, "%s", cfg->target_path);
	int rc = probe_tmpfile(t, cfg, err, errlen);
	if (rc == 1) {
		t->use_tmpfile = true;
		return 0;
	}
	if (rc != 0)
		return rc;
	/* A named file: kept or overwritten across runs when asked, else one name per run
	 * that is unlinked as soon as it is open. The probe checks writability and flags. */
	for (int tries = 0; tries < 100; tries++) {
		vb_target_unique_name(t->path, sizeof t->path, t->dir, t->name_serial++);
		rc = create_owned(t, cfg, err, errlen);
		if (rc == 0 || errno != EEXIST)
			break;
	}
	if (rc != 0)
		return rc;
	if (!cfg->keep && !cfg->overwrite) {
		vb_target_cleanup(t);
		t->per_run_name = true;
	}
	return 0;
}

static int prepare_new(struct vb_target *t, const struct vb_config *cfg, char *err,
		       size_t errlen)
{
	size_t n = strlen(cfg->target_path);
	if (n > 0 && cfg->target_path[n - 1] == '/')
		return fail(err, errlen, "directory %s does not exist", cfg->target_path);
	t->kind = VB_TGT_NEWFILE;
	snprintf(t->path, sizeof t->path, "%s", cfg->target_path);
	return create_owned(t, cfg, err, errlen);
}

/* Opens a device the user allowed with --force; O_EXCL on a block device makes the
 * kernel refuse one that is mounted or held. Returns the descriptor or an exit code. */
static int open_device(const struct vb_target *t, int extra, char *err, size_t errlen,
		       int *fd)
{
	*fd = open(t->path, O_WRONLY | O_CLOEXEC | (t->excl_open ? O_EXCL : 0) | extra);
	if (*fd >= 0)
		return 0;
	if (errno == EBUSY)
		return fail(err, errlen, "%s is in use (mounted, or held by another program); "
			    "vbench never writes to a device in use", t->path);
	if (extra != 0)
		return fail(err, errlen, "cannot open %s for direct or synchronous writes: %s",
			    t->path, direct_hint(errno));
	return fail(err, errlen, "cannot open %s: %s", t->path, strerror(errno));
}

static int prepare_device(struct vb_target *t, const struct vb_config *cfg, int is_block,
			  char *err, size_t errlen)
{
	const char *p = cfg->target_path;
	int fd;

	if (!cfg->force)
		return fail(err, errlen, "%s is a %s device, which may hold a disk, tape or flash: "
			    "writing destroys what is on it; add --force if that is what you want",
			    p, is_block ? "block" : "character");
	if (is_block && !vb_caps()->excl_blockdev)
		return fail(err, errlen, "%s: this build of vbench cannot tell whether a block "
			    "device is mounted or in use, so it does not write to one", p);
	t->kind = VB_TGT_BLOCKDEV;
	t->excl_open = is_block;
	snprintf(t->path, sizeof t->path, "%s", p);
	int rc = open_device(t, 0, err, errlen, &fd);
	if (rc != 0)
		return rc;
	rc = check_alignment(t, cfg, fd, err, errlen);
	if (rc == 0 && vb_platform_device_bytes(fd, &t->device_bytes) == 0 &&
	    t->device_bytes < cfg->bs_bytes * cfg->count_blocks)
		rc = fail(err, errlen, "%s holds %llu bytes, less than the %llu bytes of one run",
			  p, (unsigned long long)t->device_bytes,
			  (unsigned long long)(cfg->bs_bytes * cfg->count_blocks));
	close(fd);
	if (rc == 0 && mode_flags(cfg) != 0 && (rc = open_device(t, mode_flags(cfg), err, errlen,
								  &fd)) == 0)
		close(fd);
	return rc;
}

/* Whether st is the same device as one of the harmless sinks. */
static int is_null_like(const struct stat *st)
{
	static const char *const sinks[] = {"/dev/null", "/dev/zero", "/dev/full"};
	struct stat s;

	for (size_t i = 0; i < sizeof sinks / sizeof sinks[0]; i++) {
		if (stat(sinks[i], &s) == 0 && S_ISCHR(s.st_mode) && s.st_rdev == st->st_rdev)
			return 1;
	}
	return 0;
}

/* A character device is decided on before it is opened: opening some (a watchdog, a
 * tape) already acts. Only the data sinks are allowed without --force. */
static int prepare_chr(struct vb_target *t, const struct vb_config *cfg,
		       const struct stat *st, char *err, size_t errlen)
{
	if (!is_null_like(st))
		return prepare_device(t, cfg, 0, err, errlen);
	t->kind = VB_TGT_CHARDEV;
	snprintf(t->path, sizeof t->path, "%s", cfg->target_path);
	return 0;
}

static int prepare_existing(struct vb_target *t, const struct vb_config *cfg,
			    const struct stat *st, char *err, size_t errlen)
{
	const char *p = cfg->target_path;

	if (!cfg->force)
		return fail(err, errlen, "%s exists; vbench never overwrites a file it did not "
			    "create (give a directory or a new name, or add --force)", p);
	if (st->st_nlink > 1)
		return fail(err, errlen, "%s has %llu hard links; vbench will not truncate a file "
			    "that other names share, even with --force", p,
			    (unsigned long long)st->st_nlink);
	t->kind = VB_TGT_EXISTING;
	snprintf(t->path, sizeof t->path, "%s", p);
	t->dev = st->st_dev;
	t->ino = st->st_ino;
	int fd = open(p, O_WRONLY | vb_caps()->nofollow_oflag | O_CLOEXEC | mode_flags(cfg));
	if (fd < 0)
		return fail(err, errlen, "cannot open %s: %s", p,
			    mode_flags(cfg) ? direct_hint(errno) : strerror(errno));
	int rc = check_alignment(t, cfg, fd, err, errlen);
	close(fd);
	return rc;
}

int vb_target_prepare(struct vb_target *t, const struct vb_config *cfg, char *err,
		      size_t errlen)
{
	struct stat st;
	const char *p = cfg->target_path;

	memset(t, 0, sizeof *t);
	if (cfg->direct && vb_caps()->direct == VB_DIRECT_NONE)
		return fail(err, errlen, "--direct: this platform has no way to bypass the page cache");
	if (strlen(p) >= sizeof t->path - 32)
		return fail(err, errlen, "target path is too long");
	if (lstat(p, &st) != 0) {
		if (errno == ENOENT)
			return prepare_new(t, cfg, err, errlen);
		return fail(err, errlen, "cannot examine %s: %s", p, strerror(errno));
	}
	/* A link to a directory is harmless (files are created inside it exclusively, as
	 * macOS's /tmp needs); a link to anything else is refused, never followed. */
	struct stat dst;
	if (S_ISLNK(st.st_mode) && stat(p, &dst) == 0 && S_ISDIR(dst.st_mode))
		return prepare_dir(t, cfg, err, errlen);
	if (S_ISLNK(st.st_mode))
		return fail(err, errlen, "%s is a symbolic link; vbench does not follow links "
			    "to files or devices (give the path it points to)", p);
	if (S_ISDIR(st.st_mode))
		return prepare_dir(t, cfg, err, errlen);
	if (S_ISREG(st.st_mode))
		return prepare_existing(t, cfg, &st, err, errlen);
	if (S_ISBLK(st.st_mode))
		return prepare_device(t, cfg, 1, err, errlen);
	if (S_ISCHR(st.st_mode))
		return prepare_chr(t, cfg, &st, err, errlen);
	if (S_ISFIFO(st.st_mode))
		return fail(err, errlen, "%s is a FIFO: it would measure its reader, not a disk", p);
	return fail(err, errlen, "%s is neither a directory, a file nor a device", p);
}

void vb_target_plan(struct vb_target *t, const struct vb_config *cfg, bool first_run,
		    struct vb_write_plan *plan)
{
	int flags = O_WRONLY | mode_flags(cfg);
	int nofollow = vb_caps()->nofollow_oflag;

	plan->open_mode = 0600;
	plan->nocache_fcntl = cfg->direct && vb_caps()->direct == VB_DIRECT_FCNTL;
	plan->unlink_after_open = false;
	plan->defer_release = t->use_tmpfile || t->per_run_name;
	plan->check_identity = false;
	plan->truncate = false;
	plan->sync_may_fail = false;
	if (t->use_tmpfile) {
		plan->open_path = t->dir;
		plan->open_flags = flags | vb_caps()->tmpfile_oflag;
		return;
	}
	if (t->per_run_name) {
		vb_target_unique_name(t->path, sizeof t->path, t->dir, t->name_serial++);
		plan->open_path = t->path;
		plan->open_flags = flags | O_CREAT | O_EXCL | nofollow;
		plan->unlink_after_open = true;
		return;
	}
	plan->open_path = t->path;
	switch (t->kind) {
	case VB_TGT_BLOCKDEV:
		plan->open_flags = flags | (t->excl_open ? O_EXCL : 0);
		return;
	case VB_TGT_CHARDEV:
		plan->open_flags = flags;
		plan->sync_may_fail = true;
		return;
	default:
		break;
	}
	/* Every run starts from an empty file, except --overwrite after the first run. The
	 * emptying waits until the file is known to be the one vbench created or was
	 * allowed: O_TRUNC would empty whatever had been renamed onto the name meanwhile. */
	plan->open_flags = flags | nofollow;
	plan->truncate = !(cfg->overwrite && !first_run);
	plan->check_identity = true;
	plan->dev = t->dev;
	plan->ino = t->ino;
}

void vb_target_cleanup(struct vb_target *t)
{
	struct stat st;

	if (!t->created || t->keep)
		return;
	t->created = false;
	if (lstat(t->path, &st) == 0 && st.st_dev == t->dev && st.st_ino == t->ino)
		unlink(t->path);
}

const char *vb_target_note(const struct vb_target *t, char *buf, size_t n)
{
	switch (t->kind) {
	case VB_TGT_DIR:
		if (t->created && t->keep)
			snprintf(buf, n, "a new file in this directory, kept as %s", t->path);
		else if (t->created)
			snprintf(buf, n, "one new file in this directory (%s) for all runs, removed "
				 "at the end", t->path);
		else
			return "a new file in this directory for each run, removed at the end";
		return buf;
	case VB_TGT_NEWFILE: return t->keep ? "created, kept at the end" : "created, removed at the end";
	case VB_TGT_EXISTING: return "an existing file, overwritten (--force), not removed";
	case VB_TGT_BLOCKDEV: return "a device, overwritten (--force)";
	case VB_TGT_CHARDEV: return "a data sink";
	}
	return NULL;
}
