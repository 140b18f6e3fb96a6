#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "os/vb_os.h"
#include "bench/vb_space.h"
#include "bench/vb_target.h"
#include "common/vb_units.h"

/* The longest path accepted; longer ones are refused rather than cut. */
#define PATH_LIMIT 4000

void vb_direct_suggestion(uint64_t bs, uint32_t align, char *buf, size_t n)
{
	uint64_t low = 1, pick;

	while (low <= bs / 2)
		low *= 2;
	pick = bs - low <= 2 * low - bs ? low : 2 * low;
	if (pick < align)
		pick = align;
	if (align != 0 && pick % align != 0)
		pick = (bs / align + 1) * align;
	vb_size_short(buf, n, pick);   /* "T" is never reached: bs is at most 1 GiB */
}

static const char *direct_hint(int e)
{
	return e == EINVAL ? "the filesystem refuses direct I/O (tmpfs and some others do); "
			     "drop --direct or test a disk-backed filesystem"
			   : strerror(e);
}

bool vb_target_whole_sectors(const struct vb_target *t, const struct vb_config *cfg)
{
	/* A raw disk (a character device, the BSDs) takes whole sectors only (FreeBSD's
	 * g_io_check, sys/geom/geom_io.c, refuses any other with EINVAL). */
	return cfg->direct || (t->kind == VB_TGT_DISK && t->id.type == VB_FT_CHR);
}

/* Checks that bs suits direct I/O where the target lives (fd is on it). */
static enum vb_status check_alignment(struct vb_target *t, const struct vb_config *cfg, int fd,
				      struct vb_err *err)
{
	char hint[32];

	if (t->align_bytes == 0)
		t->align_bytes = t->ops->logical_block(t->ops->ctx, fd);
	if (!vb_target_whole_sectors(t, cfg) || t->align_bytes == 0 ||
	    cfg->bs_bytes % t->align_bytes == 0)
		return VB_OK;
	vb_direct_suggestion(cfg->bs_bytes, t->align_bytes, hint, sizeof hint);
	if (!cfg->direct)
		return vb_fail(err, VB_E_SETUP, "bs=%" PRIu64 ": %s is a raw disk, written in whole "
			       "sectors: bs must be a multiple of its %u-byte sector size (e.g. "
			       "bs=%s)", cfg->bs_bytes, t->shown, t->align_bytes, hint);
	return vb_fail(err, VB_E_SETUP, "bs=%" PRIu64 " with --direct: %s needs a multiple of "
		       "the %u-byte logical block size of the device under %s (e.g. bs=%s)",
		       cfg->bs_bytes, vb_os_caps()->direct_how, t->align_bytes, t->shown, hint);
}

static struct vb_open_req request(const struct vb_config *cfg, enum vb_open_kind kind,
				  bool exclusive)
{
	struct vb_open_req r = {kind, cfg->direct, vb_sync_mode(cfg->sync)->dsync_open,
				exclusive, false};
	return r;
}

/* Whether the flags of every run (direct I/O, O_DSYNC) are accepted on name. */
static enum vb_status probe_flags(struct vb_target *t, const struct vb_config *cfg,
				  const char *name, const struct vb_fileinfo *id,
				  struct vb_err *err)
{
	struct vb_open_req req = request(cfg, VB_OPEN_EXISTING, false);
	struct vb_fileinfo fi;

	if (!req.direct && !req.dsync)
		return VB_OK;
	int fd = t->ops->openat(t->ops->ctx, t->dirfd, name, &req);
	if (fd < 0)
		return vb_fail(err, VB_E_SETUP, "cannot open %s for direct or synchronous writes: "
			       "%s", t->shown, direct_hint(errno));
	int ok = t->ops->fstat(t->ops->ctx, fd, &fi) == 0 && vb_same_file(&fi, id);
	t->ops->close(t->ops->ctx, fd);
	if (!ok)
		return vb_fail(err, VB_E_SETUP, "%s changed while vbench examined it; nothing was "
			       "written", t->shown);
	return VB_OK;
}

