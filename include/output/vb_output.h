#ifndef VB_OUTPUT_H
#define VB_OUTPUT_H

/* Everything vbench prints, formatted from results computed first, so that the output
 * kinds cannot disagree. Text vbench did not write (paths, labels) is escaped. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/vb_buf.h"
#include "common/vb_config.h"
#include "common/vb_env.h"
#include "common/vb_live.h"
#include "common/vb_flushverdict.h"
#include "common/vb_result.h"

/* What every formatter needs to know about the invocation besides its runs. */
struct vb_context {
	const struct vb_config *cfg;
	const struct vb_env *env;
	const char *label;        /* the configured or derived label */
	const char *target;       /* the path written, as the user gave it */
	const char *target_note;  /* how vbench treats it, or NULL */
	uint64_t pool_bytes;      /* bytes of data buffers */
	const char *data_note;    /* what the data is, for the header */
	bool sink;                /* the target is a data sink: no disk, no filesystem */
	const char *sync_note;    /* how the sync mode is done here, when not as named */
	const char *result_line;  /* after the runs: vb_format_result_line's line, or NULL */
	const char *auto_note;    /* after the runs: why runs=auto stopped, or NULL */
	bool filled;              /* written once before the clock (vb_plan_fill_first) */
	const char *session;      /* 16 hex digits telling appended invocations apart */
	const char *session_start;/* when it started, UTC: "2026-12-02T10:40:12Z" */
	uint64_t room_bytes;      /* the most one run may write; 0 when not known */
	const char *written;      /* the named file inside the target, or NULL (errors) */
};

/* BSD dd's status line: "N bytes transferred in S secs (R bytes/sec)". */
void vb_format_status(char *buf, size_t n, uint64_t bytes, double secs);

/* One progress line (no newline): bytes, percent, current and average rate, ETA. */
void vb_format_progress(char *buf, size_t n, const struct vb_progress *p);

/* The live lines on f (vb_live.h): progress, status (SIGUSR1, SIGINFO) and stalls. */
struct vb_live vb_out_live(FILE *f);

/* "vbench: MSG", escaped: it may quote paths. */
void vb_out_error(FILE *f, const char *msg);

/* "vbench: warning: LABEL: MSG". */
void vb_out_warning_about(FILE *f, const char *label, const char *msg);

/* The line to paste: "ext4-virtio_blk  bs=1M x256 direct fsync qd1: 2312 MB/s
 * (2182-2467, CV 4.4%, n=5)": mean, min and max in MB/s (10^6 bytes/sec). */
void vb_format_result_line(char *buf, size_t n, const char *label, const struct vb_config *cfg,
			   const struct vb_summary *s);

/* Human output: the "# " context lines before the first run. */
void vb_out_human_header(FILE *f, const struct vb_context *c);

/* Human output: one run as dd prints it, with its "# " lines. */
void vb_out_human_run(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* Human output: the summary lines, then c->auto_note and c->result_line when set. */
void vb_out_human_summary(FILE *f, const struct vb_context *c, const struct vb_run_analysis *a);

/* stderr's account of a run that did not complete: what failed, where, and why. */
void vb_out_run_problem(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* CSV, appended to b: the header row; a run's row or, with fr (r NULL), the flush
 * probe's row (status "flush", partial, run 0: not a run). */
void vb_out_csv_header(struct vb_buf *b);
void vb_out_csv_row(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r,
		    const struct vb_flush_result *fr);

/* Human output: the summary's lines on flushes, the guest's write cache and a knee. */
void vb_out_human_verdicts(FILE *f, const struct vb_context *c,
			   const struct vb_run_analysis *a);

/* CSV: the columns after qd of a run row or, with fr, the flush row; each after a comma. */
void vb_out_csv_verdicts(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r,
			 const struct vb_flush_result *fr);

/* JSON: the summary's "knee" and "flush" members, each preceded by ", ". */
void vb_out_json_verdicts(FILE *f, const struct vb_run_analysis *a);

/* --trace: the header row, and a run's interval samples as rows, appended to b. */
void vb_out_trace_header(struct vb_buf *b);
void vb_out_trace_run(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r);

/* JSON: the whole document of an invocation; warnings are sentences (may be NULL). */
void vb_out_json(FILE *f, const struct vb_context *c, const struct vb_run *runs, uint64_t n,
		 const struct vb_run_analysis *a, const char *const *warnings, size_t n_warnings);

#endif
