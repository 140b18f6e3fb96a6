/* The guard, on sessions that end badly in ways they cannot report themselves: killed
 * from outside, or with output that could not reach the user's standard output. Each
 * session here is a small function run in the guard's child process. */
#include "vb_test.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bench/vb_guard.h"
#include "os/vb_os.h"

static struct vb_shared *sh;
static struct vb_config cfg;
static char said[4096];

static void say(const char *msg)
{
	size_t len = strlen(said);
	snprintf(said + len, sizeof said - len, "%s\n", msg);
}

static int setup(void **state)
{
	(void)state;
	if (sh == NULL)
		sh = vb_shared_new();
	assert_non_null(sh);
	memset(sh, 0, sizeof *sh);
	vb_config_defaults(&cfg);
	cfg.target_path = "/mnt/k.img";
	cfg.stall_secs = 0;
	said[0] = '\0';
	alarm(60);   /* a guard that never returns fails the test instead of hanging it */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	return 0;
}

static enum vb_status guard(int (*session)(void *arg, int chan), int *status)
{
	struct vb_runlog log;
	struct vb_guard_end end;
	struct vb_live live = {0};

	vb_runlog_init(&log);
	enum vb_status st = vb_guard_run(&cfg, sh, cfg.target_path, session, NULL, say, live,
					 &log, &end);
	vb_runlog_free(&log);
	*status = end.exit_status;
	return st;
}

static int killed_session(void *arg, int chan)
{
	(void)arg;
	(void)chan;
	snprintf(sh->guard.leftover, sizeof sh->guard.leftover,
		 "/mnt/k.img, the file vbench created, is left behind");
	raise(SIGKILL);
	return 0;
}

/* kill -9 of the session: no stop signal reached vbench, so the guard does not die of
 * it but names what is left and says the run did not end clean. */
static void test_session_killed_from_outside_is_reported(void **state)
{
	int status;
	(void)state;
	if (!vb_os_child_is_process()) {
		print_message("skip: no guard process here\n");
		skip();
	}
	assert_int_equal(guard(killed_session, &status), VB_E_IO);
	if (strstr(said, "the process running the session died of signal 9\n") == NULL ||
	    strstr(said, "/mnt/k.img, the file vbench created, is left behind\n") == NULL)
		fail_msg("the guard said: '%s'", said);
}

static int cleaned_then_killed(void *arg, int chan)
{
	(void)arg;
	(void)chan;
	sh->guard.leftover[0] = '\0';   /* as main.c's cleanup leaves it: nothing is left */
	raise(SIGKILL);
	return 0;
}

static void test_killed_after_cleanup_names_nothing(void **state)
{
	int status;
	(void)state;
	if (!vb_os_child_is_process())
		skip();
	assert_int_equal(guard(cleaned_then_killed, &status), VB_E_IO);
	assert_string_equal(said, "the process running the session died of signal 9\n");
}

static int printing_session(void *arg, int chan)
{
	(void)arg;
	(void)chan;
	fputs("results\n", stdout);
	return 0;
}

static int refusing_session(void *arg, int chan)
{
	(void)arg;
	(void)chan;
	fputs("results\n", stdout);
	return 2;
}

/* Runs the guard with the null device or the full one as descriptor to (1 or 2). */
static enum vb_status guard_to(int to, const char *dev, int (*session)(void *arg, int chan),
			       int *status)
{
	int saved = dup(to), fd = open(dev, O_WRONLY);
	enum vb_status st;

	if (fd < 0 || saved < 0) {
		print_message("skip: no %s here\n", dev);
		skip();
	}
	fflush(stdout);
	fflush(stderr);
	dup2(fd, to);
	close(fd);
	st = guard(session, status);
	dup2(saved, to);
	close(saved);
	return st;
}

static enum vb_status guard_into(const char *dev, int (*session)(void *arg, int chan), int *status)
{
	return guard_to(1, dev, session, status);
}

static int warning_session(void *arg, int chan)
{
	(void)arg;
	(void)chan;
	fputs("vbench: warning: something the user must read\n", stderr);
	return 0;
}

/* What could not be written to standard error is lost too: not a clean end either. */
static void test_error_output_lost_fails_a_clean_session(void **state)
{
	int status;
	(void)state;
	if (!vb_os_child_is_process())
		skip();
	assert_int_equal(guard_to(2, "/dev/null", warning_session, &status), VB_OK);
	assert_int_equal(guard_to(2, "/dev/full", warning_session, &status), VB_E_IO);
	assert_int_equal(status, 0);
}

/* Results that could not be written are a failed run, said on stderr, never exit 0. */
static void test_output_lost_fails_a_clean_session(void **state)
{
	int status;
	(void)state;
	if (!vb_os_child_is_process())
		skip();
	assert_int_equal(guard_into("/dev/null", printing_session, &status), VB_OK);
	assert_int_equal(status, 0);
	assert_string_equal(said, "");
	assert_int_equal(guard_into("/dev/full", printing_session, &status), VB_E_IO);
	if (strstr(said, "the results could not all be written to standard output: ") == NULL)
		fail_msg("the guard said: '%s'", said);
	/* a session that failed keeps its own status */
	said[0] = '\0';
	assert_int_equal(guard_into("/dev/full", refusing_session, &status), VB_OK);
	assert_int_equal(status, 2);
	assert_non_null(strstr(said, "could not all be written to standard output"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_session_killed_from_outside_is_reported),
		T(test_killed_after_cleanup_names_nothing),
		T(test_output_lost_fails_a_clean_session),
		T(test_error_output_lost_fails_a_clean_session),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
