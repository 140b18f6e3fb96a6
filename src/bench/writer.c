#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/vb_writer.h"

/* A write that returns 0 this many times in a row is not going to finish the block. */
#define VB_MAX_ZERO_WRITES 8

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

/* The rest of write_block after a first pwrite that returned r (short, 0 or an error). */
static int write_rest(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
		      const unsigned char *buf, size_t n, uint64_t offset, ssize_t r,
		      size_t *done, struct vb_run *out)
{
	int zeros = 0;

	*done = 0;
	for (;;) {
		if (r < 0 && errno == EINTR) {
			if (check_stop(p, out, VB_STAGE_WRITE))
				return -1;
		} else if (r < 0) {
			fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, errno, offset + *done);
			return -1;
		} else if (r == 0 && ++zeros >= VB_MAX_ZERO_WRITES) {
			fail_run(out, VB_STOP_NOPROGRESS, VB_STAGE_WRITE, EIO, offset + *done);
			return -1;
		} else if (r > 0) {
			zeros = 0;
			*done += (size_t)r;
		}
		if (*done >= n)
			return 0;
		r = ops->pwrite(ops->ctx, fd, buf + *done, n - *done, offset + *done);
	}
}

/* Writes all n bytes at offset (*done: how many made it); 0, or -1 with out filled in.
 * The usual whole write costs the call and one comparison. */
static inline int write_block(const struct vb_io_ops *ops, const struct vb_write_plan *p,
			      int fd, const unsigned char *buf, size_t n, uint64_t offset,
			      size_t *done, struct vb_run *out)
{
	ssize_t r = ops->pwrite(ops->ctx, fd, buf, n, offset);

	if (r == (ssize_t)n) {
		*done = n;
		return 0;
	}
	return write_rest(ops, p, fd, buf, n, offset, r, done, out);
}

/* Appends an interval sample; -1 with the run failed (ENOMEM) without memory. */
static int add_interval(const struct vb_io_ops *ops, struct vb_run *out, uint64_t run_start,
			uint64_t from, uint64_t to, uint64_t bytes)
{
	size_t n = (size_t)(out->n_intervals + 1) * sizeof *out->intervals;
	struct vb_interval *iv = ops->grow != NULL ? ops->grow(ops->ctx, out->intervals, n)
						   : realloc(out->intervals, n);
	if (iv == NULL) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, ENOMEM, out->bytes);
		return -1;
	}
	out->intervals = iv;
	iv[out->n_intervals].start_secs = (double)(from - run_start) / 1e9;
	iv[out->n_intervals].secs = (double)(to - from) / 1e9;
	iv[out->n_intervals].bytes = bytes;
	out->n_intervals++;
	return 0;
}

/* A per-run name is unlinked once open and known to be the file just created. */
static int unlink_new(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd)
{
	struct vb_fileinfo mine, named;

	if (ops->fstat(ops->ctx, fd, &mine) != 0)
		return errno;
	if (ops->statat(ops->ctx, p->dirfd, p->name, &named) != 0)
		return errno;
	if (!vb_same_file(&mine, &named))
		return ESTALE;
	return ops->unlinkat(ops->ctx, p->dirfd, p->name) != 0 ? errno : 0;
}

/* Still the identified file or device, with nothing layered on it: 0, or an errno with a
 * sentence in out->detail. */
static int check_target(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			struct vb_run *out)
{
	struct vb_fileinfo fi;
	bool same = true;

	if (ops->fstat(ops->ctx, fd, &fi) != 0)
		return errno;
	if (p->acquire == VB_ACQ_NAMED)
		same = vb_same_file(&fi, &p->id);
	else if (p->acquire == VB_ACQ_SINK)
		same = fi.type == VB_FT_CHR && fi.rdev == p->id.rdev;
	else if (p->acquire == VB_ACQ_DEVICE)
		same = fi.type == p->id.type && fi.rdev == p->id.rdev;
	if (!same) {
		snprintf(out->detail, sizeof out->detail, "it was replaced by another file since "
			 "vbench identified it; that file is left alone");
		return ESTALE;
	}
	if (!p->check_in_use || p->acquire == VB_ACQ_DEVICE)
		return 0;   /* a device opened again was asked before (acquire) */
	int rc = ops->in_use(ops->ctx, fd, &fi, out->detail, sizeof out->detail);
	return rc == 0 ? 0 : EBUSY;
}

