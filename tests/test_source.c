/* Data sources: zeros; random blocks fresh from a seeded generator, made ahead by a
 * thread into a ring; urandom read fresh, or from a reused pool with stamped sectors. */
#include "vb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/vb_source.h"

/* Sleeps us microseconds (usleep is no longer POSIX). */
static void sleep_us(long us)
{
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
	nanosleep(&ts, NULL);
}


#define SECTOR 512

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(a, b, SECTOR);
}

/* Fails when two of the n 512-byte sectors at all are equal (sorts them in place). */
static void assert_sectors_unique(unsigned char *all, size_t bytes)
{
	size_t n = bytes / SECTOR;

	qsort(all, n, SECTOR, cmp_sector);
	for (size_t i = 1; i < n; i++)
		if (memcmp(all + (i - 1) * SECTOR, all + i * SECTOR, SECTOR) == 0)
			fail_msg("sectors %zu and %zu (sorted) are equal", i - 1, i);
}

/* Copies `blocks` blocks of each of `runs` runs out of the source, one writer, the way
 * the write loop takes them. */
static unsigned char *collect(struct vb_source_buf *s, uint64_t blocks, uint64_t runs)
{
	size_t bs = s->bs_bytes;
	unsigned char *all = malloc(bs * blocks * runs);

	assert_non_null(all);
	for (uint64_t r = 0; r < runs; r++) {
		assert_int_equal(vb_source_run_begin(s, r + 1, blocks), 0);
		for (uint64_t b = 0; b < blocks; b++) {
			const unsigned char *p = vb_source_get(s, b);
			assert_non_null(p);
			memcpy(all + (r * blocks + b) * bs, p, bs);
			vb_source_put(s, b);
		}
		vb_source_run_end(s);
	}
	return all;
}

static void test_random_block_depends_on_seed_run_and_block(void **state)
{
	unsigned char a[4096], b[4096];
	(void)state;

	vb_random_block(5, 2, 9, a, sizeof a);
	vb_random_block(5, 2, 9, b, sizeof b);
	assert_memory_equal(a, b, sizeof a);
	vb_random_block(6, 2, 9, b, sizeof b);
	assert_memory_not_equal(a, b, sizeof a);
	vb_random_block(5, 3, 9, b, sizeof b);
	assert_memory_not_equal(a, b, sizeof a);
	vb_random_block(5, 2, 10, b, sizeof b);
	assert_memory_not_equal(a, b, sizeof a);
	/* A shorter block is the start of the longer one: bs does not change the stream. */
	vb_random_block(5, 2, 9, b, 100);
	assert_memory_equal(a, b, 100);
}

/* Block (seed, run, block) as eight xoshiro256** streams interleaved 8 bytes at a time,
 * made here from the one-stream generator: lane i starts where splitmix64, from the
 * block's mix of seed, run and block number, stands after 4 * i outputs. */
#define MODEL_LANES 8
static void model_block(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf,
			size_t n)
{
	uint64_t x = seed ^ (run * 0xd1342543de82ef95ULL) ^ (block * 0x9e3779b97f4a7c15ULL);
	uint64_t st[MODEL_LANES][4];

	for (int i = 0; i < MODEL_LANES; i++)
		vb_prng_seed(st[i], x + (uint64_t)(4 * i) * 0x9e3779b97f4a7c15ULL);
	for (size_t off = 0; off < n; off += 8) {
		unsigned char v[8];
		vb_prng_fill(st[(off / 8) % MODEL_LANES], v, 8);
		memcpy(buf + off, v, n - off < 8 ? n - off : 8);
	}
}

static void test_random_ways_give_the_same_bytes(void **state)
{
	static const size_t lens[] = {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100,
				      127, 128, 129, 4096, 4096 + 13, 4096 + 40, 65536 + 24};
	static unsigned char want[65536 + 128], got[65536 + 128];
	(void)state;

	/* The way vb_random_block takes (vectors where the compiler has them) and plain C
	 * both equal the model, to the byte, and write nothing past the block. */
	for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
		size_t n = lens[l];
		model_block(11, 4, 77, want, n);
		for (int way = 0; way < 2; way++) {
			memset(got, 0xa5, sizeof got);
			if (way == 0)
				vb_random_block(11, 4, 77, got, n);
			else
				vb_random_block_plain(11, 4, 77, got, n);
			assert_memory_equal(got, want, n);
			for (size_t i = n; i < n + 64; i++)
				assert_int_equal(got[i], 0xa5);
		}
	}
}

