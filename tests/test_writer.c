/* The writer against a fake ops table whose clock moves only when a call takes time:
 * what is inside the clock and what is counted, exactly; short writes, EINTR, faults,
 * sync modes, and how each run gets and checks its descriptor. */
#include "vb_test.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fake_io.h"
#include "bench/vb_source.h"
#include "bench/vb_writer.h"

#define MS 1000000ULL

static struct vb_source_buf src;
static atomic_int stop;

static int setup(void **state)
{
	(void)state;
	atomic_store(&stop, 0);
	return vb_source_init(&src, VB_SRC_ZERO, 4096, 4096, 1, 1 << 20, 0, true);
}

static int teardown(void **state)
{
	(void)state;
	vb_source_free(&src);
	return 0;
}

static struct vb_write_plan plan_for(uint64_t count, enum vb_sync sync)
{
	struct vb_write_plan p;
	memset(&p, 0, sizeof p);
	p.acquire = VB_ACQ_ANON;
	p.dirfd = FAKE_DIRFD;
	p.req.kind = VB_OPEN_ANON;
	p.req.dsync = vb_sync_mode(sync)->dsync_open;
	p.end_call = vb_sync_mode(sync)->end_call;
	p.bs_bytes = 4096;
	p.count_blocks = count;
	p.qd = 1;
	p.run = 1;
	p.source = &src;
	p.stop = &stop;
	return p;
}

static void near(double got, double want)
{
	if (got < want - 1e-9 || got > want + 1e-9)
		fail_msg("got %.9f, want %.9f", got, want);
}

static void test_complete_run_counts(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.stop, VB_STOP_DONE);
	assert_int_equal(r.full_blocks, 10);
	assert_int_equal(r.partial_blocks, 0);
	assert_int_equal(r.bytes, 40960);
	assert_int_equal(f.written, 40960);
	assert_int_equal(f.writes, 10);
	assert_false(f.out_of_order);
	assert_int_equal(f.fsyncs, 1);
	assert_int_equal(f.fdatasyncs, 0);
	assert_int_equal(f.closes, 1);
	assert_int_equal(r.latency.writes, 10);
	assert_int_equal(r.bytes_per_sec, vb_rate(r.bytes, r.secs));
	vb_run_free(&r);
}

/* The promise vbench exists for: the clock runs from just before the first write to
 * after the sync and the close, and nothing else is in it. */
static void test_clock_covers_writes_sync_and_close(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.acquire = VB_ACQ_NAMED;
	p.name = "file";
	p.req.kind = VB_OPEN_EXISTING;
	p.truncate = true;
	f.file = fake_reg(1, 2);
	p.id = f.file;
	f.open_ns = 500 * MS;      /* before the clock */
	f.truncate_ns = 300 * MS;  /* before the clock */
	f.write_ns = 1 * MS;       /* 10 writes: 10 ms */
	f.sync_ns = 20 * MS;       /* a sync that takes 20 ms */
	f.close_ns = 3 * MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	near(r.write_secs, 0.010);
	near(r.sync_secs, 0.023);
	near(r.secs, 0.033);
	assert_int_equal(r.bytes_per_sec, vb_rate(40960, 0.033));
	assert_true(f.sync_at == f.last_write_end);  /* the sync follows the last write */
	assert_true(f.close_at > f.sync_at);
	vb_run_free(&r);
}

/* The same for fdatasync, which is timed the same way and called once. */
static void test_fdatasync_is_timed_and_called_once(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(4, VB_SYNC_FDATASYNC);
	struct vb_run r;
	(void)state;
	f.write_ns = 5 * MS;
	f.sync_ns = 40 * MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.fdatasyncs, 1);
	assert_int_equal(f.fsyncs, 0);
	near(r.sync_secs, 0.040);
	near(r.secs, 0.060);
	vb_run_free(&r);
}

/* An anonymous file's last close frees it, after the clock has stopped. */
static void test_release_is_outside_the_clock(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.defer_release = true;
	f.write_ns = MS;
	f.release_ns = 900 * MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	near(r.secs, 0.002);
	assert_int_equal(f.dups, 1);
	assert_int_equal(f.closes, 2);
	assert_int_equal(f.last_closed, FAKE_FD + 1);  /* the extra descriptor goes last */
	vb_run_free(&r);
	p.defer_release = false;
	memset(&f, 0, sizeof f);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.dups, 0);
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

/* The last close of a file without a name can hang (it frees the blocks): the watchdog
 * sees it like any other call. */
