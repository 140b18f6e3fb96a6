#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "os/vb_os.h"
#include "bench/vb_source.h"

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

/* A block is made by LANES xoshiro256** generators stepped together, outputs interleaved:
 * independent chains that fit vector registers (two lanes per 16-byte register with GCC
 * and Clang, plain C elsewhere, the same bytes; bench/README.md has its rate). */
#define LANES 8
#define STEP_BYTES (8 * LANES)

#if defined(__GNUC__)
#define LANES_ROTL(x, k) (((x) << (k)) | ((x) >> (64 - (k))))

/* One step of the generators whose states are s0..s3 (vectors of lanes); r: the output. */
#define LANES_STEP(s0, s1, s2, s3, r)                                                    \
	do {                                                                             \
		__typeof__(s1) x_ = (s1) + ((s1) << 2);   /* s1 * 5 */                      \
		x_ = LANES_ROTL(x_, 7);                                                  \
		(r) = x_ + (x_ << 3);                     /* * 9 */                         \
		__typeof__(s1) t_ = (s1) << 17;                                          \
		(s2) ^= (s0);                                                            \
		(s3) ^= (s1);                                                            \
		(s1) ^= (s2);                                                            \
		(s0) ^= (s3);                                                            \
		(s2) ^= t_;                                                              \
		(s3) = LANES_ROTL(s3, 45);                                               \
	} while (0)

typedef uint64_t lanes2_t __attribute__((vector_size(16)));

