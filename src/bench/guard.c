#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vb_guard.h"

/* A call still stuck this long after --timeout is given up on. */
#define ABORT_GRACE_NS 2000000000ULL
/* A call still stuck this long after a stop signal, and for as long, is given up on. */
#define STOP_GRACE_NS 10000000000ULL
/* A wake-up sent just before the call began is lost; it is sent again this often. */
#define REWAKE_NS 200000000ULL
/* Output the user's reader has not taken this long after a stop signal is dropped, so
 * that a full pipe (`vbench | sleep 40`) never holds the stop back. */
#define DROP_GRACE_NS 500000000ULL
/* When the next watch is due at the latest: later, the guard was stopped. */
#define WATCH_DUE_NS (VB_WATCH_POLL_MS * 1000000ULL + 100000000ULL)
/* Largest message the child sends (a run with its interval samples). */
#define MSG_MAX ((uint32_t)1 << 30)

enum msg_type { MSG_RUN = 1, MSG_FLUSH = 2 };

struct msg_head {
	uint32_t type;
	uint32_t len;
};

/* What the child keeps its runs with: realloc, which the tests (test builds only)
 * replace with one that fails. */
#ifdef VB_TEST_SEAMS
static void *(*grow)(void *p, size_t n);

void vb_guard_set_grow(void *(*fn)(void *p, size_t n))
{
	grow = fn;
}
#else
#define grow NULL
#endif

struct vb_shared *vb_shared_new(void)
{
	return vb_os_shared(sizeof(struct vb_shared));
}

void vb_guard_enter(struct vb_guard_watch *g, enum vb_guard_phase p)
{
	atomic_store(&g->phase, (int)p);
	atomic_store_explicit(&g->call_start_ns, vb_os_now_ns(), memory_order_release);
}

/* A session given up on (a thread: a process is killed) waits here for the process to
 * end, whichever of its calls returned. */
static void park_if_given_up(const struct vb_guard_watch *g)
{
	while (atomic_load(&g->given_up))
		vb_os_sleep_ms(1000);
}

void vb_guard_leave(struct vb_guard_watch *g)
{
	park_if_given_up(g);
	atomic_store_explicit(&g->call_start_ns, 0, memory_order_release);
	atomic_store(&g->phase, (int)VB_PHASE_NONE);
}

/* ---- the runs, in the child ---------------------------------------------------------- */

struct runs {
	const struct vb_runs_io *io;
	struct vb_shared *sh;
	struct vb_runlog *s;
	int chan;
};

/* Records a run as the message m of len bytes holds it (record, histogram, interval
 * samples) into s. A run that cannot be kept whole fails the session, as any allocation
 * failure fails a run: s is marked out of memory, and that mark stays. */
static bool record(struct vb_runlog *s, void *(*with)(void *p, size_t n),
		   const unsigned char *m, size_t len)
{
	struct vb_run r;
	struct vb_hist h;

	if (len < sizeof r + sizeof h)
		return false;
	memcpy(&r, m, sizeof r);
	memcpy(&h, m + sizeof r, sizeof h);
	size_t ivn = len - sizeof r - sizeof h;
	r.intervals = NULL;
	if (r.n_intervals != ivn / sizeof *r.intervals)
		r.n_intervals = 0;
	if (r.n_intervals > 0) {
		r.intervals = with != NULL ? with(NULL, ivn) : malloc(ivn);
		if (r.intervals == NULL) {
			s->out_of_memory = true;
			return false;
		}
		memcpy(r.intervals, m + sizeof r + sizeof h, ivn);
	}
	bool kept = vb_runlog_add(s, with, &r, &h);
	vb_run_free(&r);
	return kept;
}

/* A run is made into one message, sent to the guard (which has nothing to answer: a
 * guard that is gone is not waited for) and recorded here from the same bytes. */