/* Opens and checks the target as the plan says; the descriptor or -1 with out filled in. */
static int acquire(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		   struct vb_run *out)
{
	struct vb_watch *w = p->watch;
	int fd, err = 0;

	switch (p->acquire) {
	case VB_ACQ_DISK:
		fd = ops->dup(ops->ctx, p->held_fd);
		break;
	case VB_ACQ_DEVICE: {
		/* Asked through the session's descriptor before the second open, which a
		 * platform counting opens (FreeBSD's GEOM, g_dev_open in
		 * sys/geom/geom_dev.c) would take for another program's. */
		struct vb_fileinfo held;
		fd = -1;
		if (p->check_in_use && ops->fstat(ops->ctx, p->held_fd, &held) != 0)
			err = errno;
		else if (p->check_in_use && ops->in_use(ops->ctx, p->held_fd, &held, out->detail,
							sizeof out->detail) != 0)
			err = EBUSY;
		else
			fd = ops->openat(ops->ctx, p->dirfd, p->name, &p->req);
		break;
	}
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
		if (err == ESTALE)
			snprintf(out->detail, sizeof out->detail, "%s no longer names the file "
				 "vbench created for this run (another file took its name); both "
				 "were left alone", p->name);
		else if (err != 0)
			snprintf(out->detail, sizeof out->detail, "%s, the file vbench created for "
				 "this run, could not be removed: %s; it is left behind", p->name,
				 strerror(err));
		break;
	default:
		fd = ops->openat(ops->ctx, p->dirfd, p->name != NULL ? p->name : "", &p->req);
		break;
	}
	if (fd < 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, err != 0 ? err : errno, 0);
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

/* The run's times; wait_ns: waiting for data, summed over the qd writers. */
static void finish_times(struct vb_run *out, uint64_t start, uint64_t write_end, uint64_t end,
			 uint64_t wait_ns, uint64_t qd)
{
	out->secs = (double)(end - start) / 1e9;
	out->write_secs = (double)(write_end - start) / 1e9;
	out->sync_secs = (double)(end - write_end) / 1e9;
	out->bytes_per_sec = vb_rate(out->bytes, out->secs);
	out->data_wait_secs = (double)wait_ns / 1e9;
	out->data_held_back = out->secs > 0 ? out->data_wait_secs / (out->secs * (double)qd) : 0;
	out->data_note = out->data_held_back > VB_DATA_NOTE;
}

/* The data of block b; a wait for it is added to *wait_ns, *at becoming its end. */
static const unsigned char *get_data(const struct vb_io_ops *ops, struct vb_source_buf *src,
				     uint64_t b, uint64_t *wait_ns, uint64_t *at)
{
	if (vb_source_ready(src, b))
		return vb_source_get(src, b);
	uint64_t t = ops->now_ns(ops->ctx);
	const unsigned char *buf = vb_source_get(src, b);
	*at = ops->now_ns(ops->ctx);
	*wait_ns += *at - t;
	return buf;
}

/* The write loop with one write in flight; 0 or -1 with out filled in. Per block it does
 * the least besides the write. A write's latency runs from the previous one's end, or
 * from a wait for data or a tick in between. */
static int write_blocks(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			struct vb_hist *hist, struct vb_run *out, uint64_t *wait_ns)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;
	uint64_t start = ops->now_ns(ops->ctx);
	uint64_t last = start, iv_from = start, iv_bytes = 0, next_tick = start;
	uint64_t iv_ns = (uint64_t)(p->interval_secs * 1e9);
	uint64_t offset = 0, done_at = start;   /* when the last write completed */
	/* Zeros are the same for every block: no per-block lookup. */
	const unsigned char *zeros = p->source->kind == VB_SRC_ZERO ? p->source->pool : NULL;

	if (slot != NULL)
		atomic_store_explicit(&slot->stage, (int)VB_STAGE_WRITE, memory_order_relaxed);
	for (uint64_t b = 0; b < p->count_blocks; b++) {
		size_t done = 0;
		if (check_stop(p, out, VB_STAGE_WRITE))
			return -1;
		const unsigned char *buf = zeros ? zeros
						 : get_data(ops, p->source, b, wait_ns, &last);
		if (buf == NULL) {
			fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, EINTR, offset);
			return -1;
		}
		if (slot != NULL) {
			atomic_store_explicit(&slot->offset_bytes, offset, memory_order_relaxed);
			atomic_store_explicit(&slot->call_start_ns, last, memory_order_release);
		}
		int rc = write_block(ops, p, fd, buf, (size_t)p->bs_bytes, offset, &done, out);
		uint64_t now = ops->now_ns(ops->ctx);
		/* As the records out count them. */
		if (rc == 0 || done > 0)
			vb_hist_add(hist, now - last);
		last = done_at = now;
		if (zeros == NULL)
			vb_source_put(p->source, b);
		out->bytes += done;
		offset += done;
		if (rc != 0) {
			out->partial_blocks = done > 0;
			return -1;
		}
		out->full_blocks++;
		if (iv_ns > 0 && now - iv_from >= iv_ns) {
			if (add_interval(ops, out, start, iv_from, now, out->bytes - iv_bytes) != 0)
				return -1;
			iv_from = now;
			iv_bytes = out->bytes;
		}
		if (p->tick != NULL && now >= next_tick) {
			next_tick = p->tick(p->tick_arg, out, now, start);
			last = ops->now_ns(ops->ctx);
		}
	}
	vb_watch_unpublish(slot);
	/* The last sample ends with the last write, not a tick after it. */
	if (iv_ns > 0 && done_at > iv_from)
		return add_interval(ops, out, start, iv_from, done_at, out->bytes - iv_bytes);
	return 0;
}

