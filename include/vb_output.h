#ifndef VB_OUTPUT_H
#define VB_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "vb_analysis.h"
#include "vb_config.h"
#include "vb_env.h"
#include "vb_result.h"

/* What every formatter needs to know about the invocation besides its runs. */
struct vb_context {
	const struct vb_config *cfg;
	const struct vb_env *env;
	const char *label;        /* the configured or derived label */
	const char *target;       /* the path written, as the user gave it */
	const char *target_note;  /* how vbench treats it ("a temporary file ..."), or NULL */
	uint64_t pool_bytes;      /* size of the data pool */
};

/* A live progress reading. */
struct vb_progress {
	uint64_t run, runs;
	uint64_t bytes_done, bytes_total;
	double elapsed_secs;
	double current_bytes_per_sec;  /* over the last refresh; 0 when not yet known */
};

/* BSD dd's status line: "N bytes transferred in S secs (R bytes/sec)". */
void vb_format_status(char *buf, size_t n, uint64_t bytes, double secs);

/* One progress line (no newline): bytes, percent, current and average rate, ETA. */
void vb_format_progress(char *buf, size_t n, const struct vb_progress *p);

/* Human output: the "# " context lines before the first run. */
void vb_out_human_header(FILE *f, const struct vb_context *c);

/* Human output: one run as dd prints it, with its "# " lines. */
void vb_out_human_run(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* Human output: the four summary lines (and "# " lines about latency and intervals). */
void vb_out_human_summary(FILE *f, const struct vb_context *c, const struct vb_run_analysis *a);

/* stderr's account of a run that did not complete: what failed, where, and why. */
void vb_out_run_problem(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* CSV: the header row. */
void vb_out_csv_header(FILE *f);

/* CSV: one row for a run. */
void vb_out_csv_run(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* JSON: the whole document of an invocation; warnings are sentences (may be NULL). */
void vb_out_json(FILE *f, const struct vb_context *c, const struct vb_run *runs, uint64_t n,
		 const struct vb_run_analysis *a, const char *const *warnings, size_t n_warnings);

#endif
