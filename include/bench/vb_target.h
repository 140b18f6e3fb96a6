#ifndef VB_TARGET_H
#define VB_TARGET_H

/* The target: what the path turned out to be, what vbench owns of it, and how each run
 * may reach it. Everything is done through the ops table and relative to a directory
 * descriptor opened once; a file or device is identified once and checked again on
 * every open, so a name swapped between two calls is refused, never followed. */

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
	bool fill_first;        /* write the file once before the clock, then every run in
				 * place over it (vb_plan_fill_first) */
};

/* Checks cfg's target through ops without writing any data; on success fills t (which
 * then holds descriptors until vb_target_close) and returns VB_OK, else VB_E_SETUP with
 * the reason in err, after removing what it created (even with --keep), so that
 * vb_target_cleanup_problem names what could not be removed. Refuses, even with
 * --force, a disk or file that something is layered on. */
enum vb_status vb_target_prepare(struct vb_target *t, const struct vb_config *cfg,
				 const struct vb_io_ops *ops, struct vb_err *err);

/* A fresh name for the next per-run file ("vbench-XXXXXXXX.tmp"), in t->run_name. */
const char *vb_target_next_name(struct vb_target *t);

/* Removes what vbench created (unless kept), and only while it is still the same file;
 * closes the descriptors. Safe to call twice. */
void vb_target_cleanup(struct vb_target *t);

/* After vb_target_cleanup: NULL when everything vbench created is gone (or was to be
 * kept), else a sentence in buf naming the file left behind and why. */
const char *vb_target_cleanup_problem(const struct vb_target *t, char *buf, size_t n);

/* The sentence naming the flush probe's file, name in the target's directory, which
 * could not be removed (err), or may be left by a call of the probe stuck in the kernel
 * (err 0); buf. */
const char *vb_target_probe_leftover(const struct vb_target *t, const char *name, int err,
				     char *buf, size_t n);

/* What is left behind when vbench must exit without touching the filesystem (a call
 * stuck in the kernel, or the session killed): a sentence in buf, which is returned.
 * name is a per-run file that the stuck run may have created, or NULL. */
const char *vb_target_leftover(const struct vb_target *t, const char *name, char *buf,
			       size_t n);

/* The file every run writes when it is not the target path itself but has a name of
 * its own (a directory's kept or rewritten file: "dir/vbench-XXXXXXXX.tmp"), in buf;
 * NULL otherwise. */
const char *vb_target_written(const struct vb_target *t, char *buf, size_t n);

/* How vbench treats the target ("created, removed at the end"); static or in buf. */
const char *vb_target_note(const struct vb_target *t, char *buf, size_t n);

/* Whether every write to t must be whole sectors: with --direct, and always on a disk
 * that is a character device (a raw disk, on the BSDs). */
bool vb_target_whole_sectors(const struct vb_target *t, const struct vb_config *cfg);

/* What only the tests of target.c call. */

/* A block size near bs that direct I/O accepts with granularity align: the power of
 * two nearest to bs, at least align, as a size with a suffix ("1M", "4k"). Pure. */
void vb_direct_suggestion(uint64_t bs, uint32_t align, char *buf, size_t n);

#endif
