#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vb_writer.h"

/* A write that returns 0 this many times in a row is not going to finish the block. */
#define VB_MAX_ZERO_WRITES 8

/* Publishes the call about to start for the watchdog. The start time is stored last,
 * with release order, so a watchdog that sees it also sees the stage and offset. */
static inline void publish(struct vb_watch_slot *w, enum vb_stage stage, uint64_t offset,
			   uint64_t start)
{
	if (w == NULL)
		return;
	atomic_store_explicit(&w->offset_bytes, offset, memory_order_relaxed);
	atomic_store_explicit(&w->stage, (int)stage, memory_order_relaxed);
	atomic_store_explicit(&w->call_start_ns, start, memory_order_release);
}

static inline void unpublish(struct vb_watch_slot *w)
{
	if (w != NULL)
		atomic_store_explicit(&w->call_start_ns, 0, memory_order_release);
}

static void fail_run(struct vb_run *out, enum vb_stop stop, enum vb_stage stage, int err,
		     uint64_t offset)
{
	out->stop = stop;
	out->stage = stage;
	out->err = err;
	out->err_offset_bytes = offset;
}

/* Reads the stop flag into out; non-zero when the run must end now. */
static int check_stop(const struct vb_write_plan *p, struct vb_run *out, enum vb_stage stage)
{
	int v = p->stop ? atomic_load_explicit(p->stop, memory_order_relaxed) : 0;

	if (v == 0)
		return 0;
	if (v == VB_STOPFLAG_TIMEOUT) {
		fail_run(out, VB_STOP_TIMEOUT, stage, ETIMEDOUT, out->bytes);
	} else {
		fail_run(out, VB_STOP_SIGNAL, stage, EINTR, out->bytes);
		out->signo = v;
	}
	return 1;
}

/* Writes all n bytes at offset, continuing short writes and retrying EINTR; *done says
 * how many made it. Returns 0, or -1 with out filled in. */
static int write_block(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
		       const unsigned char *buf, size_t n, uint64_t offset, size_t *done,
		       struct vb_run *out)
{
	int zeros = 0;

	*done = 0;
	while (*done < n) {
		ssize_t r = ops->pwrite(ops->ctx, fd, buf + *done, n - *done, offset + *done);
		if (r < 0 && errno == EINTR) {
			if (check_stop(p, out, VB_STAGE_WRITE))
				return -1;
			continue;
		}
		if (r < 0) {
			fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, errno, offset + *done);
			return -1;
		}
		if (r == 0 && ++zeros >= VB_MAX_ZERO_WRITES) {
			fail_run(out, VB_STOP_NOPROGRESS, VB_STAGE_WRITE, EIO, offset + *done);
			return -1;
		}
		if (r > 0)
			zeros = 0;
		*done += (size_t)r;
	}
	return 0;
}

static int add_interval(struct vb_run *out, uint64_t run_start, uint64_t from, uint64_t to,
			uint64_t bytes)
{
	struct vb_interval *iv = realloc(out->intervals,
					 (out->n_intervals + 1) * sizeof *out->intervals);
	if (iv == NULL)
		return -1;
	out->intervals = iv;
	iv[out->n_intervals].start_secs = (double)(from - run_start) / 1e9;
	iv[out->n_intervals].secs = (double)(to - from) / 1e9;
	iv[out->n_intervals].bytes = bytes;
	out->n_intervals++;
	return 0;
}

static bool same_file(const struct vb_fileinfo *a, const struct vb_fileinfo *b)
{
	return a->type == b->type && a->dev == b->dev && a->ino == b->ino;
}

/* A per-run name is unlinked as soon as it is open, once it is known to be the file
 * just created; the watch names it meanwhile, for the abort path. */
static int unlink_new(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd)
{
	struct vb_fileinfo mine, named;

	if (ops->fstat(ops->ctx, fd, &mine) != 0)
		return errno;
	if (ops->statat(ops->ctx, p->dirfd, p->name, &named) != 0)
		return errno;
	if (!same_file(&mine, &named))
		return ESTALE;
	return ops->unlinkat(ops->ctx, p->dirfd, p->name) != 0 ? errno : 0;
}

