#ifndef VB_REPORT_TEST_H
#define VB_REPORT_TEST_H

/* What only the tests and fuzzers of report/ call: its readers' and printers' parts. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "vb_report.h"

/* Appends one run under label (interned); returns 0, or -1 when memory runs out. */
int vb_dataset_add(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bytes_per_sec);

/* What a file holds, as vb_report_detect guesses it. */
enum vb_input_kind { VB_INPUT_CSV, VB_INPUT_JSON, VB_INPUT_TEXT };

/* JSON if the first non-blank byte is '{', CSV if the first record names at least two
 * of label, run, bytes, secs, bytes_per_sec (so a CSV file missing one is still read as
 * CSV and reported as such), otherwise a text log. A UTF-8 byte order mark is ignored. */
enum vb_input_kind vb_report_detect(const char *text, size_t len);

/* Which dd printed a summary line. */
enum vb_dd_kind { VB_DD_BSD, VB_DD_GNU };

/* The numbers of one dd summary line. */
struct vb_dd_line {
	enum vb_dd_kind kind;
	uint64_t bytes;
	double secs;
	double bytes_per_sec;  /* BSD: as printed; GNU: bytes / secs. INFINITY when secs is 0 */
	size_t at;             /* where N starts in the line: 0 when nothing comes before it */
	double secs_unit;      /* a unit of the last digit of S as printed */
	double printed_rate;   /* R as printed, in bytes/sec (GNU: with its unit); -1: none */
	double rate_unit;      /* a unit of its last digit, in bytes/sec */
};

/* Parses one line (len bytes, no newline needed) as a BSD "N bytes transferred in S secs
 * (R bytes/sec)" or GNU "N bytes (...) copied, S s, R X/s" line; returns 1 and fills out,
 * or 0 when the line is not a dd summary. Text before N (a timestamp) is allowed, text
 * after the rate is not: dd ends the line there, and a line that goes on is some other
 * text quoting one (a label in vbench's result line or a warning). */
int vb_report_parse_dd_line(const char *line, size_t len, struct vb_dd_line *out);

/* Aligned table (one column per label, one row per run, then mean/min/max/stddev) and
 * one comparison line per label; returns 0, or -1 on a write error. */
int vb_report_print_text(FILE *f, const struct vb_comparison *a);

/* The same as GitHub markdown: the run table, then a comparison table; 0 or -1. */
int vb_report_print_markdown(FILE *f, const struct vb_comparison *a);

/* RFC 4180 CSV, one row per label: summary and comparison columns; 0 or -1. */
int vb_report_print_csv(FILE *f, const struct vb_comparison *a);

/* One JSON document with the baseline and, per label, its runs, summary and comparison;
 * numbers that are not finite are null. Returns 0, or -1 on a write error. */
int vb_report_print_json(FILE *f, const struct vb_comparison *a);

#endif
