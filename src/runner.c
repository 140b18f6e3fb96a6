#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
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

/* SIGALRM only interrupts a blocked call on the watchdog's behalf. */
static void on_wake_signal(int signo)
{
	(void)signo;
}

static void install(int signo, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR so the flag is seen */
	sigaction(signo, &sa, NULL);
}

void vb_runner_install_signals(void)
{
	install(SIGINT, on_stop_signal);
	install(SIGTERM, on_stop_signal);
	install(SIGHUP, on_stop_signal);
	install(SIGUSR1, on_status_signal);
	install(SIGALRM, on_wake_signal);
#if defined(SIGINFO)
	install(SIGINFO, on_status_signal);
#endif
}

/* State shared by the write loop's tick callback, the watchdog and the runner. */
struct run_ctx {
	const struct vb_config *cfg;
	const struct vb_runner_io *io;
	struct vb_watch watch;
	uint64_t total_runs;
	uint64_t next_progress_ns;
	uint64_t last_progress_ns;   /* when the progress line was last drawn, this run */
	uint64_t last_progress_bytes;
	int progress_drawn;
	pthread_t main_thread;
	pthread_mutex_t lock;       /* guards `quit` and the watchdog's sleep */
	pthread_cond_t wake;
	int quit;
};

static void tick(void *arg, const struct vb_run *sofar, uint64_t now, uint64_t start)
{
	struct run_ctx *c = arg;
	char line[256];
	uint64_t total = c->cfg->bs_bytes * c->cfg->count_blocks;

	if (status_flag) {
		status_flag = 0;
		vb_format_status(line, sizeof line, sofar->bytes, (double)(now - start) / 1e9);
		fprintf(c->io->status, "%s%s\n", c->progress_drawn ? "\r\033[K" : "", line);
		c->progress_drawn = 0;
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
	c->progress_drawn = 1;
}

static void erase_progress(struct run_ctx *c)
{
	if (c->progress_drawn) {
		fputs("\r\033[K", c->io->status);
		fflush(c->io->status);
		c->progress_drawn = 0;
	}
}

static const char *stage_name(int stage)
{
	return stage == VB_STAGE_SYNC ? "sync" : stage == VB_STAGE_OPEN ? "open" : "write";
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

/* Watches the call in progress: warns when it stalls, aborts it at --timeout. */
static void *watchdog(void *arg)
{
	struct run_ctx *c = arg;
	uint64_t warned_start = 0, next_warn_ns = 0, abort_ns = 0;
	uint64_t stall_ns = (uint64_t)(c->cfg->stall_secs * 1e9);
	uint64_t timeout_ns = (uint64_t)(c->cfg->timeout_secs * 1e9);

	while (!watchdog_sleep(c, 100)) {
		uint64_t start = atomic_load(&c->watch.call_start_ns), now = vb_now_ns();
		if (start == 0 || now < start)
			continue;
		uint64_t held = now - start;
		if (stall_ns > 0 && held >= stall_ns) {
			if (warned_start != start) {
				warned_start = start;
				next_warn_ns = start + stall_ns;
			}
			if (now >= next_warn_ns) {
				fprintf(c->io->status, "%svbench: stall: run %llu: %s at offset %llu has "
					"not returned after %.0f s\n", c->progress_drawn ? "\n" : "",
					(unsigned long long)atomic_load(&c->watch.run),
					stage_name(atomic_load(&c->watch.stage)),
					(unsigned long long)atomic_load(&c->watch.offset_bytes),
					(double)held / 1e9);
				fflush(c->io->status);
				next_warn_ns += stall_ns;
			}
		}
		if (timeout_ns > 0 && held >= timeout_ns) {
			if (abort_ns == 0) {
				abort_ns = now;
				vb_stop_flag = VB_STOPFLAG_TIMEOUT;
				pthread_kill(c->main_thread, SIGALRM);
			} else if (now - abort_ns >= 2000000000ULL && c->io->on_abort != NULL) {
				/* The call ignores signals (a disk in uninterruptible sleep): report
				 * from here, since the main thread may never come back. */
				c->io->on_abort(c->io->arg);
			} else {
				pthread_kill(c->main_thread, SIGALRM);
			}
		}
	}
	return NULL;
}

static int push_run(struct vb_session *s, const struct vb_run *r)
{
	struct vb_run *n = realloc(s->runs, (s->n_runs + 1) * sizeof *s->runs);
	if (n == NULL)
		return -1;
	s->runs = n;
	s->runs[s->n_runs++] = *r;
	return 0;
}

/* Runs one (warm-up or measured) run and records it; returns vb_write_run's result. */
static int one_run(struct run_ctx *c, struct vb_target *t, struct vb_source_buf *src,
		   uint64_t number, int warmup, int first, struct vb_session *s)
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
	plan.tick = tick;
	plan.tick_arg = c;
	c->next_progress_ns = vb_now_ns() + 1000000000ULL;
	int rc = vb_write_run(c->io->ops, &plan, &r);
	erase_progress(c);
	r.run = number;
	r.warmup = warmup;
	r.allocating = c->cfg->overwrite && first;
	if (push_run(s, &r) != 0) {
		vb_run_free(&r);
		return -1;
	}
	if (c->io->on_run != NULL)
		c->io->on_run(c->io->arg, &s->runs[s->n_runs - 1]);
	return rc;
}

static int run_all(struct run_ctx *c, struct vb_target *t, struct vb_source_buf *src,
		   struct vb_session *s)
{
	uint64_t total = c->cfg->warmup_runs + c->cfg->runs;
	for (uint64_t i = 0; i < total; i++) {
		/* A signal that arrived during the last sync leaves that run complete; the
		 * next one is not started at all rather than recorded as empty. */
		sig_atomic_t flag = vb_stop_flag;
		if (flag != 0) {
			s->stop_signal = flag > 0 ? (int)flag : 0;
			s->failed = flag == VB_STOPFLAG_TIMEOUT;
			return -1;
		}
		int warmup = i < c->cfg->warmup_runs;
		uint64_t number = warmup ? i + 1 : i + 1 - c->cfg->warmup_runs;
		if (one_run(c, t, src, number, warmup, i == 0, s) != 0) {
			const struct vb_run *last = &s->runs[s->n_runs - 1];
			s->stop_signal = last->stop == VB_STOP_SIGNAL ? last->signo : 0;
			s->failed = last->stop != VB_STOP_SIGNAL;
			return -1;
		}
	}
	return 0;
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
	if (page > 0 && (size_t)page > align)
		align = (size_t)page;
	if (vb_source_init(&src, cfg->source, (size_t)cfg->bs_bytes, align, cfg->seed,
			   cfg->seed_given) != 0)
		return -2;
	s->pool_bytes = src.pool_bytes;
	memset(&c, 0, sizeof c);
	c.cfg = cfg;
	c.io = io;
	c.total_runs = cfg->runs;
	c.main_thread = pthread_self();
	pthread_mutex_init(&c.lock, NULL);
	pthread_cond_init(&c.wake, NULL);
	int have_wd = (cfg->stall_secs > 0 || cfg->timeout_secs > 0) &&
		      pthread_create(&wd, NULL, watchdog, &c) == 0;
	int rc = run_all(&c, t, &src, s);
	if (have_wd) {
		pthread_mutex_lock(&c.lock);
		c.quit = 1;
		pthread_cond_signal(&c.wake);
		pthread_mutex_unlock(&c.lock);
		pthread_join(wd, NULL);
	}
	pthread_cond_destroy(&c.wake);
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
}
