/* The writer with several writes in flight (--qd): how block offsets are handed out to
 * the writers and how their results are joined. The fake here is thread-safe: it keeps
 * the whole written image, counts the writes of every offset, and notes how many writes
 * were in flight at once and from how many threads. */
#include "vb_test.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fake_io.h"
#include "bench/vb_source.h"
#include "bench/vb_writer.h"

/* Sleeps us microseconds (usleep is no longer POSIX). */
static void sleep_us(long us)
{
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
	nanosleep(&ts, NULL);
}


#define BS 4096u
#define MAX_BLOCKS 2048u
#define MAX_THREADS 64

struct pfake {
	pthread_mutex_t lock;
	unsigned char *image;           /* what was written, at its offset */
	unsigned writes_at[MAX_BLOCKS]; /* writes of each block */
	unsigned writes;
	int in_flight, max_in_flight;
	pthread_t threads[MAX_THREADS];
	int n_threads;
	uint64_t fail_offset;           /* the write at this offset (and beyond, if
					   fail_beyond) fails... */
	bool fail_beyond;
	int fail_err;                   /* ...with this errno (0: none) */
	uint64_t short_offset;          /* the write at this offset is cut to half, once */
	bool short_done;
	unsigned stop_after;            /* set *stop to SIGINT after this many writes */
	atomic_int *stop;
	long hold_us;             /* how long a write takes */
	bool overwritten;         /* a held block's data changed during its write */
	int syncs, closes;
};

static struct pfake pf;

static ssize_t pf_pwrite(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	(void)ctx;
	(void)fd;
	pthread_mutex_lock(&pf.lock);
	pthread_t self = pthread_self();
	int known = 0;
	for (int i = 0; i < pf.n_threads; i++)
		known |= pthread_equal(pf.threads[i], self);
	if (!known && pf.n_threads < MAX_THREADS)
		pf.threads[pf.n_threads++] = self;
	pf.writes++;
	if (pf.stop != NULL && pf.stop_after && pf.writes == pf.stop_after)
		atomic_store(pf.stop, SIGINT);
	if (++pf.in_flight > pf.max_in_flight)
		pf.max_in_flight = pf.in_flight;
	pthread_mutex_unlock(&pf.lock);

	if (pf.hold_us)
		sleep_us(pf.hold_us);
	ssize_t rc = (ssize_t)n;
	pthread_mutex_lock(&pf.lock);
	pf.in_flight--;
	if (pf.fail_err && (offset == pf.fail_offset ||
			    (pf.fail_beyond && offset > pf.fail_offset))) {
		pthread_mutex_unlock(&pf.lock);
		errno = pf.fail_err;
		return -1;
	}
	if (offset == pf.short_offset && !pf.short_done) {
		pf.short_done = true;
		rc = (ssize_t)(n / 2);
	}
	memcpy(pf.image + offset, buf, (size_t)rc);
	if (offset % BS == 0)
		pf.writes_at[offset / BS]++;
	pthread_mutex_unlock(&pf.lock);
	return rc;
}

static int pf_sync(void *ctx, int fd, enum vb_sync_call call)
{
	(void)ctx;
	(void)fd;
	if (call != VB_CALL_NONE)
		pf.syncs++;
	return 0;
}

static int pf_close(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	pf.closes++;
	return 0;
}

static uint64_t pf_now(void *ctx)
{
	(void)ctx;
	return vb_os_now_ns();
}

static struct fake base;
static atomic_int stop;

static struct vb_io_ops pops(void)
{
	struct vb_io_ops o = fake_ops(&base);
	o.pwrite = pf_pwrite;
	o.sync = pf_sync;
	o.close = pf_close;
	o.now_ns = pf_now;
	return o;
}

static int setup(void **state)
{
	(void)state;
	memset(&base, 0, sizeof base);
	memset(&pf, 0, sizeof pf);
	pthread_mutex_init(&pf.lock, NULL);
	pf.image = calloc(MAX_BLOCKS, BS);
	pf.short_offset = UINT64_MAX;
	atomic_store(&stop, 0);
	return pf.image == NULL;
}

static int teardown(void **state)
{
	(void)state;
	free(pf.image);
	pthread_mutex_destroy(&pf.lock);
	return 0;
}