static void test_random_ring_gives_each_blocks_own_bytes(void **state)
{
	struct vb_source_buf s;
	unsigned char want[8192];
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 8192, 4096, 1, 8192 * 500, 42, true),
			 0);
	assert_null(s.pool);
	unsigned char *all = collect(&s, 500, 1);
	for (uint64_t b = 0; b < 500; b++) {
		vb_random_block(42, 1, b, want, sizeof want);
		if (memcmp(all + b * 8192, want, sizeof want) != 0)
			fail_msg("block %llu is not the generator's", (unsigned long long)b);
	}
	free(all);
	vb_source_free(&s);
}

static void test_random_sectors_unique_across_runs(void **state)
{
	struct vb_source_buf s;
	(void)state;

	/* 2 runs of 6 MiB: far more blocks than the ring has slots. */
	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 4096, 4096, 1, 1536 * 4096, 7, true),
			 0);
	unsigned char *all = collect(&s, 1536, 2);
	assert_sectors_unique(all, (size_t)4096 * 1536 * 2);
	free(all);
	vb_source_free(&s);
}

static void test_seed_reproducible_and_unseeded_differs(void **state)
{
	struct vb_source_buf a, b, c;
	(void)state;

	assert_int_equal(vb_source_init(&a, VB_SRC_RANDOM, 4096, 4096, 1, 1 << 20, 99, true), 0);
	assert_int_equal(vb_source_init(&b, VB_SRC_RANDOM, 4096, 4096, 4, 1 << 20, 99, true), 0);
	assert_int_equal(vb_source_init(&c, VB_SRC_RANDOM, 4096, 4096, 1, 1 << 20, 99, false), 0);
	unsigned char *da = collect(&a, 20, 1), *db = collect(&b, 20, 1), *dc = collect(&c, 20, 1);
	assert_memory_equal(da, db, 20 * 4096);
	assert_memory_not_equal(da, dc, 20 * 4096);
	free(da);
	free(db);
	free(dc);
	vb_source_free(&a);
	vb_source_free(&b);
	vb_source_free(&c);
}

/* ---- several writers on one ring --------------------------------------------------- */

struct team {
	struct vb_source_buf *s;
	atomic_ullong next;
	uint64_t count;
	atomic_int bad;
};

static void *team_writer(void *arg)
{
	struct team *t = arg;
	unsigned char want[4096];

	for (;;) {
		uint64_t b = atomic_fetch_add(&t->next, 1);
		if (b >= t->count)
			break;
		const unsigned char *p = vb_source_get(t->s, b);
		vb_random_block(t->s->seed, 3, b, want, sizeof want);
		if (p == NULL || memcmp(p, want, sizeof want) != 0)
			atomic_store(&t->bad, 1);
		/* Uneven holding times, so that blocks are given back out of order. */
		if (b % 7 == 0)
			sleep_us(50);
		vb_source_put(t->s, b);
	}
	return NULL;
}

static void test_ring_with_four_writers(void **state)
{
	struct vb_source_buf s;
	struct team t;
	pthread_t th[4];
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 4096, 4096, 4, 4096 * 3000, 11, true),
			 0);
	memset(&t, 0, sizeof t);
	t.s = &s;
	t.count = 3000;
	assert_int_equal(vb_source_run_begin(&s, 3, t.count), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, team_writer, &t), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	vb_source_run_end(&s);
	assert_int_equal(atomic_load(&t.bad), 0);
	vb_source_free(&s);
}

/* A writer slower than the maker (a disk): the maker fills the ring, naps, and makes the
 * blocks given back when it wakes, to the end of the run. */
