#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vb_flushprobe.h"
#include "vb_hist.h"
#include "vb_os.h"

/* Slots the small writes cycle through, so that no write waits for the one before it
 * at the same place. */
#define SLOTS 64
/* The dirty data is written in pieces of this size. */
#define PIECE ((size_t)1 << 20)
/* Times the dirty data is written and flushed. */
#define DIRTY_ROUNDS 3

struct probe {
	const struct vb_io_ops *ops;
	const struct vb_write_plan *p;
	const struct vb_flush_probe_cfg *c;
	struct vb_flush_result *out;
	int fd;
	unsigned char *buf;
	uint64_t serial;              /* stamped into every block: no two writes are alike */
	uint64_t start_ns;
};

static uint64_t now(const struct probe *b)
{
	return b->ops->now_ns(b->ops->ctx);
}

/* The call about to start, for the watchdog (see vb_writer.h). */
static void watch(const struct probe *b, enum vb_stage stage, uint64_t offset, uint64_t t)
{
	struct vb_watch_slot *w = b->p->watch ? &b->p->watch->slot[0] : NULL;

	if (w == NULL)
		return;
	atomic_store_explicit(&w->offset_bytes, offset, memory_order_relaxed);
	atomic_store_explicit(&w->stage, (int)stage, memory_order_relaxed);
	atomic_store_explicit(&w->call_start_ns, t, memory_order_release);
}

static int fail(struct probe *b, const char *what, int err)
{
	b->out->verdict = VB_FLUSH_UNDECIDED;
	snprintf(b->out->why, sizeof b->out->why, "the probe's %s failed: %s", what,
		 strerror(err));
	return -1;
}

static bool stopped(const struct probe *b)
{
	return b->p->stop != NULL && atomic_load(b->p->stop) != 0;
}

/* Writes n bytes at offset, timed into *ns; 0, or -1 with the reason in out. */
static int put(struct probe *b, size_t n, uint64_t offset, uint64_t *ns)
{
	size_t done = 0;

	memcpy(b->buf, &b->serial, sizeof b->serial);
	b->serial++;
	uint64_t t0 = now(b);
	watch(b, VB_STAGE_WRITE, offset, t0);
	while (done < n) {
		ssize_t r = b->ops->pwrite(b->ops->ctx, b->fd, b->buf + done, n - done,
					   offset + done);
		if (r < 0 && errno == EINTR && !stopped(b))
			continue;
		if (r <= 0)
			return fail(b, "write", r < 0 ? errno : EIO);
		done += (size_t)r;
	}
	*ns = now(b) - t0;
	b->out->bytes += n;
	return 0;
}

/* The sync call, timed into *ns; 0, or -1 with the reason in out. */
static int flush(struct probe *b, uint64_t offset, uint64_t *ns)
{
	uint64_t t0 = now(b);

	watch(b, VB_STAGE_SYNC, offset, t0);
	int rc = b->ops->sync(b->ops->ctx, b->fd, b->c->call);
	*ns = now(b) - t0;
	b->out->calls++;
	return rc == 0 ? 0 : fail(b, "sync", errno);
}

static bool over_budget(const struct probe *b)
{
	return b->c->budget_secs > 0 &&
	       (double)(now(b) - b->start_ns) / 1e9 > b->c->budget_secs;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;

	return a < c ? -1 : a > c;
}

