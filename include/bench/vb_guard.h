#ifndef VB_GUARD_H
#define VB_GUARD_H

/* The guard, the one watcher: the session (setup, runs, output files, cleanup) runs in
 * one child (a thread on Windows), and the process the user started relays its output
 * and signals, keeps a copy of each run it sends, and watches the call it is in through
 * shared memory. A stuck call (hung NFS or FUSE, a frozen filesystem, a hung disk) is
 * reported at --stall-timeout, interrupted at --timeout, and given up on 2 s later or
 * 10 s after a stop signal: the guard then reports from what it received, and no
 * descriptor of the user's stays with the stuck child. */

#include <stdatomic.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_live.h"
#include "common/vb_status.h"
#include "os/vb_os.h"
#include "bench/vb_engine.h"
#include "bench/vb_session.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"

/* What the session is doing when a call of its own is in progress. */
enum vb_guard_phase {
	VB_PHASE_NONE,
	VB_PHASE_SETUP,      /* examining, creating or locking the target */
	VB_PHASE_OUTPUT,     /* the --csv-append file */
	VB_PHASE_CLEANUP,    /* removing what vbench created */
	VB_PHASE_SETUP_OUTPUT   /* opening the output files, during setup */
};

/* The session's own calls (the runs' are in vb_watch). */
struct vb_guard_watch {
	atomic_ullong call_start_ns;   /* when the call in progress began; 0: none */
	atomic_int phase;              /* its enum vb_guard_phase */
	atomic_int given_up;           /* the guard left the session behind: where that is a
					* thread that may still come back, it must touch
					* nothing more */
	atomic_int summed_up;          /* the session began to print its summary */
	char leftover[1024];           /* what is left behind if the session is given up */
};

/* What the guard and the session's child share: the signal flags, the calls in
 * progress, and what the guard reports from when it gives the child up during the runs
 * (the target as set up, and what it is called). */
struct vb_shared {
	struct vb_sigflags flags;
	struct vb_watch watch;
	struct vb_guard_watch guard;
	struct vb_target target;
	struct vb_session_desc desc;
};

/* Allocates the shared block; it must exist before the signal handlers are installed,
 * since they write into it. NULL with errno. */
struct vb_shared *vb_shared_new(void);

/* In the session: a call of phase p begins now (a phase begun before is replaced). */
void vb_guard_enter(struct vb_guard_watch *g, enum vb_guard_phase p);

/* In the session: no call of its own is in progress. A session given up on never
 * returns from here. */
void vb_guard_leave(struct vb_guard_watch *g);

/* How the session's runs reach the user. */
struct vb_runs_io {
	const struct vb_io_ops *ops;                       /* the calls (fakes in tests;
							    * NULL: vb_os_io) */
	struct vb_live live;                               /* progress and status lines
							    * (main.c: vb_out_live) */
	bool progress;                                     /* draw the progress line */
	void (*on_run)(void *arg, const struct vb_run *r); /* shows a run as it ends */
	void *arg;
};

/* In the session's child: runs cfg's session against the prepared target here,
 * recording each run into s, showing it through io and sending it to the guard over
 * channel (ignored when below 0). VB_OK when every run completed, else VB_E_IO with res
 * saying why (an out-of-memory record sets res->failed). */
enum vb_status vb_guard_runs(const struct vb_config *cfg, struct vb_target *t,
			     struct vb_shared *sh, const struct vb_runs_io *io, int channel,
			     struct vb_runlog *s, struct vb_engine_result *res);

#ifdef VB_TEST_SEAMS
/* Test builds only: what the child keeps its runs with, as realloc(3) (NULL: realloc). */
void vb_guard_set_grow(void *(*fn)(void *p, size_t n));
#endif

/* How the guard's watch ended. */
struct vb_guard_end {
	int exit_status;          /* what the session returned, when it ended */
	bool runs_left;           /* given up on, or dead, once runs had come and before
				   * their summary: reported by the caller from the log */
	bool said;                /* the guard said why, and what is left behind */
	bool probing;             /* given up on in the flush check: the runs completed */
	bool timed_out;           /* given up on at --timeout, not after a stop signal */
	int stop_signal;          /* the stop signal then pending, or 0 */
	bool name_live;           /* the stuck call may have left leftover_name */
	char leftover_name[64];
};

/* Runs session(arg, channel) in the child and watches it as above, keeping the runs it
 * sends in log; messages go to say, the runs' stall lines to live, and target is the
 * path as given. Returns VB_OK with the session's status in end->exit_status (or dies
 * of a stop signal the session died of); VB_E_SETUP when no child could start or it was
 * given up on in setup; else VB_E_IO: given up on later, dead of another signal, or its
 * output not all written. Each is said, except a give-up during the runs. With
 * end->runs_left (runs came, their summary was not printed) the caller reports the runs
 * from log, and says why when end->said is false. */
enum vb_status vb_guard_run(const struct vb_config *cfg, struct vb_shared *sh,
			    const char *target, int (*session)(void *arg, int channel),
			    void *arg, void (*say)(const char *msg), struct vb_live live,
			    struct vb_runlog *log, struct vb_guard_end *end);

#endif
