#ifndef FAKE_IO_H
#define FAKE_IO_H

/* A fake of the ops table (vb_io.h) for the writer, target, engine and supervisor tests:
 * a clock that only moves when a call says it took time, scripted answers to writes,
 * and a count of every call. Include after vb_test.h. */

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "common/vb_io.h"
#include "os/vb_os.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"
#include "common/vb_config.h"

/* The descriptors the fake hands out. */
#define FAKE_DIRFD 30
#define FAKE_HELD 40
#define FAKE_FD 42

/* One scripted answer to pwrite(): a byte limit (0 = all asked), an errno, or 0. */
struct step {
	size_t max_bytes;
	int err;
	int zero;
};

struct fake {
	/* the clock, in ns, and what each call costs on it */
	uint64_t now;
	uint64_t open_ns, truncate_ns, write_ns, write_step_ns, sync_ns, close_ns, release_ns;
	/* scripted writes */
	const struct step *script;
	size_t n_script, next;
	/* counters and what was seen */
	int opens, writes, fsyncs, fdatasyncs, closes, unlinks, dups, truncates, statats;
	int in_use_calls;
	bool write_open_before_check;    /* a write open came before the first in-use check */
	struct vb_open_req req;          /* of the last open */
	const char *opened_name;
	uint64_t written;                /* bytes accepted */
	uint64_t run_base;               /* written when the latest run began */
	bool out_of_order;               /* a write not at the end of what was written */
	uint64_t size;                   /* the file's size: emptied by truncate or a new file */
	int extends, last_extend;        /* writes that made it longer; the latest's number */
	int truncated_at;                /* the number of writes before the latest truncate */
	int writes_at_first_sync;        /* and before the first sync */
	uint64_t first_write_at, last_write_end, sync_at, close_at;
	int last_closed;
	unsigned char first_bytes[16];
	/* what the calls answer */
	int open_err, sync_err, close_err, unlink_err;
	int in_use;                      /* 1, 0 or -1 */
	const char *in_use_text;
	struct vb_fileinfo file;         /* fstat of an open descriptor */
	struct vb_fileinfo named;        /* statat of any name */
	bool sink;
	struct vb_disk disk;
	bool not_a_disk;
	uint32_t logical;
	atomic_int *raise_stop_on_eintr; /* set to SIGINT when a scripted EINTR comes */
	int block_at;                    /* the write number that blocks (supervisor tests) */
	bool block_ignores_signals;
	atomic_int *unblock;             /* once set, the blocked write fails with EIO */
	bool real_clock;                 /* now_ns is the real clock (a watchdog reads it) */
	const char *not_dir;             /* open_dir of this path fails with ENOTDIR */
	atomic_int *poke;                /* set to poke_value during write number poke_at */
	int poke_at, poke_value;
	int crash_at;                    /* the write number that kills its own process */
	struct vb_watch *watch;          /* what the watchdog would see, read during calls */
	int release_stage;               /* the watched stage while the last close ran */
	bool release_watched;            /* and whether a call was published then */
};

static struct fake *fake_of(void *ctx)
{
	return ctx;
}

static inline int fk_open_dir(void *ctx, const char *path, bool nofollow)
{
	struct fake *f = fake_of(ctx);
	(void)nofollow;
	if (f->not_dir != NULL && strcmp(path, f->not_dir) == 0) {
		errno = ENOTDIR;
		return -1;
	}
	return FAKE_DIRFD;
}

static inline int fk_openat(void *ctx, int dirfd, const char *name, const struct vb_open_req *req)
{
	struct fake *f = fake_of(ctx);
	(void)dirfd;
	f->opens++;
	f->req = *req;
	if (!req->read_only && f->in_use_calls == 0)
		f->write_open_before_check = true;
	f->opened_name = name;
	f->now += f->open_ns;
	if (f->open_err) {
		errno = f->open_err;
		return -1;
	}
	if (req->kind == VB_OPEN_CREATE || req->kind == VB_OPEN_ANON)
		f->size = 0;
	return FAKE_FD;
}

static inline int fk_statat(void *ctx, int dirfd, const char *name, struct vb_fileinfo *fi)
{
	struct fake *f = fake_of(ctx);
	(void)dirfd; (void)name;
	f->statats++;
	*fi = f->named;
	return 0;
}

static inline int fk_fstat(void *ctx, int fd, struct vb_fileinfo *fi)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	*fi = f->file;
	return 0;
}

static inline int fk_unlinkat(void *ctx, int dirfd, const char *name)
{
	struct fake *f = fake_of(ctx);
	(void)dirfd; (void)name;
	f->unlinks++;
	if (f->unlink_err) {
		errno = f->unlink_err;
		return -1;
	}
	return 0;
}

/* Blocks like a stuck disk: until a signal interrupts it, until unblock is set, or for
 * good. */
static inline ssize_t fk_block(struct fake *f)
{
	for (;;) {
		struct timespec ts = {0, 10000000};
		if (nanosleep(&ts, NULL) != 0 && errno == EINTR && !f->block_ignores_signals)
			return -1;
		if (f->unblock != NULL && atomic_load(f->unblock)) {
			errno = EIO;
			return -1;
		}
	}
}