/* Removes name from dirfd if it is still the file id describes; 0, or an errno value
 * (ESTALE: the name holds another file now, which is left alone). */
static int remove_own(struct vb_target *t, const char *name, const struct vb_fileinfo *id)
{
	struct vb_fileinfo fi;

	if (t->ops->statat(t->ops->ctx, t->dirfd, name, &fi) != 0)
		return errno ? errno : EIO;
	if (fi.type == VB_FT_MISSING)
		return ENOENT;
	if (!vb_same_file(&fi, id))
		return ESTALE;
	if (t->ops->unlinkat(t->ops->ctx, t->dirfd, name) != 0)
		return errno ? errno : EIO;
	return 0;
}

/* Creates name in dirfd (exclusively, mode 0600, no link followed) and records it as
 * vbench's own; checks the alignment and the flags on it. */
static enum vb_status create_owned(struct vb_target *t, const struct vb_config *cfg,
				   const char *name, bool *exists, struct vb_err *err)
{
	struct vb_open_req req = request(cfg, VB_OPEN_CREATE, false);
	enum vb_status st;

	req.direct = req.dsync = false;
	int fd = t->ops->openat(t->ops->ctx, t->dirfd, name, &req);
	*exists = fd < 0 && errno == EEXIST;
	if (fd < 0) {
		if (errno == EEXIST)
			return vb_fail(err, VB_E_SETUP, "%s appeared while vbench was creating it; "
				       "it is left alone", t->shown);
		return vb_fail(err, VB_E_SETUP, "cannot create %s: %s", t->shown, strerror(errno));
	}
	if (t->ops->fstat(t->ops->ctx, fd, &t->id) != 0) {
		int e = errno;
		t->ops->close(t->ops->ctx, fd);
		return vb_fail(err, VB_E_SETUP, "cannot examine %s after creating it (%s); it is "
			       "left in place", t->shown, strerror(e));
	}
	t->created = true;
	t->keep = cfg->keep;
	/* Held open for the session: vbench's lock on it lives as long as this. */
	t->held_fd = fd;
	st = check_alignment(t, cfg, fd, err);
	if (st == VB_OK)
		st = probe_flags(t, cfg, name, &t->id, err);
	/* Refused: still vbench's own, for vb_target_cleanup to remove or name. */
	if (st != VB_OK && name != t->name)
		snprintf(t->name, sizeof t->name, "%s", name);
	return st;
}

const char *vb_target_next_name(struct vb_target *t)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	uint64_t x = t->name_seed + 0x9e3779b97f4a7c15ULL * (uint64_t)++t->name_serial;
	char tag[9];

	/* splitmix64's finaliser: neighbouring serials give unrelated names. */
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	for (int i = 0; i < 8; i++, x /= 36)
		tag[i] = digits[x % 36];
	tag[8] = '\0';
	snprintf(t->run_name, sizeof t->run_name, "vbench-%s.tmp", tag);
	return t->run_name;
}

/* Whether anything is layered on the open file or disk fd; refuses it if so. */
static enum vb_status check_in_use(struct vb_target *t, int fd, const struct vb_fileinfo *fi,
				   struct vb_err *err)
{
	char holder[512];
	int rc = t->ops->in_use(t->ops->ctx, fd, fi, holder, sizeof holder);

	if (rc > 0)
		return vb_fail(err, VB_E_SETUP, "%s is in use: %s; vbench never writes to a disk "
			       "or file in use, even with --force", t->shown, holder);
	if (rc < 0)
		return vb_fail(err, VB_E_SETUP, "%s: %s; vbench does not write to what it cannot "
			       "check", t->shown, holder);
	return VB_OK;
}

static enum vb_status prepare_dir(struct vb_target *t, const struct vb_config *cfg,
				  struct vb_err *err)
{
	struct vb_open_req req = request(cfg, VB_OPEN_ANON, false);
	enum vb_status st = VB_OK;