static bool on_run(void *arg, const struct vb_run *r, const struct vb_hist *latency)
{
	struct runs *k = arg;
	struct vb_run copy = *r;

	park_if_given_up(&k->sh->guard);
	size_t ivn = (size_t)r->n_intervals * sizeof *r->intervals;

	copy.intervals = NULL;
	if (sizeof copy + sizeof *latency + ivn > MSG_MAX)
		copy.n_intervals = 0, ivn = 0;
	struct msg_head h = {MSG_RUN, (uint32_t)(sizeof copy + sizeof *latency + ivn)};
	unsigned char *m = malloc(sizeof h + h.len);
	if (m == NULL)
		return false;   /* (the engine stops: not recorded) */
	memcpy(m, &h, sizeof h);
	memcpy(m + sizeof h, &copy, sizeof copy);
	memcpy(m + sizeof h + sizeof copy, latency, sizeof *latency);
	if (ivn > 0)
		memcpy(m + sizeof h + sizeof copy + sizeof *latency, r->intervals, ivn);
	if (k->chan >= 0)
		vb_os_write_all(k->chan, m, sizeof h + h.len);
	bool kept = record(k->s, grow, m + sizeof h, h.len);
	free(m);
	/* A run not kept marks the log, and the runs go on: the summary says one is left
	 * out. */
	if (kept && k->io->on_run != NULL)
		k->io->on_run(k->io->arg, &k->s->runs[k->s->n_runs - 1]);
	return true;
}

static void on_flush(void *arg, const struct vb_flush_result *fr)
{
	struct runs *k = arg;
	struct msg_head h = {MSG_FLUSH, sizeof *fr};

	k->s->flush = *fr;
	if (k->chan >= 0 && vb_os_write_all(k->chan, &h, sizeof h) == 0)
		vb_os_write_all(k->chan, fr, sizeof *fr);
}

enum vb_status vb_guard_runs(const struct vb_config *cfg, struct vb_target *t,
			     struct vb_shared *sh, const struct vb_runs_io *io, int channel,
			     struct vb_runlog *s, struct vb_engine_result *res)
{
	struct runs k = {io, sh, s, channel};
	struct vb_engine_io eio = {io->ops != NULL ? io->ops : &vb_os_io, io->live,
				   io->progress, &sh->flags, &sh->watch, on_run, &k, on_flush};

	vb_engine_run(cfg, t, &eio, res);
	park_if_given_up(&sh->guard);
	res->failed = res->failed || s->out_of_memory;
	return !res->failed && res->stop_signal == 0 && res->pool_errno == 0 ? VB_OK : VB_E_IO;
}

/* ---- the watch, in the guard --------------------------------------------------------- */

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

/* One call watched: when it began, how long it was paused since (the guard or the child
 * stopped: ^Z, a paused VM), and how long it has been held when the next stall warning
 * is due. */
struct call_clock {
	uint64_t start, paused, next;
};

/* How long the call begun at start has been held, its pauses (lost, since the last
 * watch) left out. */
static uint64_t held_for(struct call_clock *c, uint64_t start, uint64_t now, uint64_t lost,
			 uint64_t stall)
{
	if (c->start != start)
		*c = (struct call_clock){start, 0, stall};
	c->paused += lost;
	return now - start > c->paused ? now - start - c->paused : 0;
}

/* Whether a call held for held is to be warned about now: at --stall-timeout and every
 * --stall-timeout after. */
static bool stall_due(struct call_clock *c, uint64_t held, uint64_t stall)
{
	if (stall == 0 || held < c->next)
		return false;
	c->next += stall;
	return true;
}

/* Bytes received from the child, not yet made into messages. */
struct inbox {
	unsigned char *buf;
	size_t len, cap;
	bool lost;   /* a message not of ours came: no more is read */
};

struct guard {
	const struct vb_config *cfg;
	struct vb_shared *sh;
	const char *target;
	void (*say)(const char *msg);
	struct vb_live live;
	struct vb_runlog *log;
	struct vb_child *w;
	struct inbox in;
	uint64_t stop_seen, woken, last_watch;
	int forwarded;
	bool runs;                 /* the stuck call is one of the runs' */
	bool timed_out;            /* given up on at --timeout, not after a stop */
	struct call_clock own, slots[VB_QD_MAX];
};

