#ifndef VB_SOURCE_H
#define VB_SOURCE_H

/* The data written: zero; random (xoshiro256**, a function of seed, run and block only,
 * made ahead by a second thread); urandom (the kernel's, read before the clock: fresh up
 * to VB_URANDOM_FRESH_BYTES a run, beyond that a pool reused, every sector stamped: the
 * kernel's generator is far slower than a disk, and the header says so). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Stamped every 512-byte sector, so that deduplicating storage finds nothing to share. */
#define VB_STAMP_STRIDE 512u

/* Largest run whose urandom data is read fresh before it; the pool's size beyond. */
#define VB_URANDOM_FRESH_BYTES ((uint64_t)64 << 20)

/* The ring's memory: at least (and 4 blocks), at most (unless qd + 1 blocks need more). */
#define VB_RING_MIN_BYTES ((size_t)4 << 20)
#define VB_RING_MAX_BYTES ((size_t)64 << 20)

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

/* Bytes of data buffers vb_source_init makes for these settings. */
size_t vb_source_buffer_bytes(enum vb_source kind, size_t bs, uint64_t qd, uint64_t run_bytes);

/* One line for the header saying what the data is; returns buf. */
const char *vb_source_describe(enum vb_source kind, uint64_t run_bytes, uint64_t buffer_bytes,
			       char *buf, size_t n);

/* Allocates (aligned to align bytes) and, for zero and a reused urandom pool, fills the
 * buffers; 0, or -1 with errno (ENOMEM, or the error reading the kernel's randomness). */
int vb_source_init(struct vb_source_buf *s, enum vb_source kind, size_t bs, size_t align,
		   uint64_t qd, uint64_t run_bytes, uint64_t seed, bool seeded);

/* Before the clock of run `run` (count blocks): refills a fresh urandom pool, starts the
 * maker and waits until the ring is full. 0, or -1 with errno (the kernel's randomness
 * unreadable, or with several writers no thread). */
int vb_source_run_begin(struct vb_source_buf *s, uint64_t run, uint64_t count);

/* Whether block `block` is there to write without waiting (never without a maker). */
bool vb_source_ready(const struct vb_source_buf *s, uint64_t block);

/* The data of block `block`, waiting for it; NULL when the run was ended meanwhile. */
const unsigned char *vb_source_get(struct vb_source_buf *s, uint64_t block);

/* Gives block `block`'s buffer back once written (no system call unless a writer waits). */
void vb_source_put(struct vb_source_buf *s, uint64_t block);

/* Stops early: every get that waits returns NULL; buffers got stay valid until put. A
 * block never got is not put: its slot may still be written from by another writer. */
void vb_source_abort(struct vb_source_buf *s);

/* After the run: stops making blocks. */
void vb_source_run_end(struct vb_source_buf *s);

/* Releases everything. */
void vb_source_free(struct vb_source_buf *s);

/* Fills buf with block `block` of run `run` for random, without the ring. */
void vb_random_block(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf, size_t n);

/* Fills buf with block `block` from a reused urandom pool, stamped (seed, run, offset). */
void vb_urandom_block(const unsigned char *pool, size_t pool_bytes, uint64_t seed,
		      uint64_t run, uint64_t block, unsigned char *buf, size_t bs);

/* Fills buf with n bytes of the seeded generator (xoshiro256**), advancing *state. */
void vb_prng_fill(uint64_t state[4], unsigned char *buf, size_t n);

/* Seeds a xoshiro256** state from one 64-bit number (via splitmix64). */
void vb_prng_seed(uint64_t state[4], uint64_t seed);

/* vb_random_block in plain C, one lane after the other (the same bytes). */
void vb_random_block_plain(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf,
			   size_t n);

#ifdef VB_TEST_SEAMS
/* Test builds only: how the ring waits (defaults 20 us, 20 ms, 5 ms), a slow source
 * (on_make), no maker thread, and the naps and wake-ups of the current run. */
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

/* The maker's next nap, in ns: the time to give back want_blocks at the pace of
 * done_blocks in elapsed_ns; twice prev_nap_ns when none; within 20 us and max_ns. */
uint64_t vb_ring_nap_ns(uint64_t done_blocks, uint64_t elapsed_ns, uint64_t want_blocks,
			uint64_t prev_nap_ns, uint64_t max_ns);

#endif