	t->kind = VB_TGT_DIR;
	if (cfg->keep || cfg->overwrite) {
		/* One named file for every run, kept or rewritten in place. */
		bool exists = true;
		for (int tries = 0; tries < 100 && exists; tries++) {
			snprintf(t->name, sizeof t->name, "%s", vb_target_next_name(t));
			st = create_owned(t, cfg, t->name, &exists, err);
		}
		return st;
	}
	/* An anonymous file leaves nothing behind, even after kill -9. */
	struct vb_open_req plain = req;
	plain.direct = plain.dsync = false;
	int fd = t->ops->openat(t->ops->ctx, t->dirfd, "", &plain);
	if (fd >= 0) {
		st = check_alignment(t, cfg, fd, err);
		t->ops->close(t->ops->ctx, fd);
		if (st != VB_OK)
			return st;
		if (req.direct || req.dsync) {
			fd = t->ops->openat(t->ops->ctx, t->dirfd, "", &req);
			if (fd < 0)
				return vb_fail(err, VB_E_SETUP, "cannot open a file in %s for direct "
					       "or synchronous writes: %s", t->shown,
					       direct_hint(errno));
			t->ops->close(t->ops->ctx, fd);
		}
		t->anon = true;
		return VB_OK;
	}
	if (errno == EACCES || errno == EPERM || errno == EROFS || errno == ENOSPC
#if defined(EDQUOT)
	    || errno == EDQUOT
#endif
	    )
		return vb_fail(err, VB_E_SETUP, "cannot create a file in %s: %s", t->shown,
			       strerror(errno));
	/* No anonymous files: a new name per run, unlinked once open; try one here. */
	bool exists = true;
	for (int tries = 0; tries < 100 && exists; tries++)
		st = create_owned(t, cfg, vb_target_next_name(t), &exists, err);
	if (st != VB_OK)
		return st;
	int e = remove_own(t, t->run_name, &t->id);
	if (e != 0) {
		t->created = false;
		return vb_fail(err, VB_E_SETUP, "%s/%s, the file vbench made to try the "
			       "directory, could not be removed: %s; it is left behind", t->shown,
			       t->run_name, strerror(e));
	}
	t->ops->close(t->ops->ctx, t->held_fd);
	t->held_fd = -1;
	t->created = false;
	t->per_run_name = true;
	return VB_OK;
}

static enum vb_status prepare_existing(struct vb_target *t, const struct vb_config *cfg,
				       const struct vb_fileinfo *fi, struct vb_err *err)
{
	struct vb_open_req req = request(cfg, VB_OPEN_EXISTING, false);
	struct vb_fileinfo now;
	enum vb_status st;

	if (!cfg->force)
		return vb_fail(err, VB_E_SETUP, "%s exists; vbench never overwrites a file it did "
			       "not create (give a directory or a new name, or add --force)",
			       t->shown);
	if (fi->nlink > 1)
		return vb_fail(err, VB_E_SETUP, "%s has %" PRIu64 " hard links; vbench will not "
			       "truncate a file that other names share, even with --force",
			       t->shown, fi->nlink);
	t->kind = VB_TGT_EXISTING;
	/* Examined before a write open, which alone changes things (an overlay copies the
	 * file up), even for a file refused. */
	struct vb_open_req look = {VB_OPEN_EXISTING, false, false, false, true};
	int fd = t->ops->openat(t->ops->ctx, t->dirfd, t->name, &look);
	if (fd < 0)
		return vb_fail(err, VB_E_SETUP, "cannot open %s: %s", t->shown, strerror(errno));
	st = t->ops->fstat(t->ops->ctx, fd, &now) == 0 && vb_same_file(&now, fi)
	     ? check_in_use(t, fd, &now, err)
	     : vb_fail(err, VB_E_SETUP, "%s changed while vbench examined it; nothing was "
		       "written", t->shown);
	t->ops->close(t->ops->ctx, fd);
	if (st != VB_OK)
		return st;
	fd = t->ops->openat(t->ops->ctx, t->dirfd, t->name, &req);
	if (fd < 0)
		return vb_fail(err, VB_E_SETUP, "cannot open %s: %s", t->shown,
			       req.direct || req.dsync ? direct_hint(errno) : strerror(errno));
	if (t->ops->fstat(t->ops->ctx, fd, &now) != 0 || !vb_same_file(&now, fi)) {
		t->ops->close(t->ops->ctx, fd);
		return vb_fail(err, VB_E_SETUP, "%s changed while vbench examined it; nothing was "
			       "written", t->shown);
	}
	t->id = now;
	t->held_fd = fd;   /* for the session, as vbench's lock lives as long as it */
	st = check_in_use(t, fd, &now, err);
	if (st == VB_OK)
		st = check_alignment(t, cfg, fd, err);
	return st;
}

