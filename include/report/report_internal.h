#ifndef VB_REPORT_INTERNAL_H
#define VB_REPORT_INTERNAL_H

/* What the files behind vb_report.h share; not vbench's API. Each group is defined in the
 * file it names. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/vb_report.h"

#include "common/vb_status.h"   /* VB_PRINTF */

/* cli.c: the most bytes read from one input (a file of 10^6 runs is about 270 MB), so
 * that /dev/zero or an endless pipe is refused instead of filling the memory. */
#define VBR_INPUT_MAX ((size_t)1 << 30)
#define VBR_INPUT_MAX_TEXT "1 GiB"

/* Reads all of in (at most limit bytes) into a new buffer: 0, -1 with errno set, or -2
 * when in holds more than limit bytes. */
int vbr_slurp(FILE *in, size_t limit, char **out, size_t *len);

/* util.c: small helpers. */

/* Where a reader's errors go: into buf (NULL: nowhere), naming the input. */
struct vbr_err {
	const char *name;
	char *buf;
	size_t len;
};

/* Writes "name:line: message" ("name: message" if line is 0) into e->buf; -1. */
int vbr_fail(const struct vbr_err *e, size_t line, const char *fmt, ...) VB_PRINTF(3, 4);

/* Room for a value quoted in a message: 40 bytes of it, or fewer and the marker of a cut. */
#define VBR_QUOTE_MAX 49

/* s into buf of n bytes, cut at a character with a marker when it does not fit
 * (vb_text_cut); returns buf, for an argument of a message. */
const char *vbr_cut(char *buf, size_t n, const char *s);

/* Makes room for need elements of size bytes in *p (capacity *cap); 0, or -1 without memory. */
int vbr_grow(void **p, size_t *cap, size_t need, size_t size);

/* A new NUL-terminated copy of the n bytes at s, or NULL without memory. */
char *vbr_dup_n(const char *s, size_t n);

/* Length of the decimal number ("12", "1.5", "1e-05") starting the n bytes at s; 0: none. */
size_t vbr_decimal_len(const char *s, size_t n);

/* Exactly the n bytes at s as a non-negative finite decimal number. */
bool vbr_parse_number(const char *s, size_t n, double *out);

/* csv.c: how many of the required column names the first record of text holds. */
size_t vbr_csv_header_names(const char *text, size_t len);

/* True for '0' to '9'. */
bool vbr_is_digit(char c);

/* Exactly the n bytes at s as a decimal integer below 2^64 (no sign, no blanks). */
bool vbr_parse_u64(const char *s, size_t n, uint64_t *out);

/* strtod of the n bytes at s, already checked to be a number; false if not finite or no memory. */
bool vbr_to_double(const char *s, size_t n, double *out);

/* New string: the file name without directory and extension, "stdin" for "-"; NULL, no memory. */
char *vbr_file_stem(const char *name);

/* 3 when text starts with a UTF-8 byte order mark, else 0. */
size_t vbr_bom_len(const char *text, size_t len);

/* dataset.c: what every reader does to the dataset. */

/* svg.c: an axis from 0 to at least max (0: to 1) in about want round steps: the step,
 * the top and the number of steps; 0 when max is no finite non-negative number, or its
 * steps cannot be added up exactly enough. */
size_t vbr_axis(double max, size_t want, double *step, double *top);

/* trace.c: a --trace file (interval samples within runs), read, summed up and drawn. */
struct vbr_tsample {
	size_t label;          /* index into labels */
	uint64_t run;
	bool warmup;
	double start_secs, secs;
	uint64_t bytes;
	double bytes_per_sec;  /* as recorded: from the unrounded seconds */
};
struct vbr_trace {
	char **labels;         /* owned, first-seen order */
	size_t n_labels, cap_labels;
	struct vb_slots label_ix;   /* hash index of the labels */
	struct vbr_tsample *s;
	size_t n, cap;
};

