#ifndef VB_OUTPUT_H
#define VB_OUTPUT_H

/* Everything vbench prints: the human dd-style lines, CSV rows, the JSON document, the
 * progress and status lines with their terminal codes, and messages. Results are
 * computed first (vb_run, vb_run_analysis) and then formatted here, one writer per
 * output kind, so that the kinds cannot disagree. Text that vbench did not write (paths,
 * labels, anything read from the system) is escaped on the way out. */

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
	const char *target_note;  /* how vbench treats it ("a temporary file ..."), or NULL */
	uint64_t pool_bytes;      /* bytes of data buffers */
	const char *data_note;    /* what the data is, for the header */
	bool sink;                /* the target is a data sink: no disk, no filesystem */
	const char *sync_note;    /* how the sync mode is done here, when not as named */
	/* Set once the runs are over, for the summary: */
	const char *result_line;  /* vb_format_result_line's line, or NULL */
	const char *auto_note;    /* runs=auto: why the runs stopped (vb_auto_text), or NULL */
	bool filled;              /* (set before the runs) the file was written once before
				   * the clock, and the runs write in place (vb_plan_fill_first) */
	const char *session;      /* this invocation, so that runs appended to one file by
				   * several can be told apart: 16 hex digits */
	const char *session_start;/* when it started, UTC: "2026-12-02T10:40:12Z" */
	uint64_t room_bytes;      /* the most one run may write: a disk's size, a new file's
				   * free space; 0 when not known */
	const char *written;      /* the file written inside the target, when that has a name
				   * of its own (vb_target_written), else NULL: errors name it */
};

/* BSD dd's status line: "N bytes transferred in S secs (R bytes/sec)". */
void vb_format_status(char *buf, size_t n, uint64_t bytes, double secs);

/* One progress line (no newline): bytes, percent, current and average rate, ETA. */
void vb_format_progress(char *buf, size_t n, const struct vb_progress *p);

/* The live lines on f (vb_live.h): the progress line drawn over the previous one, a
 * status line (SIGUSR1, SIGINFO) on a line of its own, the stall warning "vbench:
 * stall: run 2: write at offset N has not returned after 30 s" (naming the writer when
 * several are in flight). */
struct vb_live vb_out_live(FILE *f);

/* "vbench: MSG" on a line of its own, the message escaped: it may quote paths. */
void vb_out_error(FILE *f, const char *msg);

/* "vbench: warning: LABEL: MSG": a warning about the configuration named label. */
void vb_out_warning_about(FILE *f, const char *label, const char *msg);

/* What cfg measures, in the words of the result line: "bs=1M x256 direct fsync qd1",
 * with the source added when it is not zero ("... qd1 random"). */
void vb_format_settings(char *buf, size_t n, const struct vb_config *cfg);

/* The one line to paste: "ext4-virtio_blk  bs=1M x256 direct fsync qd1: 2312 MB/s
 * (2182-2467, CV 4.4%, n=5)", the mean, min and max in MB/s (10^6 bytes/sec), with three
 * significant digits below 100 MB/s; "(n=1)" for one run, "no completed run" for none. */
void vb_format_result_line(char *buf, size_t n, const char *label, const struct vb_config *cfg,
			   const struct vb_summary *s);

/* Human output: the "# " context lines before the first run. */
void vb_out_human_header(FILE *f, const struct vb_context *c);

/* Human output: one run as dd prints it, with its "# " lines. */
void vb_out_human_run(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* Human output: the four summary lines (and "# " lines about latency and intervals),
 * then c->auto_note and c->result_line when set. */
void vb_out_human_summary(FILE *f, const struct vb_context *c, const struct vb_run_analysis *a);

/* stderr's account of a run that did not complete: what failed, where, and why. */
void vb_out_run_problem(FILE *f, const struct vb_context *c, const struct vb_run *r);

/* CSV: the header row, appended to b. */
void vb_out_csv_header(struct vb_buf *b);

/* CSV: one row for a run, appended to b. */
void vb_out_csv_run(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r);

/* CSV: the row of the flush probe (status "flush", partial, run 0: not a run), appended
 * to b; its flush_ columns hold the figures. */
void vb_out_csv_flush(struct vb_buf *b, const struct vb_context *c,
		      const struct vb_flush_result *fr);

/* Human output: the summary's lines on flushes, the guest's write cache and a knee. */
void vb_out_human_verdicts(FILE *f, const struct vb_context *c,
			   const struct vb_run_analysis *a);

/* CSV: the columns after qd (knee, flush, write cache) of a run row or, with fr, of the
 * flush row, each preceded by its comma. */
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