/* Checks what a run is about to write: still the identified file or device, and nothing
 * layered on it. Returns 0 or an errno, with a sentence in out->detail. */
static int check_target(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			struct vb_run *out)
{
	struct vb_fileinfo fi;
	bool same = true;

	if (ops->fstat(ops->ctx, fd, &fi) != 0)
		return errno;
	if (p->acquire == VB_ACQ_NAMED)
		same = same_file(&fi, &p->id);
	else if (p->acquire == VB_ACQ_SINK)
		same = fi.type == VB_FT_CHR && fi.rdev == p->id.rdev;
	if (!same) {
		snprintf(out->detail, sizeof out->detail, "it was replaced by another file since "
			 "vbench identified it; that file is left alone");
		return ESTALE;
	}
	if (!p->check_in_use)
		return 0;
	int rc = ops->in_use(ops->ctx, fd, &fi, out->detail, sizeof out->detail);
	return rc == 0 ? 0 : EBUSY;
}

/* Opens the target for this run as the plan says and checks it; returns the descriptor
 * or -1 with out filled in. Nothing here is timed. */
static int acquire(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		   struct vb_run *out)
{
	struct vb_watch *w = p->watch;
	int fd, err = 0;

	switch (p->acquire) {
	case VB_ACQ_DISK:
		fd = ops->dup(ops->ctx, p->held_fd);
		break;
	case VB_ACQ_NEWNAME:
		if (w != NULL) {
			snprintf(w->name, sizeof w->name, "%s", p->name);
			atomic_store(&w->name_live, 1);
		}
		fd = ops->openat(ops->ctx, p->dirfd, p->name, &p->req);
		if (fd >= 0)
			err = unlink_new(ops, p, fd);
		if (w != NULL && (fd < 0 || err == 0))
			atomic_store(&w->name_live, 0);
		break;
	default:
		fd = ops->openat(ops->ctx, p->dirfd, p->name != NULL ? p->name : "", &p->req);
		break;
	}
	if (fd < 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, errno, 0);
		return -1;
	}
	if (err == 0)
		err = check_target(ops, p, fd, out);
	if (err == 0 && p->truncate && ops->truncate(ops->ctx, fd) != 0)
		err = errno;   /* only now: the file is known to be vbench's own */
	if (err != 0) {
		ops->close(ops->ctx, fd);
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, err, 0);
		return -1;
	}
	return fd;
}

static void finish_times(struct vb_run *out, uint64_t start, uint64_t write_end, uint64_t end)
{
	out->secs = (double)(end - start) / 1e9;
	out->write_secs = (double)(write_end - start) / 1e9;
	out->sync_secs = (double)(end - write_end) / 1e9;
	out->bytes_per_sec = vb_rate(out->bytes, out->secs);
}

/* The write loop of one run, one write in flight; returns 0 or -1 with out filled in. */
static int write_blocks(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			uint64_t start, struct vb_hist *hist, struct vb_run *out)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;
	uint64_t last = start, iv_from = start, iv_bytes = 0, next_tick = start;
	uint64_t iv_ns = (uint64_t)(p->interval_secs * 1e9);
	uint64_t offset = 0;

	for (uint64_t b = 0; b < p->count_blocks; b++) {
		size_t done = 0;
		if (check_stop(p, out, VB_STAGE_WRITE))
			return -1;
		const unsigned char *buf = vb_source_block(p->source, p->run, b);
		publish(slot, VB_STAGE_WRITE, offset, last);
		int rc = write_block(ops, p, fd, buf, (size_t)p->bs_bytes, offset, &done, out);
		uint64_t now = ops->now_ns(ops->ctx);
		vb_hist_add(hist, now - last);
		last = now;
		out->bytes += done;
		offset += done;
		if (rc != 0) {
			out->partial_blocks = done > 0;
			return -1;
		}
		out->full_blocks++;
		if (iv_ns > 0 && now - iv_from >= iv_ns) {
			if (add_interval(out, start, iv_from, now, out->bytes - iv_bytes) != 0) {
				fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, ENOMEM, out->bytes);
				return -1;
			}
			iv_from = now;
			iv_bytes = out->bytes;
		}
		if (p->tick != NULL && now >= next_tick)
			next_tick = p->tick(p->tick_arg, out, now, start);
	}
	unpublish(slot);
	if (iv_ns > 0 && last > iv_from)
		add_interval(out, start, iv_from, last, out->bytes - iv_bytes);
	return 0;
}