/* dataset.c: the index of label among (*labels)[0..*n), found through the hash index x
 * (so that many labels cost linear time), or a copy added when new; SIZE_MAX without
 * memory. */
size_t vbr_intern(char ***labels, size_t *n, size_t *cap, struct vb_slots *x,
		  const char *label);

/* Frees what t owns and makes it empty (a zeroed vbr_trace is empty too). */
void vbr_trace_free(struct vbr_trace *t);

/* Appends a sample under label; 0, or -1 without memory. */
int vbr_trace_add(struct vbr_trace *t, const char *label, const struct vbr_tsample *s);

/* csv.c: whether text is a --trace file (its header names start_secs). */
bool vbr_is_trace(const char *text, size_t len);

/* csv.c: reads a --trace file into t; 0, or -1 with "name:line: ..." in err. */
int vbr_read_trace(struct vbr_trace *t, const char *text, size_t len, const char *name,
		   char *err, size_t errlen);

/* trace.c: per label and measured run: the samples, the slowest, mean and fastest rate
 * in MB/s, and the knee when there is one; 0, or -1 on a write error. */
int vbr_trace_print(FILE *f, const struct vbr_trace *t);

/* trace.c: the SVG line chart of the rate (MB/s) against time within each measured run
 * of label (NULL: the first); 0, -1 on a write error, -2 when there is no such label,
 * -3 when its figures cannot be put on an axis (vbr_axis). */
int vbr_trace_svg(FILE *f, const struct vbr_trace *t, const char *label);

/* lies.c: the notes on the storage (vb_storage_note). */

/* Adds the note of a flush probe row: its verdict word ("no-work", "works", ...) and its
 * medians in ns (0: not given); 0, or -1 without memory. */
int vbr_note_flush(struct vb_dataset *d, const char *label, const char *verdict,
		   uint64_t flush_p50_ns, uint64_t write_p50_ns);

/* Checks a flush row as vbench writes it: verdict one of its words; num (NULL: absent),
 * the flush and write medians and the interval's signed ends, in order. 0, or -1 with
 * the reason in why. */
int vbr_check_flush(const char *verdict, const char *const num[4], char *why, size_t n);

/* Adds the note of a run with a knee; 0, or -1 without memory. */
int vbr_note_knee(struct vb_dataset *d, const char *label, uint64_t run, double burst,
		  double sustained, double at_bytes);

/* Rates read back stay below this (2^64 bytes/sec): vbench writes them as 64-bit counts. */
#define VBR_RATE_LIMIT 18446744073709551616.0

/* Whether v, the duration (rate false) or rate named what, can be a measured value:
 * finite, not negative, 0 or not subnormal, and a rate below VBR_RATE_LIMIT. 0, or -1
 * with the sentence in why ("secs 1e-310 is too small to be measured ..."). */
int vbr_check_measure(const char *what, double v, bool rate, char *why, size_t n);

/* The value of a unit of the last digit of the decimal number printed in the n bytes at s
 * ("0.010000": 1e-6, "104857600": 1, "1e-15": 1e-15, "2,5": 0.1). */
double vbr_last_digit(const char *s, size_t n);

/* Whether the rate bps agrees with bytes in secs, given what the last digit printed of
 * each is worth: the seconds may be off by half a unit (rounded), the rate by one
 * (rounded or cut; 1 where vbench or BSD dd print whole bytes/sec, whatever the text:
 * "1e19" is no rate they write). A run of 0 secs passes. 0, or -1 with why. */
int vbr_check_rate(uint64_t bytes, double secs, double secs_unit, double bps, double bps_unit,
		   char *why, size_t n);

/* Sets c->sync and c->source (lower-case letters), c->session (hex digits) and
 * c->started (digits, '-', ':', 'T', 'Z') from the strings given, each left not known
 * when it is not of that form or too long; NULL is absent. */