/* Takes every complete message out of the inbox into the log. */
static void take(struct guard *g)
{
	struct msg_head h;
	size_t off = 0;

	while (g->in.len - off >= sizeof h) {
		memcpy(&h, g->in.buf + off, sizeof h);
		if (h.len > MSG_MAX) {
			g->in.lost = true;
			g->in.len = 0;
			return;
		}
		if (g->in.len - off - sizeof h < h.len)
			break;
		const unsigned char *m = g->in.buf + off + sizeof h;
		if (h.type == MSG_RUN)
			record(g->log, NULL, m, h.len);
		else if (h.type == MSG_FLUSH && h.len == sizeof g->log->flush)
			memcpy(&g->log->flush, m, h.len);
		off += sizeof h + h.len;
	}
	memmove(g->in.buf, g->in.buf + off, g->in.len - off);
	g->in.len -= off;
}

/* Reads what the channel holds now. */
static void receive(struct guard *g)
{
	for (;;) {
		if (g->in.lost)
			return;
		if (g->in.cap - g->in.len < 65536) {
			size_t cap = g->in.cap ? g->in.cap * 2 : 262144;
			unsigned char *b = realloc(g->in.buf, cap);
			if (b == NULL)
				return;   /* (only a report from here would lack them) */
			g->in.buf = b;
			g->in.cap = cap;
		}
		ssize_t n = vb_os_child_read(g->w, g->in.buf + g->in.len,
					      g->in.cap - g->in.len, 0);
		if (n <= 0)
			return;
		g->in.len += (size_t)n;
		take(g);
	}
}

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

/* Moves on what the child left in its pipes, never waiting for their end (a child left
 * behind may hold them), and waits for the user's reader to take it unless a stop makes
 * it dropped. */
static void drain(struct guard *g)
{
	while (vb_os_guard_pump(g->w, vb_os_guard_pending(g->w) ? VB_WATCH_POLL_MS : 0,
				dropping(g)) ||
	       vb_os_guard_pending(g->w))
		;
	receive(g);
}

static void warn_run_stall(struct guard *g, unsigned slot, uint64_t held)
{
	struct vb_watch *w = &g->sh->watch;
	struct vb_stall s = {atomic_load(&w->probing) != 0, atomic_load(&w->warmup) != 0,
			     atomic_load(&w->run),
			     vb_stage_name((enum vb_stage)atomic_load(&w->slot[slot].stage)),
			     slot + 1, (unsigned)g->cfg->qd, atomic_load(&w->slot[slot].offset_bytes),
			     (double)held / 1e9};

	if (g->live.stall != NULL)
		g->live.stall(g->live.arg, &s, atomic_load(&w->progress_drawn));
}

/* How long the oldest call in progress has been held, after warning about every one
 * stalled; sets g->runs when that call is one of the runs'. */
static uint64_t held_calls(struct guard *g, uint64_t now, uint64_t lost)
{
	uint64_t stall = (uint64_t)(g->cfg->stall_secs * 1e9), oldest = 0;
	unsigned n = g->cfg->qd > 0 && g->cfg->qd <= VB_QD_MAX ? (unsigned)g->cfg->qd : 1;
	struct vb_guard_watch *gw = &g->sh->guard;
	char msg[1400];

	for (unsigned i = 0; i <= n; i++) {
		atomic_ullong *at = i < n ? &g->sh->watch.slot[i].call_start_ns
					  : &gw->call_start_ns;
		uint64_t start = atomic_load_explicit(at, memory_order_acquire);
		struct call_clock *c = i < n ? &g->slots[i] : &g->own;
		if (start == 0 || now < start)
			continue;
		uint64_t held = held_for(c, start, now, lost, stall);
		if (held > oldest) {
			oldest = held;
			g->runs = i < n;
		}
		if (!stall_due(c, held, stall))
			continue;
		if (i < n) {
			warn_run_stall(g, i, held);
			continue;
		}
		snprintf(msg, sizeof msg, "stall: %s %s: a call has not returned for %.1f s",
			 phase_text(atomic_load(&gw->phase)), g->target, (double)held / 1e9);
		g->say(msg);
	}
	return oldest;
}

