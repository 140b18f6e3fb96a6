#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vb_platform.h"
#include "vb_writer.h"

/* A write() that returns 0 this many times in a row is not going to finish the block. */
#define VB_MAX_ZERO_WRITES 8

static int io_open(void *ctx, const char *path, int flags, mode_t mode)
{
	(void)ctx;
	return open(path, flags | O_CLOEXEC, mode);
}

static ssize_t io_write(void *ctx, int fd, const void *buf, size_t n)
{
	(void)ctx;
	return write(fd, buf, n);
}

static int io_fsync(void *ctx, int fd)
{
	(void)ctx;
	return vb_platform_fsync(fd);
}

static int io_fdatasync(void *ctx, int fd)
{
	(void)ctx;
	return vb_platform_fdatasync(fd);
}

static int io_ftruncate(void *ctx, int fd, off_t len)
{
	(void)ctx;
	return ftruncate(fd, len);
}

static int io_dup(void *ctx, int fd)
{
	(void)ctx;
	return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

static int io_close(void *ctx, int fd)
{
	(void)ctx;
	return close(fd);
}

static int io_unlink(void *ctx, const char *path)
{
	(void)ctx;
	return unlink(path);
}

static int io_fstat(void *ctx, int fd, struct stat *st)
{
	(void)ctx;
	return fstat(fd, st);
}

const struct vb_io_ops vb_posix_ops = {
	io_open, io_write, io_fsync, io_fdatasync, io_close, io_unlink,
	io_fstat, io_dup, io_ftruncate, NULL,
};

/* Publishes the call about to start for the watchdog. The start time is stored last,
 * with release order, so a watchdog that sees it also sees the stage and offset. */
static void publish(struct vb_watch *w, enum vb_stage stage, uint64_t offset, uint64_t start)
{
	if (w == NULL)
		return;
	atomic_store_explicit(&w->offset_bytes, offset, memory_order_relaxed);
	atomic_store_explicit(&w->stage, (int)stage, memory_order_relaxed);
	atomic_store_explicit(&w->call_start_ns, start, memory_order_release);
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
	sig_atomic_t v = p->stop ? *p->stop : 0;

	if (v == 0)
		return 0;
	if (v == VB_STOPFLAG_TIMEOUT) {
		fail_run(out, VB_STOP_TIMEOUT, stage, ETIMEDOUT, out->bytes);
	} else {
		fail_run(out, VB_STOP_SIGNAL, stage, EINTR, out->bytes);
		out->signo = (int)v;
	}
	return 1;
}

/* Writes all n bytes, continuing short writes and retrying EINTR; *done says how many
 * made it. Returns 0, or -1 with out filled in. */
static int write_block(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
		       const unsigned char *buf, size_t n, size_t *done, struct vb_run *out)
{
	int zeros = 0;

	*done = 0;
	while (*done < n) {
		ssize_t r = ops->write(ops->ctx, fd, buf + *done, n - *done);
		if (r < 0 && errno == EINTR) {
			if (check_stop(p, out, VB_STAGE_WRITE))
				return -1;
			continue;
		}
		if (r < 0) {
			fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, errno, out->bytes + *done);
			return -1;
		}
		if (r == 0 && ++zeros >= VB_MAX_ZERO_WRITES) {
			fail_run(out, VB_STOP_NOPROGRESS, VB_STAGE_WRITE, EIO, out->bytes + *done);
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

/* Opens the target for this run; returns the descriptor or -1 with out filled in. */
static int open_target(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		       struct vb_run *out)
{
	struct stat st;
	int fd = ops->open(ops->ctx, p->open_path, p->open_flags, p->open_mode);

	if (fd < 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, errno, 0);
		return -1;
	}
	int err = 0;
	if (p->unlink_after_open && ops->unlink(ops->ctx, p->open_path) != 0)
		err = errno;
	else if (p->check_identity && (ops->fstat(ops->ctx, fd, &st) != 0 ||
				       st.st_dev != p->dev || st.st_ino != p->ino))
		err = ESTALE; /* the file vbench created was replaced by someone else */
	else if (p->truncate && ops->ftruncate(ops->ctx, fd, 0) != 0)
		err = errno; /* only now: the file is known to be vbench's own */
	else if (p->nocache_fcntl && vb_platform_nocache(fd) != 0)
		err = errno;
	if (err != 0) {
		ops->close(ops->ctx, fd);
		fail_run(out, VB_STOP_ERROR, VB_STAGE_OPEN, err, 0);
		return -1;
	}
	return fd;
}

static int sync_target(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd)
{
	int rc = 0;
	if (p->sync == VB_SYNC_FSYNC)
		rc = ops->fsync(ops->ctx, fd);
	else if (p->sync == VB_SYNC_FDATASYNC)
		rc = ops->fdatasync(ops->ctx, fd);
	if (rc != 0 && p->sync_may_fail && (errno == EINVAL || errno == ENOTSUP))
		rc = 0;
	return rc;
}

static void finish_times(struct vb_run *out, uint64_t start, uint64_t write_end, uint64_t end)
{
	out->secs = (double)(end - start) / 1e9;
	out->write_secs = (double)(write_end - start) / 1e9;
	out->sync_secs = (double)(end - write_end) / 1e9;
	out->bytes_per_sec = vb_rate(out->bytes, out->secs);
}

/* The write loop of one run; returns 0 or -1 with out filled in. */
static int write_blocks(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			uint64_t start, struct vb_hist *hist, struct vb_run *out)
{
	uint64_t last = start, iv_from = start, iv_bytes = 0;
	uint64_t iv_ns = (uint64_t)(p->interval_secs * 1e9);

	for (uint64_t b = 0; b < p->count_blocks; b++) {
		size_t done = 0;
		if (check_stop(p, out, VB_STAGE_WRITE))
			return -1;
		const unsigned char *buf = vb_source_block(p->source, p->run, b);
		publish(p->watch, VB_STAGE_WRITE, out->bytes, last);
		int rc = write_block(ops, p, fd, buf, (size_t)p->bs_bytes, &done, out);
		uint64_t now = vb_now_ns();
		vb_hist_add(hist, now - last);
		last = now;
		out->bytes += done;
		if (rc != 0) {
			out->partial_blocks = done > 0;
			return -1;
		}
		out->full_blocks++;
		if (iv_ns > 0 && now - iv_from >= iv_ns) {
			if (add_interval(out, start, iv_from, now, out->bytes - iv_bytes) != 0)
				return fail_run(out, VB_STOP_ERROR, VB_STAGE_WRITE, ENOMEM,
						out->bytes), -1;
			iv_from = now;
			iv_bytes = out->bytes;
		}
		if (p->tick != NULL)
			p->tick(p->tick_arg, out, now, start);
	}
	if (iv_ns > 0 && last > iv_from)
		add_interval(out, start, iv_from, last, out->bytes - iv_bytes);
	return 0;
}

/* Ends the run's use of the target: closes fd, and after the clock has stopped, the
 * extra descriptor that kept an anonymous file alive. */
static void release(const struct vb_io_ops *ops, int keep_fd)
{
	if (keep_fd >= 0)
		ops->close(ops->ctx, keep_fd);
}

/* Syncs and closes after the last write; returns 0 or -1 with out filled in. */
static int sync_and_close(const struct vb_io_ops *ops, const struct vb_write_plan *p, int fd,
			  uint64_t write_end, struct vb_run *out)
{
	int rc = 0;

	publish(p->watch, VB_STAGE_SYNC, out->bytes, write_end);
	if (sync_target(ops, p, fd) != 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_SYNC, errno, out->bytes);
		rc = -1;
	}
	publish(p->watch, VB_STAGE_CLOSE, out->bytes, vb_now_ns());
	if (ops->close(ops->ctx, fd) != 0 && rc == 0) {
		fail_run(out, VB_STOP_ERROR, VB_STAGE_CLOSE, errno, out->bytes);
		rc = -1;
	}
	publish(p->watch, VB_STAGE_NONE, 0, 0);
	/* --timeout fired while the sync or close hung, even if it returned later: the
	 * run took longer in one call than the user allowed, so it does not count. */
	if (rc == 0 && p->stop != NULL && *p->stop == VB_STOPFLAG_TIMEOUT) {
		fail_run(out, VB_STOP_TIMEOUT, VB_STAGE_SYNC, ETIMEDOUT, out->bytes);
		rc = -1;
	}
	return rc;
}

int vb_write_run(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		 struct vb_run *out)
{
	struct vb_hist local;
	struct vb_hist *hist = p->latency != NULL ? p->latency : &local;
	int rc;

	memset(out, 0, sizeof *out);
	out->run = p->run;
	vb_hist_init(hist);
	publish(p->watch, VB_STAGE_OPEN, 0, vb_now_ns());
	int fd = open_target(ops, p, out);
	publish(p->watch, VB_STAGE_NONE, 0, 0);
	if (fd < 0)
		return -1;
	/* Closing the last descriptor of a file without a name frees its blocks, which on a
	 * filesystem mounted with discard takes as long as a good part of the writing. That
	 * is not writing: a second descriptor defers it until the clock has stopped, while
	 * the timed close still does what a close does (NFS, for one, flushes there). */
	int keep_fd = p->defer_release ? ops->dup(ops->ctx, fd) : -1;
	uint64_t start = vb_now_ns();
	if (write_blocks(ops, p, fd, start, hist, out) != 0) {
		uint64_t end = vb_now_ns();
		publish(p->watch, VB_STAGE_NONE, 0, 0);
		ops->close(ops->ctx, fd);
		finish_times(out, start, end, end);
		rc = -1;
	} else {
		uint64_t write_end = vb_now_ns();
		rc = sync_and_close(ops, p, fd, write_end, out);
		finish_times(out, start, write_end, vb_now_ns());
	}
	release(ops, keep_fd);
	out->latency = vb_hist_summary(hist);
	return rc;
}
