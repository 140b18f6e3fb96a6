#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vb_supervise.h"

/* How long the supervisor waits for its worker before it reads the watch again. */
#define POLL_MS VB_WATCH_POLL_MS
/* A call still stuck this long after --timeout fired cannot be interrupted. */
#define ABORT_GRACE_NS 2000000000ULL
/* A worker that has not ended this long after a stop signal is left behind. */
#define STOP_GRACE_NS 10000000000ULL
/* Largest message the worker sends (a run with its interval samples). */
#define MSG_MAX ((uint32_t)1 << 30)

enum msg_type { MSG_RUN = 1, MSG_DONE = 2, MSG_FLUSH = 3 };

struct msg_head {
	uint32_t type;
	uint32_t len;
};

struct vb_shared *vb_shared_new(void)
{
	return vb_os_shared(sizeof(struct vb_shared));
}

/* ---- the worker's side ------------------------------------------------------------- */

struct worker {
	const struct vb_config *cfg;
	struct vb_target *t;
	struct vb_shared *sh;
	const struct vb_supervise_io *io;
	int chan;
	struct worker *next_abandoned;
};

static bool send_msg(int chan, uint32_t type, const void *a, size_t an, const void *b,
		     size_t bn, const void *c, size_t cn)
{
	struct msg_head h = {type, (uint32_t)(an + bn + cn)};

	return vb_os_write_all(chan, &h, sizeof h) == 0 &&
	       (an == 0 || vb_os_write_all(chan, a, an) == 0) &&
	       (bn == 0 || vb_os_write_all(chan, b, bn) == 0) &&
	       (cn == 0 || vb_os_write_all(chan, c, cn) == 0);
}

/* A run goes over as its record, its histogram and its interval samples. */
static bool send_run(void *arg, const struct vb_run *r, const struct vb_hist *latency)
{
	struct worker *w = arg;
	struct vb_run copy = *r;
	size_t ivn = (size_t)r->n_intervals * sizeof *r->intervals;

	copy.intervals = NULL;
	if (sizeof copy + sizeof *latency + ivn > MSG_MAX)
		copy.n_intervals = 0, ivn = 0;
	return send_msg(w->chan, MSG_RUN, &copy, sizeof copy, latency, sizeof *latency,
			r->intervals, ivn);
}

static void send_flush(void *arg, const struct vb_flush_result *fr)
{
	struct worker *w = arg;

	send_msg(w->chan, MSG_FLUSH, fr, sizeof *fr, NULL, 0, NULL, 0);
}

static int worker_main(void *arg, int chan)
{
	struct worker *w = arg;
	struct vb_engine_result res;
	struct vb_engine_io io = {w->io->ops ? w->io->ops : &vb_os_io, w->io->live, w->io->progress, &w->sh->flags,
				  &w->sh->watch, send_run, w, send_flush};

	w->chan = chan;
	/* A worker left behind in a stuck call keeps none of the descriptors a caller
	 * waits on (`$(vbench ...)`, `| tee`), nor the CSV file. */
	if (vb_os_worker_is_process()) {
		vb_os_worker_detach(w->io->csv_fd);
		vb_os_worker_detach(w->io->trace_fd);
	}
	vb_engine_run(w->cfg, w->t, &io, &res);
	return send_msg(chan, MSG_DONE, &res, sizeof res, NULL, 0, NULL, 0) ? 0 : 1;
}

/* ---- the supervisor's side --------------------------------------------------------- */

/* Bytes received from the worker, not yet made into messages. */
struct inbox {
	unsigned char *buf;
	size_t len, cap;
};

/* The watchdog's memory of one slot: the call it last warned about. */
struct slot_watch {
	uint64_t warned_start, next_warn_ns;
};

struct sup {
	const struct vb_config *cfg;
	struct vb_shared *sh;
	const struct vb_supervise_io *io;
	struct vb_runlog *s;
	struct vb_supervise_result *res;
	struct vb_worker *w;
	struct inbox in;
	bool done;                  /* the worker said how its session ended */
	uint64_t stop_seen_ns;      /* when a stop was first seen, 0 before */
	uint64_t timeout_ns;        /* when --timeout fired, 0 before */
	uint64_t woken_ns;          /* when the worker was last woken for a stop */
	struct slot_watch slots[VB_QD_MAX];
};

/* A wake-up that arrives just before the worker enters a blocking call is lost (the
 * call then blocks as if none came), so it is sent again this often until the worker
 * has stopped. */
#define REWAKE_NS 200000000ULL

/* Records a run the worker sent. A run that cannot be kept whole (no memory for it or
 * its interval samples) fails the session, as any allocation failure fails a run: the
 * session is marked out of memory, and that mark stays. */