static struct vb_write_plan plan(struct vb_source_buf *src, uint64_t count, uint64_t qd)
{
	struct vb_write_plan p;
	memset(&p, 0, sizeof p);
	p.acquire = VB_ACQ_ANON;
	p.dirfd = FAKE_DIRFD;
	p.req.kind = VB_OPEN_ANON;
	p.end_call = VB_CALL_FSYNC;
	p.bs_bytes = BS;
	p.count_blocks = count;
	p.qd = qd;
	p.run = 1;
	p.source = src;
	p.stop = &stop;
	return p;
}

/* Every block written exactly once, by several threads at once, and the figures of the
 * writers joined: bytes, blocks and latencies add up. */
static void test_every_offset_once_and_results_joined(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_hist h;
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 4, 1000 * BS, 0, true), 0);
	struct vb_write_plan p = plan(&src, 1000, 4);
	p.latency = &h;
	pf.hold_us = 200;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.stop, VB_STOP_DONE);
	for (unsigned b = 0; b < 1000; b++)
		if (pf.writes_at[b] != 1)
			fail_msg("block %u written %u times", b, pf.writes_at[b]);
	assert_int_equal(pf.writes, 1000);
	assert_int_equal(r.bytes, 1000 * BS);
	assert_int_equal(r.full_blocks, 1000);
	assert_int_equal(r.partial_blocks, 0);
	assert_int_equal(r.latency.writes, 1000);
	assert_int_equal(h.count, 1000);
	/* each write's latency is its own, from its submission: a write holds 200 us,
	 * while the run takes 50 ms at least (generous bounds for a loaded machine) */
	assert_true(r.latency.p50_ns >= 200000);
	assert_true(r.latency.max_ns < 5000000000ULL);
	assert_true(r.latency.p50_ns < r.secs * 1e9 / 10);
	/* one sync and one close, after all the writers */
	assert_int_equal(pf.syncs, 1);
	assert_int_equal(pf.closes, 1);
	/* four writer threads, more than one write in flight, never more than four */
	assert_int_equal(pf.n_threads, 4);
	assert_true(pf.max_in_flight > 1);
	assert_true(pf.max_in_flight <= 4);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* One write in flight: the calling thread writes, no other. */
static void test_qd1_writes_in_the_calling_thread(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 1, 50 * BS, 0, true), 0);
	struct vb_write_plan p = plan(&src, 50, 1);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(pf.n_threads, 1);
	assert_true(pthread_equal(pf.threads[0], pthread_self()));
	assert_int_equal(pf.max_in_flight, 1);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* A slow maker: past the blocks that fill the ring before the clock starts, each block
 * takes a millisecond longer to make than the writers take to write it. */
static void slow_make(void *arg)
{
	atomic_int *made = arg;
	struct timespec ms = {0, 1000000};

	if (atomic_fetch_add(made, 1) >= (int)(VB_RING_MIN_BYTES / BS))
		nanosleep(&ms, NULL);
}

/* Several writers' waits for data add up, and a source that holds them back is said to. */
static void test_data_wait_of_several_writers(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	atomic_int made;
	(void)state;
	atomic_store(&made, 0);
	assert_int_equal(vb_source_init(&src, VB_SRC_RANDOM, BS, 4096, 4, MAX_BLOCKS * BS, 3, true),
			 0);
	struct vb_ring_tuning t = {.first_nap_ns = 20000, .nap_max_ns = 20000000,
				  .recheck_ns = 5000000, .on_make = slow_make,
				  .on_make_arg = &made};
	vb_source_ring_tune(&src, &t);
	uint64_t count = VB_RING_MIN_BYTES / BS + 40;
	struct vb_write_plan p = plan(&src, count, 4);
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(r.bytes, count * BS);
	assert_true(r.data_wait_secs > 0);
	assert_true(r.data_note);
	vb_run_free(&r);
	vb_source_free(&src);
}

static void *no_memory(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return NULL;
}

/* With several writers too, an interval sample without memory fails the run. */
static void test_interval_without_memory_fails_the_run(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 4, 400 * BS, 0, true), 0);
	struct vb_write_plan p = plan(&src, 400, 4);
	p.interval_secs = 0.001;
	o.grow = no_memory;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.err, ENOMEM);
	assert_int_equal(r.n_intervals, 0);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* The bytes depend on the offset only: depth 8 writes what depth 1 writes. */
