#ifndef VB_RUNNER_H
#define VB_RUNNER_H

#include <stdio.h>
#include "vb_config.h"
#include "vb_result.h"
#include "vb_target.h"
#include "vb_writer.h"

/* Everything measured by one invocation, in the order it happened. */
struct vb_session {
	struct vb_run *runs;      /* warm-up runs first (flagged), then measured ones */
	uint64_t n_runs;
	uint64_t cap_runs;        /* allocated entries of runs */
	struct vb_hist latency;   /* writes of the completed measured runs */
	int out_of_memory;        /* a run could not be recorded */
	int stop_signal;          /* SIGINT/SIGTERM/SIGHUP that ended the session, or 0 */
	int failed;               /* the last run ended in an I/O error or timeout */
};

/* Called after each run, to print it as soon as it is known. */
typedef void (*vb_run_fn)(void *arg, const struct vb_run *run);

/* How the runner talks to the user while it works. */
struct vb_runner_io {
	const struct vb_io_ops *ops;  /* system calls (fakes in tests) */
	FILE *status;                 /* progress, stall warnings, status lines: stderr */
	int progress;                 /* draw the live progress line */
	vb_run_fn on_run;             /* NULL: nothing */
	void *arg;
	void (*on_abort)(void *arg);  /* --timeout while a call never returns: print, exit;
				       * called with the session locked, so it may read it */
};

/* Installs the flag handlers: SIGINT, SIGTERM, SIGHUP and SIGPIPE stop, SIGUSR1 (and
 * SIGINFO) ask for a status line, SIGALRM is the watchdog's timeout. A signal that was
 * ignored when vbench started (nohup, a background job) stays ignored. */
void vb_runner_install_signals(void);

/* Runs the warm-up and measured runs of cfg against the prepared target; returns 0
 * when every run completed, -1 otherwise (see s->failed and s->stop_signal), or -2
 * with errno when the data pool could not be made. */
int vb_runner_run(const struct vb_config *cfg, struct vb_target *t,
		  const struct vb_runner_io *io, struct vb_session *s);

/* Frees the session's runs. */
void vb_session_free(struct vb_session *s);

/* The stop flag the signal handlers and watchdog set (a signal number, or
 * VB_STOPFLAG_TIMEOUT); exposed for tests. */
extern volatile sig_atomic_t vb_stop_flag;

#endif
