/* The engine: run numbering, warm-ups, stop flags, status lines, and what reaches the
 * statistics (warm-up and partial runs do not), on the fake ops table. */
#include "vb_test.h"
#include <stdio.h>
#include <string.h>
#include "fake_io.h"
#include "bench/vb_analysis.h"
#include "output/vb_output.h"
#include "bench/vb_plan.h"
#include "bench/vb_engine.h"

#define MS 1000000ULL

static struct fake fk;
static struct vb_io_ops ops;
static struct vb_config cfg;
static struct vb_target tgt;
static struct vb_sigflags flags;
static struct vb_runlog session;
static char seen[64];
static int n_seen;
static uint64_t data_runs[64];

static bool on_run(void *arg, const struct vb_run *r, const struct vb_hist *latency)
{
	struct vb_run copy = *r;
	(void)arg;
	seen[n_seen++] = r->warmup ? 'w' : (r->stop == VB_STOP_DONE ? 'r' : 'x');
	copy.intervals = NULL;
	copy.n_intervals = 0;
	return vb_runlog_add(&session, NULL, &copy, latency);
}

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	ops = fake_ops(&fk);
	fake_session(&cfg, &tgt);
	memset(&flags, 0, sizeof flags);
	memset(seen, 0, sizeof seen);
	memset(data_runs, 0, sizeof data_runs);
	n_seen = 0;
	vb_runlog_init(&session);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	vb_runlog_free(&session);
	return 0;
}

static bool run(FILE *status, struct vb_engine_result *res)
{
	struct vb_engine_io io = {&ops, vb_out_live(status), false, &flags, NULL, on_run, NULL,
				  NULL};
	return vb_engine_run(&cfg, &tgt, &io, res);
}

static void test_runs_and_warmups(void **state)
{
	struct vb_engine_result res;
	(void)state;
	cfg.warmup_runs = 2;
	assert_true(run(stderr, &res));
	assert_int_equal(session.n_runs, 5);
	assert_string_equal(seen, "wwrrr");
	assert_int_equal(session.runs[0].run, 1);
	assert_int_equal(session.runs[1].run, 2);
	assert_int_equal(session.runs[2].run, 1);
	assert_int_equal(session.runs[4].run, 3);
	assert_int_equal(fk.writes, 50);
	assert_int_equal(res.stop_signal, 0);
	assert_false(res.failed);
}

static void test_stop_signal_ends_the_run_promptly(void **state)
{
	struct vb_engine_result res;
	(void)state;
	fk.poke = &flags.stop;
	fk.poke_at = 14;   /* during run 2 */
	fk.poke_value = SIGINT;
	assert_false(run(stderr, &res));
	assert_int_equal(res.stop_signal, SIGINT);
	assert_false(res.failed);
	assert_string_equal(seen, "rx");
	assert_int_equal(session.runs[1].stop, VB_STOP_SIGNAL);
	assert_int_equal(session.runs[1].full_blocks, 4); /* the write that saw it counts */
	assert_int_equal(fk.writes, 14);
}

static void test_signal_between_runs_starts_no_new_run(void **state)
{
	struct vb_engine_result res;
	(void)state;
	fk.poke = &flags.stop;
	fk.poke_at = 10;   /* the last write of run 1: the run completes, run 2 never starts */
	fk.poke_value = SIGTERM;
	assert_false(run(stderr, &res));
	assert_int_equal(res.stop_signal, SIGTERM);
	assert_string_equal(seen, "r");
	assert_int_equal(session.n_runs, 1);
	assert_int_equal(fk.writes, 10);
}

static void test_failed_run_ends_the_session(void **state)
{
	const struct step script[] = {{0, 0, 0}, {0, ENOSPC, 0}};
	struct vb_engine_result res;
	(void)state;
	fk.script = script;
	fk.n_script = 2;
	assert_false(run(stderr, &res));
	assert_true(res.failed);
	assert_string_equal(seen, "x");
	assert_int_equal(session.runs[0].err, ENOSPC);
}

/* What reaches the statistics: completed measured runs only. */
static void test_warmups_and_partial_runs_stay_out_of_the_statistics(void **state)
{
	struct vb_engine_result res;
	struct vb_run_analysis an;
	(void)state;
	cfg.warmup_runs = 1;
	fk.write_ns = MS;
	fk.poke = &flags.stop;
	fk.poke_at = 35;   /* run 3 (the fourth run made) is cut short */
	fk.poke_value = SIGINT;
	assert_false(run(stderr, &res));
	assert_string_equal(seen, "wrrx");
	vb_analyze(&cfg, session.runs, session.n_runs, &session.latency, 0, &an);
	assert_int_equal(an.completed, 2);
	assert_int_equal(an.rate.n, 2);
	assert_int_equal(an.latency.writes, 20);   /* the two completed runs' writes */
}

