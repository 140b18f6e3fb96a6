#ifndef VB_SOURCE_H
#define VB_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include "vb_config.h"

/* Sectors are stamped every this many bytes so no two 4 KiB sectors written are equal. */
#define VB_STAMP_STRIDE 4096u

/* Smallest pool of random data; blocks cycle through it so that no compressor window
 * (gzip: 32 KiB, zstd default: a few MiB at most for fast levels) sees a repeat. */
#define VB_POOL_MIN_BYTES ((size_t)4 << 20)

/* The data written: an aligned pool made before the clock starts, reused for every block. */
struct vb_source_buf {
	enum vb_source kind;
	unsigned char *pool;   /* aligned to `align` bytes */
	size_t pool_bytes;     /* bs for zero; a multiple of bs >= VB_POOL_MIN_BYTES otherwise */
	size_t bs_bytes;
	uint64_t nonce;        /* goes into every stamp, distinct per invocation unless seeded */
};

/* Bytes of the pool vb_source_init makes for blocks of bs bytes of this kind. */
size_t vb_source_pool_bytes(enum vb_source kind, size_t bs);

/* Allocates and fills the pool for blocks of bs bytes aligned to align; 0, or -1 with
 * errno (ENOMEM, or the error reading the kernel's randomness). */
int vb_source_init(struct vb_source_buf *s, enum vb_source kind, size_t bs, size_t align,
		   uint64_t seed, int seeded);

/* Returns the data for block number block (0-based) of run run, stamped if random. */
const unsigned char *vb_source_block(struct vb_source_buf *s, uint64_t run, uint64_t block);

/* Releases the pool. */
void vb_source_free(struct vb_source_buf *s);

/* Fills buf with n bytes of the seeded generator (xoshiro256**), advancing *state. */
void vb_prng_fill(uint64_t state[4], unsigned char *buf, size_t n);

/* Seeds a xoshiro256** state from one 64-bit number (via splitmix64). */
void vb_prng_seed(uint64_t state[4], uint64_t seed);

#endif
