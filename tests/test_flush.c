/* The flush verdict over synthetic figures, and the probe over the fake system calls:
 * what it opens, what it calls, what it counts, and what it concludes. */
#include "vb_test.h"
#include <stdlib.h>
#include <string.h>
#include "fake_io.h"
#include "vb_flush.h"
#include "vb_flushprobe.h"

static struct vb_flush_result figures(uint64_t flush, uint64_t flush99, uint64_t write,
				      uint64_t dirty_bytes, uint64_t dirty_ns)
{
	struct vb_flush_result r;
	/* the dirty bytes written at 1 GB/s */
	memset(&r, 0, sizeof r);
	r.samples = 64;
	r.write_bytes = 4096;
	r.flush_p50_ns = flush;
	r.flush_p99_ns = flush99;
	r.write_p50_ns = write;
	r.dirty_bytes = dirty_bytes;
	r.dirty_write_ns = dirty_bytes;
	r.dirty_flush_ns = dirty_ns;
	return r;
}

/* A flush that costs a round trip, with 8 MiB dirty or not: no work (QEMU cache=unsafe,
 * a loop device over tmpfs). */
static void test_cheap_flush_does_no_work(void **state)
{
	(void)state;
	struct vb_flush_result r = figures(38000, 60000, 35000, 8 << 20, 50000);
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	r = figures(30000, 40000, 35000, 0, 0);   /* no dirty figure: the small ones decide */
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	/* A device so fast that a flush is microseconds: 48 us after 8 MiB is ten times an
	 * empty flush, but 2% of the 2.4 ms the bytes took to write: nothing was moved. */
	r = figures(5500, 9000, 6100, 8 << 20, 48000);
	r.dirty_write_ns = 2400000;
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	/* A loaded machine: the median flush waits 200 us for a CPU, the median write 63 us;
	 * the fastest tenth shows what they cost, 4 us and 3.5 us. */
	r = figures(204000, 3100000, 63000, 8 << 20, 40000);
	r.flush_p10_ns = 4000;
	r.write_p10_ns = 3500;
	r.dirty_write_ns = 2700000;
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	/* Three times a 5 us write is still nothing a device did. */
	r = figures(16000, 30000, 5000, 0, 0);
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
}

/* A flush of 5 ms against a 100 us write works; so does a cheap empty flush that becomes
 * slow once megabytes are dirty (a write-back cache honestly flushed). */
static void test_costly_flush_works(void **state)
{
	(void)state;
	struct vb_flush_result r = figures(5000000, 6000000, 100000, 8 << 20, 5200000);
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	r = figures(60000, 90000, 50000, 8 << 20, 40000000);
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
}

/* Between the two thresholds, and with too few samples, the verdict is undecided and
 * says why. */
static void test_in_between_and_few_samples_undecided(void **state)
{
	(void)state;
	struct vb_flush_result r = figures(250000, 300000, 100000, 0, 0);
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "between"));
	r = figures(30000, 40000, 35000, 0, 0);
	r.samples = VB_FLUSH_MIN_SAMPLES - 1;
	vb_flush_decide(&r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	/* a failed probe keeps its reason */
	r = figures(30000, 40000, 35000, 0, 0);
	snprintf(r.why, sizeof r.why, "the probe's sync failed");
	r.verdict = VB_FLUSH_UNDECIDED;
	vb_flush_decide(&r);
	assert_string_equal(r.why, "the probe's sync failed");
}

/* No sentence says durable or safe, whatever the verdict; each says "not proven". */
static void test_texts_never_claim_durable(void **state)
{
	char text[1024];
	(void)state;
	struct vb_flush_result rs[3] = {figures(38000, 60000, 35000, 8 << 20, 50000),
					figures(5000000, 6000000, 100000, 8 << 20, 5200000),
					figures(250000, 300000, 100000, 0, 0)};
	for (int i = 0; i < 3; i++) {
		vb_flush_decide(&rs[i]);
		assert_int_equal(vb_flush_text(&rs[i], text, sizeof text), 1);
		assert_null(strstr(text, " safe"));
		assert_null(strstr(text, "are durable"));
		assert_non_null(strstr(text, "not proven durable"));
	}
	assert_non_null(strstr(text, "cannot tell"));
	vb_flush_text(&rs[0], text, sizeof text);
	assert_non_null(strstr(text, "flush (fsync): 38 us p50, 60 us p99, 26316 flushes/s (a 4 "
				     "KiB write: 35 us); after 8192 KiB dirty: 50 us"));
	assert_non_null(strstr(text, "flushes do no work here"));
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
	assert_int_equal(r.flush_p10_ns, 30000);
	assert_int_equal(r.write_p10_ns, 40000);
	assert_int_equal(r.write_bytes, 4096);
	assert_true(r.dirty_bytes > 0);
	/* every call the probe says it made was made, and no other */
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
	assert_int_equal(f.fdatasyncs, 0);
	assert_int_equal(r.calls, 64 + 1 + 3);   /* the samples, the one before, the dirty ones */
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
	f.sync_ns = 5000000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_int_equal(r.samples, 16);
	assert_int_equal(r.calls, (uint64_t)f.fdatasyncs);
	assert_int_equal(f.fsyncs, 0);
}

/* The short form stops at its budget, and says it would cost too much when the budget
 * does not buy enough samples. */
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
	assert_true(r.samples < VB_FLUSH_MIN_SAMPLES);
	assert_int_equal(r.dirty_bytes, 0);
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
}

/* A failure is reported as undecided with the reason, never as a verdict. */
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
	c.max_bytes = 1 << 20;   /* a disk too small for the probe's area */
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
	assert_int_equal(f.writes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cheap_flush_does_no_work),
		cmocka_unit_test(test_costly_flush_works),
		cmocka_unit_test(test_in_between_and_few_samples_undecided),
		cmocka_unit_test(test_texts_never_claim_durable),
		cmocka_unit_test(test_probe_on_a_disk_that_ignores_flushes),
		cmocka_unit_test(test_probe_on_a_disk_whose_flushes_cost),
		cmocka_unit_test(test_probe_budget),
		cmocka_unit_test(test_probe_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
