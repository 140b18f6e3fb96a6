#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vb_flushprobe.h"
#include "common/vb_hist.h"
#include "os/vb_os.h"

/* Slots the small writes cycle through, so that none waits on one before it. */
#define SLOTS 64
/* The area is first written in pieces of this size. */
#define PIECE ((size_t)1 << 20)

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

static struct vb_watch_slot *slot(const struct probe *b)
{
	return b->p->watch ? &b->p->watch->slot[0] : NULL;
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
	vb_watch_publish(slot(b), VB_STAGE_WRITE, offset, t0);
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

	vb_watch_publish(slot(b), VB_STAGE_SYNC, offset, t0);
	int rc = b->ops->sync(b->ops->ctx, b->fd, b->c->call);
	*ns = now(b) - t0;
	b->out->calls++;
	return rc == 0 ? 0 : fail(b, "sync", errno);
}

/* The pairs: a plain write, and a write followed by the timed call, the order alternating
 * so that a drift favours neither. */
static void measure(struct probe *b, size_t wsz, uint64_t slots)
{
	struct vb_flush_result *o = b->out;
	uint64_t want = b->c->full ? VB_FLUSH_MAX_PAIRS : VB_FLUSH_MAX_PAIRS / 8, ns;

	for (uint64_t i = 0; i < want; i++) {
		if (stopped(b) || (b->c->budget_secs > 0 &&
				   (double)(now(b) - b->start_ns) / 1e9 > b->c->budget_secs))
			return;
		uint64_t plain = (2 * i) % slots, synced = (2 * i + 1) % slots;
		uint64_t *w = &o->write_ns[i], *f = &o->flush_ns[i];
		int rc = i % 2 == 0
			 ? put(b, wsz, plain * wsz, w) || put(b, wsz, synced * wsz, &ns) ||
			   flush(b, synced * wsz, f)
			 : put(b, wsz, synced * wsz, &ns) || flush(b, synced * wsz, f) ||
			   put(b, wsz, plain * wsz, w);
		if (rc != 0)
			return;
		o->samples++;
	}
}

void vb_flush_probe(const struct vb_io_ops *ops, const struct vb_write_plan *plan,
		    const struct vb_flush_probe_cfg *c, struct vb_flush_result *out)
{
	struct vb_write_plan p = *plan;
	struct probe b = {ops, &p, c, out, -1, NULL, 0, 0};
	struct vb_run r = {0};
	size_t wsz = c->align > 4096 ? c->align : 4096;
	uint64_t slots = SLOTS, ns;

	memset(out, 0, sizeof *out);
	out->full = c->full;
	out->call = (int)c->call;
	out->write_bytes = (uint32_t)wsz;
	b.start_ns = now(&b);
	/* Direct, and nothing but the call makes a write durable. */
	p.req.direct = true;
	p.req.dsync = false;
	p.truncate = false;
	/* On a disk, only what the runs wrote: two slots at the least. */
	if (c->max_bytes > 0 && c->max_bytes / wsz < slots)
		slots = c->max_bytes / wsz;
	if (slots < 2) {
		out->verdict = VB_FLUSH_NOT_RUN;
		snprintf(out->why, sizeof out->why, "the runs wrote less of the disk than the %llu "
			 "bytes the probe needs", (unsigned long long)(2 * wsz));
		return;
	}
	uint64_t area = slots * wsz;
	b.fd = vb_write_open(ops, &p, &r);
	if (b.fd < 0 && p.acquire == VB_ACQ_NEWNAME && r.detail[0] != '\0' && r.err != ESTALE) {
		/* Made, but it could not be unlinked: the caller names it. */
		snprintf(out->leftover, sizeof out->leftover, "%s", p.name);
		out->leftover_err = r.err;
		out->verdict = VB_FLUSH_UNDECIDED;
		snprintf(out->why, sizeof out->why, "the probe's file could not be removed: %s",
			 strerror(r.err));
		goto done;
	}
	if (b.fd < 0 && r.detail[0] != '\0') {
		out->verdict = VB_FLUSH_UNDECIDED;
		snprintf(out->why, sizeof out->why, "the probe's open was refused: %.160s", r.detail);
		goto done;
	}
	if (b.fd < 0) {
		fail(&b, r.err == EINVAL ? "direct open (the filesystem may not support direct "
		     "I/O)" : "open", r.err);
		goto done;
	}
	b.buf = vb_os_aligned_alloc(wsz > 4096 ? wsz : 4096, PIECE);
	if (b.buf == NULL) {
		fail(&b, "memory", ENOMEM);
		goto close;
	}
	/* Different bytes everywhere, so that no layer can store a write as a pattern. */
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ ops->now_ns(ops->ctx);
	for (size_t i = 0; i + 8 <= PIECE; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(b.buf + i, &x, 8);
	}
	/* Written and synced once first, so that later calls persist data, not allocation. */
	int rc = 0;
	for (uint64_t off = 0; off < area && rc == 0; off += PIECE) {
		size_t n = area - off < PIECE ? (size_t)(area - off) : PIECE;
		rc = put(&b, n, off, &ns);
	}
	if (rc == 0)
		rc = flush(&b, area, &ns);
	if (rc == 0)
		measure(&b, wsz, slots);
close:
	vb_watch_publish(slot(&b), VB_STAGE_CLOSE, 0, now(&b));
	ops->close(ops->ctx, b.fd);
	vb_watch_unpublish(slot(&b));
	vb_os_aligned_free(b.buf);
done:
	out->secs = (double)(now(&b) - b.start_ns) / 1e9;
	bool failed = out->why[0] != '\0';
	/* A stop is said as such, even when it made a call fail. */
	if (stopped(&b)) {
		out->stop = atomic_load(p.stop);
		out->verdict = VB_FLUSH_NOT_RUN;
		snprintf(out->why, sizeof out->why, "%s", out->stop == VB_STOPFLAG_TIMEOUT
			 ? "stopped: a call outlasted --timeout" : "stopped");
	}
	vb_flush_decide(out);
	if (!failed && !stopped(&b) && out->confidence <= 0 && c->budget_secs > 0) {
		out->verdict = VB_FLUSH_NOT_RUN;
		snprintf(out->why, sizeof out->why, "it would cost more than 1%% of the run "
			 "(--check-flush makes it anyway)");
	}
}
