#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/vb_guard.h"
#include "os/vb_os.h"
#include "bench/vb_supervise.h"

/* A call still stuck this long after --timeout is given up on, as a run's is. */
#define ABORT_GRACE_NS 2000000000ULL
/* After a stop signal the supervisor leaves its worker behind within 10 s; the session
 * itself is left behind when a call of its own has been stuck this long past it. */
#define STOP_GRACE_NS 10000000000ULL
/* A wake-up sent just before the call began is lost; it is sent again this often. */
#define REWAKE_NS 200000000ULL
/* Output the user's reader has not taken this long after a stop signal is dropped, so
 * that a full pipe (`vbench | sleep 40`) never holds the stop back. */
#define DROP_GRACE_NS 500000000ULL

void vb_guard_enter(struct vb_guard_watch *g, enum vb_guard_phase p)
{
	atomic_store(&g->phase, (int)p);
	atomic_store_explicit(&g->call_start_ns, vb_os_now_ns(), memory_order_release);
}

void vb_guard_leave(struct vb_guard_watch *g)
{
	atomic_store_explicit(&g->call_start_ns, 0, memory_order_release);
	atomic_store(&g->phase, (int)VB_PHASE_NONE);
}

static const char *phase_text(int p)
{
	switch (p) {
	case VB_PHASE_SETUP: return "while examining";
	case VB_PHASE_OUTPUT: return "while writing an output file (--csv-append, --trace) for";
	case VB_PHASE_CLEANUP: return "while cleaning up";
	case VB_PHASE_SETUP_OUTPUT:
		return "while opening an output file (--csv-append, --trace) for";
	}
	return "while working on";
}

struct guard {
	const struct vb_config *cfg;
	struct vb_shared *sh;
	const char *target;
	void (*say)(const char *msg);
	struct vb_worker *w;
	uint64_t stop_seen, woken, warned_start, next_warn;
	int forwarded;
};

/* Whether output not yet taken by the user's reader is now dropped: a stop signal came
 * DROP_GRACE_NS ago or more. */
static bool dropping(struct guard *g)
{
	uint64_t now = vb_os_now_ns();

	if (atomic_load(&g->sh->flags.stop) <= 0)
		return false;
	if (g->stop_seen == 0)
		g->stop_seen = now;
	return now - g->stop_seen >= DROP_GRACE_NS;
}

/* Moves on what the session left in its pipes, never waiting for their end (a worker
 * left behind may hold them), and waits for the user's reader to take it unless a stop
 * makes it dropped. */
static void drain(struct guard *g)
{
	while (vb_os_guard_pump(g->w, vb_os_guard_pending(g->w) ? VB_WATCH_POLL_MS : 0,
				dropping(g)) ||
	       vb_os_guard_pending(g->w))
		;
}

/* Looks at the stop flag and the session's own call; true when it must be given up. */
static bool watch(struct guard *g, uint64_t now, uint64_t *held_out)
{
	struct vb_guard_watch *gw = &g->sh->guard;
	uint64_t stall = (uint64_t)(g->cfg->stall_secs * 1e9);
	uint64_t timeout = (uint64_t)(g->cfg->timeout_secs * 1e9);
	uint64_t start = atomic_load_explicit(&gw->call_start_ns, memory_order_acquire);
	uint64_t held = start != 0 && now > start ? now - start : 0;
	int stop = atomic_load(&g->sh->flags.stop);
	char msg[1400];

	*held_out = held;
	if (stop > 0 && stop != g->forwarded) {
		/* The flag is shared, but only a signal interrupts the session's call. */
		vb_os_worker_signal(g->w, stop);
		g->forwarded = stop;
		if (g->stop_seen == 0)
			g->stop_seen = now;
	}
	if (held == 0)
		return false;
	if (stall > 0 && held >= stall) {
		if (g->warned_start != start) {
			g->warned_start = start;
			g->next_warn = start + stall;
		}
		if (now >= g->next_warn) {
			snprintf(msg, sizeof msg, "stall: %s %s: a call has not returned for %.1f s",
				 phase_text(atomic_load(&gw->phase)), g->target, (double)held / 1e9);
			g->say(msg);
			g->next_warn += stall;
		}
	}
	if ((timeout > 0 && held >= timeout) || g->stop_seen != 0) {
		if (g->woken == 0 || now - g->woken >= REWAKE_NS) {
			g->woken = now;
			vb_os_worker_wake(g->w);
		}
	}
	if (timeout > 0 && held >= timeout + ABORT_GRACE_NS)
		return true;
	return g->stop_seen != 0 && now - g->stop_seen >= STOP_GRACE_NS && held >= STOP_GRACE_NS;
}