static void test_data_is_stamped_with_the_session_run_number(void **state)
{
	struct vb_engine_result res;
	unsigned char first[16];
	(void)state;
	cfg.source = VB_SRC_RANDOM;
	cfg.seed = 7;
	cfg.seed_given = true;
	cfg.runs = 1;
	assert_true(run(stderr, &res));
	memcpy(first, fk.first_bytes, 16);
	/* The same measured run after a warm-up carries another run number in its stamps. */
	teardown(state);
	setup(state);
	cfg.source = VB_SRC_RANDOM;
	cfg.seed = 7;
	cfg.seed_given = true;
	cfg.runs = 1;
	cfg.warmup_runs = 1;
	assert_true(run(stderr, &res));
	assert_int_not_equal(memcmp(first, fk.first_bytes, 8), 0);   /* the hash half */
}

static void test_status_request_prints_a_dd_status_line(void **state)
{
	struct vb_engine_result res;
	char text[512] = {0};
	FILE *status = tmpfile();
	(void)state;
	assert_non_null(status);
	cfg.runs = 1;
	fk.write_ns = MS;
	atomic_store(&flags.status, 1);
	assert_true(run(status, &res));
	rewind(status);
	size_t n = fread(text, 1, sizeof text - 1, status);
	fclose(status);
	text[n] = '\0';
	if (strstr(text, "4096 bytes transferred in 0.001000 secs (4096000 bytes/sec)") == NULL)
		fail_msg("no status line in: %s", text);
	assert_int_equal(atomic_load(&flags.status), 0);
}

static void test_recording_failure_stops(void **state)
{
	struct vb_engine_result res;
	struct vb_engine_io io = {&ops, vb_out_live(stderr), false, &flags, NULL, NULL, NULL,
				  NULL};
	(void)state;
	io.on_run = NULL;
	assert_true(vb_engine_run(&cfg, &tgt, &io, &res));   /* nothing to record into: fine */
	assert_int_equal(fk.writes, 30);
}

/* Issue 22: a file system that buffers a direct write extending the file (NetBSD's genfs)
 * gets the file written once before the clock; every measured run then writes over it in
 * place. The fill is one run's size, synced, and not reported; no measured write extends
 * the file and nothing empties it between runs. */
static void test_fill_before_the_clock_named_file(void **state)
{
	struct vb_engine_result res;
	struct vb_env env;
	(void)state;
	memset(&env, 0, sizeof env);
	env.cache = VB_CACHE_FS_BUFFERS_EXTENDING;
	cfg.direct = true;
	tgt.kind = VB_TGT_NEWFILE;
	tgt.anon = false;
	snprintf(tgt.name, sizeof tgt.name, "bench.img");
	tgt.id = fk.file = fk.named = fake_reg(1, 2);
	tgt.fill_first = vb_plan_fill_first(&cfg, &tgt, env.cache);
	assert_true(tgt.fill_first);
	assert_true(run(stderr, &res));
	assert_string_equal(seen, "rrr");                /* the fill is not a run */
	assert_int_equal(fk.writes, 40);
	assert_int_equal(fk.writes_at_first_sync, 10);   /* the fill, synced, came first */
	assert_int_equal(fk.extends, 10);                /* only the fill made the file longer */
	assert_int_equal(fk.last_extend, 10);
	assert_int_equal(fk.size, 40960);                /* never past the planned size */
	assert_int_equal(fk.truncates, 1);               /* before the fill, never after */
	assert_int_equal(fk.truncated_at, 0);
	assert_int_equal(fk.fsyncs, 4);
	assert_int_equal(fk.opens, 1);                   /* the runs write the held file */
	assert_int_equal(fk.in_use_calls, 4);            /* still checked before every run */
	assert_true(fk.req.direct);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(session.runs[i].bytes, 40960);
		assert_false(session.runs[i].warmup);
		assert_false(session.runs[i].fill);
	}
}

/* A directory where each run would have a new name: the fill's file is held open (it has
 * no name once open) and written in place by every run, then let go of, watched. */
static void test_fill_before_the_clock_per_run_names(void **state)
{
	struct vb_engine_result res;
	struct vb_watch watch;
	struct vb_engine_io io = {&ops, vb_out_live(stderr), false, &flags, &watch, on_run,
				  NULL, NULL};
	(void)state;
	memset(&watch, 0, sizeof watch);
	cfg.direct = true;
	cfg.overwrite = true;   /* no warm-up of the user's own: the fill is still needed */
	tgt.anon = false;
	tgt.per_run_name = true;
	char note[64];
	assert_string_equal(vb_target_note(&tgt, note, sizeof note),
			    "a new file in this directory for each run, removed at the end");
	assert_true(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS_EXTENDING));
	tgt.fill_first = true;
	assert_string_equal(vb_target_note(&tgt, note, sizeof note),
			    "one new file in this directory for all runs, removed at the end");
	fk.file = fk.named = fake_reg(1, 3);
	fk.watch = &watch;
	fk.write_ns = MS;   /* a clock that moves: a watched call has a start */
	assert_true(vb_engine_run(&cfg, &tgt, &io, &res));
	assert_string_equal(seen, "rrr");
	assert_false(session.runs[0].allocating);   /* the fill allocated the file */
	assert_int_equal(fk.opens, 1);
	assert_int_equal(fk.unlinks, 1);
	assert_int_equal(fk.extends, 10);
	assert_int_equal(fk.last_extend, 10);
	assert_int_equal(fk.writes_at_first_sync, 10);
	assert_int_equal(fk.truncates, 0);
	assert_int_equal(fk.last_closed, FAKE_FD + 1);   /* the held file, last */
	assert_true(fk.release_watched);
	assert_int_equal(fk.release_stage, VB_STAGE_RELEASE);
}

