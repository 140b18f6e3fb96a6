/* The flush verdict over synthetic figures, and the probe over the fake system calls:
 * what it opens, what it calls, what it counts, and what it concludes. */
#include "vb_test.h"
#include <stdlib.h>
#include <string.h>
#include "fake_io.h"
#include "vb_flush.h"
#include "vb_flushprobe.h"

/* A result holding the pairs given, as the probe records them. */
static struct vb_flush_result pairs(const uint64_t *flush, const uint64_t *write, size_t n)
{
	struct vb_flush_result r;

	memset(&r, 0, sizeof r);
	r.call = VB_CALL_FSYNC;
	r.write_bytes = 4096;
	r.samples = n;
	memcpy(r.flush_ns, flush, n * sizeof *flush);
	memcpy(r.write_ns, write, n * sizeof *write);
	vb_flush_decide(&r);
	return r;
}

#define PAIRS(f, w) pairs((f), (w), sizeof(f) / sizeof *(f))

/* Recorded: vbench --force --direct --check-flush -f json bs=1M count=4 runs=1 on a loop
 * device over a file on a tmpfs (Linux 6.18, this project's build machine): an fsync
 * costs 1.3-1.7 us more than a 4 KiB write; nothing is persisted. */
static const uint64_t tmpfs_flush[] = {
	18304, 14076, 15058, 15780, 15669, 14748, 14808, 14678, 14688, 14607, 14667, 14617,
	15038, 14648, 14738, 14547, 14587, 14657, 14598, 14577, 14657, 14637, 14567, 14547,
	14688, 14568, 14698, 14617, 14708, 14597, 14617, 14527, 15118, 23904, 40987, 18414,
	19998, 14928, 14808, 15258, 14707, 14558, 14648, 14787, 14597, 14578, 14667, 14757,
	22002, 25337, 16311, 14798, 16121, 12784, 14687, 14758, 14748, 15038, 14657, 14548,
	14728, 14587, 14617, 14567};
static const uint64_t tmpfs_write[] = {
	18686, 13406, 12894, 13315, 13215, 13486, 13074, 13265, 12984, 13185, 13225, 13255,
	33002, 13154, 18645, 13665, 13265, 13505, 13294, 13265, 13836, 13115, 13325, 13336,
	14076, 13255, 13625, 13615, 14127, 13445, 14196, 13214, 13576, 21690, 15398, 15379,
	16591, 13175, 13175, 13124, 13686, 12944, 13205, 12965, 13575, 13195, 12804, 13104,
	13596, 19367, 17693, 13195, 14387, 11170, 11060, 13085, 13696, 13084, 13004, 12774,
	13716, 12924, 12834, 12924};

static void test_recorded_tmpfs_does_no_work(void **state)
{
	(void)state;
	struct vb_flush_result r = PAIRS(tmpfs_flush, tmpfs_write);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(r.diff_lo_ns > 0 && r.diff_hi_ns < 5000);
	assert_true(r.diff_lo_ns <= r.diff_p50_ns && r.diff_p50_ns <= r.diff_hi_ns);
	assert_true(r.confidence >= VB_FLUSH_CONFIDENCE && r.confidence < 1);
	/* the medians of each, for the CSV columns */
	assert_int_equal(r.flush_p50_ns, 14688);
	assert_int_equal(r.write_p50_ns, 13265);
	/* The same device, its first 16 pairs (the short probe): still decided. */
	r = pairs(tmpfs_flush, tmpfs_write, 16);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
}

/* The interval, not the median, decides: pairs whose median is well over the margin
 * but whose interval reaches under it cannot tell; and the same differences, more of
 * them, do decide. */
