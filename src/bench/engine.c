#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vb_autoruns.h"
#include "bench/vb_engine.h"
#include "bench/vb_flushprobe.h"
#include "bench/vb_plan.h"
#include "bench/vb_source.h"

/* How often the write loop looks at status requests, and redraws progress. */
#define TICK_NS 100000000ULL
#define PROGRESS_NS 1000000000ULL

/* State shared by the write loop's tick callback and the engine. */
struct engine {
	const struct vb_config *cfg;
	const struct vb_engine_io *io;
	struct vb_hist scratch;      /* the current run's histogram */
	uint64_t next_progress_ns;
	uint64_t last_progress_ns;   /* when the progress line was last drawn, this run */
	uint64_t last_progress_bytes;
	atomic_int resumed;          /* this process was continued after a stop */
	double *rates, *secs;        /* runs=auto: the measured runs so far */
	uint64_t measured;
	double session_secs;         /* the runs' time so far, warm-ups included */
	double least_sync_secs;      /* the shortest sync and close of a run; -1 before one */
	int filled_fd;               /* the file written before the clock, or -1 */
};

static void set_drawn(struct engine *c, int v)
{
	if (c->io->watch != NULL)
		atomic_store(&c->io->watch->progress_drawn, v);
}

static int drawn(struct engine *c)
{
	return c->io->watch != NULL && atomic_load(&c->io->watch->progress_drawn);
}

static uint64_t tick(void *arg, const struct vb_run *sofar, uint64_t now, uint64_t start)
{
	struct engine *c = arg;
	const struct vb_live *live = &c->io->live;

	/* A session whose guard was killed stops instead of writing on for nobody. */
	if (vb_os_child_orphaned())
		atomic_store(&c->io->flags->stop, SIGTERM);
	if (atomic_exchange(&c->io->flags->status, 0)) {
		if (live->status != NULL)
			live->status(live->arg, sofar->bytes, (double)(now - start) / 1e9, drawn(c));
		set_drawn(c, 0);
	}
	if (!c->io->progress || now < c->next_progress_ns)
		return now + TICK_NS;
	c->next_progress_ns = now + PROGRESS_NS;
	if (c->last_progress_ns < start) {
		c->last_progress_ns = start;
		c->last_progress_bytes = 0;
	}
	struct vb_progress pr = {sofar->run, c->cfg->runs, sofar->bytes, vb_run_bytes(c->cfg),
				 (double)(now - start) / 1e9, 0};
	if (now > c->last_progress_ns)
		pr.current_bytes_per_sec = (double)(sofar->bytes - c->last_progress_bytes) /
					   ((double)(now - c->last_progress_ns) / 1e9);
	c->last_progress_ns = now;
	c->last_progress_bytes = sofar->bytes;
	if (live->progress != NULL) {
		live->progress(live->arg, &pr);
		set_drawn(c, 1);
	}
	return now + TICK_NS;
}

static void erase_progress(struct engine *c)
{
	if (drawn(c)) {
		if (c->io->live.erase != NULL)
			c->io->live.erase(c->io->live.arg);
		set_drawn(c, 0);
	}
}

/* Runs and reports one run; vb_write_run's result, or -1 when it was not recorded. The
 * fill before the clock (number 0) is no run: it keeps the file open, reported only when
 * it fails, and the runs write in place through its descriptor, extending nothing. */
static int one_run(struct engine *c, struct vb_target *t, struct vb_source_buf *src,
		   uint64_t number, bool warmup, bool first, struct vb_engine_result *res,
		   struct vb_run *r)
{
	struct vb_write_plan plan;
	const struct vb_engine_io *io = c->io;
	bool fill = number == 0;

	vb_plan_build(c->cfg, t, number + (warmup ? 0 : c->cfg->warmup_runs), first, &plan);
	if (fill) {
		plan.hold = &c->filled_fd;
		/* Its dirty pages must not be written inside the first run. */
		if (plan.end_call == VB_CALL_NONE)
			plan.end_call = VB_CALL_FSYNC;
	} else if (c->filled_fd >= 0) {
		plan.acquire = VB_ACQ_DISK;
		plan.held_fd = c->filled_fd;
		plan.truncate = false;
		plan.defer_release = false;
	}
	plan.source = src;
	plan.stop = &io->flags->stop;
	plan.resumed = &c->resumed;
	plan.watch = io->watch;
	plan.latency = &c->scratch;
	plan.tick = tick;
	plan.tick_arg = c;
	if (io->watch != NULL) {
		atomic_store(&io->watch->run, number);
		atomic_store(&io->watch->warmup, warmup);
	}
	c->next_progress_ns = io->ops->now_ns(io->ops->ctx) + PROGRESS_NS;
	int rc = vb_write_run(io->ops, &plan, r);
	erase_progress(c);
	c->session_secs += r->secs;
	if (r->stop == VB_STOP_DONE && (c->least_sync_secs < 0 || r->sync_secs < c->least_sync_secs))
		c->least_sync_secs = r->sync_secs;
	vb_knee_find(r->intervals, r->n_intervals, &r->knee);
	r->run = number;
	r->warmup = warmup;
	r->allocating = c->cfg->overwrite && first && !fill;
	r->fill = fill;
	if (fill && rc == 0)
		return 0;
	if (io->on_run != NULL && !io->on_run(io->arg, r, &c->scratch)) {
		res->failed = true;
		return -1;
	}
	return rc;
}

