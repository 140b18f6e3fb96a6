/* The writer against a fake ops table: short writes, EINTR, faults, sync modes. */
#include "vb_test.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include "vb_writer.h"

/* One scripted answer to write(): a byte limit (0 = all asked) or an errno. */
struct step {
	size_t max_bytes;
	int err;
	int zero;       /* return 0 */
};

struct fake {
	const struct step *script;
	size_t n_script, next;
	uint64_t written;
	int writes, fsyncs, fdatasyncs, closes, opens, unlinks, dups, truncates;
	int closed_after_dup;   /* fd closed last */
	int open_flags;
	int fsync_err, close_err, open_err;
	unsigned char first_bytes[16];
	volatile sig_atomic_t *raise_stop_on_eintr;
};

static int f_open(void *ctx, const char *path, int flags, mode_t mode)
{
	struct fake *f = ctx;
	(void)path;
	(void)mode;
	f->opens++;
	f->open_flags = flags;
	if (f->open_err) {
		errno = f->open_err;
		return -1;
	}
	return 42;
}

static ssize_t f_write(void *ctx, int fd, const void *buf, size_t n)
{
	struct fake *f = ctx;
	assert_int_equal(fd, 42);
	f->writes++;
	if (f->written == 0 && n >= 16)
		memcpy(f->first_bytes, buf, 16);
	if (f->next < f->n_script) {
		const struct step *s = &f->script[f->next++];
		if (s->err) {
			if (s->err == EINTR && f->raise_stop_on_eintr)
				*f->raise_stop_on_eintr = 2; /* as if SIGINT had arrived */
			errno = s->err;
			return -1;
		}
		if (s->zero)
			return 0;
		if (s->max_bytes && s->max_bytes < n)
			n = s->max_bytes;
	}
	f->written += n;
	return (ssize_t)n;
}

static int f_fsync(void *ctx, int fd)
{
	struct fake *f = ctx;
	(void)fd;
	f->fsyncs++;
	if (f->fsync_err) {
		errno = f->fsync_err;
		return -1;
	}
	return 0;
}

static int f_fdatasync(void *ctx, int fd)
{
	struct fake *f = ctx;
	(void)fd;
	f->fdatasyncs++;
	if (f->fsync_err) {
		errno = f->fsync_err;
		return -1;
	}
	return 0;
}

static int f_close(void *ctx, int fd)
{
	struct fake *f = ctx;
	f->closed_after_dup = fd;
	f->closes++;
	if (f->close_err) {
		errno = f->close_err;
		return -1;
	}
	return 0;
}

static int f_unlink(void *ctx, const char *path)
{
	struct fake *f = ctx;
	(void)path;
	f->unlinks++;
	return 0;
}

static int f_fstat(void *ctx, int fd, struct stat *st)
{
	(void)ctx;
	(void)fd;
	memset(st, 0, sizeof *st);
	st->st_dev = 7;
	st->st_ino = 99;
	return 0;
}

static int f_dup(void *ctx, int fd)
{
	struct fake *f = ctx;
	f->dups++;
	return fd + 1;
}

static int f_ftruncate(void *ctx, int fd, off_t len)
{
	struct fake *f = ctx;
	(void)fd;
	assert_int_equal(len, 0);
	f->truncates++;
	return 0;
}

static struct vb_io_ops ops_for(struct fake *f)
{
	struct vb_io_ops o = {f_open, f_write, f_fsync, f_fdatasync, f_close, f_unlink, f_fstat,
			      f_dup, f_ftruncate, f};
	return o;
}

static struct vb_source_buf src;
static volatile sig_atomic_t stop;

static int setup(void **state)
{
	(void)state;
	stop = 0;
	return vb_source_init(&src, VB_SRC_ZERO, 4096, 4096, 0, 1);
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
	p.open_path = "/fake";
	p.open_flags = O_WRONLY;
	p.open_mode = 0600;
	p.bs_bytes = 4096;
	p.count_blocks = count;
	p.sync = sync;
	p.run = 1;
	p.source = &src;
	p.stop = &stop;
	return p;
}

static void test_complete_run_counts(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.stop, VB_STOP_DONE);
	assert_int_equal(r.full_blocks, 10);
	assert_int_equal(r.partial_blocks, 0);
	assert_int_equal(r.bytes, 40960);
	assert_int_equal(f.written, 40960);
	assert_int_equal(f.writes, 10);
	assert_int_equal(f.fsyncs, 1);
	assert_int_equal(f.fdatasyncs, 0);
	assert_int_equal(f.closes, 1);
	assert_int_equal(r.latency.writes, 10);
	assert_true(r.secs >= r.write_secs && r.secs >= r.sync_secs);
	assert_int_equal(r.bytes_per_sec, vb_rate(r.bytes, r.secs));
	vb_run_free(&r);
}

