#ifndef VB_SPACE_H
#define VB_SPACE_H

/* Whether one run fits where it is written, decided before writing: ENOSPC after
 * minutes of writing helps no one. Pure. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Part of a file system's free space left for its own blocks (extents, a journal). */
#define VB_SPACE_SPARE 0.02

/* Blocks of bs bytes that fit in avail (on_fs: all but VB_SPACE_SPARE of it). */
uint64_t vb_count_that_fits(uint64_t avail, uint64_t bs, bool on_fs);

/* When one run needs more of avail (a file system's free space, on_fs, or a disk's
 * size) than it may take, writes why into buf ("count=900 fits") and returns 1; else 0. */
int vb_space_short(const struct vb_config *cfg, const char *where, uint64_t avail, bool on_fs,
		   char *buf, size_t n);

/* The same for the largest file the process may make (ulimit -f). */
int vb_fsize_short(const struct vb_config *cfg, uint64_t limit, char *buf, size_t n);

#endif
