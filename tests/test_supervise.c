/* The supervisor: runs come back from the worker as they finish; a stalled call is
 * reported; --timeout interrupts it, or leaves behind a worker stuck beyond
 * interruption, promptly; a stop reaches the worker; a worker that dies is noticed.
 * The worker runs the fake ops table, with the real clock, since the watchdog reads it. */
#include "vb_test.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "fake_io.h"
#include "output/vb_output.h"
#include "bench/vb_supervise.h"

static struct fake fk;
static struct vb_io_ops ops;
static struct vb_config cfg;
static struct vb_target tgt;
static struct vb_shared *sh;
static struct vb_runlog session;
static void *(*grow)(void *p, size_t n);   /* what supervise() hands in */
static int shown;

static void on_run(void *arg, const struct vb_run *r)
{
	(void)arg;
	(void)r;
	shown++;
}

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	fk.real_clock = true;
	ops = fake_ops(&fk);
	vb_config_defaults(&cfg);
	cfg.target_path = "/fake";
	cfg.bs_bytes = 4096;
	cfg.count_blocks = 10;
	cfg.runs = 3;
	cfg.stall_secs = 0;
	memset(&tgt, 0, sizeof tgt);
	tgt.kind = VB_TGT_DIR;
	tgt.anon = true;
	tgt.dirfd = FAKE_DIRFD;
	tgt.held_fd = -1;
	if (sh == NULL)
		sh = vb_shared_new();
	assert_non_null(sh);
	memset(sh, 0, sizeof *sh);
	vb_os_signals_install(&sh->flags);
	/* No test here bounds the time it takes; a supervisor that never ends is ended by
	 * this alarm instead (a stop signal: the test then fails on what it finds). */
	alarm(120);
	vb_runlog_init(&session);
	grow = NULL;
	shown = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	vb_runlog_free(&session);
	return 0;
}

static enum vb_status supervise(FILE *status, struct vb_supervise_result *res)
{
	struct vb_supervise_io io = {&ops, vb_out_live(status), false, on_run, NULL, -1, -1, grow};
	struct vb_err err;
	return vb_supervise(&cfg, &tgt, sh, &io, &session, res, &err);
}

static void read_all(FILE *f, char *text, size_t n)
{
	rewind(f);
	size_t got = fread(text, 1, n - 1, f);
	text[got] = '\0';
	fclose(f);
}

static void test_runs_come_back_whole(void **state)
{
	struct vb_supervise_result res;
	(void)state;
	cfg.interval_secs = 0.01;
	assert_int_equal(supervise(stderr, &res), VB_OK);
	assert_int_equal(session.n_runs, 3);
	assert_int_equal(shown, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(session.runs[i].run, (uint64_t)i + 1);
		assert_int_equal(session.runs[i].bytes, 40960);
		assert_int_equal(session.runs[i].stop, VB_STOP_DONE);
	}
	assert_int_equal(session.latency.count, 30);   /* the histograms came along */
	assert_false(res.aborted || res.failed || res.worker_lost);
}

/* An allocator that fails its fail_at-th call (counting from 1) and no other. */
static int alloc_calls, fail_at;

static void *failing_realloc(void *p, size_t n)
{
	return ++alloc_calls == fail_at ? NULL : realloc(p, n);
}

/* One rule for memory: a run that cannot be kept whole, for want of memory for its
 * interval samples (call 1) or its place in the session (call 2), fails the session,
 * and the mark stays although the later runs are kept. */
static void test_a_run_that_cannot_be_kept_fails_the_session(void **state)
{
	struct vb_supervise_result res;
	(void)state;
	cfg.interval_secs = 1;   /* one sample a run: its last */
	for (fail_at = 1; fail_at <= 2; fail_at++) {
		alloc_calls = 0;
		vb_runlog_free(&session);
		vb_runlog_init(&session);
		grow = failing_realloc;
		assert_int_equal(supervise(stderr, &res), VB_E_IO);
		assert_true(res.failed);
		assert_true(session.out_of_memory);
		assert_int_equal(session.n_runs, 2);   /* runs 2 and 3 */
		assert_int_equal(session.runs[0].run, 2);
		assert_true(session.runs[0].n_intervals > 0);
	}
}

/* The worker's channel above FD_SETSIZE (1024), as when vbench runs with many
 * descriptors open: the supervisor still waits on it and reads every run. */
static void test_channel_above_fd_setsize(void **state)
{
	struct vb_supervise_result res;
	struct rlimit old, more;
	int fds[1100], n = 0;
	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	more = old;
	if (more.rlim_cur < 1100)
		more.rlim_cur = 1100;
	if (more.rlim_max != RLIM_INFINITY && more.rlim_max < more.rlim_cur) {
		print_message("skip: at most %llu descriptors here\n",
			      (unsigned long long)more.rlim_max);
		skip();
	}
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &more), 0);
	/* Every descriptor below 1030 taken: the channel's pipe gets two above. */
	while (n < 1100) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			break;
		fds[n++] = fd;
		if (fd >= 1030)
			break;
	}
	assert_true(n > 0 && fds[n - 1] >= 1000);
	enum vb_status st = supervise(stderr, &res);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	setrlimit(RLIMIT_NOFILE, &old);
	assert_int_equal(st, VB_OK);
	assert_int_equal(session.n_runs, 3);
}

