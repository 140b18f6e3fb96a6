#ifndef VB_OPTS_H
#define VB_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include "common/vb_config.h"
#include "common/vb_status.h"

/* What the command line asked for besides a benchmark. */
enum vb_opts_action { VB_ACT_RUN, VB_ACT_HELP, VB_ACT_VERSION };

/* Largest block size accepted: a bigger single write() is never what a user meant. */
#define VB_BS_MAX ((uint64_t)1 << 30)

/* Most runs (and warm-up runs) accepted: each keeps a record of a few hundred bytes. */
#define VB_RUNS_MAX 100000

/* Shortest --interval: finer samples would cost more than they tell. */
#define VB_INTERVAL_MIN_SECS 0.01

/* Parses argv (no program name) into cfg, which holds the defaults; VB_OK with *action,
 * or VB_E_USAGE with err naming the operand and value. */
enum vb_status vb_opts_parse(int argc, char *const argv[], struct vb_config *cfg,
			     enum vb_opts_action *action, struct vb_err *err);

/* Writes the --help text to f; man/vbench.1 documents the same options. */
void vb_opts_usage(FILE *f);

#endif