/* Looks at the stop flag and the calls in progress; true when the child must be given
 * up. At --timeout a run's call also stops the runs (the runs end as timed out). */
static bool watch(struct guard *g, uint64_t now, uint64_t *held_out)
{
	uint64_t timeout = (uint64_t)(g->cfg->timeout_secs * 1e9);
	uint64_t gap = g->last_watch != 0 ? now - g->last_watch : 0;
	/* Time the calls in progress are not held for: all of it while the child is stopped,
	 * and what the guard took beyond its poll (it was stopped itself). */
	uint64_t lost = vb_os_child_stopped(g->w) ? gap
			: gap > WATCH_DUE_NS ? gap - WATCH_DUE_NS : 0;

	g->last_watch = now;
	uint64_t held = held_calls(g, now, lost);
	int stop = atomic_load(&g->sh->flags.stop);

	*held_out = held;
	if (stop > 0 && stop != g->forwarded) {
		/* The flag is shared, but only a signal interrupts the child's call. */
		vb_os_child_signal(g->w, stop);
		g->forwarded = stop;
		if (g->stop_seen == 0)
			g->stop_seen = now;
	}
	bool timed_out = timeout > 0 && held >= timeout;
	if (timed_out && g->runs) {
		int zero = 0;
		atomic_compare_exchange_strong(&g->sh->flags.stop, &zero, VB_STOPFLAG_TIMEOUT);
	}
	/* Only inside a call: a wake-up elsewhere would cut the child's output short. */
	if (held > 0 && (timed_out || g->stop_seen != 0) &&
	    (g->woken == 0 || now - g->woken >= REWAKE_NS)) {
		g->woken = now;
		vb_os_child_wake(g->w);
	}
	if (timed_out && held >= timeout + ABORT_GRACE_NS)
		return g->timed_out = true;
	/* After a stop the child has STOP_GRACE_NS to end; a call it is then in, as long
	 * from its start. */
	return g->stop_seen != 0 && now - g->stop_seen >= STOP_GRACE_NS &&
	       (held == 0 || held >= STOP_GRACE_NS);
}

/* Says why the child is left behind, or dead, and what it leaves; the runs it sent are
 * then summed up by the caller unless the child printed their summary itself. */
static void said(struct guard *g, const char *why, struct vb_guard_end *end)
{
	struct vb_guard_watch *gw = &g->sh->guard;

	g->say(why);
	gw->leftover[sizeof gw->leftover - 1] = '\0';
	if (gw->leftover[0] != '\0')
		g->say(gw->leftover);
	end->said = true;
	end->runs_left = g->log->n_runs > 0 && !atomic_load(&gw->summed_up);
}