static void test_ring_with_a_slow_writer(void **state)
{
	struct vb_source_buf s;
	unsigned char want[4096];
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 4096, 4096, 1, 4096 * 4000, 9, true),
			 0);
	assert_int_equal(vb_source_run_begin(&s, 2, 4000), 0);
	for (uint64_t b = 0; b < 4000; b++) {
		const unsigned char *p = vb_source_get(&s, b);
		assert_non_null(p);
		vb_random_block(9, 2, b, want, sizeof want);
		if (memcmp(p, want, sizeof want) != 0)
			fail_msg("block %llu is not the generator's", (unsigned long long)b);
		if (b % 16 == 0)
			sleep_us(100);   /* long enough for the maker to fill the ring and sleep */
		vb_source_put(&s, b);
	}
	vb_source_run_end(&s);
	vb_source_free(&s);
}

struct blocked_get {
	struct vb_source_buf *s;
	uint64_t block;
	const unsigned char *got;
	atomic_int done;
};

static void *get_in_thread(void *arg)
{
	struct blocked_get *g = arg;

	g->got = vb_source_get(g->s, g->block);
	atomic_store(&g->done, 1);
	return NULL;
}

/* Starts a thread getting `block`, and checks that it is still waiting 100 ms later. */
static pthread_t start_waiting_get(struct blocked_get *g, struct vb_source_buf *s,
				   uint64_t block)
{
	pthread_t th;

	memset(g, 0, sizeof *g);
	g->s = s;
	g->block = block;
	assert_int_equal(pthread_create(&th, NULL, get_in_thread, g), 0);
	sleep_us(100000);
	assert_int_equal(atomic_load(&g->done), 0);
	return th;
}

/* Waits until the maker has taken a nap (it naps only on a full ring whose next slot is
 * not given back). The bound only keeps a broken maker from hanging the test. */
static void wait_for_a_nap(struct vb_source_buf *s)
{
	uint64_t naps = 0, nudges;

	for (int i = 0; i < 60000 && naps == 0; i++) {
		vb_source_ring_counts(s, &naps, &nudges);
		if (naps == 0)
			sleep_us(1000);
	}
	assert_true(naps > 0);
}

/* The maker naps an hour, and a waiting writer looks again after an hour: only a
 * wake-up ends a wait within a test. */
static const struct vb_ring_tuning hour_waits = {
	.first_nap_ns = 3600000000000ULL, .nap_max_ns = 3600000000000ULL,
	.recheck_ns = 3600000000000ULL};

/* A ring of 1 MiB blocks at qd 1, which has 4 slots, its first run begun and blocks 0
 * to 3 taken (none given back): the maker now waits for block 0's slot; with hour_naps,
 * waits of an hour (hour_waits). */
static void four_slots_taken_naps(struct vb_source_buf *s, bool hour_naps)
{
	assert_int_equal(vb_source_init(s, VB_SRC_RANDOM, 1 << 20, 4096, 1, 100 << 20, 1, true),
			 0);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 1 << 20, 1, 0), 4 << 20);
	if (hour_naps)
		vb_source_ring_tune(s, &hour_waits);
	assert_int_equal(vb_source_run_begin(s, 1, 100), 0);
	for (uint64_t b = 0; b < 4; b++)
		assert_non_null(vb_source_get(s, b));
}

static void four_slots_taken(struct vb_source_buf *s)
{
	four_slots_taken_naps(s, false);
}

/* A writer waiting for a block the maker cannot make (its slot is still held) is let go,
 * with NULL, when the run ends, and when a writer stops early (vb_source_abort); a block
 * got before the abort keeps its data until it is given back. */
static void test_ring_end_and_abort_release_waiters(void **state)
{
	struct vb_source_buf s;
	struct blocked_get g;
	pthread_t th;
	(void)state;

	four_slots_taken(&s);
	vb_source_put(&s, 0);
	vb_source_put(&s, 2);
	assert_non_null(vb_source_get(&s, 4));   /* slot of block 0, given back */
	/* Block 5 needs block 1's slot, which is held: the getter waits... */
	th = start_waiting_get(&g, &s, 5);
	/* ...until the run ends. */
	vb_source_run_end(&s);
	pthread_join(th, NULL);
	assert_null(g.got);

	/* Run 2: blocks 0 to 3 held, a getter waits for block 4 (block 0's slot). */
	assert_int_equal(vb_source_run_begin(&s, 2, 100), 0);
	const unsigned char *first = vb_source_get(&s, 0);
	assert_non_null(first);
	for (uint64_t b = 1; b < 4; b++)
		assert_non_null(vb_source_get(&s, b));
	th = start_waiting_get(&g, &s, 4);
	vb_source_abort(&s);
	pthread_join(th, NULL);
	assert_null(g.got);
	/* A get after the abort does not wait either. */
	assert_null(vb_source_get(&s, 5));
	/* Block 0 is still block 0 of run 2 (seed 1). */
	unsigned char *want = malloc(1 << 20);
	assert_non_null(want);
	vb_random_block(1, 2, 0, want, 1 << 20);
	assert_memory_equal(first, want, 1 << 20);
	free(want);
	for (uint64_t b = 0; b < 4; b++)
		vb_source_put(&s, b);
	vb_source_run_end(&s);
	vb_source_free(&s);
}