static uint64_t pct(uint64_t *v, uint64_t n, double q)
{
	qsort(v, (size_t)n, sizeof *v, cmp_u64);
	uint64_t i = (uint64_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

/* Pairs of a plain write and a write with the call, alternating so that both see the
 * same state of the device; then the call after dirty bytes. */
static int measure(struct probe *b, size_t wsz, uint64_t dirty)
{
	struct vb_flush_result *o = b->out;
	uint64_t want = b->c->full ? 64 : 16, ns;
	uint64_t *fl = calloc((size_t)want, sizeof *fl), *wr = calloc((size_t)want, sizeof *wr);
	int rc = 0;

	if (fl == NULL || wr == NULL) {
		free(fl);
		free(wr);
		return fail(b, "memory", ENOMEM);
	}
	for (uint64_t i = 0; i < want && rc == 0; i++) {
		if (stopped(b) || over_budget(b))
			break;
		uint64_t slot = (2 * i) % SLOTS;
		if (put(b, wsz, slot * wsz, &wr[i]) != 0 ||
		    put(b, wsz, (slot + 1) * wsz, &ns) != 0 ||
		    flush(b, (slot + 1) * wsz, &fl[i]) != 0)
			rc = -1;
		else
			o->samples++;
	}
	if (rc == 0 && o->samples > 0) {
		o->flush_p10_ns = pct(fl, o->samples, 0.10);
		o->flush_p50_ns = pct(fl, o->samples, 0.50);
		o->flush_p99_ns = pct(fl, o->samples, 0.99);
		o->write_p10_ns = pct(wr, o->samples, 0.10);
		o->write_p50_ns = pct(wr, o->samples, 0.50);
	}
	free(fl);
	free(wr);
	if (rc != 0)
		return rc;
	/* The dirty data and its flush, DIRTY_ROUNDS times; the fastest round counts, since a
	 * delay from elsewhere (the scheduler, another program) only ever adds time, while a
	 * cache that persists on a flush makes every round slow. */
	uint64_t base = (uint64_t)SLOTS * wsz;
	for (int round = 0; round < DIRTY_ROUNDS && !stopped(b) && !over_budget(b); round++) {
		uint64_t wrote = 0, fl_ns;
		for (uint64_t off = 0; off < dirty; off += PIECE) {
			if (put(b, PIECE, base + off, &ns) != 0)
				return -1;
			wrote += ns;
		}
		if (flush(b, base + dirty, &fl_ns) != 0)
			return -1;
		if (o->dirty_bytes == 0 || fl_ns < o->dirty_flush_ns) {
			o->dirty_flush_ns = fl_ns;
			o->dirty_write_ns = wrote;
		}
		o->dirty_bytes = dirty;
	}
	return 0;
}

void vb_flush_probe(const struct vb_io_ops *ops, const struct vb_write_plan *plan,
		    const struct vb_flush_probe_cfg *c, struct vb_flush_result *out)
{
	struct vb_write_plan p = *plan;
	struct probe b = {ops, &p, c, out, -1, NULL, 0, 0};
	struct vb_run r;
	size_t wsz = c->align > 4096 ? c->align : 4096;
	uint64_t dirty = c->full ? 8 * PIECE : PIECE, ns;

	memset(out, 0, sizeof *out);
	out->full = c->full;
	out->call = (int)c->call;
	out->write_bytes = (uint32_t)wsz;
	b.start_ns = now(&b);
	/* The probe asks the device, not the page cache: direct, and nothing but the call
	 * makes a write durable. */
	p.req.direct = true;
	p.req.dsync = false;
	p.truncate = false;
	uint64_t area = (uint64_t)SLOTS * wsz + dirty;
	if (c->max_bytes > 0 && area > c->max_bytes) {
		out->verdict = VB_FLUSH_NOT_RUN;
		snprintf(out->why, sizeof out->why, "the runs wrote less of the disk than the %llu "
			 "bytes the probe writes", (unsigned long long)area);
		return;
	}
	memset(&r, 0, sizeof r);
	b.fd = vb_write_open(ops, &p, &r);
	if (b.fd < 0) {
		fail(&b, r.err == EINVAL ? "direct open (the filesystem may not support direct "
		     "I/O)" : "open", r.err);
		goto done;
	}
	b.buf = vb_os_aligned_alloc(wsz > 4096 ? wsz : 4096, PIECE > wsz ? PIECE : wsz);
	if (b.buf == NULL) {
		fail(&b, "memory", ENOMEM);
		goto close;
	}
	/* Different bytes everywhere (xorshift), so no layer can store a write as a
	 * pattern or a copy of another. */
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ ops->now_ns(ops->ctx);
	for (size_t i = 0; i + 8 <= (PIECE > wsz ? PIECE : wsz); i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(b.buf + i, &x, 8);
	}
	/* The whole area is written and synced once first: later calls then find every
	 * block allocated and the file's size unchanged, so what they persist is data. */
	int rc = 0;
	for (uint64_t off = 0; off < area && rc == 0; off += PIECE) {
		size_t n = area - off < PIECE ? (size_t)(area - off) : PIECE;
		rc = put(&b, n, off, &ns);
	}
	if (rc == 0)
		rc = flush(&b, area, &ns);
	if (rc == 0)
		measure(&b, wsz, dirty);
close:
	watch(&b, VB_STAGE_CLOSE, 0, now(&b));
	ops->close(ops->ctx, b.fd);
	if (p.watch != NULL)
		atomic_store_explicit(&p.watch->slot[0].call_start_ns, 0, memory_order_release);
	vb_os_aligned_free(b.buf);
done:
	out->secs = (double)(now(&b) - b.start_ns) / 1e9;
	if (out->why[0] != '\0')
		return;
	if (stopped(&b)) {
		snprintf(out->why, sizeof out->why, "stopped");
	} else if (out->samples < VB_FLUSH_MIN_SAMPLES && c->budget_secs > 0) {
		snprintf(out->why, sizeof out->why, "it would cost more than 1%% of the run "
			 "(--check-flush makes it anyway)");
	} else {
		vb_flush_decide(out);
	}
}
