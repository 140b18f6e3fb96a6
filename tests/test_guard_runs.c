/* The runs under the guard: each comes back to the guard as it finishes; a stalled call
 * is reported; --timeout interrupts it, or the guard leaves behind a child stuck beyond
 * interruption, promptly, with the runs it received; a stop reaches the child. The
 * session's child runs the fake ops table, with the real clock, since the watch reads
 * it; what the child saw comes back through memory shared with it. */
#include "vb_test.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fake_io.h"
#include "output/vb_output.h"
#include "bench/vb_guard.h"

static struct fake fk;
static struct vb_io_ops ops;
static struct vb_config cfg;
static struct vb_target tgt;
static struct vb_shared *sh;
static struct vb_runlog got;                /* the guard's copy of the runs */

/* What the child saw, in memory the test shares with it. */
static struct child {
	int shown;                 /* runs shown through on_run */
	uint64_t n_runs;           /* runs in the child's own log */
	enum vb_stop last_stop;    /* how the last of them ended */
	bool out_of_memory;
	enum vb_status st;
	struct vb_engine_result res;
} *kid;

static void on_run(void *arg, const struct vb_run *r)
{
	(void)arg;
	(void)r;
	kid->shown++;
}

static int session(void *arg, int chan)
{
	FILE *status = arg;
	struct vb_runs_io io = {&ops, vb_out_live(status), false, on_run, NULL};
	struct vb_runlog own;

	vb_runlog_init(&own);
	kid->st = vb_guard_runs(&cfg, &tgt, sh, &io, chan, &own, &kid->res);
	kid->n_runs = own.n_runs;
	if (own.n_runs > 0)
		kid->last_stop = own.runs[own.n_runs - 1].stop;
	kid->out_of_memory = own.out_of_memory;
	fflush(status);
	vb_runlog_free(&own);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	fk.real_clock = true;
	ops = fake_ops(&fk);
	fake_session(&cfg, &tgt);
	cfg.stall_secs = 0;
	if (sh == NULL)
		sh = vb_shared_new();
	if (kid == NULL)
		kid = vb_os_shared(sizeof *kid);
	assert_non_null(sh);
	assert_non_null(kid);
	memset(sh, 0, sizeof *sh);
	memset(kid, 0, sizeof *kid);
	kid->st = -1;
	vb_os_signals_install(&sh->flags);
	/* No test here bounds the time it takes; a guard that never ends is ended by this
	 * alarm instead (a stop signal: the test then fails on what it finds). */
	alarm(120);
	vb_runlog_init(&got);
	vb_guard_set_grow(NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	vb_runlog_free(&got);
	return 0;
}

static void say(const char *msg)
{
	fprintf(stderr, "guard: %s\n", msg);
}

/* Runs the session under the guard; the runs' messages go to status (in the child,
 * where the session is a process: its stderr is the guard's pipe). */
static enum vb_status guard(FILE *status, FILE *stall, struct vb_guard_end *end)
{
	return vb_guard_run(&cfg, sh, cfg.target_path, session, status, say,
			    vb_out_live(stall), &got, end);
}

static void read_all(FILE *f, char *text, size_t n)
{
	rewind(f);
	size_t k = fread(text, 1, n - 1, f);
	text[k] = '\0';
	fclose(f);
}

static void test_runs_come_back_whole(void **state)
{
	struct vb_guard_end end;
	(void)state;
	cfg.interval_secs = 0.01;
	assert_int_equal(guard(stderr, stderr, &end), VB_OK);
	assert_int_equal(kid->st, VB_OK);
	assert_int_equal(kid->shown, 3);
	assert_int_equal(kid->n_runs, 3);
	assert_int_equal(got.n_runs, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(got.runs[i].run, (uint64_t)i + 1);
		assert_int_equal(got.runs[i].bytes, 40960);
		assert_int_equal(got.runs[i].stop, VB_STOP_DONE);
		assert_true(got.runs[i].n_intervals > 0);   /* the samples came along */
	}
	assert_int_equal(got.latency.count, 30);   /* and the histograms */
	assert_false(end.runs_left || kid->res.failed);
}

/* An allocator that fails its fail_at-th call (counting from 1) and no other. */
static int alloc_calls, fail_at;

static void *failing_realloc(void *p, size_t n)
{
	return ++alloc_calls == fail_at ? NULL : realloc(p, n);
}

/* One rule for memory: a run that cannot be kept whole, for want of memory for its
 * interval samples (call 1) or its place in the session (call 2), fails the session,
 * and the mark stays although the later runs are kept and shown. */
static void test_a_run_that_cannot_be_kept_fails_the_session(void **state)
{
	struct vb_guard_end end;
	(void)state;
	cfg.interval_secs = 1;   /* one sample a run: its last */
	for (fail_at = 1; fail_at <= 2; fail_at++) {
		alloc_calls = 0;
		kid->shown = 0;
		vb_runlog_free(&got);
		vb_runlog_init(&got);
		vb_guard_set_grow(failing_realloc);
		assert_int_equal(guard(stderr, stderr, &end), VB_OK);
		assert_int_equal(kid->st, VB_E_IO);
		assert_true(kid->res.failed);
		assert_true(kid->out_of_memory);
		assert_int_equal(kid->n_runs, 2);   /* runs 2 and 3 */
		assert_int_equal(kid->shown, 2);
		assert_int_equal(got.n_runs, 3);    /* the guard kept all three */
	}
}

/* The channel above FD_SETSIZE (1024), as when vbench runs with many descriptors
 * open: the guard still waits on it and reads every run. */
static void test_channel_above_fd_setsize(void **state)
{
	struct vb_guard_end end;
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
	/* Every descriptor below 1030 taken: the pipes get descriptors above. */
	while (n < 1100) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			break;
		fds[n++] = fd;
		if (fd >= 1030)
			break;
	}
	assert_true(n > 0 && fds[n - 1] >= 1000);
	enum vb_status st = guard(stderr, stderr, &end);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	setrlimit(RLIMIT_NOFILE, &old);
	assert_int_equal(st, VB_OK);
	assert_int_equal(got.n_runs, 3);
}