/* run_begin returns with the ring full: the first blocks are made before the run's
 * clock starts. Stopped at once after it, the maker can make nothing more, yet every
 * block of the first fill is there, with its data. (Made after run_begin, as before,
 * they were not: 4 blocks of 4 MiB take the new thread a millisecond or more.) */
static void test_ring_full_before_the_clock(void **state)
{
	struct vb_source_buf s;
	size_t bs = 4 << 20;
	unsigned char *want = malloc(bs);
	(void)state;

	assert_non_null(want);
	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, bs, 4096, 1, 100 * (uint64_t)bs, 5,
					true), 0);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, bs, 1, 0), 4 * bs);
	assert_int_equal(vb_source_run_begin(&s, 1, 100), 0);
	vb_source_abort(&s);
	for (uint64_t b = 0; b < 4; b++) {
		const unsigned char *p = vb_source_get(&s, b);
		if (p == NULL)
			fail_msg("block %llu was not made before run_begin returned",
				 (unsigned long long)b);
		vb_random_block(5, 1, b, want, bs);
		assert_memory_equal(p, want, bs);
	}
	assert_null(vb_source_get(&s, 4));   /* nothing is made after the abort */
	vb_source_run_end(&s);
	/* A run shorter than the ring: all of it, and no more. */
	assert_int_equal(vb_source_run_begin(&s, 2, 2), 0);
	vb_source_abort(&s);
	assert_non_null(vb_source_get(&s, 0));
	assert_non_null(vb_source_get(&s, 1));
	vb_source_run_end(&s);
	vb_source_free(&s);
	free(want);
}

/* Waits up to 5 s for a blocked get to end, then ends the run (which lets it go with
 * NULL) and returns what it got. */
static const unsigned char *join_get(struct blocked_get *g, pthread_t th,
				     struct vb_source_buf *s)
{
	for (int i = 0; i < 500 && !atomic_load(&g->done); i++)
		sleep_us(10000);
	vb_source_run_end(s);
	pthread_join(th, NULL);
	return g->got;
}

/* A maker whose nap is an hour: the ring full and held, it naps. The blocks are given
 * back; a writer that then finds the next block not made wakes the maker, rather than
 * waiting for its timer. */
static void test_ring_dry_writer_wakes_the_maker(void **state)
{
	struct vb_source_buf s;
	struct blocked_get g;
	uint64_t naps, nudges;
	(void)state;

	four_slots_taken_naps(&s, true);
	wait_for_a_nap(&s);
	/* Given back with no writer waiting: the maker is not woken, and naps on. */
	for (uint64_t b = 0; b < 4; b++)
		vb_source_put(&s, b);
	vb_source_ring_counts(&s, &naps, &nudges);
	assert_int_equal(nudges, 0);
	memset(&g, 0, sizeof g);
	g.s = &s;
	g.block = 4;
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, get_in_thread, &g), 0);
	const unsigned char *p = join_get(&g, th, &s);
	assert_non_null(p);
	vb_source_ring_counts(&s, &naps, &nudges);
	assert_true(naps >= 1);
	assert_true(nudges >= 1);
	vb_source_free(&s);
}

/* Several writers, blocks given back out of order: a writer waits for block 4, whose
 * slot block 0 still holds, while the maker naps (an hour). The give-back of block 0
 * must wake the maker, since a writer waits. */