static void give_up(struct guard *g, uint64_t held)
{
	struct vb_guard_watch *gw = &g->sh->guard;
	char msg[1400], why[128];

	vb_os_worker_abandon(g->w);
	if (g->stop_seen != 0)
		snprintf(why, sizeof why, "vbench did not stop within %.0f s of the signal",
			 STOP_GRACE_NS / 1e9);
	else
		snprintf(why, sizeof why, "still stuck 2 s after --timeout %g expired",
			 g->cfg->timeout_secs);
	snprintf(msg, sizeof msg, "%s %s: a call has not returned for %.1f s (%s) and cannot "
		 "be interrupted; exiting without waiting for it",
		 phase_text(atomic_load(&gw->phase)), g->target, (double)held / 1e9, why);
	g->say(msg);
	gw->leftover[sizeof gw->leftover - 1] = '\0';
	if (gw->leftover[0] != '\0')
		g->say(gw->leftover);
}

/* The session ended with status, or died of signal signo: says what went wrong that
 * it could not say itself, and returns as vb_guard_run does. */
static enum vb_status ended(struct guard *g, int status, int signo, int *exit_status)
{
	struct vb_guard_watch *gw = &g->sh->guard;
	char msg[256];
	int out, err;

	vb_os_guard_lost(g->w, &out, &err);
	vb_os_worker_free(g->w);
	/* A stop signal sent to vbench: the session passed it on by dying of it. */
	int stop = atomic_load(&g->sh->flags.stop);
	if (signo != 0 && stop > 0)
		vb_os_die(signo);
	if (stop > 0)
		vb_os_die(stop);   /* one that came as the session ended: still a stop */
	if (signo != 0) {
		/* Killed from outside (kill -9) or crashed: it could clean nothing up. */
		snprintf(msg, sizeof msg, "the process running the session died of signal %d",
			 signo);
		g->say(msg);
		gw->leftover[sizeof gw->leftover - 1] = '\0';
		if (gw->leftover[0] != '\0')
			g->say(gw->leftover);
	}
	if (out != 0) {
		snprintf(msg, sizeof msg, "the results could not all be written to standard "
			 "output: %s", strerror(out));
		g->say(msg);
	}
	*exit_status = status;
	if (signo != 0 || (status == 0 && (out != 0 || err != 0)))
		return VB_E_IO;   /* the run did not end clean */
	return VB_OK;
}

enum vb_status vb_guard_run(const struct vb_config *cfg, struct vb_shared *sh,
			    const char *target, int (*session)(void *arg), void *arg,
			    void (*say)(const char *msg), int *exit_status)
{
	struct guard g = {cfg, sh, target, say, NULL, 0, 0, 0, 0, 0};
	int status = 0, signo = 0;
	uint64_t held = 0;

	g.w = vb_os_guard_start(session, arg);
	if (g.w == NULL) {
		*exit_status = session(arg);   /* no processes here: the session runs unguarded */
		return VB_OK;
	}
	for (;;) {
		vb_os_guard_pump(g.w, VB_WATCH_POLL_MS, dropping(&g));
		if (vb_os_worker_wait(g.w, 0, &status, &signo))
			break;
		if (watch(&g, vb_os_now_ns(), &held)) {
			/* What the session wrote before it got stuck goes out first. */
			drain(&g);
			give_up(&g, held);
			vb_os_worker_free(g.w);
			if (g.stop_seen != 0 && atomic_load(&sh->flags.stop) > 0)
				vb_os_die(atomic_load(&sh->flags.stop));
			int phase = atomic_load(&sh->guard.phase);
			return phase == VB_PHASE_SETUP || phase == VB_PHASE_SETUP_OUTPUT ? VB_E_SETUP
											  : VB_E_IO;
		}
	}
	drain(&g);
	return ended(&g, status, signo, exit_status);
}