static void test_release_is_watched(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	static struct vb_watch w;
	struct vb_run r;
	(void)state;
	p.defer_release = true;
	p.watch = &w;
	f.watch = &w;
	f.now = 1;   /* a start time of 0 would mean "no call" */
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_true(f.release_watched);
	assert_int_equal(f.release_stage, VB_STAGE_RELEASE);
	assert_int_equal(atomic_load(&w.slot[0].call_start_ns), 0);   /* and unpublished after */
	vb_run_free(&r);
}

/* Every write is timed on its own: write k takes k ms here. */
static void test_latency_is_per_write(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_NONE);
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	f.write_step_ns = MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.latency.writes, 10);
	assert_int_equal(r.latency.max_ns, 10 * MS);
	/* The median of 1..10 ms lies in the bucket of 5 ms: within 1/32 of it. */
	assert_true(r.latency.p50_ns >= 5 * MS && r.latency.p50_ns <= 5 * MS + 5 * MS / 32);
	near(r.write_secs, 0.055);
	vb_run_free(&r);
}

/* A slow source: no maker thread, so the writer makes each block itself, and making one
 * takes 3 ms of the fake clock (on_make moves it, on the writer's own thread). */
static void slow_make(void *arg)
{
	((struct fake *)arg)->now += 3 * MS;
}

static void slow_random(struct vb_source_buf *s, struct fake *f, uint64_t count)
{
	struct vb_ring_tuning t = {.first_nap_ns = 20000, .nap_max_ns = 20000000,
				  .recheck_ns = 5000000, .no_maker = true,
				  .on_make = slow_make, .on_make_arg = f};

	assert_int_equal(vb_source_init(s, VB_SRC_RANDOM, 4096, 4096, 1, count * 4096, 1, true),
			 0);
	vb_source_ring_tune(s, &t);
}

/* A write's latency runs from its submission to its completion at qd 1 as at every
 * depth: neither the wait for its data nor the tick between two writes is in it. */
static void test_latency_excludes_waiting_for_data(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_NONE);
	struct vb_source_buf slow;
	struct vb_run r;
	(void)state;
	slow_random(&slow, &f, 10);
	p.source = &slow;
	f.write_ns = MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.latency.writes, 10);
	assert_int_equal(r.latency.max_ns, MS);
	near(r.write_secs, 0.040);   /* 10 blocks made in 3 ms and written in 1 ms each */
	vb_run_free(&r);
	vb_source_free(&slow);
}

/* The writers' wait for data: 3 ms of every 4 here, said to hold the run back; none with
 * zeros, which are never waited for. */
static void test_data_wait_measured(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_source_buf slow;
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_true(r.data_wait_secs == 0);
	assert_true(r.data_held_back == 0);
	assert_false(r.data_note);
	vb_run_free(&r);
	slow_random(&slow, &f, 10);
	p.source = &slow;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	near(r.data_wait_secs, 0.030);
	near(r.secs, 0.040);
	near(r.data_held_back, 0.75);
	assert_true(r.data_note);
	vb_run_free(&r);
	vb_source_free(&slow);
}

/* The tick (progress drawing) between two writes is not in either's latency. */
static uint64_t slow_tick(void *arg, const struct vb_run *sofar, uint64_t now, uint64_t start)
{
	(void)sofar;
	(void)start;
	((struct fake *)arg)->now += 50 * MS;
	return now;   /* called after every write */
}

static void test_latency_excludes_the_tick(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(5, VB_SYNC_NONE);
	struct vb_run r;
	(void)state;
	f.write_ns = 2 * MS;
	p.tick = slow_tick;
	p.tick_arg = &f;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.latency.max_ns, 2 * MS);
	vb_run_free(&r);
}

static void test_sync_modes(void **state)
{
	const enum vb_sync modes[] = {VB_SYNC_NONE, VB_SYNC_FSYNC, VB_SYNC_FDATASYNC, VB_SYNC_DSYNC};
	const int want_fsync[] = {0, 1, 0, 0}, want_fdatasync[] = {0, 0, 1, 0};
	const bool want_dsync[] = {false, false, false, true};
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct fake f = {0};
		struct vb_io_ops o = fake_ops(&f);
		struct vb_write_plan p = plan_for(3, modes[i]);
		struct vb_run r;
		f.sync_ns = 7 * MS;
		assert_int_equal(vb_write_run(&o, &p, &r), 0);
		assert_int_equal(f.fsyncs, want_fsync[i]);
		assert_int_equal(f.fdatasyncs, want_fdatasync[i]);
		/* O_DSYNC on the open, so that every write is durable; no sync at the end. */
		assert_int_equal(f.req.dsync, want_dsync[i]);
		near(r.sync_secs, want_fsync[i] + want_fdatasync[i] ? 0.007 : 0.0);
		vb_run_free(&r);
	}
}

