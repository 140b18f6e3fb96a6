/* The runner: run numbering, warm-ups, signals and the stall watchdog, with fake I/O. */
#include "vb_test.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vb_platform.h"
#include "vb_runner.h"

/* A fake whose write number `block_at` blocks: interruptibly, or ignoring signals. */
struct fake {
	int writes;
	int block_at;
	int ignore_signals;
	int raise_at;           /* write number at which SIGINT is raised, or 0 */
	atomic_int released;
	int aborts;
};

static struct fake fk;

static int f_open(void *ctx, const char *p, int fl, mode_t m)
{
	(void)ctx; (void)p; (void)fl; (void)m;
	return 5;
}

static ssize_t f_write(void *ctx, int fd, const void *buf, size_t n)
{
	struct fake *f = ctx;
	(void)fd; (void)buf;
	f->writes++;
	if (f->raise_at && f->writes == f->raise_at)
		raise(SIGINT);
	if (f->block_at && f->writes == f->block_at) {
		struct timespec ts = {30, 0};
		if (!f->ignore_signals) {
			if (nanosleep(&ts, NULL) != 0 && errno == EINTR)
				return -1;
			return (ssize_t)n;
		}
		/* Like a disk in uninterruptible sleep: only the abort callback frees it. */
		while (!atomic_load(&f->released)) {
			struct timespec tick = {0, 10000000};
			nanosleep(&tick, NULL);
		}
		errno = EIO;
		return -1;
	}
	return (ssize_t)n;
}

static int f_ok(void *ctx, int fd)
{
	(void)ctx; (void)fd;
	return 0;
}

static int f_unlink(void *ctx, const char *p)
{
	(void)ctx; (void)p;
	return 0;
}

static int f_fstat(void *ctx, int fd, struct stat *st)
{
	(void)ctx; (void)fd;
	memset(st, 0, sizeof *st);
	return 0;
}

static int f_dup(void *ctx, int fd)
{
	(void)ctx;
	return fd + 1;
}

static int f_ftruncate(void *ctx, int fd, off_t len)
{
	(void)ctx; (void)fd; (void)len;
	return 0;
}

static const struct vb_io_ops ops = {f_open, f_write, f_ok, f_ok, f_ok, f_unlink, f_fstat, f_dup,
				     f_ftruncate, &fk};

static struct vb_config cfg;
static struct vb_target tgt;
static char seen[64];
static int n_seen;

static void on_run(void *arg, const struct vb_run *r)
{
	(void)arg;
	seen[n_seen++] = r->warmup ? 'w' : (r->stop == VB_STOP_DONE ? 'r' : 'x');
}

static void on_abort(void *arg)
{
	(void)arg;
	fk.aborts++;
	atomic_store(&fk.released, 1);
}

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 4096;
	cfg.count_blocks = 10;
	cfg.runs = 3;
	cfg.stall_secs = 0;
	memset(&tgt, 0, sizeof tgt);
	tgt.kind = VB_TGT_CHARDEV;
	strcpy(tgt.path, "/fake");
	memset(seen, 0, sizeof seen);
	n_seen = 0;
	vb_stop_flag = 0;
	vb_runner_install_signals();
	return 0;
}

static void run(FILE *status, struct vb_session *s, int want_rc)
{
	struct vb_runner_io io = {&ops, status, 0, on_run, NULL, on_abort};
	assert_int_equal(vb_runner_run(&cfg, &tgt, &io, s), want_rc);
}

static void test_runs_and_warmups(void **state)
{
	struct vb_session s;
	(void)state;
	cfg.warmup_runs = 2;
	run(stderr, &s, 0);
	assert_int_equal(s.n_runs, 5);
	assert_string_equal(seen, "wwrrr");
	assert_int_equal(s.runs[0].run, 1);
	assert_int_equal(s.runs[1].run, 2);
	assert_int_equal(s.runs[2].run, 1);
	assert_int_equal(s.runs[4].run, 3);
	assert_int_equal(fk.writes, 50);
	assert_int_equal(s.stop_signal, 0);
	vb_session_free(&s);
}

static void test_sigint_stops_promptly(void **state)
{
	struct vb_session s;
	(void)state;
	fk.raise_at = 14; /* during run 2 */
	run(stderr, &s, -1);
	assert_int_equal(s.stop_signal, SIGINT);
	assert_false(s.failed);
	assert_string_equal(seen, "rx");
	assert_int_equal(s.runs[1].stop, VB_STOP_SIGNAL);
	assert_int_equal(s.runs[1].full_blocks, 4); /* the write that saw the signal counts */
	assert_int_equal(fk.writes, 14);
	vb_session_free(&s);
}

static void test_signal_between_runs_starts_no_new_run(void **state)
{
	struct vb_session s;
	(void)state;
	fk.raise_at = 10; /* the last write of run 1: the run completes, run 2 never starts */
	run(stderr, &s, -1);
	assert_int_equal(s.stop_signal, SIGINT);
	assert_string_equal(seen, "r");
	assert_int_equal(s.n_runs, 1);
	assert_int_equal(fk.writes, 10);
	vb_session_free(&s);
}

static void test_watchdog_warns_then_times_out(void **state)
{
	struct vb_session s;
	char text[4096] = {0};
	FILE *status = tmpfile();
	(void)state;
	assert_non_null(status);
	fk.block_at = 3;
	cfg.stall_secs = 0.2;
	cfg.timeout_secs = 0.7;
	uint64_t t0 = vb_now_ns();
	run(status, &s, -1);
	double took = (double)(vb_now_ns() - t0) / 1e9;
	assert_true(took < 10.0); /* far below the fake's 30 s block */
	assert_true(s.failed);
	assert_int_equal(s.runs[0].stop, VB_STOP_TIMEOUT);
	assert_int_equal(s.runs[0].full_blocks, 2);
	rewind(status);
	size_t n = fread(text, 1, sizeof text - 1, status);
	text[n] = '\0';
	fclose(status);
	if (strstr(text, "stall: run 1: write at offset 8192 has not returned after") == NULL)
		fail_msg("no stall warning in: %s", text);
	assert_int_equal(fk.aborts, 0);
	vb_session_free(&s);
}

static void test_watchdog_gives_up_on_unkillable_call(void **state)
{
	struct vb_session s;
	(void)state;
	fk.block_at = 2;
	fk.ignore_signals = 1;
	cfg.timeout_secs = 0.3;
	run(stderr, &s, -1);
	/* The abort callback ran (in vbench it prints the summary and exits 3). */
	assert_int_equal(fk.aborts, 1);
	assert_true(s.failed);
	vb_session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_runs_and_warmups, setup),
		cmocka_unit_test_setup(test_sigint_stops_promptly, setup),
		cmocka_unit_test_setup(test_signal_between_runs_starts_no_new_run, setup),
		cmocka_unit_test_setup(test_watchdog_warns_then_times_out, setup),
		cmocka_unit_test_setup(test_watchdog_gives_up_on_unkillable_call, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