static void test_interval_decides(void **state)
{
	(void)state;
	/* 8 pairs: the interval of 8 is the smallest to the largest difference. */
	uint64_t w8[8] = {500000, 500000, 500000, 500000, 500000, 500000, 500000, 500000};
	uint64_t f8[8] = {910000, 880000, 530000, 900000, 950000, 870000, 890000, 920000};
	struct vb_flush_result r = PAIRS(f8, w8);
	assert_true(r.diff_p50_ns > 300000);
	assert_int_equal(r.diff_lo_ns, 30000);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	f8[2] = 560000;   /* now all 8 lie 60 us or more above */
	r = PAIRS(f8, w8);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	/* A flush at most 40 us dearer than its write, 8 times: no work. */
	uint64_t g8[8] = {540000, 520000, 510000, 530000, 500000, 495000, 539000, 505000};
	r = PAIRS(g8, w8);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	/* 7 pairs, however clear, make no 99% interval: cannot tell, and says why. */
	r = pairs(f8, w8, 7);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_true(r.confidence == 0);
	assert_non_null(strstr(r.why, "7 pairs are too few"));
	/* A failed probe keeps its reason and verdict. */
	struct vb_flush_result z;
	memset(&z, 0, sizeof z);
	snprintf(z.why, sizeof z.why, "the probe's sync failed");
	z.verdict = VB_FLUSH_UNDECIDED;
	vb_flush_decide(&z);
	assert_string_equal(z.why, "the probe's sync failed");
	assert_int_equal(z.verdict, VB_FLUSH_UNDECIDED);
}

/* Every sentence fits in two 80-column lines after "# ", prints the figures it used,
 * and none says durable or safe. */
static void test_texts(void **state)
{
	char text[1024];
	(void)state;
	uint64_t w[8] = {900000000, 900000000, 900000000, 900000000, 900000000, 900000000,
			 900000000, 900000000};
	uint64_t f[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct vb_flush_result rs[4] = {PAIRS(tmpfs_flush, tmpfs_write), PAIRS(w, f),
					PAIRS(f, w), pairs(f, w, 7)};
	rs[1].call = VB_CALL_FDATASYNC;
	const char *want[4] = {"no work", "takes time", "no work", "cannot tell"};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(vb_flush_text(&rs[i], text, sizeof text), 1);
		assert_true(strlen(text) <= 158);
		assert_non_null(strstr(text, want[i]));
		assert_null(strstr(text, " safe"));
		assert_null(strstr(text, "are durable"));
		assert_non_null(strstr(text, "not proven durable"));
	}
	vb_flush_text(&rs[0], text, sizeof text);
	assert_string_equal(text, "flush (fsync): no work: flush - 4 KiB write +1.5 us (99%: "
			    "+1.3 us to +1.7 us, 64 pairs; margin 50 us); ignored, or persisted "
			    "on write: not proven durable");
	struct vb_flush_result none;
	memset(&none, 0, sizeof none);
	assert_int_equal(vb_flush_text(&none, text, sizeof text), 0);
	assert_int_equal(vb_write_cache_text("write through", "/sys/block/vda/queue/write_cache",
					     text, sizeof text), 1);
	assert_non_null(strstr(text, "sends the disk no flushes at all"));
	assert_int_equal(vb_write_cache_text("", "", text, sizeof text), 0);
}

static struct fake f;
static struct vb_io_ops ops;
static struct vb_write_plan plan;

static void probe_setup(void)
{
	memset(&f, 0, sizeof f);
	f.file = fake_reg(1, 2);
	f.named = f.file;
	f.in_use = 0;
	ops = fake_ops(&f);
	memset(&plan, 0, sizeof plan);
	plan.acquire = VB_ACQ_NAMED;
	plan.dirfd = FAKE_DIRFD;
	plan.name = "vbench.tmp";
	plan.id = f.file;
	plan.req.dsync = true;      /* a dsync session: the probe opens without it */
	plan.truncate = true;
}

static void test_probe_on_a_disk_that_ignores_flushes(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 512, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 40000;
	f.sync_ns = 30000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(f.req.direct);
	assert_false(f.req.dsync);
	assert_int_equal(f.truncates, 0);
	assert_int_equal(r.samples, 64);
	assert_int_equal(r.flush_p50_ns, 30000);
	assert_int_equal(r.write_p50_ns, 40000);
	assert_int_equal(r.diff_p50_ns, -10000);
	assert_int_equal(r.write_bytes, 4096);
	/* every call the probe says it made was made, and no other */
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
	assert_int_equal(f.fdatasyncs, 0);
	assert_int_equal(r.calls, 64 + 1);   /* the pairs, and the one after the area */
	assert_int_equal(r.bytes, f.written);
	assert_int_equal(f.closes, 1);
}

