#ifndef VB_SOURCE_H
#define VB_SOURCE_H

/* The data written.
 * - zero: one block of zeros, written again and again.
 * - random: every byte fresh from a seeded generator (xoshiro256**), a block's bytes a
 *   function of the seed, the run and the block's number only (so --seed gives the same
 *   bytes, at any depth). A second thread makes the blocks ahead of the writers in a
 *   ring of buffers, so that the writers do not wait for them.
 * - urandom: the kernel's randomness, read before the clock starts: fresh for every run
 *   when a run is at most VB_URANDOM_FRESH_BYTES; beyond that a pool of that size is
 *   reused (the kernel's generator is far slower than a disk), its blocks copied into
 *   the ring with every 512-byte sector stamped with the run and its offset, and the
 *   header says so. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Blocks from a reused urandom pool are stamped every this many bytes: every 512-byte
 * sector, so that storage deduplicating at that size finds nothing to share. */
#define VB_STAMP_STRIDE 512u

/* Largest run whose urandom data is read fresh before it; the pool's size beyond. */
#define VB_URANDOM_FRESH_BYTES ((uint64_t)64 << 20)

/* Memory the ring of made blocks takes at least (with at least 4 blocks), and at most
 * (more only when qd + 1 blocks need more). */
#define VB_RING_MIN_BYTES ((size_t)4 << 20)
#define VB_RING_MAX_BYTES ((size_t)64 << 20)

/* The ring of blocks made ahead of the writers (see source.c). */
struct vb_ring;

struct vb_source_buf {
	enum vb_source kind;
	size_t bs_bytes;
	uint64_t seed;          /* the seed of every block (random) and stamp (urandom) */
	unsigned char *pool;    /* zero: one block; urandom: the pool; random: NULL */
	size_t pool_bytes;
	bool fresh;             /* urandom: the pool is read again before every run */
	uint64_t run;           /* the run being written */
	uint64_t qd;            /* writes in flight */
	struct vb_ring *ring;   /* random, and urandom from a reused pool */
};

/* Bytes of data buffers vb_source_init makes for blocks of bs bytes of this kind, with
 * qd writes in flight and runs of run_bytes. */
size_t vb_source_buffer_bytes(enum vb_source kind, size_t bs, uint64_t qd, uint64_t run_bytes);

/* One line for the header saying what the data is (and, for urandom beyond the fresh
 * size, that it is reused); buffer_bytes as vb_source_buffer_bytes says. Returns buf. */
const char *vb_source_describe(enum vb_source kind, uint64_t run_bytes, uint64_t buffer_bytes,
			       char *buf, size_t n);

/* Allocates (aligned to align bytes) and, for zero and a reused urandom pool, fills the
 * buffers; 0, or -1 with errno (ENOMEM, or the error reading the kernel's randomness). */
int vb_source_init(struct vb_source_buf *s, enum vb_source kind, size_t bs, size_t align,
		   uint64_t qd, uint64_t run_bytes, uint64_t seed, bool seeded);

/* Before the clock of run `run` (count blocks) starts: refills a fresh urandom pool,
 * starts the thread making blocks and waits until it has filled the ring (or made the
 * whole run, if shorter), so that the first writes find their data made. 0, or -1 with
 * errno (the kernel's randomness could not be read, or with several writers the thread
 * could not be started). */
int vb_source_run_begin(struct vb_source_buf *s, uint64_t run, uint64_t count);

/* Whether the data of block `block` of the current run is there to write without
 * waiting: always for zero and urandom read before the run; for a ring, once the maker
 * has made it (never when there is no maker: the writer makes each block itself). */
bool vb_source_ready(const struct vb_source_buf *s, uint64_t block);

/* The data of block `block` of the current run, waiting for it if it is not made yet;
 * NULL when the run was ended meanwhile. */
const unsigned char *vb_source_get(struct vb_source_buf *s, uint64_t block);

/* Gives the buffer of block `block` back, once its write is over: a store, and no
 * system call unless a writer waits for data (then it wakes the maker). */
void vb_source_put(struct vb_source_buf *s, uint64_t block);

/* A writer stops early: no block is made any more, and every get that waits for one,
 * now or later, returns NULL; buffers already got stay valid until their put. A block
 * taken but never got is not put: that would give the maker a slot that another writer
 * may still be writing from (the slot of the block n_slots before it). */
void vb_source_abort(struct vb_source_buf *s);

/* After the run: stops making blocks. */
void vb_source_run_end(struct vb_source_buf *s);

/* Releases everything. */
void vb_source_free(struct vb_source_buf *s);

/* What only the tests of source.c call: the generators, and (test builds only) hooks
 * into the ring's waiting. */

/* Fills the n bytes at buf with the data of block `block` of run `run`: what
 * vb_source_get returns for random, without the ring (for tests and the ring's maker). */
void vb_random_block(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf, size_t n);

/* Fills the bs bytes at buf with block `block` of run `run` from a reused urandom pool:
 * the pool's slice for that block, every VB_STAMP_STRIDE bytes stamped with (seed, run,
 * offset). */
void vb_urandom_block(const unsigned char *pool, size_t pool_bytes, uint64_t seed,
		      uint64_t run, uint64_t block, unsigned char *buf, size_t bs);

/* Fills buf with n bytes of the seeded generator (xoshiro256**), advancing *state. */
void vb_prng_fill(uint64_t state[4], unsigned char *buf, size_t n);

/* Seeds a xoshiro256** state from one 64-bit number (via splitmix64). */
void vb_prng_seed(uint64_t state[4], uint64_t seed);

/* vb_random_block made in plain C, one lane after the other: the same bytes as the
 * vector way vb_random_block takes where the compiler has vector extensions. */
void vb_random_block_plain(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf,
			   size_t n);

#ifdef VB_TEST_SEAMS
/* Test builds only (the unit tests' archive is compiled with VB_TEST_SEAMS; vbench is
 * not): how the ring waits (the defaults: 20 us, 20 ms, 5 ms), and how many naps the
 * maker took and how many times writers woke it in the current run. A slow source for
 * tests: on_make(on_make_arg) is called before each block is made, and with no_maker
 * the maker thread is not started (as when it cannot be), so that a single writer makes
 * every block itself, on its own thread. */
struct vb_ring_tuning {
	uint64_t first_nap_ns, nap_max_ns;   /* the maker's first nap of a run, its longest */
	uint64_t recheck_ns;                 /* a waiting writer looks again this often */
	bool mute_maker;                     /* it wakes no waiting writer: all wake-ups lost */
	bool no_maker;                       /* no maker thread */
	void (*on_make)(void *arg);          /* NULL, or called before each block is made */
	void *on_make_arg;
};
void vb_source_ring_tune(struct vb_source_buf *s, const struct vb_ring_tuning *t);
void vb_source_ring_counts(const struct vb_source_buf *s, uint64_t *naps, uint64_t *nudges);
#endif

/* The maker's next nap, in ns: the time the writers take to give back want_blocks,
 * judged from done_blocks given back over the last elapsed_ns; twice prev_nap_ns when
 * none were; within 20 us and max_ns. */
uint64_t vb_ring_nap_ns(uint64_t done_blocks, uint64_t elapsed_ns, uint64_t want_blocks,
			uint64_t prev_nap_ns, uint64_t max_ns);

#endif