static void test_stall_warned_then_timeout_interrupts(void **state)
{
	struct vb_guard_end end;
	char text[4096];
	FILE *stall = tmpfile();
	(void)state;
	assert_non_null(stall);
	fk.block_at = 13;   /* the third write of run 2 */
	cfg.stall_secs = 0.2;
	cfg.timeout_secs = 0.7;
	assert_int_equal(guard(stderr, stall, &end), VB_OK);
	assert_int_equal(kid->st, VB_E_IO);
	assert_true(kid->res.failed);
	assert_false(end.runs_left);
	assert_int_equal(got.n_runs, 2);
	assert_int_equal(got.runs[1].stop, VB_STOP_TIMEOUT);
	assert_int_equal(got.runs[1].full_blocks, 2);
	read_all(stall, text, sizeof text);
	if (strstr(text, "stall: run 2: write at offset 8192 has not returned after") == NULL)
		fail_msg("no stall warning in: %s", text);
}

/* A call stuck beyond interruption in run 2: the guard leaves the child behind 2 s
 * after --timeout, holding run 1, which it received, to report. */
static void test_unkillable_call_is_left_behind(void **state)
{
	struct vb_guard_end end;
	(void)state;
	fk.block_at = 12;
	fk.block_ignores_signals = true;
	cfg.timeout_secs = 0.3;
	uint64_t t0 = vb_os_now_ns();
	assert_int_equal(guard(stderr, stderr, &end), VB_E_IO);
	double took = (double)(vb_os_now_ns() - t0) / 1e9;
	assert_true(end.runs_left);
	assert_int_equal(end.stop_signal, 0);
	/* --timeout, then the two seconds of grace, then out (and not the fake's forever:
	 * the alarm of setup would end that). */
	assert_true(took >= 2.2);
	assert_int_equal(got.n_runs, 1);
	assert_int_equal(got.runs[0].stop, VB_STOP_DONE);
	assert_int_equal(got.runs[0].bytes, 40960);
}

/* A session thread left behind (stuck beyond interruption) whose call returns after the
 * guard has returned: it must still find its own channel, not one from the guard's
 * dead stack frame. The frame is filled with the number of a pipe of ours first: a
 * thread that read it there would send its run to that pipe. Threads only. */
static __attribute__((noinline)) int scribble(int fd)
{
	volatile int area[8192];
	for (size_t i = 0; i < sizeof area / sizeof area[0]; i++)
		area[i] = fd;
	return area[fd % 8192];
}

static void test_abandoned_thread_keeps_its_arguments(void **state)
{
	struct vb_guard_end end;
	static atomic_int unblock;
	int fds[2];
	char c;
	(void)state;
	if (vb_os_child_is_process()) {
		print_message("skip: the session is a process here, killed when left behind\n");
		skip();
	}
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	atomic_store(&unblock, 0);
	fk.block_at = 2;
	fk.block_ignores_signals = true;
	fk.unblock = &unblock;
	cfg.timeout_secs = 0.3;
	assert_int_equal(guard(stderr, stderr, &end), VB_E_IO);
	assert_true(end.runs_left);
	(void)scribble(fds[1]);
	atomic_store(&unblock, 1);   /* the stuck call returns (EIO): the thread goes on */
	struct timespec ts = {0, 500000000};
	nanosleep(&ts, NULL);
	assert_int_equal(read(fds[0], &c, 1), -1);   /* nothing came to our pipe */
	close(fds[0]);
	close(fds[1]);
}

/* A stop reaches the child, blocked in a call, which ends its runs; the guard then dies
 * of the stop, as vbench does (so the guard runs in a process of the test's own). */
static void test_stop_reaches_the_child(void **state)
{
	struct vb_guard_end end;
	int st;
	(void)state;
	fk.block_at = 15;   /* blocks (interruptibly) in run 2 ... */
	/* ... and a stop arrives meanwhile, as a signal handler would record it. */
	fk.poke = &sh->flags.stop;
	fk.poke_at = 15;
	fk.poke_value = SIGTERM;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(guard(stderr, stderr, &end) == VB_OK ? 0 : 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_int_equal(kid->res.stop_signal, SIGTERM);
	assert_int_equal(kid->n_runs, 2);
	assert_int_equal(kid->last_stop, VB_STOP_SIGNAL);
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
		T(test_stop_reaches_the_child),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
