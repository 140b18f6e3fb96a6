#ifndef VB_GUARD_H
#define VB_GUARD_H

/* The guard: the process the user started. Where there are processes, the whole session
 * (setup, the supervised runs, the output files, the cleanup) happens in a child, and
 * this process only copies the child's standard output and error to its own, passes
 * signals on, and watches the calls the session makes itself on the target's
 * filesystem and on the output files. A call stuck there (a hung NFS or FUSE mount, a
 * frozen filesystem) is reported after --stall-timeout, and given up on after --timeout,
 * or after a stop signal: the guard then exits and says what may be left behind, and
 * no descriptor of the user's (a pipe to `$(...)` or `| tee`) stays with the stuck
 * process. The runs themselves are watched by the supervisor (vb_supervise.h). */

#include <stdatomic.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_status.h"

/* What the session is doing when a call of its own is in progress. */
enum vb_guard_phase {
	VB_PHASE_NONE,
	VB_PHASE_SETUP,      /* examining, creating or locking the target */
	VB_PHASE_OUTPUT,     /* the --csv-append file */
	VB_PHASE_CLEANUP,    /* removing what vbench created */
	VB_PHASE_SETUP_OUTPUT   /* opening the output files, during setup */
};

/* What the session shares with its guard (in vb_shared). */
struct vb_guard_watch {
	atomic_ullong call_start_ns;   /* when the call in progress began; 0: none */
	atomic_int phase;              /* its enum vb_guard_phase */
	char leftover[1024];           /* what is left behind if the session is given up */
};

/* In the session: a call of phase p begins now (a phase begun before is replaced). */
void vb_guard_enter(struct vb_guard_watch *g, enum vb_guard_phase p);

/* In the session: no call of its own is in progress. */
void vb_guard_leave(struct vb_guard_watch *g);

struct vb_shared;

/* Runs session(arg) under the guard as above. Returns VB_OK with what session returned
 * in *exit_status, or dies of the stop signal the session passed on by dying of it;
 * VB_E_SETUP or VB_E_IO when the session was given up on, stuck in setup or later;
 * VB_E_IO when it died of another signal (killed from outside, or a crash: the message
 * names what it leaves behind), or returned 0 but what it printed could not all be
 * written to standard output or error (after saying so where it can). target is the
 * path as given, for messages, which go to say (main.c: vb_out_error on stderr). Where
 * no child process can be made (Windows, whose worker is a thread), runs session(arg)
 * here. */
enum vb_status vb_guard_run(const struct vb_config *cfg, struct vb_shared *sh,
			    const char *target, int (*session)(void *arg), void *arg,
			    void (*say)(const char *msg), int *exit_status);

#endif