static inline ssize_t fk_pwrite(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	if (f->writes == 0)
		f->first_write_at = f->now;
	f->writes++;
	if (f->poke != NULL && f->writes == f->poke_at)
		atomic_store(f->poke, f->poke_value);
	if (f->crash_at && f->writes == f->crash_at)
		raise(SIGKILL);
	if (f->block_at && f->writes == f->block_at)
		return fk_block(f);
	f->now += f->write_ns + f->write_step_ns * (uint64_t)(f->writes - 1);
	if (offset != f->written - f->run_base) {
		if (offset == 0)
			f->run_base = f->written;   /* a new run starts at the front */
		else
			f->out_of_order = true;
	}
	if (offset == 0 && n >= 16)
		memcpy(f->first_bytes, buf, 16);   /* of the latest run */
	if (f->next < f->n_script) {
		const struct step *s = &f->script[f->next++];
		if (s->err) {
			if (s->err == EINTR && f->raise_stop_on_eintr)
				atomic_store(f->raise_stop_on_eintr, SIGINT);
			errno = s->err;
			return -1;
		}
		if (s->zero)
			return 0;
		if (s->max_bytes && s->max_bytes < n)
			n = s->max_bytes;
	}
	f->written += n;
	f->last_write_end = f->now;
	if (offset + n > f->size) {
		f->size = offset + n;
		f->extends++;
		f->last_extend = f->writes;
	}
	return (ssize_t)n;
}

static inline int fk_sync(void *ctx, int fd, enum vb_sync_call call)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	if (call == VB_CALL_NONE)
		return 0;
	if (f->fsyncs + f->fdatasyncs == 0)
		f->writes_at_first_sync = f->writes;
	f->sync_at = f->now;
	f->now += f->sync_ns;
	if (call == VB_CALL_FSYNC)
		f->fsyncs++;
	else
		f->fdatasyncs++;
	if (f->sync_err) {
		errno = f->sync_err;
		return -1;
	}
	return 0;
}

static inline int fk_truncate(void *ctx, int fd)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	f->truncates++;
	f->truncated_at = f->writes;
	f->size = 0;
	f->now += f->truncate_ns;
	return 0;
}

static inline int fk_dup(void *ctx, int fd)
{
	struct fake *f = fake_of(ctx);
	f->dups++;
	return fd + 1;
}

static inline int fk_close(void *ctx, int fd)
{
	struct fake *f = fake_of(ctx);
	f->closes++;
	f->last_closed = fd;
	if (fd == FAKE_FD + 1) {
		f->now += f->release_ns;   /* the extra descriptor of an anonymous file */
		if (f->watch != NULL) {
			f->release_stage = atomic_load(&f->watch->slot[0].stage);
			f->release_watched = atomic_load(&f->watch->slot[0].call_start_ns) != 0;
		}
		return 0;
	}
	f->close_at = f->now;
	f->now += f->close_ns;
	if (f->close_err) {
		errno = f->close_err;
		return -1;
	}
	return 0;
}

static inline int fk_disk(void *ctx, int fd, struct vb_disk *d)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	if (f->not_a_disk)
		return -1;
	*d = f->disk;
	return 0;
}

static inline uint32_t fk_logical_block(void *ctx, int fd)
{
	struct fake *f = fake_of(ctx);
	(void)fd;
	return f->logical ? f->logical : 512;
}

static inline int fk_in_use(void *ctx, int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	struct fake *f = fake_of(ctx);
	(void)fd; (void)fi;
	f->in_use_calls++;
	snprintf(holder, n, "%s", f->in_use_text ? f->in_use_text : "");
	return f->in_use;
}

static inline bool fk_is_sink(void *ctx, const struct vb_fileinfo *fi)
{
	struct fake *f = fake_of(ctx);
	(void)fi;
	return f->sink;
}

static inline uint64_t fk_now(void *ctx)
{
	return fake_of(ctx)->real_clock ? vb_os_now_ns() : fake_of(ctx)->now;
}

/* The ops table over f. */
static inline struct vb_io_ops fake_ops(struct fake *f)
{
	struct vb_io_ops o = {fk_open_dir, fk_openat, fk_statat, fk_fstat, fk_unlinkat,
			      fk_pwrite, fk_sync, fk_truncate, fk_dup, fk_close, fk_disk,
			      fk_logical_block, fk_in_use, fk_is_sink, fk_now, NULL, f};
	return o;
}

/* A regular file's identity, for f->file and f->named. */
static inline struct vb_fileinfo fake_reg(uint64_t dev, uint64_t ino)
{
	struct vb_fileinfo fi = {VB_FT_REG, dev, ino, 0, 1, 0, 0};
	return fi;
}

/* A session of three runs of ten 4 KiB writes each into anonymous files of the fake's
 * directory, the engine and guard tests' usual one. */
static inline void fake_session(struct vb_config *cfg, struct vb_target *t)
{
	vb_config_defaults(cfg);
	cfg->target_path = "/fake";
	cfg->bs_bytes = 4096;
	cfg->count_blocks = 10;
	cfg->runs = 3;
	memset(t, 0, sizeof *t);
	t->kind = VB_TGT_DIR;
	t->anon = true;
	t->dirfd = FAKE_DIRFD;
	t->held_fd = -1;
}

#endif