/* What the writers of one run share (several writes in flight). */
struct parallel {
	const struct vb_io_ops *ops;
	const struct vb_write_plan *p;
	int fd;
	atomic_ullong next;          /* the next block to hand out */
	atomic_ullong bytes;         /* written so far, by all */
	atomic_int failed;           /* a writer failed: the others take no more blocks */
	atomic_int running;          /* writers not yet done */
	pthread_mutex_t lock;        /* guards first, and the last writer's signal; held
				      * while the writers are started */
	pthread_cond_t done;         /* signalled when the last writer ends */
	struct vb_run first;         /* the failure reported (stop VB_STOP_DONE: none) */
};

/* One writer: its own histogram and counts, merged when all are done. */
struct writer {
	struct parallel *q;
	unsigned index;
	pthread_t thread;
	vb_os_thread_t self;
	atomic_int started;
	struct vb_hist hist;
	uint64_t bytes, full, partial;
	uint64_t wait_ns;            /* waiting for data */
};

/* Keeps the first failure, or of write errors the lowest offset's (where a disk filled). */
static void record_failure(struct parallel *q, const struct vb_run *r)
{
	pthread_mutex_lock(&q->lock);
	if (q->first.stop == VB_STOP_DONE ||
	    (q->first.stop == VB_STOP_ERROR && r->stop == VB_STOP_ERROR &&
	     r->err_offset_bytes < q->first.err_offset_bytes))
		q->first = *r;
	pthread_mutex_unlock(&q->lock);
	atomic_store(&q->failed, 1);
}

/* Takes the next block and writes it, to the end; a block's data depends on its number
 * only, so any writer may write it. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct parallel *q = w->q;
	const struct vb_write_plan *p = q->p;
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[w->index] : NULL;
	const struct vb_io_ops *ops = q->ops;

	w->self = vb_os_thread_self();
	atomic_store(&w->started, 1);
	/* Not before every writer is started: one that could not be fails the run before
	 * its first write. */
	pthread_mutex_lock(&q->lock);
	pthread_mutex_unlock(&q->lock);
	/* The watch covers a wait for data too: a writer waiting forever is a stall. */
	uint64_t prev_end = ops->now_ns(ops->ctx);
	for (;;) {
		size_t done = 0;
		if (atomic_load_explicit(&q->failed, memory_order_relaxed))
			break;
		uint64_t b = atomic_fetch_add(&q->next, 1);
		if (b >= p->count_blocks)
			break;
		uint64_t offset = b * p->bs_bytes;
		struct vb_run r = {.bytes = offset};   /* where a stop is reported */
		const unsigned char *buf = NULL;
		vb_watch_publish(slot, VB_STAGE_WRITE, offset, prev_end);
		uint64_t t0 = 0;
		if (!check_stop(p, &r, VB_STAGE_WRITE))
			buf = get_data(ops, p->source, b, &w->wait_ns, &t0);
		if (buf == NULL) {
			if (r.stop == VB_STOP_DONE)
				fail_run(&r, VB_STOP_ERROR, VB_STAGE_WRITE, EINTR, offset);
			/* The stop first, so that writers let go by the abort cannot be taken
			 * for the cause; the block is not put (its slot may be another's). */
			record_failure(q, &r);
			vb_source_abort(p->source);
			break;
		}
		t0 = ops->now_ns(ops->ctx);
		int rc = write_block(ops, p, q->fd, buf, (size_t)p->bs_bytes, offset, &done, &r);
		prev_end = ops->now_ns(ops->ctx);
		if (rc == 0 || done > 0)   /* as the records out count them */
			vb_hist_add(&w->hist, prev_end - t0);
		vb_source_put(p->source, b);
		w->bytes += done;
		atomic_fetch_add(&q->bytes, done);
		if (rc != 0) {
			w->partial += done > 0;
			record_failure(q, &r);
			break;
		}
		w->full++;
	}
	vb_watch_unpublish(slot);
	/* Under the lock, so that the caller cannot miss the signal. */
	pthread_mutex_lock(&q->lock);
	if (atomic_fetch_sub(&q->running, 1) == 1)
		pthread_cond_signal(&q->done);
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* Waits until the writers have ended or ms have passed; how many still run. */
static int wait_writers(struct parallel *q, unsigned ms)
{
	pthread_mutex_lock(&q->lock);
	if (atomic_load(&q->running) > 0) {
		struct timespec until = vb_os_deadline_in((uint64_t)ms * 1000000ULL);
		pthread_cond_timedwait(&q->done, &q->lock, &until);
	}
	int left = atomic_load(&q->running);
	pthread_mutex_unlock(&q->lock);
	return left;
}