/* Reads the stop flag into res; true when no further run may start. */
static bool stopped(struct engine *c, struct vb_engine_result *res)
{
	int flag = atomic_load(&c->io->flags->stop);

	if (flag > 0)
		res->stop_signal = flag;
	else if (flag == VB_STOPFLAG_TIMEOUT)
		res->failed = true;
	return flag != 0;
}

/* runs=auto: records the measured run r; true when the rule says it was the last. */
static bool enough(struct engine *c, const struct vb_run *r)
{
	if (!c->cfg->runs_auto || r->warmup || c->rates == NULL)
		return false;
	c->rates[c->measured] = (double)r->bytes_per_sec;
	c->secs[c->measured] = r->secs;
	c->measured++;
	return vb_auto_decide(c->cfg, c->rates, c->secs, c->measured).state != VB_AUTO_MORE;
}

static bool run_all(struct engine *c, struct vb_target *t, struct vb_source_buf *src,
		    struct vb_engine_result *res)
{
	uint64_t total = c->cfg->warmup_runs + c->cfg->runs;
	struct vb_run r;

	uint64_t from = t->fill_first ? 0 : 1;

	for (uint64_t i = from; i <= total; i++) {
		/* After a signal during a sync, no next run rather than an empty one. */
		if (stopped(c, res))
			return false;
		bool warmup = i <= c->cfg->warmup_runs;
		uint64_t number = warmup ? i : i - c->cfg->warmup_runs;
		int rc = one_run(c, t, src, number, warmup, i == from, res, &r);
		vb_run_free(&r);
		if (rc == 0 && enough(c, &r))
			break;
		if (rc == 0)
			continue;
		if (res->failed)   /* it was not recorded */
			return false;
		res->stop_signal = r.stop == VB_STOP_SIGNAL ? r.signo : 0;
		res->failed = r.stop != VB_STOP_SIGNAL;
		return false;
	}
	/* A signal during the last run's sync still reaches the caller. */
	return !stopped(c, res);
}

/* The probe's plan: a file of its own beside the target's, or the disk opened again,
 * since the runs' flags cannot be taken off everywhere (Linux's F_SETFL ignores O_DSYNC,
 * fcntl(2)); the session's descriptor still holds the disk. */
static void probe_plan(struct engine *c, struct vb_target *t, struct vb_write_plan *plan)
{
	const struct vb_config *cfg = c->cfg;

	vb_plan_build(cfg, t, cfg->warmup_runs + cfg->runs + 1, false, plan);
	plan->stop = &c->io->flags->stop;
	plan->watch = c->io->watch;
	if (t->kind == VB_TGT_DISK) {
		plan->acquire = VB_ACQ_DEVICE;
		plan->name = t->name;
		return;
	}
	plan->check_in_use = false;
	plan->truncate = false;
	if (t->kind == VB_TGT_DIR && t->anon) {
		plan->acquire = VB_ACQ_ANON;
		plan->req.kind = VB_OPEN_ANON;
	} else if (plan->acquire != VB_ACQ_NEWNAME) {
		plan->acquire = VB_ACQ_NEWNAME;
		plan->req.kind = VB_OPEN_CREATE;
		plan->name = vb_target_next_name(t);
	}
}