static void test_same_image_at_any_depth(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	static const uint64_t depths[] = {1, 3, 8};
	unsigned char *first = malloc((size_t)MAX_BLOCKS * BS);
	(void)state;
	assert_non_null(first);
	for (size_t i = 0; i < 3; i++) {
		memset(pf.image, 0, (size_t)MAX_BLOCKS * BS);
		assert_int_equal(vb_source_init(&src, VB_SRC_RANDOM, BS, 4096, depths[i], 600 * BS,
						1234, true), 0);
		struct vb_write_plan p = plan(&src, 600, depths[i]);
		pf.hold_us = i * 20;
		assert_int_equal(vb_write_run(&o, &p, &r), 0);
		assert_int_equal(r.bytes, 600 * BS);
		if (i == 0)
			memcpy(first, pf.image, (size_t)MAX_BLOCKS * BS);
		else
			assert_memory_equal(first, pf.image, (size_t)MAX_BLOCKS * BS);
		vb_run_free(&r);
		vb_source_free(&src);
	}
	free(first);
}

/* An error at one offset stops every writer, and that offset is what is reported. */
static void test_fault_at_one_offset_stops_all(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_RANDOM, BS, 4096, 8, 2000 * BS, 5, true), 0);
	struct vb_write_plan p = plan(&src, 2000, 8);
	pf.fail_offset = 300 * BS;
	pf.fail_err = ENOSPC;
	pf.hold_us = 50;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_ERROR);
	assert_int_equal(r.stage, VB_STAGE_WRITE);
	assert_int_equal(r.err, ENOSPC);
	assert_int_equal(r.err_offset_bytes, 300 * BS);
	/* The writers stop: the blocks already taken are written, no more. */
	assert_true(pf.writes < 2000);
	assert_int_equal(pf.syncs, 0);
	/* What was counted is what was written. */
	unsigned whole = 0;
	for (unsigned b = 0; b < 2000; b++)
		whole += pf.writes_at[b];
	assert_int_equal(r.full_blocks, whole);
	assert_int_equal(r.bytes, (uint64_t)whole * BS);
	/* the latency line counts the writes the records out count, not the failed ones */
	assert_int_equal(r.latency.writes, r.full_blocks + r.partial_blocks);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* A full disk fails every block beyond a point: the lowest failing offset is reported,
 * whichever writer failed first. */
static void test_lowest_failing_offset_reported(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 8, 1000 * BS, 0, true), 0);
	for (int round = 0; round < 20; round++) {
		pf.writes = 0;
		memset(pf.writes_at, 0, sizeof pf.writes_at);
		struct vb_write_plan p = plan(&src, 1000, 8);
		pf.fail_offset = 500 * BS;
		pf.fail_beyond = true;
		pf.fail_err = ENOSPC;
		pf.hold_us = round % 3 * 30;
		assert_int_equal(vb_write_run(&o, &p, &r), -1);
		assert_int_equal(r.err, ENOSPC);
		assert_int_equal(r.err_offset_bytes, 500 * BS);
		/* every block before it was handed out first, so all are written */
		assert_int_equal(r.bytes, 500 * BS);
		assert_int_equal(r.latency.writes, r.full_blocks + r.partial_blocks);
		vb_run_free(&r);
	}
	vb_source_free(&src);
}

/* A short write is continued by its writer; the block then counts once, whole. */
static void test_short_write_continued(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 4, 100 * BS, 0, true), 0);
	struct vb_write_plan p = plan(&src, 100, 4);
	pf.short_offset = 40 * BS;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_int_equal(pf.writes, 101);
	assert_int_equal(r.full_blocks, 100);
	assert_int_equal(r.bytes, 100 * BS);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* A stop (a signal) ends every writer; the run is marked stopped by that signal. */