/* Lanes 2k and 2k+1 in register k (named, not an array, to stay in registers). */
static void fill_lanes16(uint64_t st[4][LANES], unsigned char *buf, size_t n)
{
	lanes2_t a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, r[4];

#define LOAD_PAIR(v, lane)                                                               \
	do {                                                                             \
		memcpy(&v##0, &st[0][lane], 16);                                         \
		memcpy(&v##1, &st[1][lane], 16);                                         \
		memcpy(&v##2, &st[2][lane], 16);                                         \
		memcpy(&v##3, &st[3][lane], 16);                                         \
	} while (0)
	LOAD_PAIR(a, 0);
	LOAD_PAIR(b, 2);
	LOAD_PAIR(c, 4);
	LOAD_PAIR(d, 6);
#undef LOAD_PAIR
	for (;;) {
		LANES_STEP(a0, a1, a2, a3, r[0]);
		LANES_STEP(b0, b1, b2, b3, r[1]);
		LANES_STEP(c0, c1, c2, c3, r[2]);
		LANES_STEP(d0, d1, d2, d3, r[3]);
		if (n < STEP_BYTES)
			break;
		memcpy(buf, r, STEP_BYTES);
		buf += STEP_BYTES;
		n -= STEP_BYTES;
	}
	memcpy(buf, r, n);   /* the tail of a block that is not a multiple of a step */
}
#endif

/* Plain C, one lane after the other: the reference the vector way must equal. */
static void fill_lanes_plain(uint64_t st[4][LANES], unsigned char *buf, size_t n)
{
	for (;;) {
		uint64_t r[LANES];
		for (int i = 0; i < LANES; i++) {
			uint64_t s[4] = {st[0][i], st[1][i], st[2][i], st[3][i]};
			r[i] = xoshiro_next(s);
			st[0][i] = s[0];
			st[1][i] = s[1];
			st[2][i] = s[2];
			st[3][i] = s[3];
		}
		size_t k = n < sizeof r ? n : sizeof r;
		memcpy(buf, r, k);
		if (k < sizeof r)
			return;
		buf += k;
		n -= k;
	}
}

/* Each block's streams are seeded from (seed, run, block) alone, so that any writer may
 * make or write it, in any order. */
static void block_states(uint64_t seed, uint64_t run, uint64_t block, uint64_t st[4][LANES])
{
	uint64_t x = seed ^ (run * 0xd1342543de82ef95ULL) ^ (block * 0x9e3779b97f4a7c15ULL);

	for (int i = 0; i < LANES; i++)
		for (int w = 0; w < 4; w++)
			st[w][i] = splitmix64(&x);
}

void vb_random_block_plain(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf,
			   size_t n)
{
	uint64_t st[4][LANES];

	block_states(seed, run, block, st);
	fill_lanes_plain(st, buf, n);
}

void vb_random_block(uint64_t seed, uint64_t run, uint64_t block, unsigned char *buf, size_t n)
{
	uint64_t st[4][LANES];

	block_states(seed, run, block, st);
#if defined(__GNUC__)
	fill_lanes16(st, buf, n);
#else
	fill_lanes_plain(st, buf, n);
#endif
}

/* The 16-byte stamp: a hash of (tag, offset) first, so that even a stamp cut short by
 * the block's end differs, then the offset. */
static inline void stamp(unsigned char *p, size_t room, uint64_t tag, uint64_t offset)
{
	unsigned char b[16];
	uint64_t mix = tag ^ offset;
	uint64_t h = splitmix64(&mix);
	memcpy(b, &h, 8);
	memcpy(b + 8, &offset, 8);
	memcpy(p, b, room < 16 ? room : 16);
}

void vb_urandom_block(const unsigned char *pool, size_t pool_bytes, uint64_t seed,
		      uint64_t run, uint64_t block, unsigned char *buf, size_t bs)
{
	size_t slots = pool_bytes / bs;
	uint64_t tag = seed ^ (run * 0x9e3779b97f4a7c15ULL), base = block * (uint64_t)bs;

	memcpy(buf, pool + (size_t)(block % slots) * bs, bs);
	/* No two sectors written are equal although the pool is reused. */
	for (size_t off = 0; off < bs; off += VB_STAMP_STRIDE)
		stamp(buf + off, bs - off, tag, base + off);
}

static void make_block(const struct vb_source_buf *s, uint64_t block, unsigned char *buf)
{
	if (s->kind == VB_SRC_RANDOM)
		vb_random_block(s->seed, s->run, block, buf, s->bs_bytes);
	else
		vb_urandom_block(s->pool, s->pool_bytes, s->seed, s->run, block, buf, s->bs_bytes);
}

/* The ring: a maker thread fills slot b % n_slots with block b once block b - n_slots is
 * given back, and fills the whole ring before the clock starts. Giving back is one store:
 * waking the maker from a writer would cost a system call (and in a VM an interrupt) per
 * block (bench/README.md), so a full ring's maker naps for about the time the writers
 * take to give back a quarter of it; only a writer that runs dry wakes it. A waiting side
 * spins a little, then sleeps; waking is Dekker's pattern on seq_cst atomics (announce,
 * then look again; store, then look for a waiter). */
struct vb_ring {
	unsigned char *mem;
	size_t n_slots;
	atomic_ullong *ready;      /* slot i holds block ready[i] - 1 */
	atomic_ullong *freed;      /* slot i's block freed[i] - 1 has been written */
	pthread_mutex_t lock;
	pthread_cond_t writers_cond, maker_cond;
	atomic_int writers_waiting;
	atomic_int maker_waiting;
	atomic_int stop;
	const struct vb_source_buf *src;   /* what a block is made from */
	uint64_t count;
	pthread_t maker;
	bool running;
	/* the maker's own: its nap, and the writers' progress when it last woke */
	uint64_t nap_ns, nap_first_ns, nap_max_ns, seen_ns, seen_done;
	uint64_t recheck_ns;          /* a waiting writer looks again this often */
#ifdef VB_TEST_SEAMS
	struct vb_ring_tuning seams;  /* what the tests set (vb_source_ring_tune) */
	atomic_ullong naps, nudges;   /* naps taken; wake-ups asked for by writers */
#endif
};

#ifdef VB_TEST_SEAMS
#define SEAM_COUNT(r, what) atomic_fetch_add_explicit(&(r)->what, 1, memory_order_relaxed)
#define SEAM_MUTE(r) ((r)->seams.mute_maker)
#define SEAM_NO_MAKER(r) ((r)->seams.no_maker)
#define SEAM_ON_MAKE(r) \
	((r)->seams.on_make != NULL ? (r)->seams.on_make((r)->seams.on_make_arg) : (void)0)
#else
#define SEAM_COUNT(r, what) ((void)0)
#define SEAM_MUTE(r) false
#define SEAM_NO_MAKER(r) false
#define SEAM_ON_MAKE(r) ((void)0)
#endif

#define RING_SPINS 2000   /* a few microseconds */

/* The maker's nap: kernels do not keep shorter timers (Linux's default timer slack is
 * 50 us); the longest only delays noticing that stalled writers went on. */
#define NAP_MIN_NS 20000ULL
#define NAP_MAX_NS 20000000ULL

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#endif
}

static unsigned char *slot_mem(struct vb_ring *r, uint64_t block)
{
	return r->mem + (size_t)(block % r->n_slots) * r->src->bs_bytes;
}

uint64_t vb_ring_nap_ns(uint64_t done_blocks, uint64_t elapsed_ns, uint64_t want_blocks,
			uint64_t prev_nap_ns, uint64_t max_ns)
{
	uint64_t nap;

	if (max_ns < NAP_MIN_NS)
		max_ns = NAP_MIN_NS;
	if (done_blocks == 0) {
		/* Nothing given back: the writers are slow or stalled; look half as often. */
		nap = prev_nap_ns > max_ns / 2 ? max_ns : 2 * prev_nap_ns;
	} else {
		/* elapsed / done is the time per block; want of them (in floating point: the
		 * product of two 64-bit figures need not fit). */
		double t = (double)elapsed_ns / (double)done_blocks * (double)want_blocks;
		nap = t >= (double)max_ns ? max_ns : (uint64_t)t;
	}
	return nap < NAP_MIN_NS ? NAP_MIN_NS : nap > max_ns ? max_ns : nap;
}

/* Whether *word reaches want within the spin. */
static bool spin_for(const atomic_ullong *word, uint64_t want)
{
	for (int i = 0; i < RING_SPINS; i++) {
		if (atomic_load_explicit(word, memory_order_acquire) >= want)
			return true;
		cpu_relax();
	}
	return false;
}

/* The longest a writer sleeps before it looks again: glibc's condition variables can
 * lose a wake-up (its bug 25847, seen in a stress test of the ring). */
#define WAIT_BOUND_NS 5000000ULL

/* A writer waits for block `block` to be made; false when the ring stopped. */
static bool wait_ready(struct vb_ring *r, uint64_t block)
{
	atomic_ullong *word = &r->ready[block % r->n_slots];

	if (spin_for(word, block + 1))
		return true;
	pthread_mutex_lock(&r->lock);
	atomic_fetch_add(&r->writers_waiting, 1);
	while (atomic_load(word) < block + 1 && !atomic_load(&r->stop)) {
		/* The maker may be napping with this block's slot free already. */
		if (atomic_load(&r->maker_waiting)) {
			SEAM_COUNT(r, nudges);
			pthread_cond_signal(&r->maker_cond);
		}
		struct timespec until = vb_os_deadline_in(r->recheck_ns);
		pthread_cond_timedwait(&r->writers_cond, &r->lock, &until);
	}
	atomic_fetch_sub(&r->writers_waiting, 1);
	pthread_mutex_unlock(&r->lock);
	return atomic_load(word) >= block + 1;
}

/* The number of blocks from b on whose slots are free (at most n_slots). */
static uint64_t free_from(struct vb_ring *r, uint64_t b)
{
	uint64_t n = 0;

	while (n < r->n_slots &&
	       (b + n < r->n_slots ||
		atomic_load(&r->freed[(b + n) % r->n_slots]) >= b + n - r->n_slots + 1))
		n++;
	return n;
}

/* The maker, with the ring full, naps until block b's slot is free (false when the ring
 * stopped), then paces its next nap on the writers. */
static bool wait_slot(struct vb_ring *r, uint64_t b)
{
	atomic_ullong *word = &r->freed[b % r->n_slots];
	uint64_t need = b - r->n_slots + 1;

	/* The writers' pace is measured from when the ring is first full: the time to fill
	 * it, counted in, made the first nap too long and the writers ran dry. */
	if (b == r->n_slots) {
		r->seen_ns = vb_os_now_ns();
		r->seen_done = 0;
	}
	/* No spinning: with the ring full the writers are the slower side. */
	if (atomic_load(word) >= need)
		return true;
	pthread_mutex_lock(&r->lock);
	atomic_store(&r->maker_waiting, 1);
	while (atomic_load(word) < need && !atomic_load(&r->stop)) {
		struct timespec until = vb_os_deadline_in(r->nap_ns);
		SEAM_COUNT(r, naps);
		/* The writers are slower than the nap assumed: the next is twice as long. */
		if (pthread_cond_timedwait(&r->maker_cond, &r->lock, &until) == ETIMEDOUT &&
		    atomic_load(word) < need)
			r->nap_ns = vb_ring_nap_ns(0, 0, 0, r->nap_ns, r->nap_max_ns);
	}
	atomic_store(&r->maker_waiting, 0);
	pthread_mutex_unlock(&r->lock);
	if (atomic_load(word) < need)
		return false;
	/* Blocks written so far: those before b - n_slots, and the free slots from b on. */
	uint64_t now = vb_os_now_ns(), done = b - r->n_slots + free_from(r, b);
	uint64_t want = r->n_slots / 4 ? r->n_slots / 4 : 1;
	r->nap_ns = vb_ring_nap_ns(done - r->seen_done, now - r->seen_ns, want, r->nap_ns,
				   r->nap_max_ns);
	r->seen_ns = now;
	r->seen_done = done;
	return true;
}

static void *maker(void *p)
{
	struct vb_ring *r = p;

	r->nap_ns = r->nap_first_ns;
	for (uint64_t b = 0; b < r->count && !atomic_load(&r->stop); b++) {
		if (b >= r->n_slots && !wait_slot(r, b))
			break;
		SEAM_ON_MAKE(r);
		make_block(r->src, b, slot_mem(r, b));
		atomic_store(&r->ready[b % r->n_slots], b + 1);
		if (atomic_load(&r->writers_waiting) && !SEAM_MUTE(r)) {
			pthread_mutex_lock(&r->lock);
			pthread_cond_broadcast(&r->writers_cond);
			pthread_mutex_unlock(&r->lock);
		}
	}
	return NULL;
}

/* Two slots per writer and two more, at least VB_RING_MIN_BYTES so that the maker runs
 * well ahead of small writes, at most VB_RING_MAX_BYTES but at least qd + 1. */
static size_t ring_slots(size_t bs, uint64_t qd)
{
	size_t want = (size_t)(2 * qd + 2), fit = VB_RING_MAX_BYTES / (bs ? bs : 1);
	size_t ahead = (VB_RING_MIN_BYTES + bs - 1) / (bs ? bs : 1);

	if (want < ahead)
		want = ahead;
	if (want < 4)
		want = 4;
	if (want > fit)
		want = fit;
	return want < qd + 1 ? (size_t)qd + 1 : want;
}

/* The urandom pool: the whole run when that is small enough to read fresh before it. */
static size_t urandom_pool_bytes(size_t bs, uint64_t run_bytes)
{
	uint64_t pool = run_bytes < VB_URANDOM_FRESH_BYTES ? run_bytes : VB_URANDOM_FRESH_BYTES;

	pool = (pool + bs - 1) / bs * bs;
	return (size_t)(pool < bs ? bs : pool);
}

static bool urandom_fresh(uint64_t run_bytes)
{
	return run_bytes <= VB_URANDOM_FRESH_BYTES;
}

const char *vb_source_describe(enum vb_source kind, uint64_t run_bytes, uint64_t buffer_bytes,
			       char *buf, size_t n)
{
	switch (kind) {
	case VB_SRC_ZERO:
		snprintf(buf, n, "zeros (storage that compresses or skips them is faster with "
			 "them than with real data)");
		break;
	case VB_SRC_RANDOM:
		snprintf(buf, n, "random, every byte of every run fresh from a seeded generator, "
			 "made ahead of the writes in %" PRIu64 " bytes of buffers", buffer_bytes);
		break;
	default:
		if (urandom_fresh(run_bytes))
			snprintf(buf, n, "urandom, read fresh from the kernel before each run, "
				 "%" PRIu64 " bytes", buffer_bytes);
		else
			snprintf(buf, n, "urandom, NOT fresh: a run is more than the %" PRIu64
				 " bytes read from the kernel before it (its generator is slower "
				 "than most disks), so they are reused with every 512-byte sector "
				 "stamped; a long-window compressor still shrinks them: use "
				 "--source random for data nothing shrinks", VB_URANDOM_FRESH_BYTES);
		break;
	}
	return buf;
}

size_t vb_source_buffer_bytes(enum vb_source kind, size_t bs, uint64_t qd, uint64_t run_bytes)
{
	if (kind == VB_SRC_ZERO)
		return bs;
	/* SIZE_MAX when it does not fit a 32-bit size_t: then more than the memory. */
	uint64_t ring = (uint64_t)ring_slots(bs, qd) * bs, n = ring;
	if (kind == VB_SRC_URANDOM) {
		uint64_t pool = urandom_pool_bytes(bs, run_bytes);
		n = urandom_fresh(run_bytes) ? pool : pool + ring;
	}
	return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

static void ring_free(struct vb_ring *r)
{
	if (r == NULL)
		return;
	vb_os_aligned_free(r->mem);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->writers_cond);
	pthread_cond_destroy(&r->maker_cond);
	free(r->ready);
	free(r->freed);
	free(r);
}

static struct vb_ring *ring_new(const struct vb_source_buf *s, size_t align, uint64_t qd)
{
	struct vb_ring *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->n_slots = ring_slots(s->bs_bytes, qd);
	r->src = s;
	r->nap_first_ns = NAP_MIN_NS;
	r->nap_max_ns = NAP_MAX_NS;
	r->recheck_ns = WAIT_BOUND_NS;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->writers_cond, NULL);
	pthread_cond_init(&r->maker_cond, NULL);
	r->ready = calloc(r->n_slots, sizeof *r->ready);
	r->freed = calloc(r->n_slots, sizeof *r->freed);
	/* (the product does not fit a 32-bit size_t for some depths and block sizes) */
	r->mem = r->n_slots <= SIZE_MAX / s->bs_bytes
		 ? vb_os_aligned_alloc(align, r->n_slots * s->bs_bytes) : NULL;
	if (r->ready == NULL || r->freed == NULL || r->mem == NULL) {
		ring_free(r);
		return NULL;
	}
	return r;
}

int vb_source_init(struct vb_source_buf *s, enum vb_source kind, size_t bs, size_t align,
		   uint64_t qd, uint64_t run_bytes, uint64_t seed, bool seeded)
{
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->bs_bytes = bs;
	s->qd = qd;
	/* Without --seed each invocation's data differs (not a security measure). */
	if (!seeded && vb_os_urandom(&seed, sizeof seed) != 0)
		seed = vb_os_now_ns();
	s->seed = seed;
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (kind != VB_SRC_RANDOM) {
		s->pool_bytes = kind == VB_SRC_ZERO ? bs : urandom_pool_bytes(bs, run_bytes);
		s->pool = vb_os_aligned_alloc(align, s->pool_bytes);
		if (s->pool == NULL)
			goto nomem;
	}
	if (kind == VB_SRC_ZERO) {
		memset(s->pool, 0, s->pool_bytes);
		return 0;
	}
	if (kind == VB_SRC_URANDOM) {
		s->fresh = urandom_fresh(run_bytes);
		if (vb_os_urandom(s->pool, s->fresh ? 1 : s->pool_bytes) != 0) {
			int e = errno;
			vb_source_free(s);
			errno = e;
			return -1;
		}
		if (s->fresh)
			return 0;
	}
	s->ring = ring_new(s, align, qd);
	if (s->ring == NULL)
		goto nomem;
	return 0;
nomem:
	vb_source_free(s);
	errno = ENOMEM;
	return -1;
}

int vb_source_run_begin(struct vb_source_buf *s, uint64_t run, uint64_t count)
{
	s->run = run;
	if (s->kind == VB_SRC_URANDOM && s->fresh)
		return vb_os_urandom(s->pool, s->pool_bytes);
	struct vb_ring *r = s->ring;
	if (r == NULL)
		return 0;
	for (size_t i = 0; i < r->n_slots; i++) {
		atomic_store(&r->ready[i], 0);
		atomic_store(&r->freed[i], 0);
	}
	atomic_store(&r->stop, 0);
	atomic_store(&r->maker_waiting, 0);
	atomic_store(&r->writers_waiting, 0);
#ifdef VB_TEST_SEAMS
	atomic_store(&r->naps, 0);
	atomic_store(&r->nudges, 0);
#endif
	r->count = count;
	/* The maker takes no signal: they go to the threads whose calls they interrupt. */
	int e = SEAM_NO_MAKER(r) ? EAGAIN : vb_os_thread_start(&r->maker, maker, r, false);
	r->running = e == 0;
	/* Without a thread (a tight address-space limit) a single writer makes each block
	 * itself, in its time; several could not share the ring. */
	if (e != 0 && s->qd > 1) {
		errno = e;
		return -1;
	}
	/* The ring full before the clock starts (the maker only computes: this ends). */
	if (r->running && count > 0)
		wait_ready(r, (count < r->n_slots ? count : r->n_slots) - 1);
	return 0;
}

bool vb_source_ready(const struct vb_source_buf *s, uint64_t block)
{
	const struct vb_ring *r = s->ring;

	if (r == NULL)
		return true;
	return r->running &&
	       atomic_load_explicit(&r->ready[block % r->n_slots], memory_order_acquire) >= block + 1;
}

const unsigned char *vb_source_get(struct vb_source_buf *s, uint64_t block)
{
	struct vb_ring *r = s->ring;

	if (r == NULL) {
		/* zero: one block; fresh urandom: the run itself, never changed during it */
		size_t slots = s->pool_bytes / s->bs_bytes;
		return s->pool + (size_t)(block % slots) * s->bs_bytes;
	}
	unsigned char *p = slot_mem(r, block);
	if (!r->running) {
		/* One writer (with qd > 1 the writers are threads, so the maker is too). */
		SEAM_ON_MAKE(r);
		make_block(s, block, p);
		return p;
	}
	return wait_ready(r, block) ? p : NULL;
}

void vb_source_put(struct vb_source_buf *s, uint64_t block)
{
	struct vb_ring *r = s->ring;

	if (r == NULL || !r->running)
		return;
	atomic_store(&r->freed[block % r->n_slots], block + 1);
	/* A writer that ran dry may wait on the maker napping on this slot. */
	if (atomic_load(&r->writers_waiting) && atomic_load(&r->maker_waiting)) {
		pthread_mutex_lock(&r->lock);
		SEAM_COUNT(r, nudges);
		pthread_cond_signal(&r->maker_cond);
		pthread_mutex_unlock(&r->lock);
	}
}

void vb_source_abort(struct vb_source_buf *s)
{
	struct vb_ring *r = s->ring;

	if (r == NULL || !r->running)
		return;
	atomic_store(&r->stop, 1);
	pthread_mutex_lock(&r->lock);
	pthread_cond_broadcast(&r->writers_cond);
	pthread_cond_broadcast(&r->maker_cond);
	pthread_mutex_unlock(&r->lock);
}

void vb_source_run_end(struct vb_source_buf *s)
{
	struct vb_ring *r = s->ring;

	if (r == NULL || !r->running)
		return;
	vb_source_abort(s);
	pthread_join(r->maker, NULL);
	r->running = false;
}

#ifdef VB_TEST_SEAMS
void vb_source_ring_tune(struct vb_source_buf *s, const struct vb_ring_tuning *t)
{
	if (s->ring != NULL) {
		s->ring->nap_first_ns = t->first_nap_ns;
		s->ring->nap_max_ns = t->nap_max_ns;
		s->ring->recheck_ns = t->recheck_ns;
		s->ring->seams = *t;
	}
}

void vb_source_ring_counts(const struct vb_source_buf *s, uint64_t *naps, uint64_t *nudges)
{
	struct vb_ring *r = s->ring;

	*naps = r ? atomic_load(&r->naps) : 0;
	*nudges = r ? atomic_load(&r->nudges) : 0;
}
#endif

void vb_source_free(struct vb_source_buf *s)
{
	vb_source_run_end(s);
	ring_free(s->ring);
	s->ring = NULL;
	vb_os_aligned_free(s->pool);
	s->pool = NULL;
	s->pool_bytes = 0;
}
