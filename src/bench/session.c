/* The session's policy (vb_session.h): the checks before anything is written, what the
 * target is called, the warnings on the results. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/vb_autoruns.h"
#include "bench/vb_guard.h"
#include "bench/vb_memfit.h"
#include "os/vb_os.h"
#include "bench/vb_plan.h"
#include "bench/vb_session.h"
#include "bench/vb_source.h"
#include "bench/vb_space.h"

bool vb_session_begin(int *argc, char ***argv)
{
	/* Before anything is opened: a closed stdout must not become the CSV file. */
	bool stdout_closed = (vb_os_std_fds() & 2u) != 0;

	vb_os_args(argc, argv);
	return stdout_closed;
}

void vb_session_settle(struct vb_config *cfg)
{
	if (cfg->progress == VB_AUTO)
		cfg->progress = vb_os_isatty(2) ? VB_ON : VB_OFF;
}

void vb_session_name(char invocation[17], char started[24])
{
	unsigned char r[8];
	time_t now = time(NULL);
	const struct tm *utc = now == (time_t)-1 ? NULL : gmtime(&now);

	if (vb_os_urandom(r, sizeof r) != 0) {
		/* no randomness: the start time and a clock reading still differ per run */
		uint64_t v = vb_os_now_ns() ^ ((uint64_t)now << 20);
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)(v >> (8 * i));
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(invocation + 2 * i, 3, "%02x", r[i]);
	if (utc == NULL || strftime(started, 24, "%Y-%m-%dT%H:%M:%SZ", utc) == 0)
		started[0] = '\0';
}

const char *vb_session_randomness(void)
{
	return vb_os_randomness();
}

struct vb_shared *vb_session_shared(void)
{
	struct vb_shared *sh = vb_shared_new();

	if (sh != NULL)
		vb_os_signals_install(&sh->flags);
	return sh;
}

void vb_session_catch_signals(struct vb_shared *sh)
{
	vb_os_signals_install(&sh->flags);
}

void vb_session_die(int signo)
{
	vb_os_die(signo);
}

void vb_session_std_ids(struct vb_outputs *o)
{
	vb_os_io.fstat(vb_os_io.ctx, 1, &o->std[0]);
	vb_os_io.fstat(vb_os_io.ctx, 2, &o->std[1]);
}

/* Whether n bytes can be allocated now: the process's own limit (ulimit -v) and the
 * kernel's overcommit rule answer; nothing is touched, so nothing is used. */
static bool can_allocate(uint64_t n, void *arg)
{
	(void)arg;
	if (n > SIZE_MAX)
		return false;
	void *p = vb_os_aligned_alloc(4096, (size_t)n);
	vb_os_aligned_free(p);
	return p != NULL;
}

enum vb_status vb_session_check_memory(const struct vb_config *cfg, struct vb_err *err)
{
	char why[512];

	if (!vb_memory_short(cfg, vb_os_avail_mem(), can_allocate, NULL, why, sizeof why))
		return VB_OK;
	return vb_fail(err, VB_E_SETUP, "%s; nothing was written", why);
}

enum vb_status vb_session_prepare(struct vb_target *t, const struct vb_config *cfg,
				  struct vb_err *err)
{
	return vb_target_prepare(t, cfg, &vb_os_io, err);
}

enum vb_status vb_session_lock(const struct vb_config *cfg, const struct vb_target *t,
			       struct vb_err *err)
{
	char why[600];
	uint64_t avail;
	int rc;

	if (t->held_fd >= 0 && (rc = vb_os_hold(t->held_fd, why, sizeof why)) != 0)
		return vb_fail(err, VB_E_SETUP, rc > 0 ? "%s is in use: %s; vbench never writes "
			       "to a disk or file in use, even with --force" : "%s: %s; vbench "
			       "does not write to what it cannot lock", cfg->target_path, why);
	/* A run into a file must not end in EFBIG at the file-size limit. Not a disk: FreeBSD's
	 * vn_rlimit_fsize (sys/kern/vfs_vnops.c) applies it to VREG only, and Linux does not
	 * to a block device (dd to a loop device under ulimit -f 100 writes 2 MiB). */
	uint64_t limit;
	if ((t->kind == VB_TGT_DIR || t->kind == VB_TGT_NEWFILE || t->kind == VB_TGT_EXISTING) &&
	    vb_os_file_size_limit(&limit) == 0 && vb_fsize_short(cfg, limit, why, sizeof why))
		return vb_fail(err, VB_E_SETUP, "%s; nothing was written", why);
	/* A new file in a directory: one run must fit in the file system's free space. An
	 * existing file (--force) is emptied before each run, which gives back what its
	 * blocks take (st_blocks: a sparse file gives back less than its size). */
	char where[400];
	struct vb_fileinfo fi;
	if (t->kind == VB_TGT_EXISTING) {
		if (vb_os_io.fstat(vb_os_io.ctx, t->held_fd, &fi) != 0 ||
		    vb_os_free_bytes(t->held_fd, &avail) != 0)
			return VB_OK;
		avail = fi.alloc_bytes > UINT64_MAX - avail ? UINT64_MAX : avail + fi.alloc_bytes;
		snprintf(where, sizeof where, "%s (the %llu bytes it holds included)",
			 cfg->target_path, (unsigned long long)fi.alloc_bytes);
	} else if (t->kind == VB_TGT_DIR || t->kind == VB_TGT_NEWFILE) {
		if (vb_os_free_bytes(t->dirfd, &avail) != 0)
			return VB_OK;
		snprintf(where, sizeof where, "%s", cfg->target_path);
	} else {
		return VB_OK;
	}
	if (!vb_space_short(cfg, where, avail, true, why, sizeof why))
		return VB_OK;
	return vb_fail(err, VB_E_SETUP, "%s; nothing was written", why);
}