static void give_up(struct guard *g, uint64_t held, struct vb_guard_end *end)
{
	struct vb_guard_watch *gw = &g->sh->guard;
	struct vb_watch *w = &g->sh->watch;
	int stop = atomic_load(&g->sh->flags.stop);
	char msg[1400], why[128];

	atomic_store(&gw->given_up, 1);
	vb_os_child_abandon(g->w);
	end->stop_signal = stop > 0 ? stop : 0;
	end->timed_out = g->timed_out;
	if (held > 0 && g->runs) {
		/* The caller reports the runs received, and says what is left behind. */
		end->runs_left = true;
		end->probing = atomic_load(&w->probing) != 0;
		end->name_live = atomic_load(&w->name_live) != 0;
		if (end->name_live) {
			memcpy(end->leftover_name, w->name, sizeof end->leftover_name);
			end->leftover_name[sizeof end->leftover_name - 1] = '\0';
		}
		return;
	}
	if (!g->timed_out)
		snprintf(why, sizeof why, "vbench did not stop within %.0f s of the signal",
			 STOP_GRACE_NS / 1e9);
	else
		snprintf(why, sizeof why, "still stuck 2 s after --timeout %g expired",
			 g->cfg->timeout_secs);
	if (held > 0)
		snprintf(msg, sizeof msg, "%s %s: a call has not returned for %.1f s (%s) and "
			 "cannot be interrupted; exiting without waiting for it",
			 phase_text(atomic_load(&gw->phase)), g->target, (double)held / 1e9, why);
	else
		snprintf(msg, sizeof msg, "while working on %s: %s, outside any call vbench "
			 "watches; exiting without waiting for it", g->target, why);
	said(g, msg, end);
}

/* The child ended with status, or died of signal signo: says what went wrong that it
 * could not say itself, and returns as vb_guard_run does. */
static enum vb_status ended(struct guard *g, int status, int signo, struct vb_guard_end *end)
{
	char msg[256];
	int out, err;

	vb_os_guard_lost(g->w, &out, &err);
	vb_os_child_free(g->w);
	free(g->in.buf);
	/* A stop signal sent to vbench: the child passed it on by dying of it. */
	int stop = atomic_load(&g->sh->flags.stop);
	if (signo != 0 && stop > 0)
		vb_os_die(signo);
	if (stop > 0)
		vb_os_die(stop);   /* one that came as the child ended: still a stop */
	if (signo != 0) {
		/* Killed from outside (kill -9) or crashed: it could clean nothing up. */
		snprintf(msg, sizeof msg, "the process running the session died of signal %d",
			 signo);
		said(g, msg, end);
	}
	if (out != 0) {
		snprintf(msg, sizeof msg, "the results could not all be written to standard "
			 "output: %s", strerror(out));
		g->say(msg);
	}
	end->exit_status = status;
	if (signo != 0 || (status == 0 && (out != 0 || err != 0)))
		return VB_E_IO;   /* the run did not end clean */
	return VB_OK;
}

enum vb_status vb_guard_run(const struct vb_config *cfg, struct vb_shared *sh,
			    const char *target, int (*session)(void *arg, int channel),
			    void *arg, void (*say)(const char *msg), struct vb_live live,
			    struct vb_runlog *log, struct vb_guard_end *end)
{
	struct guard g;
	int status = 0, signo = 0;
	uint64_t held = 0;

	memset(end, 0, sizeof *end);
	g = (struct guard){.cfg = cfg, .sh = sh, .target = target, .say = say, .live = live,
			   .log = log};
	g.w = vb_os_child_start(session, arg);
	if (g.w == NULL) {
		char msg[160];
		snprintf(msg, sizeof msg, "cannot start the process of the session: %s",
			 strerror(errno));
		say(msg);
		return VB_E_SETUP;
	}
	for (;;) {
		vb_os_guard_pump(g.w, VB_WATCH_POLL_MS, dropping(&g));
		receive(&g);
		if (vb_os_child_wait(g.w, 0, &status, &signo))
			break;
		if (watch(&g, vb_os_now_ns(), &held)) {
			/* What the child wrote before it got stuck goes out first. */
			drain(&g);
			give_up(&g, held, end);
			vb_os_child_free(g.w);
			free(g.in.buf);
			if (end->runs_left)
				return VB_E_IO;
			if (g.stop_seen != 0 && end->stop_signal > 0)
				vb_os_die(end->stop_signal);
			int phase = atomic_load(&sh->guard.phase);
			return phase == VB_PHASE_SETUP || phase == VB_PHASE_SETUP_OUTPUT ? VB_E_SETUP
											  : VB_E_IO;
		}
	}
	drain(&g);
	return ended(&g, status, signo, end);
}
