#ifndef VB_TARGET_H
#define VB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "vb_config.h"
#include "vb_writer.h"

/* What the target path turned out to be. */
enum vb_target_kind {
	VB_TGT_DIR,       /* a directory: an anonymous or uniquely named file inside it */
	VB_TGT_NEWFILE,   /* a path that did not exist: created by vbench */
	VB_TGT_EXISTING,  /* an existing regular file, allowed by --force */
	VB_TGT_BLOCKDEV,  /* a block device not in use, or a character device (a BSD raw
			   * disk, say), both allowed by --force */
	VB_TGT_CHARDEV    /* a data sink: /dev/null, /dev/zero or /dev/full */
};

/* A checked target and what vbench owns of it. */
struct vb_target {
	enum vb_target_kind kind;
	char path[4096];        /* the file written (created name), or the device */
	char dir[4096];         /* the directory of a VB_TGT_DIR target */
	bool use_tmpfile;       /* each run opens a fresh O_TMPFILE in dir */
	bool per_run_name;      /* each run creates a unique name in dir and unlinks it at once */
	bool created;           /* `path` exists and was created by vbench */
	bool keep;              /* leave `path` behind at the end */
	dev_t dev;              /* identity of the created file, checked before removal */
	ino_t ino;
	uint64_t device_bytes;  /* size of a block device, else 0 */
	bool excl_open;         /* open with O_EXCL: the kernel refuses a device in use */
	uint32_t align_bytes;   /* O_DIRECT granularity of the device under the target */
	unsigned name_serial;   /* makes per-run names unique */
};

/* Checks cfg's target without writing data; on success fills t and returns 0, else
 * returns the exit status (2) with a message in err. Refuses to clobber, as documented. */
int vb_target_prepare(struct vb_target *t, const struct vb_config *cfg, char *err, size_t errlen);

/* Fills the part of a write plan that says how to open the target for one run. */
void vb_target_plan(struct vb_target *t, const struct vb_config *cfg, bool first_run,
		    struct vb_write_plan *plan);

/* Removes what vbench created (unless kept), and only if it is still the same file;
 * safe to call twice and from a signal-free context. */
void vb_target_cleanup(struct vb_target *t);

/* Says how vbench treats the target ("created, removed at the end"), naming a kept
 * file; the text is static or written into buf of n bytes. */
const char *vb_target_note(const struct vb_target *t, char *buf, size_t n);

/* Writes "vbench-XXXXXX.tmp"-style unique name for serial into buf of n bytes. */
void vb_target_unique_name(char *buf, size_t n, const char *dir, unsigned serial);

#endif
