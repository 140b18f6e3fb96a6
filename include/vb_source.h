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
#include "vb_config.h"

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

#endif