static void test_ring_give_back_wakes_for_a_waiting_writer(void **state)
{
	struct vb_source_buf s;
	struct blocked_get g;
	(void)state;

	four_slots_taken_naps(&s, true);
	for (uint64_t b = 1; b < 4; b++)
		vb_source_put(&s, b);
	pthread_t th = start_waiting_get(&g, &s, 4);   /* still waiting 100 ms later */
	vb_source_put(&s, 0);
	assert_non_null(join_get(&g, th, &s));
	vb_source_free(&s);
}

struct begin_in {
	struct vb_source_buf *s;
	atomic_int done;
	int rc;
};

static void *begin_thread(void *arg)
{
	struct begin_in *b = arg;

	b->rc = vb_source_run_begin(b->s, 1, 12);
	atomic_store(&b->done, 1);
	return NULL;
}

/* Every wait is bounded: a writer whose wake-up is lost (glibc can lose one) still finds
 * its block once made. Here the maker wakes no writer at all; the writers get every
 * block anyway (they would wait for ever, and be let go with NULL by the end of the run,
 * if they slept until woken). */
static void test_ring_lost_wakeups_cost_no_run(void **state)
{
	struct vb_source_buf s;
	struct blocked_get g;
	unsigned char *want = malloc(1 << 20);
	(void)state;

	assert_non_null(want);
	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 1 << 20, 4096, 1, 100 << 20, 1, true),
			 0);
	/* naps of 1 s, so that each get waits; the default recheck; no wake-ups */
	const struct vb_ring_tuning mute = {.first_nap_ns = 1000000000, .nap_max_ns = 1000000000,
					    .recheck_ns = 5000000, .mute_maker = true};
	vb_source_ring_tune(&s, &mute);
	/* run_begin waits for the ring to fill, which nobody announces either */
	struct begin_in b0 = {&s, 0, -1};
	pthread_t bt;
	assert_int_equal(pthread_create(&bt, NULL, begin_thread, &b0), 0);
	for (int i = 0; i < 500 && !atomic_load(&b0.done); i++)
		sleep_us(10000);
	if (!atomic_load(&b0.done)) {
		vb_source_abort(&s);   /* lets it go */
		pthread_join(bt, NULL);
		fail_msg("run_begin did not end: the full ring was never seen");
	}
	pthread_join(bt, NULL);
	assert_int_equal(b0.rc, 0);
	for (uint64_t b = 0; b < 12; b++) {
		/* each get in a thread, so that a wait that never ends fails the test */
		memset(&g, 0, sizeof g);
		g.s = &s;
		g.block = b;
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, get_in_thread, &g), 0);
		for (int i = 0; i < 500 && !atomic_load(&g.done); i++)
			sleep_us(10000);
		if (!atomic_load(&g.done)) {
			vb_source_run_end(&s);
			pthread_join(th, NULL);
			fail_msg("the get of block %llu did not end", (unsigned long long)b);
		}
		pthread_join(th, NULL);
		assert_non_null(g.got);
		vb_random_block(1, 1, b, want, 1 << 20);
		assert_memory_equal(g.got, want, 1 << 20);
		vb_source_put(&s, b);
	}
	vb_source_run_end(&s);
	vb_source_free(&s);
	free(want);
}

/* A writer slower than the maker, as a disk is: the maker naps on its own timer and
 * wakes by itself to make the blocks given back; the give-backs, with no writer waiting,
 * never wake it (each wake-up would be a system call in the write loop). Counted, not
 * timed: the nap is short (1 ms), and the test only waits for the blocks to be made. */
static void test_ring_maker_naps_by_itself(void **state)
{
	struct vb_source_buf s;
	uint64_t naps, nudges;
	const struct vb_ring_tuning short_naps = {.first_nap_ns = 1000000,
						  .nap_max_ns = 1000000,
						  .recheck_ns = 3600000000000ULL};
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 1 << 20, 4096, 1, 100 << 20, 1, true),
			 0);
	vb_source_ring_tune(&s, &short_naps);
	assert_int_equal(vb_source_run_begin(&s, 1, 40), 0);
	for (uint64_t b = 0; b < 4; b++)
		assert_non_null(vb_source_get(&s, b));
	wait_for_a_nap(&s);   /* the ring's 4 slots held: the maker naps */
	for (uint64_t b = 0; b < 40; b++) {
		/* Only once the maker has made it is a block taken: no writer ever waits. */
		for (int i = 0; i < 60000 && !vb_source_ready(&s, b); i++)
			sleep_us(1000);
		assert_true(vb_source_ready(&s, b));
		if (b >= 4)
			assert_non_null(vb_source_get(&s, b));
		vb_source_put(&s, b);
	}
	vb_source_ring_counts(&s, &naps, &nudges);
	vb_source_run_end(&s);
	vb_source_free(&s);
	assert_true(naps > 0);
	assert_int_equal(nudges, 0);
}