static enum vb_status prepare_disk(struct vb_target *t, const struct vb_config *cfg,
				   const struct vb_fileinfo *fi, struct vb_err *err)
{
	struct vb_open_req req = request(cfg, VB_OPEN_EXISTING, true);
	struct vb_fileinfo now;
	struct vb_disk disk;
	enum vb_status st;
	const char *kind = fi->type == VB_FT_BLK ? "block" : "character";

	if (!cfg->force)
		return vb_fail(err, VB_E_SETUP, "%s is a %s device, which may hold a disk, tape or "
			       "flash: writing destroys what is on it; add --force if that is what "
			       "you want", t->shown, kind);
	if (!cfg->direct && vb_os_caps()->disks_uncached)
		return vb_fail(err, VB_E_SETUP, "%s: the system never caches writes to a disk, so "
			       "a run without --direct would be labelled buffered and not be; add "
			       "--direct", t->shown);
	/* Checked before the write open too, which may remove what shows a disk in use
	 * (FreeBSD's g_access spoils idle devices made of it, sys/geom/geom_subr.c;
	 * docs/bsd.md). */
	if ((st = check_in_use(t, -1, fi, err)) != VB_OK)
		return st;
	int fd = t->ops->openat(t->ops->ctx, t->dirfd, t->name, &req);
	if (fd < 0 && (errno == EBUSY || errno == EPERM)) {
		/* The kernel's claim says no (some say EPERM; docs/bsd.md cites one); the
		 * platform may know what holds it. */
		int e = errno;
		char holder[512];
		if (t->ops->in_use(t->ops->ctx, -1, fi, holder, sizeof holder) > 0)
			return vb_fail(err, VB_E_SETUP, "%s is in use: %s; vbench never writes to "
				       "a disk or file in use, even with --force", t->shown, holder);
		if (e == EPERM)
			return vb_fail(err, VB_E_SETUP, "cannot open %s: %s: the disk is held "
				       "exclusively (mounted, in a mirror or pool, or opened so by "
				       "another program), or the system's security level forbids "
				       "writing to disks", t->shown, strerror(e));
		return vb_fail(err, VB_E_SETUP, "%s is in use (mounted, or held by another "
			       "program); vbench never writes to a device in use", t->shown);
	}
	if (fd < 0)
		return vb_fail(err, VB_E_SETUP, "cannot open %s: %s", t->shown,
			       req.direct || req.dsync ? direct_hint(errno) : strerror(errno));
	t->held_fd = fd;
	if (t->ops->fstat(t->ops->ctx, fd, &now) != 0 || now.type != fi->type ||
	    now.rdev != fi->rdev)
		return vb_fail(err, VB_E_SETUP, "%s changed while vbench examined it; nothing was "
			       "written", t->shown);
	t->id = now;
	if (t->ops->disk(t->ops->ctx, fd, &disk) != 0)
		return vb_fail(err, VB_E_SETUP, "%s is a %s device that is not a disk (it reports "
			       "no size); vbench writes only to disks and data sinks", t->shown,
			       kind);
	if (disk.read_only)
		return vb_fail(err, VB_E_SETUP, "%s is read-only: the system refuses writes to "
			       "it; nothing was written", t->shown);
	t->kind = VB_TGT_DISK;
	t->device_bytes = disk.size_bytes;
	t->align_bytes = disk.sector_bytes;
	if ((st = check_in_use(t, fd, &now, err)) != VB_OK ||
	    (st = check_alignment(t, cfg, fd, err)) != VB_OK)
		return st;
	char why[512];
	if (vb_space_short(cfg, t->shown, t->device_bytes, false, why, sizeof why))
		return vb_fail(err, VB_E_SETUP, "%s; nothing was written", why);
	return VB_OK;
}

