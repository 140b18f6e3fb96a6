#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vb_output.h"
#include "vb_platform.h"
#include "vb_runner.h"
#include "vb_source.h"

volatile sig_atomic_t vb_stop_flag;
static volatile sig_atomic_t status_flag;

/* Handlers only set flags; the write loop acts on them between blocks. */
static void on_stop_signal(int signo)
{
	if (vb_stop_flag == 0)
		vb_stop_flag = signo;
}

static void on_status_signal(int signo)
{
	(void)signo;
	status_flag = 1;
}

/* The watchdog sends SIGALRM to the main thread when --timeout expires, so that the flag
 * is set by the thread that reads it and a blocked call returns with EINTR. */
static void on_timeout_signal(int signo)
{
	(void)signo;
	if (vb_stop_flag == 0)
		vb_stop_flag = VB_STOPFLAG_TIMEOUT;
}

static void install(int signo, void (*fn)(int), int keep_ignored)
{
	struct sigaction sa, old;

	if (keep_ignored && sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR so the flag is seen */
	sigaction(signo, &sa, NULL);
}

void vb_runner_install_signals(void)
{
	install(SIGINT, on_stop_signal, 1);
	install(SIGTERM, on_stop_signal, 1);
	install(SIGHUP, on_stop_signal, 1);
	install(SIGPIPE, on_stop_signal, 1);
	install(SIGUSR1, on_status_signal, 1);
	install(SIGALRM, on_timeout_signal, 0);
#if defined(SIGINFO)
	install(SIGINFO, on_status_signal, 1);
#endif
}
/* State shared by the write loop's tick callback, the watchdog and the runner. */
struct run_ctx {
	const struct vb_config *cfg;
	const struct vb_runner_io *io;
	struct vb_session *session;
	struct vb_watch watch;
	struct vb_hist scratch;      /* the current run's histogram */
	uint64_t total_runs;
	uint64_t next_progress_ns;
	uint64_t last_progress_ns;   /* when the progress line was last drawn, this run */
	uint64_t last_progress_bytes;
	atomic_int progress_drawn;   /* read by the watchdog before it prints */
	atomic_int warmup;           /* the run in progress is a warm-up */
	pthread_t main_thread;
	pthread_mutex_t lock;        /* guards `quit` and the watchdog's sleep */
	pthread_cond_t wake;
	int quit;
	pthread_mutex_t session_lock; /* the session, against on_abort from the watchdog */
};

static void tick(void *arg, const struct vb_run *sofar, uint64_t now, uint64_t start)
{
	struct run_ctx *c = arg;
	char line[256];
	uint64_t total = c->cfg->bs_bytes * c->cfg->count_blocks;

	if (status_flag) {
		status_flag = 0;
		vb_format_status(line, sizeof line, sofar->bytes, (double)(now - start) / 1e9);
		fprintf(c->io->status, "%s%s\n", atomic_load(&c->progress_drawn) ? "\r\033[K" : "",
			line);
		atomic_store(&c->progress_drawn, 0);
	}
	if (!c->io->progress || now < c->next_progress_ns)
		return;
	c->next_progress_ns = now + 1000000000ULL;
	if (c->last_progress_ns < start) {
		c->last_progress_ns = start;
		c->last_progress_bytes = 0;
	}
	struct vb_progress pr = {sofar->run, c->total_runs, sofar->bytes, total,
				 (double)(now - start) / 1e9, 0};
	if (now > c->last_progress_ns)
		pr.current_bytes_per_sec = (double)(sofar->bytes - c->last_progress_bytes) /
					   ((double)(now - c->last_progress_ns) / 1e9);
	c->last_progress_ns = now;
	c->last_progress_bytes = sofar->bytes;
	vb_format_progress(line, sizeof line, &pr);
	fprintf(c->io->status, "\r\033[K%s", line);
	fflush(c->io->status);
	atomic_store(&c->progress_drawn, 1);
}

static void erase_progress(struct run_ctx *c)
{
	if (atomic_load(&c->progress_drawn)) {
		fputs("\r\033[K", c->io->status);
		fflush(c->io->status);
		atomic_store(&c->progress_drawn, 0);
	}
}

/* Sleeps up to ms milliseconds or until told to quit; returns non-zero to quit. */
static int watchdog_sleep(struct run_ctx *c, unsigned ms)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&c->lock);
	while (!c->quit) {
		if (pthread_cond_timedwait(&c->wake, &c->lock, &until) == ETIMEDOUT)
			break;
	}
	int quit = c->quit;
	pthread_mutex_unlock(&c->lock);
	return quit;
}