static const char *const out_names[] = {"the --csv-append file", "the --trace file",
					"standard output", "standard error"};

/* What each output is: the files as vb_os_io.fstat describes them, when open. */
static void describe_outputs(const struct vb_outputs *o, struct vb_fileinfo outs[4])
{
	memset(outs, 0, 4 * sizeof outs[0]);
	for (size_t i = 0; i < 2; i++)
		if (o->fd[i] >= 0)
			vb_os_io.fstat(vb_os_io.ctx, o->fd[i], &outs[i]);
	outs[2] = o->std[0];
	outs[3] = o->std[1];
}

/* A refusal goes to standard error, unless that is known to be the storage refused
 * (on[3]): then to standard output, unless that is too (on[2]). */
static enum vb_say say_where(const bool on[4])
{
	return !on[3] ? VB_SAY_STDERR : !on[2] ? VB_SAY_STDOUT : VB_SAY_NOWHERE;
}

enum vb_status vb_session_check_outputs(const struct vb_outputs *o, struct vb_err *err,
					enum vb_say *say)
{
	struct vb_fileinfo outs[4];
	char why[600], other[300];
	bool on[4] = {false, false, false, false};
	int rc;

	describe_outputs(o, outs);
	for (size_t i = 0; i < 2; i++)
		for (size_t j = i + 1; o->fd[i] >= 0 && j < 4; j++) {
			if (j < 2 && o->fd[j] < 0)
				continue;
			if ((rc = vb_os_same_storage(o->fd[i], &outs[j], why, sizeof why)) == 0)
				continue;
			on[j] = rc > 0;
			snprintf(other, sizeof other, j == 1 ? "--trace %s" : "%s",
				 j == 1 ? o->path[1] : out_names[j]);
			*say = say_where(on);
			return vb_fail(err, VB_E_SETUP, rc > 0 ? "%s %s and %s are one storage "
				       "(%s); each output needs a place of its own" : "%s %s and "
				       "%s: %s; vbench does not write to what it cannot check",
				       i == 0 ? "--csv-append" : "--trace", o->path[i], other, why);
		}
	return VB_OK;
}

enum vb_status vb_session_check_target(const struct vb_config *cfg, const struct vb_target *t,
				       const struct vb_outputs *o, struct vb_err *err,
				       enum vb_say *say)
{
	struct vb_fileinfo outs[4];
	bool on[4] = {false, false, false, false};
	char why[600], first[600];
	int fd = t->held_fd, rc, first_rc = 0;
	size_t found = 0;

	/* A new file each run (or a sink) lies where its directory does. */
	if (fd < 0 && (fd = t->dirfd) < 0)
		return VB_OK;
	describe_outputs(o, outs);
	for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		if ((rc = vb_os_same_storage(fd, &outs[i], why, sizeof why)) == 0)
			continue;
		on[i] = rc > 0;
		if (first_rc == 0) {
			first_rc = rc;
			found = i;
			memcpy(first, why, sizeof first);
		}
	}
	if (first_rc == 0)
		return VB_OK;
	*say = say_where(on);
	if (first_rc > 0)
		return vb_fail(err, VB_E_SETUP, "%s is where vbench writes its results (%s: %s); "
			       "choose another target or another place for the results",
			       cfg->target_path, out_names[found], first);
	return vb_fail(err, VB_E_SETUP, "%s and %s: %s; vbench does not write to what it "
		       "cannot check", cfg->target_path, out_names[found], first);
}

void vb_session_describe(const struct vb_config *cfg, struct vb_target *t,
			 struct vb_session_desc *d)
{
	const struct vb_caps *caps = vb_os_caps();
	struct vb_env *env = &d->env;
	uint64_t avail;

