#ifndef VB_WRITER_H
#define VB_WRITER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_hist.h"
#include "common/vb_io.h"
#include "os/vb_os.h"
#include "common/vb_result.h"
#include "bench/vb_source.h"

/* One call in progress, for the watchdog (atomic: it may be shared with the guard). */
struct vb_watch_slot {
	atomic_ullong call_start_ns;  /* 0 when no call is in progress */
	atomic_ullong offset_bytes;   /* file offset of the call */
	atomic_int stage;             /* enum vb_stage of the call */
};

/* What the watchdog and the abort path may read of a running session. */
struct vb_watch {
	struct vb_watch_slot slot[VB_QD_MAX];   /* one per write in flight */
	atomic_ullong run;                      /* number of the run in progress */
	atomic_int warmup;                      /* it is a warm-up run */
	atomic_int probing;                     /* the flush check, after the runs */
	atomic_int progress_drawn;              /* a progress line is on the terminal */
	atomic_int name_live;                   /* name below exists in the target directory */
	char name[64];                          /* the per-run file being created */
};

/* Publishes the call about to start in w (may be NULL), the start time last, with
 * release order: a watchdog that sees it sees the rest. */
static inline void vb_watch_publish(struct vb_watch_slot *w, enum vb_stage stage,
				    uint64_t offset, uint64_t start)
{
	if (w == NULL)
		return;
	atomic_store_explicit(&w->offset_bytes, offset, memory_order_relaxed);
	atomic_store_explicit(&w->stage, (int)stage, memory_order_relaxed);
	atomic_store_explicit(&w->call_start_ns, start, memory_order_release);
}

/* No call in progress in w (may be NULL). */
static inline void vb_watch_unpublish(struct vb_watch_slot *w)
{
	if (w != NULL)
		atomic_store_explicit(&w->call_start_ns, 0, memory_order_release);
}

/* How a run gets its descriptor. */
enum vb_acquire {
	VB_ACQ_ANON,      /* a file with no name in dirfd */
	VB_ACQ_NEWNAME,   /* a new name in dirfd, unlinked as soon as it is open */
	VB_ACQ_NAMED,     /* name in dirfd, which must still be the file id describes */
	VB_ACQ_DISK,      /* a duplicate of held_fd: the session's disk, or the filled file */
	VB_ACQ_SINK,      /* name in dirfd, which must still be the sink id describes */
	VB_ACQ_DEVICE     /* name opened again (flags of its own), still the device id says */
};

/* Called between writes when due; returns the time of the next call. */
typedef uint64_t (*vb_tick_fn)(void *arg, const struct vb_run *sofar, uint64_t now_ns,
			       uint64_t run_start_ns);

/* One run: how to open the target, what to write, how to stop (vb_plan_build). */
struct vb_write_plan {
	enum vb_acquire acquire;
	int dirfd;
	const char *name;             /* VB_ACQ_NEWNAME, _NAMED, _SINK, _DEVICE */
	int held_fd;                  /* VB_ACQ_DISK */
	struct vb_open_req req;
	struct vb_fileinfo id;        /* the identity to check (NAMED: dev/ino; else rdev) */
	bool check_in_use;            /* ask the platform whether anything is layered on it */
	bool truncate;                /* empty it after the identity check (never O_TRUNC) */
	bool defer_release;           /* the file has no name: free it after the clock stops */
	bool sync_may_fail;           /* EINVAL from the sync means "nothing to sync" (sinks) */
	int *hold;                    /* non-NULL: a completed run leaves its descriptor here */
	uint64_t bs_bytes;
	uint64_t count_blocks;
	uint64_t qd;                  /* writes in flight */
	enum vb_sync_call end_call;
	uint64_t run;                 /* 1-based number stamped into the data */
	struct vb_source_buf *source;
	double interval_secs;         /* 0: no interval samples */
	atomic_int *stop;             /* non-zero: stop (a signal number or VB_STOPFLAG_TIMEOUT) */
	atomic_int *resumed;          /* set when the process was continued: the run paused */
	struct vb_watch *watch;       /* NULL: nothing published */
	struct vb_hist *latency;      /* where the run's histogram goes (NULL: a local one) */
	vb_tick_fn tick;              /* NULL: no callback */
	void *tick_arg;
};

/* Performs one run; 0 when every byte was written and synced, else -1 with out's stop,
 * stage, err, offset (and detail) filled in; no memory for a result fails it (ENOMEM).
 * The clock runs from the first write to after the sync and the close. */
int vb_write_run(const struct vb_io_ops *ops, const struct vb_write_plan *plan,
		 struct vb_run *out);

/* Closes fd, a nameless file's last descriptor, watched: freeing it can hang. */
void vb_write_release(const struct vb_io_ops *ops, struct vb_watch *watch, int fd,
		      uint64_t offset);

/* Opens and checks the target as a run would; the descriptor, or -1 with out filled in. */
int vb_write_open(const struct vb_io_ops *ops, const struct vb_write_plan *plan,
		  struct vb_run *out);

#endif