static void test_stall_warned_then_timeout_interrupts(void **state)
{
	struct vb_supervise_result res;
	char text[4096];
	FILE *status = tmpfile();
	(void)state;
	assert_non_null(status);
	fk.block_at = 13;   /* the third write of run 2 */
	cfg.stall_secs = 0.2;
	cfg.timeout_secs = 0.7;
	assert_int_equal(supervise(status, &res), VB_E_IO);
	assert_true(res.failed);
	assert_false(res.aborted);
	assert_int_equal(session.n_runs, 2);
	assert_int_equal(session.runs[1].stop, VB_STOP_TIMEOUT);
	assert_int_equal(session.runs[1].full_blocks, 2);
	read_all(status, text, sizeof text);
	if (strstr(text, "stall: run 2: write at offset 8192 has not returned after") == NULL)
		fail_msg("no stall warning in: %s", text);
}

static void test_unkillable_call_is_left_behind(void **state)
{
	struct vb_supervise_result res;
	(void)state;
	fk.block_at = 2;
	fk.block_ignores_signals = true;
	cfg.timeout_secs = 0.3;
	uint64_t t0 = vb_os_now_ns();
	assert_int_equal(supervise(stderr, &res), VB_E_IO);
	double took = (double)(vb_os_now_ns() - t0) / 1e9;
	assert_true(res.aborted);
	assert_true(res.failed);
	assert_int_equal(res.stop_signal, 0);
	/* --timeout, then the two seconds of grace, then out (and not the fake's forever:
	 * the alarm of setup would end that). */
	assert_true(took >= 2.2);
	assert_int_equal(session.n_runs, 0);
}

/* Overwrites the stack below the caller with copies of fd, where the frames of the
 * supervisor just returned from were. */
static __attribute__((noinline)) int scribble(int fd)
{
	volatile int area[8192];
	for (size_t i = 0; i < sizeof area / sizeof area[0]; i++)
		area[i] = fd;
	return area[fd % 8192];
}

/* A worker thread left behind (stuck beyond interruption) whose call returns after the
 * supervisor has returned: it must still find its own channel, not read one from the
 * supervisor's dead stack frame. The frame is filled with the number of a pipe of ours
 * first: a worker that read it there would send its run to that pipe. Threads only. */
static void test_abandoned_thread_keeps_its_arguments(void **state)
{
	struct vb_supervise_result res;
	static atomic_int unblock;
	int fds[2];
	char c;
	(void)state;
	if (vb_os_worker_is_process()) {
		print_message("skip: the worker is a process here, killed when left behind\n");
		skip();
	}
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	atomic_store(&unblock, 0);
	fk.block_at = 2;
	fk.block_ignores_signals = true;
	fk.unblock = &unblock;
	cfg.timeout_secs = 0.3;
	assert_int_equal(supervise(stderr, &res), VB_E_IO);
	assert_true(res.aborted);
	(void)scribble(fds[1]);
	atomic_store(&unblock, 1);   /* the stuck call returns (EIO): the worker goes on */
	struct timespec ts = {0, 500000000};
	nanosleep(&ts, NULL);
	assert_int_equal(read(fds[0], &c, 1), -1);   /* nothing came to our pipe */
	close(fds[0]);
	close(fds[1]);
}

static void test_stop_reaches_the_worker(void **state)
{
	struct vb_supervise_result res;
	(void)state;
	fk.block_at = 15;   /* blocks (interruptibly) in run 2 ... */
	/* ... and a stop arrives meanwhile, as a signal handler would record it. */
	fk.poke = &sh->flags.stop;
	fk.poke_at = 15;
	fk.poke_value = SIGTERM;
	assert_int_equal(supervise(stderr, &res), VB_E_IO);
	assert_int_equal(res.stop_signal, SIGTERM);
	assert_false(res.aborted);   /* it stopped: not left behind after the grace */
	assert_int_equal(session.n_runs, 2);
	assert_int_equal(session.runs[1].stop, VB_STOP_SIGNAL);
}

static void test_worker_death_is_noticed(void **state)
{
	struct vb_supervise_result res;
	(void)state;
	if (!vb_os_worker_is_process()) {
		print_message("skip: the worker is a thread here; its death would be ours\n");
		skip();
	}
	fk.crash_at = 25;   /* the worker dies during run 3, as a crash would end it */
	assert_int_equal(supervise(stderr, &res), VB_E_IO);
	assert_int_equal(res.worker_signal, SIGKILL);
	assert_true(res.failed);
	assert_false(res.aborted);
	assert_int_equal(session.n_runs, 2);   /* what completed is kept */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_runs_come_back_whole),
		T(test_a_run_that_cannot_be_kept_fails_the_session),
		T(test_channel_above_fd_setsize),
		T(test_stall_warned_then_timeout_interrupts),
		T(test_unkillable_call_is_left_behind),
		T(test_abandoned_thread_keeps_its_arguments),
		T(test_stop_reaches_the_worker),
		T(test_worker_death_is_noticed),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
