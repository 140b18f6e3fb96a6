#ifndef VB_SPACE_H
#define VB_SPACE_H

/* Whether one run fits where it is written, decided before anything is written: a run
 * that fills the file system ends in ENOSPC after minutes of writing, and one longer
 * than a disk cannot complete at all. Pure. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Part of the free space of a file system left for its own blocks (the file's extent
 * or indirect blocks, a journal): a run must fit in the rest. */
#define VB_SPACE_SPARE 0.02

/* Blocks of bs bytes that fit in avail bytes: all of them on a disk, on a file system
 * (on_fs) all but VB_SPACE_SPARE of the space. */
uint64_t vb_count_that_fits(uint64_t avail, uint64_t bs, bool on_fs);

/* When one run of cfg needs more than it may take of avail bytes (vb_count_that_fits's
 * rule), writes why, naming the count that
 * fits ("count=900 fits"), into buf and returns 1; else 0. where names the target, on_fs
 * says whether avail is a file system's free space (else a disk's size). */
int vb_space_short(const struct vb_config *cfg, const char *where, uint64_t avail, bool on_fs,
		   char *buf, size_t n);

/* When one run of cfg is larger than the process may make a file (limit bytes: ulimit
 * -f), writes why, naming the count that fits, into buf and returns 1; else 0. */
int vb_fsize_short(const struct vb_config *cfg, uint64_t limit, char *buf, size_t n);

#endif