/* Decided before it is opened, which already acts on some (a watchdog, a tape): a data
 * sink, or with --force a disk where disks are character devices (the BSDs). */
static enum vb_status prepare_chr(struct vb_target *t, const struct vb_config *cfg,
				  const struct vb_fileinfo *fi, struct vb_err *err)
{
	if (t->ops->is_sink(t->ops->ctx, fi)) {
		t->kind = VB_TGT_SINK;
		t->id = *fi;
		return VB_OK;
	}
	if (!vb_os_caps()->chr_disks)
		return vb_fail(err, VB_E_SETUP, "%s is a character device; vbench writes to one only "
			       "when it is a data sink (/dev/null, /dev/zero, /dev/full)", t->shown);
	return prepare_disk(t, cfg, fi, err);
}

/* Whether t's directory is /dev or on its devtmpfs (not /dev/shm): a new file there is a
 * mistyped disk name, and would measure memory. */
static bool on_device_fs(struct vb_target *t)
{
	struct vb_fileinfo here, dev, root;
	bool under = false;
	int fd = t->ops->open_dir(t->ops->ctx, "/dev", true);

	if (fd < 0)
		return false;
	if (t->ops->fstat(t->ops->ctx, fd, &dev) == 0 &&
	    t->ops->fstat(t->ops->ctx, t->dirfd, &here) == 0 && here.dev == dev.dev) {
		int rfd = t->ops->open_dir(t->ops->ctx, "/", true);
		/* /dev itself; or its filesystem, when it is one of its own */
		under = here.ino == dev.ino ||
			(rfd >= 0 && t->ops->fstat(t->ops->ctx, rfd, &root) == 0 &&
			 root.dev != dev.dev);
		if (rfd >= 0)
			t->ops->close(t->ops->ctx, rfd);
	}
	t->ops->close(t->ops->ctx, fd);
	return under;
}

/* The target is not a directory: open the one holding it and look at the name there. */
static enum vb_status prepare_name(struct vb_target *t, const struct vb_config *cfg,
				   int open_errno, struct vb_err *err)
{
	char dir[PATH_LIMIT + 8];
	struct vb_fileinfo fi;

	if (!vb_os_path_split(cfg->target_path, dir, sizeof dir, t->name, sizeof t->name)) {
		if (open_errno == ENOENT)
			return vb_fail(err, VB_E_SETUP, "directory %s does not exist", t->shown);
		return vb_fail(err, VB_E_SETUP, "cannot open %s: %s", t->shown,
			       strerror(open_errno));
	}
	t->dirfd = t->ops->open_dir(t->ops->ctx, dir, false);
	if (t->dirfd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return vb_fail(err, VB_E_SETUP, "cannot create %s: its directory does not "
				       "exist", t->shown);
		return vb_fail(err, VB_E_SETUP, "cannot open the directory of %s: %s", t->shown,
			       strerror(errno));
	}
	if (t->ops->statat(t->ops->ctx, t->dirfd, t->name, &fi) != 0)
		return vb_fail(err, VB_E_SETUP, "cannot examine %s: %s", t->shown, strerror(errno));
	switch (fi.type) {
	case VB_FT_MISSING:
		if (on_device_fs(t))
			return vb_fail(err, VB_E_SETUP, "%s does not exist: no such device (vbench "
				       "does not create files among the device nodes, where they "
				       "would live in memory); check the name of the disk", t->shown);
		t->kind = VB_TGT_NEWFILE;
		bool exists;
		return create_owned(t, cfg, t->name, &exists, err);
	case VB_FT_REG:
		return prepare_existing(t, cfg, &fi, err);
	case VB_FT_LINK:
		return vb_fail(err, VB_E_SETUP, "%s is a symbolic link; vbench does not follow links "
			       "to files or devices (give the path it points to)", t->shown);
	case VB_FT_BLK:
		return prepare_disk(t, cfg, &fi, err);
	case VB_FT_CHR:
		return prepare_chr(t, cfg, &fi, err);
	case VB_FT_FIFO:
		return vb_fail(err, VB_E_SETUP, "%s is a FIFO: it would measure its reader, not a "
			       "disk", t->shown);
	case VB_FT_DIR:
		return vb_fail(err, VB_E_SETUP, "%s changed while vbench examined it; nothing was "
			       "written", t->shown);
	default:
		return vb_fail(err, VB_E_SETUP, "%s is neither a directory, a file nor a device",
			       t->shown);
	}
}