static void test_direct_is_asked_on_the_open(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.req.direct = true;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.opens, 1);
	assert_true(f.req.direct);
	vb_run_free(&r);
}

static void test_short_writes_continue(void **state)
{
	const struct step script[] = {{1000, 0, 0}, {1, 0, 0}, {0, 0, 0}, {3000, 0, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.full_blocks, 2);
	assert_int_equal(r.bytes, 8192);
	assert_int_equal(f.written, 8192);
	assert_false(f.out_of_order);   /* each piece goes where the last one ended */
	/* Block 1: 1000 + 1 + 3095; block 2: 3000 + 1096. */
	assert_int_equal(f.writes, 5);
	assert_int_equal(r.latency.writes, 2); /* one latency per block, not per call */
	vb_run_free(&r);
}

static void test_eintr_retried(void **state)
{
	const struct step script[] = {{0, EINTR, 0}, {0, EINTR, 0}, {100, 0, 0}, {0, EINTR, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(3, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.bytes, 3 * 4096);
	assert_int_equal(r.stop, VB_STOP_DONE);
	vb_run_free(&r);
}

static void test_eintr_with_stop_flag_stops(void **state)
{
	const struct step script[] = {{0, 0, 0}, {0, EINTR, 0}};
	struct fake f = {.script = script, .n_script = 2, .raise_stop_on_eintr = &stop};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(5, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_SIGNAL);
	assert_int_equal(r.signo, SIGINT);
	assert_int_equal(r.full_blocks, 1);
	assert_int_equal(r.bytes, 4096);
	assert_int_equal(f.fsyncs, 0);  /* a stopped run is not synced: it ends promptly */
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

/* Bytes are counted once written, and only those: the partial block and the offset of
 * the failure are what the fake accepted. */
static void check_write_fault(int err)
{
	const struct step script[] = {{0, 0, 0}, {0, 0, 0}, {512, 0, 0}, {0, err, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.stage, VB_STAGE_WRITE);
	assert_int_equal(r.err, err);
	assert_int_equal(r.full_blocks, 2);
	assert_int_equal(r.partial_blocks, 1);
	assert_int_equal(r.bytes, 2 * 4096 + 512);
	assert_int_equal(r.bytes, f.written);
	assert_int_equal(r.err_offset_bytes, 2 * 4096 + 512);
	assert_int_equal(f.closes, 1);
	assert_int_equal(f.fsyncs, 0);
	/* the partial block is a record out ("2+1") and a write the latency counts */
	assert_int_equal(r.latency.writes, 3);
	vb_run_free(&r);
}

/* A write that fails having written nothing is no record out ("2+0 records out"), and
 * the latency line does not count it either: both count the same writes. */
static void test_failed_write_is_not_a_counted_write(void **state)
{
	const struct step script[] = {{0, 0, 0}, {0, 0, 0}, {0, ENOSPC, 0}};
	struct fake f = {.script = script, .n_script = 3};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.err, ENOSPC);
	assert_int_equal(r.full_blocks, 2);
	assert_int_equal(r.partial_blocks, 0);
	assert_int_equal(r.latency.writes, 2);
	vb_run_free(&r);
}

/* Only a direct run's first write refused with EINVAL is the alignment the platform
 * could not report beforehand (a setup error); later, or without direct I/O, it is an
 * I/O error like any other. */
static void test_direct_refusal_is_told_apart(void **state)
{
	const struct step first[] = {{0, EINVAL, 0}};
	const struct step later[] = {{0, 0, 0}, {0, EINVAL, 0}};
	struct vb_run r;
	(void)state;
	for (int i = 0; i < 3; i++) {
		struct fake f = {.script = i == 1 ? later : first, .n_script = i == 1 ? 2 : 1};
		struct vb_io_ops o = fake_ops(&f);
		struct vb_write_plan p = plan_for(4, VB_SYNC_FSYNC);
		p.req.direct = i < 2;
		assert_int_equal(vb_write_run(&o, &p, &r), -1);
		assert_int_equal(r.err, EINVAL);
		assert_true(r.direct_refused == (i == 0));
		vb_run_free(&r);
	}
}

static void test_write_faults(void **state)
{
	(void)state;
	check_write_fault(ENOSPC);
	check_write_fault(EIO);
	check_write_fault(EDQUOT);
	check_write_fault(EFBIG);
}

static void test_sync_eio(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(4, VB_SYNC_FDATASYNC);
	struct vb_run r;
	(void)state;
	f.sync_err = EIO;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.stage, VB_STAGE_SYNC);
	assert_int_equal(r.err, EIO);
	assert_int_equal(r.bytes, 4 * 4096);
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

static void test_sink_sync_refusal_is_not_an_error(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.sync_err = EINVAL;
	p.sync_may_fail = true;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	vb_run_free(&r);
	p.sync_may_fail = false;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_SYNC);
	vb_run_free(&r);
}

static void test_close_error(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_NONE);
	struct vb_run r;
	(void)state;
	f.close_err = EIO;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_CLOSE);
	vb_run_free(&r);
}

static void test_no_progress(void **state)
{
	struct step script[12];
	struct fake f = {.script = script, .n_script = 12};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(3, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	memset(script, 0, sizeof script);
	script[0].max_bytes = 100;
	for (int i = 1; i < 12; i++)
		script[i].zero = 1;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_NOPROGRESS);
	assert_int_equal(r.bytes, 100);
	assert_int_equal(r.partial_blocks, 1);
	assert_true(f.writes < 12); /* gave up, did not spin */
	vb_run_free(&r);
}

static void test_open_failure(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.open_err = EACCES;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_OPEN);
	assert_int_equal(r.err, EACCES);
	assert_int_equal(f.writes, 0);
	assert_int_equal(f.closes, 0);
}