static void test_sync_modes(void **state)
{
	const enum vb_sync modes[] = {VB_SYNC_NONE, VB_SYNC_FSYNC, VB_SYNC_FDATASYNC, VB_SYNC_DSYNC};
	const int want_fsync[] = {0, 1, 0, 0}, want_fdatasync[] = {0, 0, 1, 0};
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct fake f = {0};
		struct vb_io_ops o = ops_for(&f);
		struct vb_write_plan p = plan_for(3, modes[i]);
		struct vb_run r;
		assert_int_equal(vb_write_run(&o, &p, &r), 0);
		assert_int_equal(f.fsyncs, want_fsync[i]);
		assert_int_equal(f.fdatasyncs, want_fdatasync[i]);
		vb_run_free(&r);
	}
}

static void test_short_writes_continue(void **state)
{
	const struct step script[] = {{1000, 0, 0}, {1, 0, 0}, {0, 0, 0}, {3000, 0, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.full_blocks, 2);
	assert_int_equal(r.bytes, 8192);
	assert_int_equal(f.written, 8192);
	/* Block 1: 1000 + 1 + 3095; block 2: 3000 + 1096. */
	assert_int_equal(f.writes, 5);
	assert_int_equal(r.latency.writes, 2); /* one latency per block, not per call */
	vb_run_free(&r);
}

static void test_eintr_retried(void **state)
{
	const struct step script[] = {{0, EINTR, 0}, {0, EINTR, 0}, {100, 0, 0}, {0, EINTR, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = ops_for(&f);
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
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(5, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_SIGNAL);
	assert_int_equal(r.signo, 2);
	assert_int_equal(r.full_blocks, 1);
	assert_int_equal(r.bytes, 4096);
	assert_int_equal(f.fsyncs, 0);  /* a stopped run is not synced: it ends promptly */
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

static void check_write_fault(int err)
{
	const struct step script[] = {{0, 0, 0}, {0, 0, 0}, {512, 0, 0}, {0, err, 0}};
	struct fake f = {.script = script, .n_script = 4};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(10, VB_SYNC_FSYNC);
	struct vb_run r;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.stage, VB_STAGE_WRITE);
	assert_int_equal(r.err, err);
	assert_int_equal(r.full_blocks, 2);
	assert_int_equal(r.partial_blocks, 1);
	assert_int_equal(r.bytes, 2 * 4096 + 512);
	assert_int_equal(r.err_offset_bytes, 2 * 4096 + 512);
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

static void test_write_faults(void **state)
{
	(void)state;
	check_write_fault(ENOSPC);
	check_write_fault(EIO);
	check_write_fault(EDQUOT);
	check_write_fault(ENOENT);
}

static void test_sync_eio(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(4, VB_SYNC_FDATASYNC);
	struct vb_run r;
	(void)state;
	f.fsync_err = EIO;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.stage, VB_STAGE_SYNC);
	assert_int_equal(r.err, EIO);
	assert_int_equal(r.bytes, 4 * 4096);
	assert_int_equal(f.closes, 1);
	vb_run_free(&r);
}

static void test_close_error(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
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
	struct vb_io_ops o = ops_for(&f);
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
	struct vb_io_ops o = ops_for(&f);
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

static void test_identity_and_unlink(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(1, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.unlink_after_open = true;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.unlinks, 1);
	vb_run_free(&r);
	p.unlink_after_open = false;
	p.check_identity = true;
	p.truncate = true;
	p.dev = 7;
	p.ino = 100; /* the fake file is inode 99: someone replaced ours */
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stage, VB_STAGE_OPEN);
	assert_int_equal(r.err, ESTALE);
	assert_int_equal(f.writes, 1);
	assert_int_equal(f.truncates, 0); /* the stranger's file is not emptied */
	p.ino = 99;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.truncates, 1);
	vb_run_free(&r);
}

static void test_anonymous_file_released_after_the_clock(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(2, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.defer_release = true;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.dups, 1);
	assert_int_equal(f.closes, 2);
	assert_int_equal(f.closed_after_dup, 43); /* the extra descriptor goes last */
	p.defer_release = false;
	memset(&f, 0, sizeof f);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(f.dups, 0);
	assert_int_equal(f.closes, 1);
}

static void test_stop_before_start(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(5, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	stop = VB_STOPFLAG_TIMEOUT;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_TIMEOUT);
	assert_int_equal(f.writes, 0);
	assert_int_equal(f.closes, 1);
}

static void test_intervals_recorded(void **state)
{
	struct fake f = {0};
	struct vb_io_ops o = ops_for(&f);
	struct vb_write_plan p = plan_for(200, VB_SYNC_FSYNC);
	struct vb_run r;
	(void)state;
	p.interval_secs = 1e-9; /* every block ends an interval */
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_true(r.n_intervals >= 1);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < r.n_intervals; i++)
		sum += r.intervals[i].bytes;
	assert_int_equal(sum, r.bytes);
	vb_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_complete_run_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_writes_continue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eintr_retried, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eintr_with_stop_flag_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_eio, setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_progress, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_and_unlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anonymous_file_released_after_the_clock, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stop_before_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intervals_recorded, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
