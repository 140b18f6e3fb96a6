#ifndef VB_REPORT_H
#define VB_REPORT_H

/* `vbench report`: reads vbench CSV and JSON files and dd logs, groups the runs by label,
 * compares every label with a baseline and formats the result. The readers and the
 * analysis never print, exit or keep global state; errors come back as "FILE:LINE: what
 * is wrong" in a caller's buffer. The readers skip warm-up and partial runs (counted in
 * skipped_warmup) and runs of 0 secs, which have no rate (skipped_zero); a file that
 * yields no run is an error, so a typo'd log is never silently empty. Labels are byte
 * strings, a NUL in one is an error. Numbers go through strtod: '.' is the decimal point
 * only in the C locale (until setlocale). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every chart vbench report writes starts with VB_SVG_HEAD, so that a later report knows
 * it may replace the file: the mark at that place only (a label could carry it anywhere). */
#define VB_SVG_MARK "<!-- made by vbench report -->"
#define VB_SVG_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" VB_SVG_MARK "\n<svg "
#include "common/vb_stats.h"
#include "common/vb_status.h"

/* How a run was made, where the input says (vbench CSV and JSON; not dd logs). */
struct vb_runcfg {
	uint64_t bs;           /* 0: not known */
	uint64_t qd;           /* 0: not known */
	uint64_t count;        /* blocks a run writes (its size, with bs); 0: not known */
	int direct;            /* 1, 0, or -1: not known */
	char sync[12];         /* "fsync", ...; "": not known */
	char source[12];       /* "zero", "urandom", "random"; "": not known */
	/* Which invocation made it (the CSV's session columns), never a reason to split: */
	char session[17];      /* 16 hex digits; "": not known (older files, dd logs) */
	char started[21];      /* its start, "2026-12-02T10:40:12Z"; "": not known */
};

/* Where runs were measured, as their input records it (vbench CSV and JSON). */
struct vb_place {
	char *fs;              /* file system type, owned; "" when not recorded */
	char *device;          /* device under it, owned; "" when not recorded */
};

/* One measured run as read from an input. */
struct vb_sample {
	size_t label;          /* index into vb_dataset.labels */
	size_t place;          /* index into vb_dataset.places; SIZE_MAX: not recorded */
	uint64_t run;          /* run number as the input gives it (text logs: 1, 2, ...) */
	uint64_t bytes;
	double secs;
	double bytes_per_sec;  /* as the input gives it; recomputed for GNU dd lines */
	struct vb_runcfg cfg;
};

/* What an input says about the storage under a label besides its runs: the flush
 * probe's verdict, a knee within a run (see vbench(1)); one sentence each. */
struct vb_storage_note {
	char *label;           /* owned */
	char *text;            /* owned */
};

/* An open-addressed hash index: slot[k] holds an entry's number + 1, 0 when empty; cap is
 * a power of two, or 0 before the first entry. */
struct vb_slots {
	size_t *slot;
	size_t cap;
};

/* Every run read so far; labels are interned in first-seen order. */
struct vb_dataset {
	char **labels;         /* NUL-terminated, owned */
	size_t n_labels, cap_labels;
	struct vb_slots label_ix;   /* hash index of the labels */
	struct vb_sample *samples;
	size_t n_samples, cap_samples;
	size_t skipped_warmup; /* warm-up and partial runs left out */
	size_t skipped_zero;   /* runs with 0 seconds left out */
	struct vb_storage_note *notes;   /* in input order */
	size_t n_notes, cap_notes;
	struct vb_place *places;         /* interned, first-seen order */
	size_t n_places, cap_places;
	struct vb_slots run_ix;     /* hash index of the runs that name their session */
	size_t n_keyed;        /* runs in it */
	size_t skipped_dup;    /* runs read a second time (same session and run) left out */
	size_t skipped_ddlike; /* lines of text logs in dd's words, not in its form */
};

/* Makes d the empty dataset. */
void vb_dataset_init(struct vb_dataset *d);

/* Frees what d owns and makes it empty again. */
void vb_dataset_free(struct vb_dataset *d);

/* Reads vbench CSV (RFC 4180, LF or CRLF, repeated identical header rows allowed) from
 * text into d; returns 0, or -1 with "name:line: ..." in err and d unchanged. */
int vb_report_read_csv(struct vb_dataset *d, const char *text, size_t len, const char *name,
		       char *err, size_t errlen);

/* Reads one or more concatenated vbench JSON documents into d; the label is the
 * top-level "label", else environment "fs-driver", else the file's stem. Returns 0, or
 * -1 with "name:line: ..." in err and d unchanged. */
int vb_report_read_json(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen);

/* Reads the BSD and GNU dd summary lines of a text log into d, as one label: the file's
 * name without directory or extension ("-": "stdin"). dd status=progress lines (a CR
 * within), vbench's comments ("# ...") and messages ("vbench: ...") are ignored; in
 * vbench's own output (its "# vbench " header) only dd lines with nothing before them
 * count. Without any dd line, the error quotes the first line. 0, or -1 with a message
 * in err, d unchanged. */
int vb_report_read_text(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen);

/* Detects the kind of text and reads it with the matching reader; an empty or all-blank
 * file is an error. Returns 0, or -1 with a message in err and d unchanged. */