/* In full with --check-flush, else short (1% of the runs' time) after synced runs. */
static void probe_flush(struct engine *c, struct vb_target *t)
{
	const struct vb_config *cfg = c->cfg;
	struct vb_flush_result fr = {0};
	struct vb_write_plan plan;
	double budget = c->session_secs / 100;

	if (!cfg->check_flush && cfg->sync == VB_SYNC_NONE)
		return;
	if (t->kind == VB_TGT_SINK) {
		if (!cfg->check_flush)
			return;
		snprintf(fr.why, sizeof fr.why, "the target is a data sink");
	} else if (!cfg->check_flush &&
		   (VB_FLUSH_MIN_PAIRS + 2) * (c->least_sync_secs > 0 ? c->least_sync_secs : 0) >
		   budget) {
		snprintf(fr.why, sizeof fr.why, "it would cost more than 1%% of the run "
			 "(--check-flush makes it anyway)");
	} else {
		enum vb_sync_call call = vb_sync_mode(cfg->sync)->end_call;
		/* O_DSYNC makes every write what a write and fdatasync make it. */
		if (cfg->sync == VB_SYNC_DSYNC)
			call = VB_CALL_FDATASYNC;
		else if (call == VB_CALL_NONE)
			call = VB_CALL_FSYNC;
		/* On a disk the probe stays where the runs wrote. */
		uint64_t room = vb_run_bytes(cfg);
		if (t->device_bytes < room)
			room = t->device_bytes;
		struct vb_flush_probe_cfg pc = {cfg->check_flush, call,
						cfg->check_flush ? 0 : budget, t->align_bytes,
						t->kind == VB_TGT_DISK ? room : 0};
		probe_plan(c, t, &plan);
		if (c->io->watch != NULL)
			atomic_store(&c->io->watch->probing, 1);
		vb_flush_probe(c->io->ops, &plan, &pc, &fr);
		if (c->io->watch != NULL)
			atomic_store(&c->io->watch->probing, 0);
	}
	c->io->on_flush(c->io->arg, &fr);
}

bool vb_engine_run(const struct vb_config *cfg, struct vb_target *t,
		   const struct vb_engine_io *io, struct vb_engine_result *res)
{
	struct vb_source_buf src;
	struct engine *c = calloc(1, sizeof *c);
	size_t align = t->align_bytes > 4096 ? t->align_bytes : 4096;

	memset(res, 0, sizeof *res);
	if (c == NULL) {
		res->pool_errno = ENOMEM;
		return false;
	}
	if (vb_source_init(&src, cfg->source, (size_t)cfg->bs_bytes, align, cfg->qd,
			   vb_run_bytes(cfg), cfg->seed, cfg->seed_given) != 0) {
		res->pool_errno = errno;
		free(c);
		return false;
	}
	c->cfg = cfg;
	c->io = io;
	c->least_sync_secs = -1;
	c->filled_fd = -1;
	bool ok = false;
	if (cfg->runs_auto) {
		c->rates = calloc(cfg->runs, sizeof *c->rates);
		c->secs = calloc(cfg->runs, sizeof *c->secs);
		if (c->rates == NULL || c->secs == NULL) {
			res->pool_errno = ENOMEM;
			goto out;
		}
	}
	vb_os_on_resume(&c->resumed);
	ok = run_all(c, t, &src, res);
	vb_write_release(io->ops, io->watch, c->filled_fd, 0);
	/* A stop during the probe ends the session as one during the runs would. */
	if (ok && io->on_flush != NULL) {
		probe_flush(c, t);
		ok = !stopped(c, res);
	}
	vb_os_on_resume(NULL);
out:
	vb_source_free(&src);
	free(c->rates);
	free(c->secs);
	free(c);
	return ok;
}

void vb_runlog_init(struct vb_runlog *s)
{
	memset(s, 0, sizeof *s);
	vb_hist_init(&s->latency);
}

bool vb_runlog_add(struct vb_runlog *s, void *(*grow)(void *p, size_t n), struct vb_run *r,
		   const struct vb_hist *latency)
{
	if (s->n_runs == s->cap_runs) {
		uint64_t cap = s->cap_runs ? 2 * s->cap_runs : 8;
		size_t bytes = (size_t)cap * sizeof *s->runs;
		struct vb_run *n = grow != NULL ? grow(s->runs, bytes) : realloc(s->runs, bytes);
		if (n == NULL) {
			s->out_of_memory = true;
			return false;
		}
		s->runs = n;
		s->cap_runs = cap;
	}
	s->runs[s->n_runs++] = *r;
	r->intervals = NULL;
	r->n_intervals = 0;
	if (!r->warmup && r->stop == VB_STOP_DONE && latency != NULL)
		vb_hist_merge(&s->latency, latency);
	return true;
}

void vb_runlog_free(struct vb_runlog *s)
{
	for (uint64_t i = 0; i < s->n_runs; i++)
		vb_run_free(&s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->n_runs = 0;
	s->cap_runs = 0;
}