/* The nap: the writers' time for a quarter of the ring, from their pace since the last
 * wake-up; twice the last when they gave nothing back; within 20 us and the limit. */
static void test_nap_follows_the_writers_pace(void **state)
{
	(void)state;
	/* 8 blocks in 2 ms: 250 us a block; 4 wanted: 1 ms */
	assert_int_equal(vb_ring_nap_ns(8, 2000000, 4, 50000, 20000000), 1000000);
	assert_int_equal(vb_ring_nap_ns(1, 300000, 1, 20000, 20000000), 300000);
	/* nothing given back: doubled, up to the limit */
	assert_int_equal(vb_ring_nap_ns(0, 0, 0, 30000, 20000000), 60000);
	assert_int_equal(vb_ring_nap_ns(0, 0, 0, 15000000, 20000000), 20000000);
	/* bounds: a very fast writer, a very slow one, and figures whose product would not
	 * fit 64 bits */
	assert_int_equal(vb_ring_nap_ns(1000, 1000, 1, 50000, 20000000), 20000);
	assert_int_equal(vb_ring_nap_ns(1, 60000000000ULL, 2, 50000, 20000000), 20000000);
	assert_int_equal(vb_ring_nap_ns(1, UINT64_MAX / 2, UINT64_MAX / 2, 50000, 20000000),
			 20000000);
	/* a limit below the floor is the floor */
	assert_int_equal(vb_ring_nap_ns(1, 1000000000, 1, 50000, 1000), 20000);
}

static void test_ring_sizes(void **state)
{
	(void)state;
	/* small blocks: VB_RING_MIN_BYTES of them, so that the maker runs well ahead */
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 4096, 1, 0), VB_RING_MIN_BYTES);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 4096, 8, 0), VB_RING_MIN_BYTES);
	/* large ones: two per writer and two spare, at least 4 */
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 1 << 20, 1, 0), 4 << 20);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 1 << 20, 8, 0), 18 << 20);
	/* capped by VB_RING_MAX_BYTES... */
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 16 << 20, 2, 0), VB_RING_MAX_BYTES);
	/* ...but never fewer than a slot per writer and one for the maker */
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_RANDOM, 16 << 20, 8, 0),
			 (size_t)9 * (16 << 20));
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_ZERO, 8192, 8, 1 << 30), 8192);
	/* urandom: the run itself when fresh (rounded up to a block); the pool and a ring */
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_URANDOM, 4096, 1, 10000), 12288);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_URANDOM, 4096, 1, VB_URANDOM_FRESH_BYTES),
			 VB_URANDOM_FRESH_BYTES);
	assert_int_equal(vb_source_buffer_bytes(VB_SRC_URANDOM, 4096, 1,
						VB_URANDOM_FRESH_BYTES + 1),
			 VB_URANDOM_FRESH_BYTES + VB_RING_MIN_BYTES);
}

static void test_alignment(void **state)
{
	struct vb_source_buf s;
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_RANDOM, 4096, 4096, 2, 1 << 20, 1, true), 0);
	assert_int_equal(vb_source_run_begin(&s, 1, 10), 0);
	for (uint64_t b = 0; b < 10; b++) {
		assert_int_equal((uintptr_t)vb_source_get(&s, b) % 4096, 0);
		vb_source_put(&s, b);
	}
	vb_source_run_end(&s);
	vb_source_free(&s);
	assert_int_equal(vb_source_init(&s, VB_SRC_ZERO, 512, 4096, 1, 1 << 20, 1, true), 0);
	assert_int_equal((uintptr_t)s.pool % 4096, 0);
	vb_source_free(&s);
}