static void warn_stall(struct run_ctx *c, uint64_t held_ns)
{
	fprintf(c->io->status, "%svbench: stall: %s %llu: %s at offset %llu has not returned "
		"after %.0f s\n", atomic_load(&c->progress_drawn) ? "\n" : "",
		atomic_load(&c->warmup) ? "warm-up" : "run",
		(unsigned long long)atomic_load(&c->watch.run),
		vb_stage_name((enum vb_stage)atomic_load(&c->watch.stage)),
		(unsigned long long)atomic_load(&c->watch.offset_bytes), (double)held_ns / 1e9);
	fflush(c->io->status);
}

/* Watches the call in progress: warns when it stalls, aborts it at --timeout. */
static void *watchdog(void *arg)
{
	struct run_ctx *c = arg;
	uint64_t warned_start = 0, next_warn_ns = 0, abort_ns = 0;
	uint64_t stall_ns = (uint64_t)(c->cfg->stall_secs * 1e9);
	uint64_t timeout_ns = (uint64_t)(c->cfg->timeout_secs * 1e9);

	while (!watchdog_sleep(c, 100)) {
		uint64_t start = atomic_load_explicit(&c->watch.call_start_ns, memory_order_acquire);
		uint64_t now = vb_now_ns();
		if (start == 0 || now < start)
			continue;
		uint64_t held = now - start;
		if (stall_ns > 0 && held >= stall_ns) {
			if (warned_start != start) {
				warned_start = start;
				next_warn_ns = start + stall_ns;
			}
			if (now >= next_warn_ns) {
				warn_stall(c, held);
				next_warn_ns += stall_ns;
			}
		}
		if (timeout_ns == 0 || held < timeout_ns)
			continue;
		if (abort_ns == 0)
			abort_ns = now;
		if (now - abort_ns >= 2000000000ULL && c->io->on_abort != NULL) {
			/* The call ignores signals (a disk in uninterruptible sleep): report from
			 * here, since the main thread may never come back. */
			pthread_mutex_lock(&c->session_lock);
			c->io->on_abort(c->io->arg);
			pthread_mutex_unlock(&c->session_lock);
		}
		pthread_kill(c->main_thread, SIGALRM);
	}
	return NULL;
}

/* Appends r to the session, growing it geometrically; 0, or -1 when out of memory. */
static int push_run(struct vb_session *s, const struct vb_run *r)
{
	if (s->n_runs == s->cap_runs) {
		uint64_t cap = s->cap_runs ? 2 * s->cap_runs : 8;
		struct vb_run *n = realloc(s->runs, cap * sizeof *s->runs);
		if (n == NULL)
			return -1;
		s->runs = n;
		s->cap_runs = cap;
	}
	s->runs[s->n_runs++] = *r;
	return 0;
}

/* Records a finished run and shows it; -1 when it could not be recorded. */
static int record_run(struct run_ctx *c, struct vb_run *r)
{
	struct vb_session *s = c->session;
	int rc = 0;

	pthread_mutex_lock(&c->session_lock);
	if (push_run(s, r) != 0) {
		vb_run_free(r);
		s->out_of_memory = 1;
		rc = -1;
	} else {
		if (!r->warmup && r->stop == VB_STOP_DONE)
			vb_hist_merge(&s->latency, &c->scratch);
		if (c->io->on_run != NULL)
			c->io->on_run(c->io->arg, &s->runs[s->n_runs - 1]);
	}
	pthread_mutex_unlock(&c->session_lock);
	return rc;
}

/* Runs one (warm-up or measured) run and records it; returns vb_write_run's result, or
 * -1 when the run could not be recorded. */
