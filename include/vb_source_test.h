#ifndef VB_SOURCE_TEST_H
#define VB_SOURCE_TEST_H

/* What only the tests of source.c call: the generators, and hooks into the ring's
 * waiting. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vb_source.h"

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

/* How the ring waits (the defaults: 20 us, 20 ms, 5 ms, false), and how many naps the
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

/* The maker's next nap, in ns: the time the writers take to give back want_blocks,
 * judged from done_blocks given back over the last elapsed_ns; twice prev_nap_ns when
 * none were; within 20 us and max_ns. */
uint64_t vb_ring_nap_ns(uint64_t done_blocks, uint64_t elapsed_ns, uint64_t want_blocks,
			uint64_t prev_nap_ns, uint64_t max_ns);

#endif
