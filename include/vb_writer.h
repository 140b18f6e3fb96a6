#ifndef VB_WRITER_H
#define VB_WRITER_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "vb_config.h"
#include "vb_result.h"
#include "vb_source.h"

/* Every system call the writer makes, so tests can hand it fakes that fail on cue. */
struct vb_io_ops {
	int (*open)(void *ctx, const char *path, int flags, mode_t mode);
	ssize_t (*write)(void *ctx, int fd, const void *buf, size_t n);
	int (*fsync)(void *ctx, int fd);
	int (*fdatasync)(void *ctx, int fd);
	int (*close)(void *ctx, int fd);
	int (*unlink)(void *ctx, const char *path);
	int (*fstat)(void *ctx, int fd, struct stat *st);
	int (*dup)(void *ctx, int fd);
	int (*ftruncate)(void *ctx, int fd, off_t len);
	void *ctx;
};

/* The real system calls. */
extern const struct vb_io_ops vb_posix_ops;

/* The call in progress, published for the stall watchdog (all fields atomic). */
struct vb_watch {
	atomic_ullong call_start_ns;  /* 0 when no call is in progress */
	atomic_ullong offset_bytes;   /* file offset of the call */
	atomic_int stage;             /* enum vb_stage of the call */
	atomic_ullong run;
};

/* Called between writes with the run so far; may read it, must not change it. */
typedef void (*vb_tick_fn)(void *arg, const struct vb_run *sofar, uint64_t now_ns,
			   uint64_t run_start_ns);

/* Values the stop flag takes: a signal number, or this for --timeout. */
#define VB_STOPFLAG_TIMEOUT (-1)

/* One run: how to open the target, what to write, and how to stop. */
struct vb_write_plan {
	const char *open_path;
	int open_flags;
	mode_t open_mode;
	bool unlink_after_open;       /* the name was created for this run only */
	bool defer_release;           /* the file has no name: free it after the clock stops */
	bool nocache_fcntl;           /* F_NOCACHE after open (macOS way of O_DIRECT) */
	bool check_identity;          /* the opened file must be dev/ino below */
	bool truncate;                /* empty it after the identity check (never O_TRUNC) */
	dev_t dev;
	ino_t ino;
	uint64_t bs_bytes;
	uint64_t count_blocks;
	enum vb_sync sync;
	bool sync_may_fail;           /* EINVAL from the sync means "nothing to sync" (/dev/null) */
	uint64_t run;                 /* 1-based number stamped into data */
	struct vb_source_buf *source;
	double interval_secs;         /* 0: no interval samples */
	volatile sig_atomic_t *stop;  /* non-zero: stop between writes (signal or timeout) */
	struct vb_watch *watch;       /* NULL: nothing published */
	struct vb_hist *latency;      /* NULL, or where the run's full histogram is kept */
	vb_tick_fn tick;              /* NULL: no callback */
	void *tick_arg;
};

/* Performs one run through ops and fills out; returns 0 when every byte was written and
 * synced, else -1 with out->stop, stage, err and offset saying what happened. */
int vb_write_run(const struct vb_io_ops *ops, const struct vb_write_plan *plan,
		 struct vb_run *out);

#endif