/* The write loop with qd writers; this thread passes a stop on, draws progress and
 * samples intervals. 0, or -1 with out filled in. */
static int write_parallel(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			  struct vb_hist *hist, struct vb_run *out, uint64_t *wait_ns)
{
	struct parallel q;
	unsigned n = (unsigned)p->qd, started = 0;
	struct writer *w = calloc(n, sizeof *w);
	uint64_t start = ops->now_ns(ops->ctx), iv_from = start, iv_bytes = 0, next_tick = start;
	uint64_t iv_ns = (uint64_t)(p->interval_secs * 1e9), woken = 0;
	int rc = 0;

	if (w == NULL) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, ENOMEM, 0);
		return -1;
	}
	memset(&q, 0, sizeof q);
	q.ops = ops;
	q.p = p;
	q.fd = fd;
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.done, NULL);
	pthread_mutex_lock(&q.lock);
	for (unsigned i = 0; i < n; i++) {
		w[i].q = &q;
		w[i].index = i;
		vb_hist_init(&w[i].hist);
		atomic_fetch_add(&q.running, 1);
		int e = vb_os_thread_start(&w[i].thread, writer_main, &w[i], true);
		if (e != 0) {
			atomic_fetch_sub(&q.running, 1);
			atomic_store(&q.failed, 1);
			snprintf(out->detail, sizeof out->detail, "only %u of %u writers could be "
				 "started: %s", i, n, strerror(e));
			/* (the first failure: the writers wait for the lock) */
			fail_run(&q.first, VB_STOP_ERROR, VB_STAGE_OPEN, e, 0);
			break;
		}
		started++;
	}
	pthread_mutex_unlock(&q.lock);
	for (;;) {
		if (wait_writers(&q, iv_ns > 0 && iv_ns < 50000000ULL ? 5 : 20) == 0)
			break;
		uint64_t now = ops->now_ns(ops->ctx), bytes = atomic_load(&q.bytes);
		/* A stop (a signal, --timeout) must reach writers blocked in a call. */
		if (p->stop != NULL && atomic_load(p->stop) != 0 && now - woken > 200000000ULL) {
			woken = now;
			for (unsigned i = 0; i < started; i++)
				if (atomic_load(&w[i].started))
					vb_os_thread_wake(w[i].self);
		}
		if (iv_ns > 0 && now - iv_from >= iv_ns && rc == 0) {
			rc = add_interval(ops, out, start, iv_from, now, bytes - iv_bytes);
			if (rc != 0)
				atomic_store(&q.failed, 1);   /* the writers take no more blocks */
			iv_from = now;
			iv_bytes = bytes;
		}
		if (p->tick != NULL && now >= next_tick) {
			struct vb_run sofar = *out;
			sofar.bytes = bytes;
			next_tick = p->tick(p->tick_arg, &sofar, now, start);
		}
	}
	for (unsigned i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		vb_hist_merge(hist, &w[i].hist);
		out->bytes += w[i].bytes;
		out->full_blocks += w[i].full;
		out->partial_blocks += w[i].partial;
		*wait_ns += w[i].wait_ns;
	}
	if (iv_ns > 0 && rc == 0) {
		uint64_t now = ops->now_ns(ops->ctx);
		if (now > iv_from && out->bytes > iv_bytes)
			rc = add_interval(ops, out, start, iv_from, now, out->bytes - iv_bytes);
	}
	if (q.first.stop != VB_STOP_DONE) {
		fail_run(out, q.first.stop, q.first.stage, q.first.err, q.first.err_offset_bytes);
		out->signo = q.first.signo;
		rc = -1;
	}
	pthread_cond_destroy(&q.done);
	pthread_mutex_destroy(&q.lock);
	free(w);
	return rc;
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

	vb_watch_publish(slot, VB_STAGE_SYNC, out->bytes, write_end);
	if (sync_target(ops, p, fd) != 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_SYNC, errno, out->bytes);
		rc = -1;
	}
	vb_watch_publish(slot, VB_STAGE_CLOSE, out->bytes, ops->now_ns(ops->ctx));
	if (ops->close(ops->ctx, fd) != 0 && rc == 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_CLOSE, errno, out->bytes);
		rc = -1;
	}
	vb_watch_unpublish(slot);
	/* --timeout fired while the sync or close hung: the run does not count. */
	if (rc == 0 && p->stop != NULL && atomic_load(p->stop) == VB_STOPFLAG_TIMEOUT) {
		fail_run(out, VB_STOP_TIMEOUT, VB_STAGE_SYNC, ETIMEDOUT, out->bytes);
		rc = -1;
	}
	return rc;
}