static void test_zero_is_zero(void **state)
{
	struct vb_source_buf s;
	(void)state;

	assert_int_equal(vb_source_init(&s, VB_SRC_ZERO, 8192, 4096, 1, 1 << 20, 0, false), 0);
	assert_int_equal(vb_source_run_begin(&s, 3, 100), 0);
	const unsigned char *p = vb_source_get(&s, 17);
	for (size_t i = 0; i < 8192; i++)
		assert_int_equal(p[i], 0);
	vb_source_run_end(&s);
	vb_source_free(&s);
}

static void test_urandom_fresh_every_run(void **state)
{
	struct vb_source_buf s;
	(void)state;

	/* 1 MiB runs: read whole before each run, nothing repeats within or across runs. */
	assert_int_equal(vb_source_init(&s, VB_SRC_URANDOM, 65536, 4096, 1, 1 << 20, 0, false), 0);
	assert_true(s.fresh);
	assert_null(s.ring);
	unsigned char *all = collect(&s, 16, 3);
	assert_sectors_unique(all, (size_t)65536 * 16 * 3);
	free(all);
	vb_source_free(&s);
}

static void test_urandom_reused_pool_is_stamped(void **state)
{
	struct vb_source_buf s;
	unsigned char *want = malloc(1 << 20);
	(void)state;

	/* A run one block longer than the pool: the pool is read once, reused, stamped. */
	uint64_t run_bytes = VB_URANDOM_FRESH_BYTES + (1 << 20);
	uint64_t slots = VB_URANDOM_FRESH_BYTES >> 20, blocks = slots + 1;
	assert_non_null(want);
	assert_int_equal(vb_source_init(&s, VB_SRC_URANDOM, 1 << 20, 4096, 1, run_bytes, 3, true),
			 0);
	assert_false(s.fresh);
	assert_non_null(s.ring);
	unsigned char *all = collect(&s, blocks, 2);
	/* The stamped copy is what vb_urandom_block makes from the pool. */
	vb_urandom_block(s.pool, s.pool_bytes, 3, 2, 5, want, 1 << 20);
	assert_memory_equal(all + (blocks + 5) * (1 << 20), want, 1 << 20);
	/* Between the stamps it is the pool's bytes. */
	assert_memory_equal(all + 5 * (1 << 20) + 16, s.pool + 5 * (1 << 20) + 16,
			    SECTOR - 16);
	/* Block `slots` reuses block 0's pool slice, and across runs: still all unique. */
	assert_sectors_unique(all, (size_t)(blocks * 2) << 20);
	free(all);
	free(want);
	vb_source_free(&s);
}

static void test_prng_bytes_balanced(void **state)
{
	uint64_t st[4];
	static unsigned char buf[1 << 20];
	size_t counts[256] = {0};
	(void)state;

	vb_prng_seed(st, 1);
	vb_prng_fill(st, buf, sizeof buf);
	for (size_t i = 0; i < sizeof buf; i++)
		counts[buf[i]]++;
	/* 4096 expected per byte value; a generator this far off would compress. */
	for (int v = 0; v < 256; v++)
		assert_true(counts[v] > 3600 && counts[v] < 4600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_block_depends_on_seed_run_and_block),
		cmocka_unit_test(test_random_ways_give_the_same_bytes),
		cmocka_unit_test(test_random_ring_gives_each_blocks_own_bytes),
		cmocka_unit_test(test_random_sectors_unique_across_runs),
		cmocka_unit_test(test_seed_reproducible_and_unseeded_differs),
		cmocka_unit_test(test_ring_with_four_writers),
		cmocka_unit_test(test_ring_with_a_slow_writer),
		cmocka_unit_test(test_ring_end_and_abort_release_waiters),
		cmocka_unit_test(test_ring_full_before_the_clock),
		cmocka_unit_test(test_ring_dry_writer_wakes_the_maker),
		cmocka_unit_test(test_ring_give_back_wakes_for_a_waiting_writer),
		cmocka_unit_test(test_ring_lost_wakeups_cost_no_run),
		cmocka_unit_test(test_ring_maker_naps_by_itself),
		cmocka_unit_test(test_nap_follows_the_writers_pace),
		cmocka_unit_test(test_ring_sizes),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_zero_is_zero),
		cmocka_unit_test(test_urandom_fresh_every_run),
		cmocka_unit_test(test_urandom_reused_pool_is_stamped),
		cmocka_unit_test(test_prng_bytes_balanced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