static void test_probe_on_a_disk_whose_flushes_cost(void **state)
{
	struct vb_flush_probe_cfg c = {false, VB_CALL_FDATASYNC, 0, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 100000;
	f.sync_ns = 400000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_int_equal(r.samples, 16);
	assert_int_equal(r.diff_lo_ns, 300000);
	assert_int_equal(r.calls, (uint64_t)f.fdatasyncs);
	assert_int_equal(f.fsyncs, 0);
}

/* On a disk the probe opens the device again, direct and without O_DSYNC whatever the
 * runs used, and writes only the bytes the runs wrote. */
static void test_probe_on_a_disk_stays_in_the_runs_bytes(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 512, 65536};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.file.type = VB_FT_BLK;
	f.file.rdev = 7;
	plan.acquire = VB_ACQ_DEVICE;
	plan.name = "loop7";
	plan.id = f.file;
	plan.req.direct = false;
	plan.truncate = false;
	f.write_ns = 40000;
	f.sync_ns = 30000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_int_equal(f.opens, 1);
	assert_int_equal(f.dups, 0);
	assert_string_equal(f.opened_name, "loop7");
	assert_true(f.req.direct);
	assert_false(f.req.dsync);
	assert_true(f.size > 0 && f.size <= 65536);
	/* another device under the name is refused, nothing written */
	probe_setup();
	f.file.type = VB_FT_BLK;
	f.file.rdev = 8;
	plan.acquire = VB_ACQ_DEVICE;
	plan.name = "loop7";
	plan.id.type = VB_FT_BLK;
	plan.id.rdev = 7;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_int_equal(f.writes, 0);
	/* too little written for two slots: not run */
	probe_setup();
	c.max_bytes = 4096;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
	assert_int_equal(f.writes, 0);
}

/* The short form stops at its budget, and says it would cost too much when the budget
 * does not buy enough pairs. */
static void test_probe_budget(void **state)
{
	struct vb_flush_probe_cfg c = {false, VB_CALL_FSYNC, 0.02, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 100000;
	f.sync_ns = 10000000;   /* 10 ms a flush: two fit in 20 ms */
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
	assert_non_null(strstr(r.why, "more than 1%"));
	assert_true(r.samples < VB_FLUSH_MIN_PAIRS);
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
}

/* A stop during the probe (a signal, or --timeout) is reported as such, with the flag
 * that stopped it, never as a verdict. */
static void test_probe_stopped(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 4096, 0};
	struct vb_flush_result r;
	atomic_int stop = 0;
	const int flags[2] = {SIGTERM, VB_STOPFLAG_TIMEOUT};
	(void)state;
	for (int i = 0; i < 2; i++) {
		probe_setup();
		atomic_store(&stop, 0);
		plan.stop = &stop;
		f.poke = &stop;
		f.poke_at = 20;
		f.poke_value = flags[i];
		vb_flush_probe(&ops, &plan, &c, &r);
		assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
		assert_int_equal(r.stop, flags[i]);
		assert_non_null(strstr(r.why, "stopped"));
		assert_true(r.samples < 64);
	}
	assert_non_null(strstr(r.why, "--timeout"));
}

/* A failure is reported as undecided with the reason, never as a verdict; a file of the
 * probe's own that cannot be removed is named. */
static void test_probe_failures(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.open_err = EINVAL;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "direct"));
	probe_setup();
	f.sync_err = EIO;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "sync failed"));
	assert_int_equal(f.closes, 1);
	probe_setup();
	plan.acquire = VB_ACQ_NEWNAME;
	plan.req.kind = VB_OPEN_CREATE;
	plan.name = "vbench-k3j9x0qa.tmp";
	f.unlink_err = EPERM;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_string_equal(r.leftover, "vbench-k3j9x0qa.tmp");
	assert_int_equal(r.leftover_err, EPERM);
	assert_int_equal(f.writes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_tmpfs_does_no_work),
		cmocka_unit_test(test_interval_decides),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_probe_on_a_disk_that_ignores_flushes),
		cmocka_unit_test(test_probe_on_a_disk_whose_flushes_cost),
		cmocka_unit_test(test_probe_on_a_disk_stays_in_the_runs_bytes),
		cmocka_unit_test(test_probe_budget),
		cmocka_unit_test(test_probe_stopped),
		cmocka_unit_test(test_probe_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