static int sync_target(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd)
{
	int rc = ops->sync(ops->ctx, fd, p->end_call);

	if (rc != 0 && p->sync_may_fail && (errno == EINVAL || errno == ENOTSUP))
		rc = 0;
	return rc;
}

/* Syncs and closes after the last write; returns 0 or -1 with out filled in. */
static int sync_and_close(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			  uint64_t write_end, struct vb_run *out)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;
	int rc = 0;

	publish(slot, VB_STAGE_SYNC, out->bytes, write_end);
	if (sync_target(ops, p, fd) != 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_SYNC, errno, out->bytes);
		rc = -1;
	}
	publish(slot, VB_STAGE_CLOSE, out->bytes, ops->now_ns(ops->ctx));
	if (ops->close(ops->ctx, fd) != 0 && rc == 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_CLOSE, errno, out->bytes);
		rc = -1;
	}
	unpublish(slot);
	/* --timeout fired while the sync or close hung, even if it returned later: the
	 * run took longer in one call than the user allowed, so it does not count. */
	if (rc == 0 && p->stop != NULL && atomic_load(p->stop) == VB_STOPFLAG_TIMEOUT) {
		fail_run(out, VB_STOP_TIMEOUT, VB_STAGE_SYNC, ETIMEDOUT, out->bytes);
		rc = -1;
	}
	return rc;
}

/* Ends the run's hold on a file without a name: closing its last descriptor frees its
 * blocks, which can take long (or hang); it is watched like every other call. */
static void release(const struct vb_io_ops *ops, const struct vb_write_plan *p, int keep_fd,
		    uint64_t offset)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;

	if (keep_fd < 0)
		return;
	publish(slot, VB_STAGE_RELEASE, offset, ops->now_ns(ops->ctx));
	ops->close(ops->ctx, keep_fd);
	unpublish(slot);
}

int vb_write_run(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		 struct vb_run *out)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;
	struct vb_hist local;
	struct vb_hist *hist = p->latency != NULL ? p->latency : &local;
	int rc;

	memset(out, 0, sizeof *out);
	out->run = p->run;
	vb_hist_init(hist);
	if (p->resumed != NULL)
		atomic_store(p->resumed, 0);
	publish(slot, VB_STAGE_OPEN, 0, ops->now_ns(ops->ctx));
	int fd = acquire(ops, p, out);
	unpublish(slot);
	if (fd < 0)
		return -1;
	/* Closing the last descriptor of a file without a name frees its blocks, which on a
	 * filesystem mounted with discard takes as long as a good part of the writing. That
	 * is not writing: a second descriptor defers it until the clock has stopped, while
	 * the timed close still does what a close does (NFS, for one, flushes there). */
	int keep_fd = p->defer_release ? ops->dup(ops->ctx, fd) : -1;
	uint64_t start = ops->now_ns(ops->ctx);
	if (write_blocks(ops, p, fd, start, hist, out) != 0) {
		uint64_t end = ops->now_ns(ops->ctx);
		unpublish(slot);
		ops->close(ops->ctx, fd);
		finish_times(out, start, end, end);
		rc = -1;
	} else {
		uint64_t write_end = ops->now_ns(ops->ctx);
		rc = sync_and_close(ops, p, fd, write_end, out);
		finish_times(out, start, write_end, ops->now_ns(ops->ctx));
	}
	release(ops, p, keep_fd, out->bytes);
	if (p->resumed != NULL && atomic_exchange(p->resumed, 0))
		out->paused = true;
	out->latency = vb_hist_summary(hist);
	return rc;
}