void vbr_cfg_names(struct vb_runcfg *c, const char *sync, const char *source, const char *id,
		   const char *start);

/* The hash of a run's identity (session, label, run), for the index of runs read. */
size_t vbr_run_hash(const struct vb_sample *s);

/* Adds a run made as cfg says (NULL: not known) on fs and device (both "": not recorded),
 * or counts it in skipped_zero when it has no rate (secs 0). A run whose session, label
 * and run number were read before is the same run read twice (a copy of a file, a
 * document given twice): left out and counted in skipped_dup when its figures are the
 * same, else -2 (two different runs cannot have one identity). 1 when added, 0 when left
 * out, or -1 without memory. */
int vbr_add_run_cfg(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		    double secs, double bps, const struct vb_runcfg *cfg, const char *fs,
		    const char *device);

/* The words vbench writes in a run's status (output.c status_word), and "flush". */
#define VBR_STATUS_WORDS "ok, interrupted, timeout, noprogress, error, flush"

/* Whether a run whose status is s ("": not recorded) is a measured run: 1 for "ok" or
 * "", 0 for a run that stopped early (interrupted, timeout, noprogress, error), -1 for
 * any other word. */
int vbr_status_is_run(const char *s);

/* Ends a reader that came to rc, m a copy of d made when it began (only its counts are
 * read): a file that added no run is an error (naming the runs skipped, else saying
 * what); on an error d returns to the counts of m. 0 or -1. */
int vbr_read_end(struct vb_dataset *d, const struct vb_dataset *m, int rc,
		 const struct vbr_err *e, const char *what);

/* analyze.c: ratio r as printed ("1.83", "0.0042", "1.8e+25"; "n/a" when not finite). */
void vbr_fmt_ratio(double r, char *buf, size_t n);

/* svg.c: writes at most max code points of s (shown as vb_text_dup shows it) as XML
 * text, then "..." if s was longer: & < > " ' escaped, invalid UTF-8 and what XML 1.0
 * forbids as U+FFFD, tab/CR/LF as a space. */
void vbr_xml_text(FILE *f, const char *s, size_t max);

/* print.c: ends a printer: flushes f; 0, or -1 on a write error. */
int vbr_finish(FILE *f);

/* What only the tests and fuzzers of report/ call: its readers' and printers' parts. */

/* Appends one run under label (interned); 0, or -1 without memory. */
int vb_dataset_add(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bytes_per_sec);

/* What a file holds, as vb_report_detect guesses it. */
enum vb_input_kind { VB_INPUT_CSV, VB_INPUT_JSON, VB_INPUT_TEXT };

/* JSON if the first non-blank byte is '{', CSV if the first record names at least two of
 * the required columns (a CSV file missing one is reported as such), otherwise text; a
 * UTF-8 byte order mark is ignored. */
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

/* Parses one line (len bytes) as a BSD "N bytes transferred in S secs (R bytes/sec)" or
 * GNU "N bytes (...) copied, S s, R X/s" line: 1, out filled; 0 if it is none. Text may
 * come before N (a timestamp), not after the rate: dd ends its line there. */
int vb_report_parse_dd_line(const char *line, size_t len, struct vb_dd_line *out);

/* Aligned table (a column per label, a row per run, then the statistics) and a comparison
 * line per label; 0, or -1 on a write error. */
int vb_report_print_text(FILE *f, const struct vb_comparison *a);

/* The same as GitHub markdown: the run table, then a comparison table; 0 or -1. */
int vb_report_print_markdown(FILE *f, const struct vb_comparison *a);

/* RFC 4180 CSV, one row per label: summary and comparison columns; 0 or -1. */
int vb_report_print_csv(FILE *f, const struct vb_comparison *a);

/* One JSON document: the baseline and per label its runs, summary and comparison (a number
 * not finite as null); 0 or -1. */
int vb_report_print_json(FILE *f, const struct vb_comparison *a);

#endif