static void test_stop_ends_all_writers(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	assert_int_equal(vb_source_init(&src, VB_SRC_RANDOM, BS, 4096, 6, 2000 * BS, 5, true), 0);
	struct vb_write_plan p = plan(&src, 2000, 6);
	pf.stop = &stop;
	pf.stop_after = 100;
	pf.hold_us = 50;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_SIGNAL);
	assert_int_equal(r.signo, SIGINT);
	assert_true(pf.writes < 2000);
	assert_int_equal(pf.syncs, 0);
	assert_int_equal(r.bytes, (uint64_t)r.full_blocks * BS);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* A stop must not free the data of a block still being written. One writer holds block
 * 2 in a write that lasts until after the stop; the other writes on until the stop and
 * then takes the block whose ring slot is block 2's. That block was never got, so it
 * must not be given back: the maker would make it into the slot the held write is
 * still reading from (as it did when a stopped writer put its block unwritten). */
static ssize_t pf_pwrite_hold_2(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	if (offset == 2 * BS) {
		unsigned char before[BS];
		memcpy(before, buf, n);
		/* until the stop (bounded, so that a broken writer fails, not hangs) */
		for (int i = 0; i < 5000 && !atomic_load(&stop); i++)
			sleep_us(1000);
		sleep_us(100000);   /* the device is still reading the buffer */
		if (memcmp(before, buf, n) != 0) {
			pthread_mutex_lock(&pf.lock);
			pf.overwritten = true;
			pthread_mutex_unlock(&pf.lock);
		}
	}
	return pf_pwrite(ctx, fd, buf, n, offset);
}

static void test_stop_keeps_a_held_block(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	o.pwrite = pf_pwrite_hold_2;
	size_t slots = vb_source_buffer_bytes(VB_SRC_RANDOM, BS, 2, 0) / BS;
	assert_true(slots + 100 <= MAX_BLOCKS);
	uint64_t count = slots + 100;
	assert_int_equal(vb_source_init(&src, VB_SRC_RANDOM, BS, 4096, 2, count * BS, 9, true),
			 0);
	struct vb_write_plan p = plan(&src, count, 2);
	/* The stop comes with the write of block slots + 1 (the held write is counted when
	 * it ends): the free writer's next block is slots + 2, in block 2's slot. */
	pf.stop = &stop;
	pf.stop_after = (unsigned)slots + 1;
	assert_int_equal(vb_write_run(&o, &p, &r), -1);
	assert_int_equal(r.stop, VB_STOP_SIGNAL);
	assert_false(pf.overwritten);
	assert_int_equal(pf.writes_at[2], 1);
	assert_int_equal(pf.writes, slots + 2);
	vb_run_free(&r);
	vb_source_free(&src);
}

/* Each writer publishes its own call for the watchdog: with the writes held, every
 * slot shows a write in progress at its own offset. */
static struct vb_watch watch;
static atomic_int seen_busy;

static ssize_t pf_pwrite_look(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	int busy = 0;
	for (unsigned i = 0; i < 4; i++)
		busy += atomic_load(&watch.slot[i].stage) == (int)VB_STAGE_WRITE &&
			atomic_load(&watch.slot[i].call_start_ns) != 0;
	int prev = atomic_load(&seen_busy);
	while (busy > prev && !atomic_compare_exchange_weak(&seen_busy, &prev, busy))
		;
	return pf_pwrite(ctx, fd, buf, n, offset);
}

static void test_each_writer_publishes_its_call(void **state)
{
	struct vb_source_buf src;
	struct vb_io_ops o = pops();
	struct vb_run r;
	(void)state;
	memset(&watch, 0, sizeof watch);
	atomic_store(&seen_busy, 0);
	o.pwrite = pf_pwrite_look;
	assert_int_equal(vb_source_init(&src, VB_SRC_ZERO, BS, 4096, 4, 400 * BS, 0, true), 0);
	struct vb_write_plan p = plan(&src, 400, 4);
	p.watch = &watch;
	pf.hold_us = 300;
	assert_int_equal(vb_write_run(&o, &p, &r), 0);
	assert_true(atomic_load(&seen_busy) > 1);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(atomic_load(&watch.slot[i].call_start_ns), 0);  /* unpublished */
	vb_run_free(&r);
	vb_source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_offset_once_and_results_joined, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_qd1_writes_in_the_calling_thread, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_data_wait_of_several_writers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval_without_memory_fails_the_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_same_image_at_any_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_at_one_offset_stops_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lowest_failing_offset_reported, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_short_write_continued, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_ends_all_writers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_keeps_a_held_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_each_writer_publishes_its_call, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