/* A per-run name is unlinked at once, but only while it is the file just created. */
static void test_new_name_unlinked_when_it_is_ours(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.acquire = VB_ACQ_NEWNAME;
	p.name = "vbench-abcdefgh.tmp";
	p.req.kind = VB_OPEN_CREATE;
	f.file = fake_reg(7, 99);
	f.named = fake_reg(7, 99);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.unlinks, 1);
	assert_int_equal(f.req.kind, VB_OPEN_CREATE);
	vb_run_free(&r);
	f.named = fake_reg(7, 100);   /* the name was swapped for another file */
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.err, ESTALE);
	assert_int_equal(f.unlinks, 1);
	assert_int_equal(f.writes, 1);
	assert_non_null(strstr(r.detail, "vbench-abcdefgh.tmp no longer names the file vbench "
			       "created for this run"));
	vb_run_free(&r);
	/* a file that cannot be removed (an append-only directory) is named, with why */
	f.named = fake_reg(7, 99);
	f.unlink_err = EPERM;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_OPEN);
	assert_int_equal(f.unlinks, 2);
	if (strstr(r.detail, "vbench-abcdefgh.tmp, the file vbench created for this run, could "
		   "not be removed: ") == NULL || strstr(r.detail, "; it is left behind") == NULL)
		fail_msg("'%s'", r.detail);
	vb_run_free(&r);
}

/* A named file is emptied only after it is known to be the identified one. */
static void test_named_file_checked_before_it_is_emptied(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.acquire = VB_ACQ_NAMED;
	p.name = "data";
	p.req.kind = VB_OPEN_EXISTING;
	p.truncate = true;
	p.check_in_use = true;
	p.id = fake_reg(7, 100);
	f.file = fake_reg(7, 99);   /* someone replaced ours */
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_OPEN);
	assert_int_equal(r.err, ESTALE);
	assert_non_null(strstr(r.detail, "replaced"));
	assert_int_equal(f.writes, 0);
	assert_int_equal(f.truncates, 0); /* the stranger's file is not emptied */
	f.file = fake_reg(7, 100);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.truncates, 1);
	assert_int_equal(f.in_use_calls, 1);
	vb_run_free(&r);
}

/* Something layered on the target since the last run stops the run before a write. */
static void test_in_use_checked_on_every_open(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.acquire = VB_ACQ_DISK;
	p.held_fd = FAKE_HELD;
	p.check_in_use = true;
	f.in_use = 1;
	f.in_use_text = "loop device loop3 is backed by it";
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.err, EBUSY);
	assert_string_equal(r.detail, "loop device loop3 is backed by it");
	assert_int_equal(f.writes, 0);
	assert_int_equal(f.dups, 1);
	assert_int_equal(f.closes, 1);
}

/* A sink is checked to be the same device on every open. */
static void test_sink_identity(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.acquire = VB_ACQ_SINK;
	p.name = "null";
	p.req.kind = VB_OPEN_EXISTING;
	p.id.type = VB_FT_CHR;
	p.id.rdev = 0x103;
	f.file.type = VB_FT_CHR;
	f.file.rdev = 0x103;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	vb_run_free(&r);
	f.file.rdev = 0x708;   /* another device under that name now */
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.err, ESTALE);
	assert_int_equal(f.writes, 1);
}