	vb_os_detect(env, t->held_fd >= 0 ? t->held_fd : t->dirfd, cfg->target_path);
	d->sink = t->kind == VB_TGT_SINK;
	if (d->sink) {
		/* No disk, no filesystem: nothing about them means anything here. */
		snprintf(env->fs, sizeof env->fs, "none");
		snprintf(env->mount, sizeof env->mount, "none");
		snprintf(env->device, sizeof env->device, "%s", t->name);
		snprintf(env->driver, sizeof env->driver, "none");
		env->logical_block = env->physical_block = 0;
		env->cache = VB_CACHE_AS_ASKED;
	}
	/* Where the file system buffers a direct write that extends the file, the file is
	 * written before the clock and the runs write in place, directly. */
	t->fill_first = vb_plan_fill_first(cfg, t, env->cache);
	if (cfg->label != NULL)
		snprintf(d->label, sizeof d->label, "%s", cfg->label);
	else if (d->sink)
		snprintf(d->label, sizeof d->label, "sink-%s", t->name);
	else
		vb_env_label(env, d->label, sizeof d->label);
	d->sync_note = NULL;
	if (cfg->sync == VB_SYNC_FDATASYNC && strcmp(caps->fdatasync_call, "fdatasync") != 0) {
		snprintf(d->sync_buf, sizeof d->sync_buf, "done with %s: fdatasync is not "
			 "available here", caps->fdatasync_call);
		d->sync_note = d->sync_buf;
	}
	uint64_t run_bytes = vb_run_bytes(cfg);
	d->pool_bytes = vb_source_buffer_bytes(cfg->source, (size_t)cfg->bs_bytes, cfg->qd,
					       run_bytes);
	d->data_note = vb_source_describe(cfg->source, run_bytes, d->pool_bytes, d->data_buf,
					  sizeof d->data_buf);
	d->target_note = vb_target_note(t, d->note_buf, sizeof d->note_buf);
	d->written = vb_target_written(t, d->written_buf, sizeof d->written_buf);
	d->room_bytes = 0;
	if (t->kind == VB_TGT_DISK)
		d->room_bytes = t->device_bytes;
	else if ((t->kind == VB_TGT_DIR || t->kind == VB_TGT_NEWFILE) &&
		 vb_os_free_bytes(t->dirfd, &avail) == 0)
		d->room_bytes = avail;
}

void vb_session_warn_target(const struct vb_config *cfg, const struct vb_session_desc *d,
			    struct vb_session_warnings *w)
{
	w->n = 0;
	if (!d->sink && vb_analysis_label_fs_text(d->label, &d->env, cfg->target_path, w->fs,
						  sizeof w->fs))
		w->text[w->n++] = w->fs;
	if (vb_fs_direct_may_cache(d->env.fs) && cfg->direct)
		w->text[w->n++] = "--direct on ZFS: ZFS may still cache the data (its ARC), so "
				  "the figures may measure memory, not the disk";
}

void vb_session_warn(const struct vb_config *cfg, const struct vb_session_desc *d,
		     const struct vb_run_analysis *an, struct vb_session_warnings *w)
{
	const struct vb_env *env = &d->env;

	w->n = 0;
	/* A sink keeps nothing: neither a cache nor stability means anything there; nor is a
	 * cache met by a raw disk. */
	if (!d->sink && env->cache != VB_CACHE_NONE &&
	    vb_analysis_cache_text(an, cfg, env->ram_bytes, w->cache, sizeof w->cache))
		w->text[w->n++] = w->cache;
	if (!d->sink && vb_analysis_stability_text(an, w->drift, sizeof w->drift))
		w->text[w->n++] = w->drift;
	if (vb_analysis_paused_text(an, w->paused, sizeof w->paused))
		w->text[w->n++] = w->paused;
	if (!d->sink && vb_analysis_host_memory_text(cfg, env->frees_to_host, w->hostmem,
						     sizeof w->hostmem))
		w->text[w->n++] = w->hostmem;
	if (!d->sink && vb_analysis_loop_text(env->loop_buffered, w->loop, sizeof w->loop))
		w->text[w->n++] = w->loop;
	if (!d->sink && vb_analysis_memory_fs_text(env->fs, env->fs_in_memory, w->memfs,
						   sizeof w->memfs))
		w->text[w->n++] = w->memfs;
}

void vb_session_flush(const struct vb_session_desc *d, const struct vb_runlog *log,
		      struct vb_flush_result *r)
{
	*r = log->flush;
	if (vb_fs_copy_on_write(d->env.fs))
		vb_flush_own_metadata(r, d->env.fs);
}

const char *vb_session_auto_note(const struct vb_config *cfg, const struct vb_runlog *log,
				 char *buf, size_t n)
{
	uint64_t k = 0;
	double *rates = calloc(log->n_runs + 1, sizeof *rates);
	double *secs = calloc(log->n_runs + 1, sizeof *secs);
	const char *note = NULL;

	for (uint64_t i = 0; rates && secs && i < log->n_runs; i++) {
		const struct vb_run *r = &log->runs[i];
		if (r->warmup || r->stop != VB_STOP_DONE)
			continue;
		rates[k] = (double)r->bytes_per_sec;
		secs[k++] = r->secs;
	}
	if (rates && secs && log->n_runs > 0 && log->runs[log->n_runs - 1].stop == VB_STOP_DONE) {
		struct vb_auto_decision dec = vb_auto_decide(cfg, rates, secs, k);
		if (vb_auto_text(&dec, cfg, buf, n))
			note = buf;
	}
	free(rates);
	free(secs);
	return note;
}
