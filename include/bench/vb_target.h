#ifndef VB_TARGET_H
#define VB_TARGET_H

/* The target: what the path is, what vbench owns of it, how runs reach it. A file or
 * device is identified once, relative to a directory descriptor opened once, and checked
 * again on every open: a name swapped between two calls is refused, never followed. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_io.h"
#include "common/vb_status.h"

enum vb_target_kind {
	VB_TGT_DIR,       /* a directory: an anonymous or uniquely named file inside it */
	VB_TGT_NEWFILE,   /* a path that did not exist: created by vbench */
	VB_TGT_EXISTING,  /* an existing regular file, allowed by --force */
	VB_TGT_DISK,      /* a disk not in use, allowed by --force */
	VB_TGT_SINK       /* a data sink: /dev/null, /dev/zero or /dev/full */
};

struct vb_target {
	enum vb_target_kind kind;
	const struct vb_io_ops *ops;
	const char *shown;      /* the path as given, for messages */
	int dirfd;              /* the target directory, or the one holding the file */
	char name[256];         /* the file's or node's name in dirfd; "" for VB_TGT_DIR runs */
	bool anon;              /* VB_TGT_DIR: every run an anonymous file */
	bool per_run_name;      /* VB_TGT_DIR: every run a new name, unlinked once open */
	bool created;           /* name was created by vbench */
	bool keep;              /* leave it at the end */
	struct vb_fileinfo id;  /* the file or device, as first identified */
	int held_fd;            /* a disk: open for the whole session, -1 otherwise */
	uint64_t device_bytes;  /* a disk's size */
	uint32_t align_bytes;   /* direct I/O granularity under the target */
	uint64_t name_seed;     /* makes per-run names unpredictable */
	unsigned name_serial;
	char run_name[64];      /* the per-run name being used */
	int cleanup_errno;      /* why the file vbench created was not removed, or 0 */
	bool fill_first;        /* written once before the clock, runs in place (plan.c) */
};

/* Checks cfg's target without writing data: VB_OK with t filled (holding descriptors),
 * else VB_E_SETUP with err, what it created removed (even with --keep). Refuses, even
 * with --force, a disk or file that something is layered on. */
enum vb_status vb_target_prepare(struct vb_target *t, const struct vb_config *cfg,
				 const struct vb_io_ops *ops, struct vb_err *err);

/* A fresh name for the next per-run file ("vbench-XXXXXXXX.tmp"), in t->run_name. */
const char *vb_target_next_name(struct vb_target *t);

/* Removes what vbench created (unless kept) while still the same file; closes the
 * descriptors. Safe to call twice. */
void vb_target_cleanup(struct vb_target *t);

/* After vb_target_cleanup: NULL, or a sentence in buf naming the file left and why. */
const char *vb_target_cleanup_problem(const struct vb_target *t, char *buf, size_t n);

/* The sentence naming the flush probe's file left behind (err), or maybe left by a
 * stuck call (err 0); buf. */
const char *vb_target_probe_leftover(const struct vb_target *t, const char *name, int err,
				     char *buf, size_t n);

/* What is left behind when vbench exits without touching the filesystem (a stuck call,
 * or the session killed): a sentence in buf. name: a stuck run's file, or NULL. */
const char *vb_target_leftover(const struct vb_target *t, const char *name, char *buf,
			       size_t n);

/* A directory's named file that every run writes ("dir/vbench-XXXXXXXX.tmp"), or NULL. */
const char *vb_target_written(const struct vb_target *t, char *buf, size_t n);

/* How vbench treats the target ("created, removed at the end"); static or in buf. */
const char *vb_target_note(const struct vb_target *t, char *buf, size_t n);

/* Whether writes must be whole sectors: --direct, or a raw disk (the BSDs). */
bool vb_target_whole_sectors(const struct vb_target *t, const struct vb_config *cfg);

/* A block size near bs that direct I/O accepts ("1M", "4k"). Pure; for the tests. */
void vb_direct_suggestion(uint64_t bs, uint32_t align, char *buf, size_t n);

#endif