enum vb_status vb_target_prepare(struct vb_target *t, const struct vb_config *cfg,
				 const struct vb_io_ops *ops, struct vb_err *err)
{
	enum vb_status st;

	memset(t, 0, sizeof *t);
	t->ops = ops;
	t->dirfd = -1;
	t->held_fd = -1;
	t->shown = cfg->target_path;
	/* Every name vbench makes is unpredictable. */
	if (vb_os_urandom(&t->name_seed, sizeof t->name_seed) != 0)
		t->name_seed = ops->now_ns(ops->ctx);
	if (cfg->direct && vb_os_caps()->direct_how == NULL)
		return vb_fail(err, VB_E_SETUP, "--direct: this platform has no way to bypass the "
			       "page cache");
	if (strlen(cfg->target_path) > PATH_LIMIT)
		return vb_fail(err, VB_E_SETUP, "target path is too long");
	if (cfg->qd > 1 && vb_os_caps()->qd_refused != NULL)
		return vb_fail(err, VB_E_SETUP, "--qd %" PRIu64 ": %s; use --qd 1", cfg->qd,
			       vb_os_caps()->qd_refused);
	char why[512];
	if (vb_os_target_name_check(cfg->target_path, why, sizeof why) != 0)
		return vb_fail(err, VB_E_SETUP, "%s %s", t->shown, why);
	/* A directory, or a link to one (macOS's /tmp is), is held open from here on. */
	t->dirfd = ops->open_dir(ops->ctx, cfg->target_path, false);
	if (t->dirfd >= 0)
		st = prepare_dir(t, cfg, err);
	else if (errno == ENOTDIR || errno == ENOENT)
		st = prepare_name(t, cfg, errno, err);
	else
		st = vb_fail(err, VB_E_SETUP, "cannot open %s: %s", t->shown, strerror(errno));
	if (st != VB_OK) {
		t->keep = false;   /* nothing was written: what vbench created goes, even kept */
		vb_target_cleanup(t);
	}
	return st;
}

void vb_target_cleanup(struct vb_target *t)
{
	if (t->ops == NULL)
		return;
	if (t->created && !t->keep && t->dirfd >= 0)
		t->cleanup_errno = remove_own(t, t->name, &t->id);
	t->created = false;
	if (t->held_fd >= 0)
		t->ops->close(t->ops->ctx, t->held_fd);
	if (t->dirfd >= 0)
		t->ops->close(t->ops->ctx, t->dirfd);
	t->held_fd = t->dirfd = -1;
}

const char *vb_target_cleanup_problem(const struct vb_target *t, char *buf, size_t n)
{
	const char *sep = t->kind == VB_TGT_NEWFILE ? "" : "/";
	const char *name = t->kind == VB_TGT_NEWFILE ? "" : t->name;

	switch (t->cleanup_errno) {
	case 0:
		return NULL;
	case ENOENT:
		snprintf(buf, n, "%s%s%s, the file vbench created, was removed or renamed by "
			 "someone else before the end; wherever it is now, it was left alone",
			 t->shown, sep, name);
		break;
	case ESTALE:
		snprintf(buf, n, "%s%s%s no longer names the file vbench created (another file "
			 "took its name); both were left alone", t->shown, sep, name);
		break;
	default:
		snprintf(buf, n, "%s%s%s, the file vbench created, could not be removed: %s; it "
			 "is left behind", t->shown, sep, name, strerror(t->cleanup_errno));
		break;
	}
	return buf;
}