void vb_write_release(const struct vb_io_ops *ops, struct vb_watch *watch, int fd,
		      uint64_t offset)
{
	struct vb_watch_slot *slot = watch ? &watch->slot[0] : NULL;

	if (fd < 0)
		return;
	vb_watch_publish(slot, VB_STAGE_RELEASE, offset, ops->now_ns(ops->ctx));
	ops->close(ops->ctx, fd);
	vb_watch_unpublish(slot);
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
	int fd = vb_write_open(ops, p, out);
	if (fd < 0)
		return -1;
	/* Freeing a nameless file's blocks (long with discard) is not writing: a second
	 * descriptor defers it past the clock, while the timed close still flushes (NFS). */
	int keep_fd = p->defer_release || p->hold != NULL ? ops->dup(ops->ctx, fd) : -1;
	if (p->hold != NULL && keep_fd < 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, errno, 0);
		ops->close(ops->ctx, fd);
		return -1;
	}
	if (vb_source_run_begin(p->source, p->run, p->count_blocks) != 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, errno, 0);
		snprintf(out->detail, sizeof out->detail, "%s: %s",
			 p->source->kind == VB_SRC_URANDOM && p->source->fresh
			 ? "the kernel's randomness could not be read"
			 : "the thread making the data could not be started", strerror(out->err));
		ops->close(ops->ctx, fd);
		vb_write_release(ops, p->watch, keep_fd, 0);
		out->latency = vb_hist_summary(hist);
		return -1;
	}
	uint64_t start = ops->now_ns(ops->ctx), wait_ns = 0;
	int wrc = p->qd > 1 ? write_parallel(ops, p, fd, hist, out, &wait_ns)
			    : write_blocks(ops, p, fd, hist, out, &wait_ns);
	if (wrc != 0) {
		uint64_t end = ops->now_ns(ops->ctx);
		vb_watch_unpublish(slot);
		ops->close(ops->ctx, fd);
		finish_times(out, start, end, end, wait_ns, p->qd);
		rc = -1;
	} else {
		uint64_t write_end = ops->now_ns(ops->ctx);
		rc = sync_and_close(ops, p, fd, write_end, out);
		finish_times(out, start, write_end, ops->now_ns(ops->ctx), wait_ns, p->qd);
	}
	vb_source_run_end(p->source);
	if (p->hold != NULL && rc == 0)
		*p->hold = keep_fd;
	else
		vb_write_release(ops, p->watch, keep_fd, out->bytes);
	if (p->resumed != NULL && atomic_exchange(p->resumed, 0))
		out->paused = true;
	out->direct_refused = p->req.direct && out->stop == VB_STOP_ERROR &&
			      out->stage == VB_STAGE_WRITE && out->err == EINVAL &&
			      out->err_offset_bytes == 0;
	out->latency = vb_hist_summary(hist);
	return rc;
}

int vb_write_open(const struct vb_io_ops *ops, const struct vb_write_plan *p, struct vb_run *out)
{
	struct vb_watch_slot *slot = p->watch ? &p->watch->slot[0] : NULL;

	vb_watch_publish(slot, VB_STAGE_OPEN, 0, ops->now_ns(ops->ctx));
	int fd = acquire(ops, p, out);
	vb_watch_unpublish(slot);
	return fd;
}