static void record(struct sup *p, const unsigned char *m, size_t len)
{
	struct vb_run r;
	struct vb_hist h;

	if (len < sizeof r + sizeof h)
		return;
	memcpy(&r, m, sizeof r);
	memcpy(&h, m + sizeof r, sizeof h);
	size_t ivn = len - sizeof r - sizeof h;
	r.intervals = NULL;
	if (r.n_intervals != ivn / sizeof *r.intervals)
		r.n_intervals = 0;
	if (r.n_intervals > 0) {
		r.intervals = p->io->grow != NULL ? p->io->grow(NULL, ivn) : malloc(ivn);
		if (r.intervals == NULL) {
			p->s->out_of_memory = true;
			p->res->failed = true;
			return;
		}
		memcpy(r.intervals, m + sizeof r + sizeof h, ivn);
	}
	if (vb_runlog_add(p->s, p->io->grow, &r, &h) && p->io->on_run != NULL)
		p->io->on_run(p->io->arg, &p->s->runs[p->s->n_runs - 1]);
	if (p->s->out_of_memory)
		p->res->failed = true;
	vb_run_free(&r);
}

static void finish(struct sup *p, const unsigned char *m, size_t len)
{
	struct vb_engine_result er;

	if (len != sizeof er)
		return;
	memcpy(&er, m, sizeof er);
	p->res->stop_signal = er.stop_signal;
	p->res->failed = p->res->failed || er.failed || er.not_recorded;
	p->res->pool_errno = er.pool_errno;
	p->done = true;
}

/* Takes every complete message out of the inbox. */
static void drain(struct sup *p)
{
	struct msg_head h;
	size_t off = 0;

	while (p->in.len - off >= sizeof h) {
		memcpy(&h, p->in.buf + off, sizeof h);
		if (h.len > MSG_MAX) {
			p->res->worker_lost = true;   /* not a message of ours: stop listening */
			p->in.len = 0;
			return;
		}
		if (p->in.len - off - sizeof h < h.len)
			break;
		const unsigned char *m = p->in.buf + off + sizeof h;
		if (h.type == MSG_RUN)
			record(p, m, h.len);
		else if (h.type == MSG_DONE)
			finish(p, m, h.len);
		else if (h.type == MSG_FLUSH && h.len == sizeof p->s->flush)
			memcpy(&p->s->flush, m, h.len);
		off += sizeof h + h.len;
	}
	memmove(p->in.buf, p->in.buf + off, p->in.len - off);
	p->in.len -= off;
}