int vb_report_read(struct vb_dataset *d, const char *text, size_t len, const char *name,
		   char *err, size_t errlen);

/* How a label compares with the baseline. */
enum vb_verdict {
	VB_VERDICT_BASELINE,     /* this is the baseline */
	VB_VERDICT_FASTER,       /* mean higher, p < 0.05 */
	VB_VERDICT_SLOWER,       /* mean lower, p < 0.05 */
	VB_VERDICT_SAME,         /* p >= 0.05 */
	VB_VERDICT_ONE_RUN,      /* this label has one run: no stddev, no t-test */
	VB_VERDICT_BASE_ONE_RUN, /* the baseline has one run: no t-test */
	VB_VERDICT_NO_TEST,      /* no variance in either label */
	VB_VERDICT_ZERO_MEAN,    /* a mean is 0: no ratio on the log scale, no test */
	VB_VERDICT_NOT_COMPUTABLE /* the ratio or the test came out as no finite number */
};

/* The runs of one label and one configuration (bs, run size, direct, sync, qd, source,
 * file system and device), never averaged with others, with their summary and comparison. */
struct vb_group {
	char *label;               /* owned, unique: the label and what differs ("ext4 bs=4k",
				    * "a tmpfs on sdb"), as outputs show it (vb_text_dup), " #N"
				    * added to a name two groups would share */
	size_t origin;             /* index of the label in the dataset */
	size_t label_len;          /* bytes of label that are the label as read */
	size_t shared_len;         /* bytes of label before " #N", when it was added; else 0 */
	size_t next_of_label;      /* the next group of the same label, or SIZE_MAX */
	bool first_of_label;       /* no group before it is of its label */
	bool split;                /* the label's runs differ in their settings */
	struct vb_runcfg cfg;      /* the settings all its runs share */
	size_t place;              /* the place all its runs were measured on (vb_sample) */
	char *where;               /* owned: its places, "ext4 on vda; ..."; NULL: not recorded */
	char *other_fs;            /* owned: the file system type its label names when a run
				    * was measured elsewhere; else NULL */
	struct vb_sample *samples; /* owned copies, in input order */
	size_t n;
	struct vb_summary sum;     /* over bytes_per_sec */
	struct vb_welch cmp;       /* this label against the baseline (ratio = this / baseline) */
	enum vb_verdict verdict;
};

/* Every label of a dataset, in first-seen order, compared with one of them. */
struct vb_comparison {
	struct vb_group *groups;
	size_t n_groups;
	size_t baseline;           /* index into groups */
	size_t max_runs;           /* largest n of any group: rows of the table */
	struct vb_storage_note *notes;   /* owned copies of the dataset's, in input order */
	size_t n_notes;
};

/* Groups d by label and configuration and compares each group with baseline (NULL: the
 * first); a owns copies, so d may be freed first. 0, or -1 with a message in err: no
 * runs, a baseline that names no group or several, or a mean or spread not finite. */
int vb_report_compare(const struct vb_dataset *d, const char *baseline, struct vb_comparison *a,
		      char *err, size_t errlen);

/* Frees what a owns. */
void vb_comparison_free(struct vb_comparison *a);

/* Writes g's verdict ("1.71x faster, significant at p<0.05", "no significant difference
 * (p=0.85)", ...) into buf. */
void vb_report_verdict(const struct vb_group *g, char *buf, size_t n);

/* Writes into buf the note for a label split by its settings, naming its groups, when g
 * is its first group: 1; else 0, buf untouched. */
int vb_report_split_note(const struct vb_comparison *a, size_t g, char *buf, size_t n);

/* Writes into buf the note for a label whose runs come from several invocations of vbench
 * (appended to one file), when g is its first group: 1; else, or when its runs are of
 * one session or say nothing of theirs, 0, buf untouched. */
int vb_report_session_note(const struct vb_comparison *a, size_t g, char *buf, size_t n);

/* Output formats of the report. */
enum vb_report_format { VB_REPORT_TEXT, VB_REPORT_MARKDOWN, VB_REPORT_CSV, VB_REPORT_JSON };

/* Dispatches to the printer of fmt; 0 or -1. */
int vb_report_print(FILE *f, const struct vb_comparison *a, enum vb_report_format fmt);

/* Standalone SVG bar chart of mean MB/s per label with min-max whiskers, a star where it
 * differs significantly from the baseline, config as its subtitle; 0, or -1 (write). */
int vb_report_print_svg(FILE *f, const struct vb_comparison *a, const char *config);

/* Writes into buf what every run of d shares: "bs=1048576, direct, sync fsync, qd 1",
 * and "runs per label: 3" (or "2 to 5"); a setting that differs or is not known is left
 * out, or said to differ. Returns buf. */
char *vb_report_config_text(const struct vb_comparison *a, const struct vb_dataset *d,
			    char *buf, size_t n);

/* Runs `vbench report`: argv[0] is the subcommand name ("report") and is skipped; options
 * may follow the files; "--" ends options; "-" reads standard input. Prints the report on
 * out and messages on err; returns VB_OK, or VB_E_USAGE for bad usage or any bad input. */
enum vb_status vb_report_main(int argc, char *argv[], FILE *out, FILE *err);

#endif
