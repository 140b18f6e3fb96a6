#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vb_os.h"
#include "vb_source.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void vb_prng_seed(uint64_t state[4], uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		state[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t xoshiro_next(uint64_t s[4])
{
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

void vb_prng_fill(uint64_t state[4], unsigned char *buf, size_t n)
{
	while (n >= 8) {
		uint64_t v = xoshiro_next(state);
		memcpy(buf, &v, 8);
		buf += 8;
		n -= 8;
	}
	if (n > 0) {
		uint64_t v = xoshiro_next(state);
		memcpy(buf, &v, n);
	}
}

/* Without --seed, each invocation's data differs: the seed comes from the kernel's
 * randomness, or the clock where there is none; this is not a security measure. */
static uint64_t default_seed(void)
{
	uint64_t seed;

	if (vb_os_urandom(&seed, sizeof seed) != 0)
		seed = vb_now_ns();
	return seed;
}

size_t vb_source_pool_bytes(enum vb_source kind, size_t bs)
{
	if (kind == VB_SRC_ZERO || bs >= VB_POOL_MIN_BYTES)
		return bs;
	return (VB_POOL_MIN_BYTES + bs - 1) / bs * bs;
}

int vb_source_init(struct vb_source_buf *s, enum vb_source kind, size_t bs, size_t align,
		   uint64_t seed, int seeded)
{
	size_t pool = vb_source_pool_bytes(kind, bs);
	void *mem = NULL;
	uint64_t st[4];

	memset(s, 0, sizeof *s);
	if (align < sizeof(void *))
		align = sizeof(void *);
	mem = vb_os_aligned_alloc(align, pool);
	if (mem == NULL)
		return -1;
	s->kind = kind;
	s->pool = mem;
	s->pool_bytes = pool;
	s->bs_bytes = bs;
	if (!seeded)
		seed = default_seed();
	vb_prng_seed(st, seed);
	s->nonce = xoshiro_next(st);
	if (kind == VB_SRC_ZERO) {
		memset(mem, 0, pool);
	} else if (kind == VB_SRC_RANDOM) {
		vb_prng_fill(st, mem, pool);
	} else if (vb_os_urandom(mem, pool) != 0) {
		int e = errno;
		vb_source_free(s);
		errno = e;
		return -1;
	}
	return 0;
}

/* Writes the 16-byte stamp at p: a hash of (run tag, offset) first, so that even the
 * first bytes of a stamp cut short by the end of a block differ, then the offset. */
static inline void stamp(unsigned char *p, size_t room, uint64_t tag, uint64_t offset)
{
	unsigned char b[16];
	uint64_t mix = tag ^ offset;
	uint64_t h = splitmix64(&mix);
	memcpy(b, &h, 8);
	memcpy(b + 8, &offset, 8);
	memcpy(p, b, room < 16 ? room : 16);
}

const unsigned char *vb_source_block(struct vb_source_buf *s, uint64_t run, uint64_t block)
{
	size_t slots = s->pool_bytes / s->bs_bytes;
	unsigned char *p = s->pool + (size_t)(block % slots) * s->bs_bytes;

	if (s->kind == VB_SRC_ZERO)
		return p;
	/* Every 4 KiB of the block carries (run, offset), so no two sectors are equal within
	 * or across runs, and the pool's reuse never repeats a sector. */
	uint64_t tag = s->nonce ^ (run * 0x9e3779b97f4a7c15ULL);
	uint64_t base = block * (uint64_t)s->bs_bytes;
	for (size_t off = 0; off < s->bs_bytes; off += VB_STAMP_STRIDE)
		stamp(p + off, s->bs_bytes - off, tag, base + off);
	return p;
}

void vb_source_free(struct vb_source_buf *s)
{
	vb_os_aligned_free(s->pool);
	s->pool = NULL;
	s->pool_bytes = 0;
}