/* With --sync none the runs call no sync, but the fill still ends in one: its pages are
 * not left for the first run's direct writes to flush. */
static void test_fill_is_synced_without_sync(void **state)
{
	struct vb_engine_result res;
	(void)state;
	cfg.direct = true;
	cfg.sync = VB_SYNC_NONE;
	tgt.anon = false;
	tgt.per_run_name = true;
	tgt.fill_first = true;
	fk.file = fk.named = fake_reg(1, 3);
	assert_true(run(stderr, &res));
	assert_string_equal(seen, "rrr");
	assert_int_equal(fk.fsyncs + fk.fdatasyncs, 1);
	assert_int_equal(fk.writes_at_first_sync, 10);
	assert_int_equal(fk.extends, 10);
}

/* Without the platform's word, or without --direct, nothing changes: every run starts
 * from an empty file and extends it. */
static void test_no_fill_without_the_flag(void **state)
{
	struct vb_engine_result res;
	(void)state;
	cfg.direct = true;
	tgt.kind = VB_TGT_NEWFILE;
	tgt.anon = false;
	snprintf(tgt.name, sizeof tgt.name, "bench.img");
	tgt.id = fk.file = fk.named = fake_reg(1, 2);
	assert_false(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_AS_ASKED));
	assert_false(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS));
	cfg.direct = false;
	assert_false(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS_EXTENDING));
	cfg.direct = true;
	tgt.fill_first = vb_plan_fill_first(&cfg, &tgt, VB_CACHE_AS_ASKED);
	assert_true(run(stderr, &res));
	assert_string_equal(seen, "rrr");
	assert_int_equal(fk.writes, 30);
	assert_int_equal(fk.writes_at_first_sync, 10);   /* run 1's own sync */
	assert_int_equal(fk.extends, 30);
	assert_int_equal(fk.truncates, 3);
	assert_int_equal(fk.opens, 3);
}

/* Only a file vbench creates is filled, and not when the user's --overwrite warm-up
 * already writes it. */
static void test_fill_only_for_files_vbench_creates(void **state)
{
	enum vb_target_kind others[] = {VB_TGT_EXISTING, VB_TGT_DISK, VB_TGT_SINK};
	(void)state;
	cfg.direct = true;
	tgt.kind = VB_TGT_DIR;
	assert_true(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS_EXTENDING));
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		tgt.kind = others[i];
		assert_false(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS_EXTENDING));
	}
	tgt.kind = VB_TGT_NEWFILE;
	cfg.overwrite = true;
	cfg.warmup_runs = 1;
	assert_false(vb_plan_fill_first(&cfg, &tgt, VB_CACHE_FS_BUFFERS_EXTENDING));
}

/* A fill that fails is reported as what it is, and no run is made. */
static void test_failed_fill_is_reported(void **state)
{
	const struct step script[] = {{0, 0, 0}, {0, ENOSPC, 0}};
	struct vb_engine_result res;
	(void)state;
	cfg.direct = true;
	tgt.anon = false;
	tgt.per_run_name = true;
	tgt.fill_first = true;
	fk.file = fk.named = fake_reg(1, 3);
	fk.script = script;
	fk.n_script = 2;
	assert_false(run(stderr, &res));
	assert_true(res.failed);
	assert_int_equal(session.n_runs, 1);
	assert_true(session.runs[0].fill);
	assert_true(session.runs[0].warmup);   /* never in the statistics */
	assert_int_equal(session.runs[0].err, ENOSPC);
	assert_int_equal(fk.writes, 2);
	assert_int_equal(fk.last_closed, FAKE_FD + 1);   /* its file let go of */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_runs_and_warmups),
		T(test_stop_signal_ends_the_run_promptly),
		T(test_signal_between_runs_starts_no_new_run),
		T(test_failed_run_ends_the_session),
		T(test_warmups_and_partial_runs_stay_out_of_the_statistics),
		T(test_data_is_stamped_with_the_session_run_number),
		T(test_status_request_prints_a_dd_status_line),
		T(test_recording_failure_stops),
		T(test_fill_before_the_clock_named_file),
		T(test_fill_before_the_clock_per_run_names),
		T(test_fill_is_synced_without_sync),
		T(test_no_fill_without_the_flag),
		T(test_fill_only_for_files_vbench_creates),
		T(test_failed_fill_is_reported),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