/* Reads what the worker sent within POLL_MS; false at the end of the channel. */
static bool receive(struct sup *p)
{
	if (p->in.cap - p->in.len < 65536) {
		size_t cap = p->in.cap ? p->in.cap * 2 : 262144;
		unsigned char *b = realloc(p->in.buf, cap);
		if (b == NULL)
			return false;
		p->in.buf = b;
		p->in.cap = cap;
	}
	ssize_t n = vb_os_worker_read(p->w, p->in.buf + p->in.len, p->in.cap - p->in.len,
				      POLL_MS);
	if (n > 0) {
		p->in.len += (size_t)n;
		drain(p);
		return true;
	}
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

static void warn_stall(struct sup *p, unsigned slot, uint64_t held_ns)
{
	struct vb_watch *w = &p->sh->watch;
	struct vb_stall s = {atomic_load(&w->warmup) != 0, atomic_load(&w->run),
			     vb_stage_name((enum vb_stage)atomic_load(&w->slot[slot].stage)),
			     slot + 1, (unsigned)p->cfg->qd, atomic_load(&w->slot[slot].offset_bytes),
			     (double)held_ns / 1e9};

	if (p->io->live.stall != NULL)
		p->io->live.stall(p->io->live.arg, &s, atomic_load(&w->progress_drawn));
}

/* The oldest call in progress, after warning about every stalled one. */
static uint64_t watch_calls(struct sup *p, uint64_t now)
{
	uint64_t stall_ns = (uint64_t)(p->cfg->stall_secs * 1e9), oldest = 0;
	unsigned n = p->cfg->qd > 0 && p->cfg->qd <= VB_QD_MAX ? (unsigned)p->cfg->qd : 1;

	for (unsigned i = 0; i < n; i++) {
		struct vb_watch_slot *ws = &p->sh->watch.slot[i];
		struct slot_watch *sw = &p->slots[i];
		uint64_t start = atomic_load_explicit(&ws->call_start_ns, memory_order_acquire);
		if (start == 0 || now < start)
			continue;
		uint64_t held = now - start;
		if (held > oldest)
			oldest = held;
		if (stall_ns == 0 || held < stall_ns)
			continue;
		if (sw->warned_start != start) {
			sw->warned_start = start;
			sw->next_warn_ns = start + stall_ns;
		}
		if (now >= sw->next_warn_ns) {
			warn_stall(p, i, held);
			sw->next_warn_ns += stall_ns;
		}
	}
	return oldest;
}

/* Looks at the stop flag and the watch; true when the worker must be left behind. */
static bool watch(struct sup *p)
{
	uint64_t now = vb_os_now_ns();
	uint64_t held = watch_calls(p, now);
	uint64_t timeout = (uint64_t)(p->cfg->timeout_secs * 1e9);

	if (timeout > 0 && held >= timeout && p->timeout_ns == 0) {
		int zero = 0;
		atomic_compare_exchange_strong(&p->sh->flags.stop, &zero, VB_STOPFLAG_TIMEOUT);
		p->timeout_ns = now;
	}
	if (p->timeout_ns != 0 && held >= timeout && now - p->timeout_ns >= ABORT_GRACE_NS)
		return true;
	int stop = atomic_load(&p->sh->flags.stop);
	if (stop > 0 && p->stop_seen_ns == 0)
		p->stop_seen_ns = now;
	if (stop > 0 && now - p->stop_seen_ns >= STOP_GRACE_NS)
		return true;
	/* A blocked write returns to see the flag. */
	bool stopping = p->timeout_ns != 0 || stop > 0;
	if (stopping && (p->woken_ns == 0 || now - p->woken_ns >= REWAKE_NS)) {
		p->woken_ns = now;
		vb_os_worker_wake(p->w);
	}
	return false;
}

static void abandon(struct sup *p)
{
	struct vb_watch *w = &p->sh->watch;
	int stop = atomic_load(&p->sh->flags.stop);

	vb_os_worker_abandon(p->w);
	p->res->aborted = true;
	p->res->failed = stop <= 0;
	p->res->stop_signal = stop > 0 ? stop : 0;
	if (atomic_load(&w->name_live)) {
		p->res->name_live = true;
		memcpy(p->res->leftover_name, w->name, sizeof p->res->leftover_name);
		p->res->leftover_name[sizeof p->res->leftover_name - 1] = '\0';
	}
}

/* The arguments of the workers abandoned by vb_supervise (see there), linked. */
static struct worker *abandoned;

enum vb_status vb_supervise(const struct vb_config *cfg, struct vb_target *t,
			    struct vb_shared *sh, const struct vb_supervise_io *io,
			    struct vb_runlog *s, struct vb_supervise_result *res,
			    struct vb_err *err)
{
	/* On the heap: a worker thread that is abandoned (stuck in the kernel) still holds it
	 * when this function has returned, and may use it if its call ever returns; it is
	 * then left to the end of the process. */
	struct worker *wk = malloc(sizeof *wk);
	struct sup *p = calloc(1, sizeof *p);
	int status = 0, signo = 0;

	memset(res, 0, sizeof *res);
	if (p == NULL || wk == NULL) {
		free(p);
		free(wk);
		return vb_fail(err, VB_E_SETUP, "out of memory");
	}
	*wk = (struct worker){cfg, t, sh, io, -1, NULL};
	*p = (struct sup){cfg, sh, io, s, res, NULL, {NULL, 0, 0}, false, 0, 0, 0, {{0, 0}}};
	p->w = vb_os_worker_start(worker_main, wk);
	if (p->w == NULL) {
		int e = errno;
		free(p);
		free(wk);
		return vb_fail(err, VB_E_SETUP, "cannot start the benchmark process: %s",
			       strerror(e));
	}
	bool left = false;
	while (receive(p)) {
		if (watch(p)) {
			left = true;
			abandon(p);
			break;
		}
	}
	/* The channel is closed: the worker has ended, or is about to. */
	if (!left && !vb_os_worker_wait(p->w, 5000, &status, &signo)) {
		abandon(p);
	} else if (!left) {
		if (signo != 0 && !p->done)
			res->worker_signal = signo;
		else if (!p->done)
			res->worker_lost = true;
		if (!p->done)
			res->failed = true;
	}
	free(p->in.buf);
	vb_os_worker_free(p->w);
	if (res->aborted) {
		/* kept, and reachable, to the end of the process */
		wk->next_abandoned = abandoned;
		abandoned = wk;
	} else {
		free(wk);
	}
	bool ok = p->done && !res->failed && res->stop_signal == 0 && res->pool_errno == 0 &&
		  !res->aborted;
	free(p);
	return ok ? VB_OK : VB_E_IO;
}