static int one_run(struct run_ctx *c, struct vb_target *t, struct vb_source_buf *src,
		   uint64_t number, int warmup, int first)
{
	struct vb_write_plan plan;
	struct vb_run r;

	memset(&plan, 0, sizeof plan);
	vb_target_plan(t, c->cfg, first, &plan);
	plan.bs_bytes = c->cfg->bs_bytes;
	plan.count_blocks = c->cfg->count_blocks;
	plan.sync = c->cfg->sync;
	plan.run = number + (warmup ? 0 : c->cfg->warmup_runs);
	plan.source = src;
	plan.interval_secs = c->cfg->interval_secs;
	plan.stop = &vb_stop_flag;
	plan.watch = &c->watch;
	plan.latency = &c->scratch;
	plan.tick = tick;
	plan.tick_arg = c;
	atomic_store(&c->watch.run, number);
	atomic_store(&c->warmup, warmup);
	c->next_progress_ns = vb_now_ns() + 1000000000ULL;
	int rc = vb_write_run(c->io->ops, &plan, &r);
	erase_progress(c);
	r.run = number;
	r.warmup = warmup;
	r.allocating = c->cfg->overwrite && first;
	if (record_run(c, &r) != 0)
		return -1;
	return rc;
}

/* Reads the stop flag into the session; non-zero when no further run may start. */
static int stopped(struct vb_session *s)
{
	sig_atomic_t flag = vb_stop_flag;

	if (flag > 0)
		s->stop_signal = (int)flag;
	else if (flag == VB_STOPFLAG_TIMEOUT)
		s->failed = 1;
	return flag != 0;
}

static int run_all(struct run_ctx *c, struct vb_target *t, struct vb_source_buf *src)
{
	struct vb_session *s = c->session;
	uint64_t total = c->cfg->warmup_runs + c->cfg->runs;

	for (uint64_t i = 0; i < total; i++) {
		/* A signal that arrived during the last sync leaves that run complete; the
		 * next one is not started at all rather than recorded as empty. */
		if (stopped(s))
			return -1;
		int warmup = i < c->cfg->warmup_runs;
		uint64_t number = warmup ? i + 1 : i + 1 - c->cfg->warmup_runs;
		if (one_run(c, t, src, number, warmup, i == 0) == 0)
			continue;
		if (s->out_of_memory) {
			s->failed = 1;
			return -1;
		}
		const struct vb_run *last = &s->runs[s->n_runs - 1];
		s->stop_signal = last->stop == VB_STOP_SIGNAL ? last->signo : 0;
		s->failed = last->stop != VB_STOP_SIGNAL;
		return -1;
	}
	/* A signal during the last run's sync: every run is complete, but the shell must
	 * still learn of the signal. */
	return stopped(s) ? -1 : 0;
}

/* Starts the watchdog with every signal blocked, so that signals are delivered to the
 * main thread, whose blocked write they must interrupt. */
static int start_watchdog(struct run_ctx *c, pthread_t *wd)
{
	sigset_t all, old;

	if (c->cfg->stall_secs <= 0 && c->cfg->timeout_secs <= 0)
		return 0;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(wd, NULL, watchdog, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc == 0;
}

static void stop_watchdog(struct run_ctx *c, pthread_t wd)
{
	pthread_mutex_lock(&c->lock);
	c->quit = 1;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	pthread_join(wd, NULL);
}

int vb_runner_run(const struct vb_config *cfg, struct vb_target *t,
		  const struct vb_runner_io *io, struct vb_session *s)
{
	struct vb_source_buf src;
	struct run_ctx c;
	pthread_t wd;
	long page = sysconf(_SC_PAGESIZE);
	size_t align = t->align_bytes > 4096 ? t->align_bytes : 4096;

	memset(s, 0, sizeof *s);
	vb_hist_init(&s->latency);
	if (page > 0 && (size_t)page > align)
		align = (size_t)page;
	if (vb_source_init(&src, cfg->source, (size_t)cfg->bs_bytes, align, cfg->seed,
			   cfg->seed_given) != 0)
		return -2;
	memset(&c, 0, sizeof c);
	c.cfg = cfg;
	c.io = io;
	c.session = s;
	c.total_runs = cfg->runs;
	c.main_thread = pthread_self();
	pthread_mutex_init(&c.lock, NULL);
	pthread_mutex_init(&c.session_lock, NULL);
	pthread_cond_init(&c.wake, NULL);
	int have_wd = start_watchdog(&c, &wd);
	int rc = run_all(&c, t, &src);
	if (have_wd)
		stop_watchdog(&c, wd);
	pthread_cond_destroy(&c.wake);
	pthread_mutex_destroy(&c.session_lock);
	pthread_mutex_destroy(&c.lock);
	vb_source_free(&src);
	return rc;
}

void vb_session_free(struct vb_session *s)
{
	for (uint64_t i = 0; i < s->n_runs; i++)
		vb_run_free(&s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->n_runs = 0;
	s->cap_runs = 0;
}