const char *vb_target_probe_leftover(const struct vb_target *t, const char *name, int err,
				     char *buf, size_t n)
{
	/* A directory holds it; a file target has it beside itself, in its directory. */
	const char *slash = strrchr(t->shown, '/');
	int dir_len = t->kind == VB_TGT_DIR ? (int)strlen(t->shown)
		      : slash != NULL ? (int)(slash - t->shown) : 0;

	if (err == 0)
		snprintf(buf, n, "%.*s%s%s, the flush probe's file, may be left behind; remove it "
			 "once the filesystem responds", dir_len, t->shown,
			 dir_len > 0 || slash != NULL ? "/" : "", name);
	else
		snprintf(buf, n, "%.*s%s%s, the flush probe's file, could not be removed: %s; it "
			 "is left behind", dir_len, t->shown, dir_len > 0 || slash != NULL ? "/" : "",
			 name, strerror(err));
	return buf;
}

const char *vb_target_leftover(const struct vb_target *t, const char *name, char *buf,
			       size_t n)
{
	/* For a stuck call and a killed session alike. */
	if (t->created && !t->keep && t->kind == VB_TGT_NEWFILE)
		snprintf(buf, n, "%s, the file vbench created, is left behind", t->shown);
	else if (t->created && !t->keep)
		snprintf(buf, n, "%s/%s, the file vbench created, is left behind", t->shown,
			 t->name);
	else if (t->per_run_name && name != NULL)
		snprintf(buf, n, "%s/%s, the file of the stuck run, may be left behind; remove it "
			 "once the filesystem responds", t->shown, name);
	else if (t->created && t->kind == VB_TGT_NEWFILE)
		snprintf(buf, n, "%s is kept, as asked, but its last run did not finish", t->shown);
	else if (t->created)
		snprintf(buf, n, "%s/%s is kept, as asked, but its last run did not finish",
			 t->shown, t->name);
	else if (t->kind == VB_TGT_EXISTING || t->kind == VB_TGT_DISK)
		snprintf(buf, n, "%s holds what the unfinished run wrote", t->shown);
	else if (t->kind == VB_TGT_SINK)
		snprintf(buf, n, "nothing is left behind");
	else
		snprintf(buf, n, "nothing is left behind: a run's file has no name, and is freed "
			 "when its last call returns");
	return buf;
}

const char *vb_target_written(const struct vb_target *t, char *buf, size_t n)
{
	size_t len = strlen(t->shown);

	if (t->kind != VB_TGT_DIR || !t->created)
		return NULL;
	snprintf(buf, n, "%s%s%s", t->shown, len > 0 && t->shown[len - 1] == '/' ? "" : "/",
		 t->name);
	return buf;
}

const char *vb_target_note(const struct vb_target *t, char *buf, size_t n)
{
	switch (t->kind) {
	case VB_TGT_DIR:
		if (t->created && t->keep) {
			char kept[VB_PATH_MSG_MAX];
			snprintf(buf, n, "a new file in this directory, kept as %s",
				 vb_target_written(t, kept, sizeof kept));
		}
		else if (t->created)
			snprintf(buf, n, "one new file in this directory (%s) for all runs, removed "
				 "at the end", t->name);
		else if (t->fill_first)
			return "one new file in this directory for all runs, removed at the end";
		else
			return "a new file in this directory for each run, removed at the end";
		return buf;
	case VB_TGT_NEWFILE:
		return t->keep ? "created, kept at the end" : "created, removed at the end";
	case VB_TGT_EXISTING:
		return "an existing file, overwritten (--force), not removed";
	case VB_TGT_DISK:
		return "a disk, overwritten (--force)";
	case VB_TGT_SINK:
		return "a data sink";
	}
	return NULL;
}