static void test_stop_before_start(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(5, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	atomic_store(&stop, VB_STOPFLAG_TIMEOUT);
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_TIMEOUT);
	assert_int_equal(f.writes, 0);
	assert_int_equal(f.closes, 1);
}

static void test_intervals_recorded(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(200, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	p.interval_secs = 0.01; /* ten blocks an interval */
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.n_intervals, 20);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < r.n_intervals; i++) {
		sum += r.intervals[i].bytes;
		near(r.intervals[i].secs, 0.010);
	}
	assert_int_equal(sum, r.bytes);
	vb_run_free(&r);
}

/* A progress tick after the last write is not a sample of its own: every sample holds
 * bytes, and the samples end with the last write. */
static void test_no_empty_last_interval(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(4, VB_SYNC_NONE);
	struct vb_run r;
	(void)state;
	f.write_ns = 10 * MS;
	p.interval_secs = 0.01; /* a sample after every write */
	p.tick = slow_tick;      /* and a tick after every write that takes 50 ms */
	p.tick_arg = &f;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.n_intervals, 4);
	for (uint64_t i = 0; i < r.n_intervals; i++)
		assert_int_equal(r.intervals[i].bytes, p.bs_bytes);
	vb_run_free(&r);
}

/* An allocator that fails from its fail_from-th call (counting from 1) on. */
static int alloc_calls, fail_from;

static void *failing_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return ++alloc_calls >= fail_from ? NULL : realloc(p, n);
}

/* An interval sample that cannot be kept fails the run (ENOMEM), whether it comes
 * during the run or is its last, shorter one: no sample is dropped without a word. */
static void test_interval_without_memory_fails_the_run(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(25, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	f.write_ns = MS;
	p.interval_secs = 0.01;   /* samples after blocks 10 and 20, the last after 25 */
	o.grow = failing_realloc;
	for (fail_from = 1; fail_from <= 3; fail_from++) {
		alloc_calls = 0;
		assert_int_equal(vb_write_run(&o, &p, &r), -1);
		assert_int_equal(r.stop, VB_STOP_ERROR);
		assert_int_equal(r.err, ENOMEM);
		assert_int_equal(r.n_intervals, (uint64_t)fail_from - 1);
		vb_run_free(&r);
	}
	fail_from = 4;
	alloc_calls = 0;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.n_intervals, 3);
	vb_run_free(&r);
}

/* A resume (SIGCONT) during the run marks it paused. */
static void test_pause_is_noted(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = fake_ops(&f);
	struct vb_write_plan p = plan_for(3, VB_SYNC_FSYNC);
	struct vb_run r;
	atomic_int resumed;
	(void)state;
	atomic_store(&resumed, 1);   /* before the run: not this run's pause */
	p.resumed = &resumed;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_false(r.paused);
	vb_run_free(&r);
	f.poke = &resumed;   /* continued during the second write */
	f.poke_at = 2;
	f.poke_value = 1;
	f.writes = 0;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_true(r.paused);
	vb_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_complete_run_counts),
		T(test_clock_covers_writes_sync_and_close),
		T(test_fdatasync_is_timed_and_called_once),
		T(test_release_is_outside_the_clock),
		T(test_release_is_watched),
		T(test_latency_is_per_write),
		T(test_latency_excludes_waiting_for_data),
		T(test_data_wait_measured),
		T(test_latency_excludes_the_tick),
		T(test_sync_modes),
		T(test_direct_is_asked_on_the_open),
		T(test_short_writes_continue),
		T(test_eintr_retried),
		T(test_eintr_with_stop_flag_stops),
		T(test_write_faults),
		T(test_failed_write_is_not_a_counted_write),
		T(test_direct_refusal_is_told_apart),
		T(test_sync_eio),
		T(test_sink_sync_refusal_is_not_an_error),
		T(test_close_error),
		T(test_no_progress),
		T(test_open_failure),
		T(test_new_name_unlinked_when_it_is_ours),
		T(test_named_file_checked_before_it_is_emptied),
		T(test_in_use_checked_on_every_open),
		T(test_sink_identity),
		T(test_stop_before_start),
		T(test_intervals_recorded),
		T(test_no_empty_last_interval),
		T(test_interval_without_memory_fails_the_run),
		T(test_pause_is_noted),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
