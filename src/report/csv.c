#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/vb_escape.h"
#include "common/vb_schema.h"
#include "report/report_internal.h"

/* The CSV reader of `vbench report`: RFC 4180 records, the header, the rows. */

/* Position in the CSV text. */
struct csv_cur {
	const char *p, *end;
	size_t line;
};

/* One record: the unquoted fields, NUL-terminated, stored back to back in buf. */
struct csv_rec {
	char *buf;
	size_t blen, bcap;
	size_t *off;           /* start of each field in buf */
	size_t n, cap;
	size_t line;           /* line the record starts on */
	bool eol;              /* it ended with a line break, not at the end of the text */
};

static void csv_rec_free(struct csv_rec *r)
{
	free(r->buf);
	free(r->off);
}

static const char *csv_field(const struct csv_rec *r, size_t i)
{
	return r->buf + r->off[i];
}

static int csv_put(struct csv_rec *r, char c)
{
	if (vbr_grow((void **)&r->buf, &r->bcap, r->blen + 1, 1) < 0)
		return -1;
	r->buf[r->blen++] = c;
	return 0;
}

/* Starts a new field in r; 0 or -1 without memory. */
static int csv_begin_field(struct csv_rec *r)
{
	if (vbr_grow((void **)&r->off, &r->cap, r->n + 1, sizeof *r->off) < 0)
		return -1;
	r->off[r->n++] = r->blen;
	return 0;
}

/* True at a record end: LF, CRLF, or a CR that is the last byte of the file. */
static bool csv_at_eol(const struct csv_cur *c)
{
	if (c->p >= c->end || *c->p == '\n')
		return true;
	return *c->p == '\r' && (c->p + 1 == c->end || c->p[1] == '\n');
}

/* Reads a quoted field's content after its opening quote. */
static int csv_quoted(struct csv_cur *c, struct csv_rec *r, const struct vbr_err *e)
{
	size_t start = c->line;
	for (;;) {
		if (c->p >= c->end)
			return vbr_fail(e, start, "unterminated quoted field");
		char ch = *c->p++;
		if (ch == '"') {
			if (c->p < c->end && *c->p == '"') {
				c->p++;
			} else {
				break;
			}
		} else if (ch == '\n') {
			c->line++;
		} else if (ch == '\0') {
			return vbr_fail(e, c->line, "NUL byte in a field");
		}
		if (csv_put(r, ch) < 0)
			return vbr_fail(e, c->line, "out of memory");
	}
	if (!csv_at_eol(c) && *c->p != ',')
		return vbr_fail(e, c->line, "text after a closing quote");
	return 0;
}

/* Reads an unquoted field up to the next comma or record end. */
static int csv_plain(struct csv_cur *c, struct csv_rec *r, const struct vbr_err *e)
{
	while (!csv_at_eol(c) && *c->p != ',') {
		char ch = *c->p++;
		if (ch == '"')
			return vbr_fail(e, c->line, "quote inside an unquoted field");
		if (ch == '\0')
			return vbr_fail(e, c->line, "NUL byte in a field");
		if (csv_put(r, ch) < 0)
			return vbr_fail(e, c->line, "out of memory");
	}
	return 0;
}

/* Reads the next record into r; 1 when one was read, 0 at the end, -1 on an error. */
static int csv_next(struct csv_cur *c, struct csv_rec *r, const struct vbr_err *e)
{
	r->n = 0;
	r->blen = 0;
	r->line = c->line;
	r->eol = false;
	if (c->p >= c->end)
		return 0;
	for (;;) {
		if (csv_begin_field(r) < 0)
			return vbr_fail(e, c->line, "out of memory");
		int rc;
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			rc = csv_quoted(c, r, e);
		} else {
			rc = csv_plain(c, r, e);
		}
		if (rc < 0 || csv_put(r, '\0') < 0)
			return rc < 0 ? rc : vbr_fail(e, c->line, "out of memory");
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '\r')
			c->p++;
		if (c->p < c->end && *c->p == '\n') {
			c->p++;
			c->line++;
			r->eol = true;
		}
		return 1;
	}
}

/* A record that is one empty field: a blank line. */
static bool csv_blank(const struct csv_rec *r)
{
	return r->n == 1 && csv_field(r, 0)[0] == '\0';
}

static bool csv_same(const struct csv_rec *a, const struct csv_rec *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(csv_field(a, i), csv_field(b, i)) != 0)
			return false;
	return true;
}

/* Where each column of the schema (enum vb_col) is in the header; SIZE_MAX when absent
 * (only the first VB_CSV_REQUIRED are required). */
struct csv_map {
	size_t col[VB_N_COLS];
	struct csv_rec header;
};

/* The index of the field of r equal to s, or SIZE_MAX. */
static size_t csv_index(const struct csv_rec *r, const char *s)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(csv_field(r, i), s) == 0)
			return i;
	return SIZE_MAX;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Finds the columns in header h; -1 naming the first required column missing. */
static int csv_map_header(struct csv_map *m, const struct csv_rec *h, const struct vbr_err *e)
{
	/* A --trace file names runs and rates too, but its rows are samples within runs:
	 * averaged as runs they would make a figure nobody measured. */
	if (csv_index(h, "start_secs") != SIZE_MAX)
		return vbr_fail(e, h->line, "a --trace file: its rows are samples within runs, not "
				"runs; plot it, or report the CSV of the runs");
	/* A column named twice: which one holds the figure? Sorted: n log n. */
	const char **names = malloc((h->n ? h->n : 1) * sizeof *names);
	if (names == NULL)
		return vbr_fail(e, h->line, "out of memory");
	for (size_t i = 0; i < h->n; i++)
		names[i] = csv_field(h, i);
	qsort(names, h->n, sizeof *names, by_name);
	for (size_t i = 1; i < h->n; i++)
		if (strcmp(names[i - 1], names[i]) == 0) {
			char q[VBR_QUOTE_MAX];
			int rc = vbr_fail(e, h->line, "column %s is named twice",
					  vbr_cut(q, sizeof q, names[i]));
			free(names);
			return rc;
		}
	free(names);
	for (size_t i = 0; i < VB_N_COLS; i++)
		m->col[i] = csv_index(h, vb_csv_names[i]);
	for (size_t i = 0; i < VB_CSV_REQUIRED; i++)
		if (m->col[i] == SIZE_MAX)
			return vbr_fail(e, h->line, "missing column %s", vb_csv_names[i]);
	return 0;
}

/* Reads a yes/no column; an absent column or field counts as no. */
static int csv_flag(const struct csv_rec *r, size_t col, const char *what, bool *out,
		    const struct vbr_err *e)
{
	*out = false;
	if (col == SIZE_MAX || col >= r->n)
		return 0;
	const char *v = csv_field(r, col);
	if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0)
		*out = true;
	else if (!(v[0] == '\0' || strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 ||
		   strcasecmp(v, "no") == 0))
		return vbr_fail(e, r->line, "column %s: not a yes/no value", what);
	return 0;
}

/* The error for a field that is not the number its column needs. */
static int csv_bad(const struct csv_rec *r, const char *col, const char *value,
		   const struct vbr_err *e)
{
	char q[VBR_QUOTE_MAX];

	return vbr_fail(e, r->line, "column %s: not a non-negative number: \"%s\"", col,
			vbr_cut(q, sizeof q, value));
}

/* The optional field at col of r, or "" when the column or the field is absent. */
static const char *csv_opt(const struct csv_rec *r, size_t col)
{
	return col == SIZE_MAX || col >= r->n ? "" : csv_field(r, col);
}

/* The optional count at col of r, or 0 when absent or not a count. */
static uint64_t csv_count(const struct csv_rec *r, size_t col)
{
	const char *v = csv_opt(r, col);
	uint64_t x;

	return vbr_parse_u64(v, strlen(v), &x) ? x : 0;
}

/* How the run was made, from the optional columns; what is absent stays unknown, and
 * so do odd names. A count or direct vbench cannot have written would split the label on
 * nonsense: -1 with a message in err. */
static int csv_cfg(const struct csv_map *m, const struct csv_rec *r, struct vb_runcfg *c,
		   const struct vbr_err *e)
{
	static const enum vb_col counts[3] = {VB_COL_BS, VB_COL_COUNT, VB_COL_QD};
	uint64_t *to[3] = {&c->bs, &c->count, &c->qd};
	const char *direct = csv_opt(r, m->col[VB_COL_DIRECT]);
	char q[VBR_QUOTE_MAX];

	memset(c, 0, sizeof *c);
	c->qd = m->col[VB_COL_QD] == SIZE_MAX;   /* files from before --qd: one write in flight */
	for (size_t i = 0; i < 3; i++) {
		const char *v = csv_opt(r, m->col[counts[i]]);
		if (v[0] != '\0' && !vbr_parse_u64(v, strlen(v), to[i]))
			return vbr_fail(e, r->line, "column %s: \"%s\" is not a count",
					vb_csv_names[counts[i]], vbr_cut(q, sizeof q, v));
	}
	if (direct[0] != '\0' && strcmp(direct, "0") != 0 && strcmp(direct, "1") != 0)
		return vbr_fail(e, r->line, "column direct: \"%s\" is not 0 or 1",
				vbr_cut(q, sizeof q, direct));
	c->direct = direct[0] == '\0' ? -1 : direct[0] == '1';
	vbr_cfg_names(c, csv_opt(r, m->col[VB_COL_SYNC]), csv_opt(r, m->col[VB_COL_SOURCE]),
		      csv_opt(r, m->col[VB_COL_SESSION]), csv_opt(r, m->col[VB_COL_SESSION_START]));
	return 0;
}

/* The flush probe's row (status "flush"): a note, not a run; one vbench cannot have
 * written is refused. 0, or -1 with a message in err. */
static int csv_flush_row(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
			 const char *label, const struct vbr_err *e)
{
	static const enum vb_col cols[4] = {VB_COL_FLUSH_P50, VB_COL_FLUSH_WRITE_P50,
					    VB_COL_FLUSH_DIFF_LO, VB_COL_FLUSH_DIFF_HI};
	const char *num[4];
	char why[160];

	for (size_t i = 0; i < 4; i++)
		num[i] = m->col[cols[i]] == SIZE_MAX ? NULL : csv_opt(r, m->col[cols[i]]);
	if (vbr_check_flush(csv_opt(r, m->col[VB_COL_FLUSH_VERDICT]), num, why, sizeof why) < 0)
		return vbr_fail(e, r->line, "%s", why);
	if (vbr_note_flush(d, label, csv_opt(r, m->col[VB_COL_FLUSH_VERDICT]),
			   csv_count(r, m->col[VB_COL_FLUSH_P50]),
			   csv_count(r, m->col[VB_COL_FLUSH_WRITE_P50])) < 0)
		return vbr_fail(e, r->line, "out of memory");
	return 0;
}

/* The knee of a run, when its columns hold one: a note. 0, or -1 with a message in err. */
static int csv_knee(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		    const char *label, uint64_t run, const struct vbr_err *e)
{
	static const enum vb_col cols[3] = {VB_COL_KNEE_BURST, VB_COL_KNEE_SUSTAINED,
					    VB_COL_KNEE_AT};
	double v[3];
	char why[160];

	/* absent or no number: 0; one that cannot have been measured is refused */
	for (size_t i = 0; i < 3; i++) {
		const char *s = csv_opt(r, m->col[cols[i]]);
		if (!vbr_parse_number(s, strlen(s), &v[i]))
			v[i] = 0;
		if (vbr_check_measure(vb_csv_names[cols[i]], v[i], i < 2, why, sizeof why) < 0)
			return vbr_fail(e, r->line, "%s", why);
	}
	if (v[0] > 0 && vbr_note_knee(d, label, run, v[0], v[1], v[2]) < 0)
		return vbr_fail(e, r->line, "out of memory");
	return 0;
}

/* Converts one data row and adds it to d. */
static int csv_row(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		   const struct vbr_err *e)
{
	/* A row cut short (vbench killed while appending, a full disk, a copy cut off) or
	 * run on into another is no run: its missing fields would read as "no" or "unknown". */
	if (r->n != m->header.n)
		return vbr_fail(e, r->line, "row has %zu fields, the header %zu: cut short or run "
				"on, not a run", r->n, m->header.n);
	if (!r->eol && m->col[VB_COL_SCHEMA] != SIZE_MAX)
		return vbr_fail(e, r->line, "the last row ends without its line break (vbench ends "
				"every row with one): cut short, not a run");
	bool warm, partial;
	if (csv_flag(r, m->col[VB_COL_WARMUP], "warmup", &warm, e) < 0 ||
	    csv_flag(r, m->col[VB_COL_PARTIAL], "partial", &partial, e) < 0)
		return -1;
	const char *label = vb_csv_plain(csv_field(r, m->col[VB_COL_LABEL]));
	if (strcmp(csv_opt(r, m->col[VB_COL_STATUS]), "flush") == 0 && label[0] != '\0')
		return csv_flush_row(d, m, r, label, e);
	const char *ver = csv_opt(r, m->col[VB_COL_SCHEMA]);
	char q[VBR_QUOTE_MAX];
	uint64_t version;
	if (ver[0] != '\0' && (!vbr_parse_u64(ver, strlen(ver), &version) ||
				version > VB_SCHEMA_VERSION))
		return vbr_fail(e, r->line, "column schema_version: \"%s\" is not one this "
				"vbench reads (0 to %d)", vbr_cut(q, sizeof q, ver), VB_SCHEMA_VERSION);
	int st = vbr_status_is_run(csv_opt(r, m->col[VB_COL_STATUS]));
	if (st < 0)
		return vbr_fail(e, r->line, "column status: \"%s\" is none of the words vbench "
				"writes (%s)", vbr_cut(q, sizeof q, csv_opt(r, m->col[VB_COL_STATUS])),
				VBR_STATUS_WORDS);
	if (warm || partial || st == 0) {
		d->skipped_warmup++;
		return 0;
	}
	if (label[0] == '\0')
		return vbr_fail(e, r->line, "empty label");
	const char *run_s = csv_field(r, m->col[VB_COL_RUN]);
	const char *bytes_s = csv_field(r, m->col[VB_COL_BYTES]);
	const char *secs_s = csv_field(r, m->col[VB_COL_SECS]);
	const char *bps_s = csv_field(r, m->col[VB_COL_BPS]);
	uint64_t run, bytes;
	double secs, bps;
	if (!vbr_parse_u64(run_s, strlen(run_s), &run))
		return csv_bad(r, vb_csv_names[VB_COL_RUN], run_s, e);
	if (!vbr_parse_u64(bytes_s, strlen(bytes_s), &bytes))
		return csv_bad(r, vb_csv_names[VB_COL_BYTES], bytes_s, e);
	if (!vbr_parse_number(secs_s, strlen(secs_s), &secs))
		return csv_bad(r, vb_csv_names[VB_COL_SECS], secs_s, e);
	if (!vbr_parse_number(bps_s, strlen(bps_s), &bps))
		return csv_bad(r, vb_csv_names[VB_COL_BPS], bps_s, e);
	char why[160];
	if (vbr_check_measure(vb_csv_names[VB_COL_SECS], secs, false, why, sizeof why) < 0 ||
	    vbr_check_measure(vb_csv_names[VB_COL_BPS], bps, true, why, sizeof why) < 0 ||
	    vbr_check_rate(bytes, secs, vbr_last_digit(secs_s, strlen(secs_s)), bps, 1, why,
			   sizeof why) < 0)
		return vbr_fail(e, r->line, "%s", why);
	struct vb_runcfg cfg;
	if (csv_cfg(m, r, &cfg, e) < 0)
		return -1;
	int added = vbr_add_run_cfg(d, label, run, bytes, secs, bps, &cfg,
				    csv_opt(r, m->col[VB_COL_FS]), csv_opt(r, m->col[VB_COL_DEVICE]));
	if (added == -2)
		return vbr_fail(e, r->line, "run %" PRIu64 " of session %s was read before with "
				"other figures: one run cannot have two results", run, cfg.session);
	if (added < 0)
		return vbr_fail(e, r->line, "out of memory");
	if (added == 0)
		return 0;   /* left out: its knee is no note either */
	return csv_knee(d, m, r, label, run, e);
}

/* Handles one record after the header: a repeated header, a blank line or a row. */
static int csv_record(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		      const struct vbr_err *e)
{
	if (csv_blank(r))
		return 0;
	if (csv_same(r, &m->header))
		return 0;  /* a loop appending invocations repeats the header: harmless */
	if (csv_index(r, vb_csv_names[VB_COL_LABEL]) != SIZE_MAX &&
	    csv_index(r, vb_csv_names[VB_COL_BPS]) != SIZE_MAX)
		return vbr_fail(e, r->line, "header row differs from the one on line %zu",
				m->header.line);
	return csv_row(d, m, r, e);
}

/* Reads the header, then every record; d may hold part of the file on error. */
static int csv_read_all(struct vb_dataset *d, struct csv_cur *c, struct csv_map *m,
			const struct vbr_err *e)
{
	int rc;
	do {
		rc = csv_next(c, &m->header, e);
	} while (rc == 1 && csv_blank(&m->header));
	if (rc < 0)
		return -1;
	if (rc == 0)
		return vbr_fail(e, 0, "empty file");
	if (csv_map_header(m, &m->header, e) < 0)
		return -1;
	struct csv_rec r = {0};
	while ((rc = csv_next(c, &r, e)) == 1)
		if (csv_record(d, m, &r, e) < 0) {
			rc = -1;
			break;
		}
	csv_rec_free(&r);
	return rc;
}

int vb_report_read_csv(struct vb_dataset *d, const char *text, size_t len, const char *name,
		       char *err, size_t errlen)
{
	const struct vb_dataset mk = *d;   /* what a failed read returns to */
	size_t skip = vbr_bom_len(text, len);
	struct csv_cur c = {text + skip, text + len, 1};
	struct csv_map m = {{0}, {0}};
	struct vbr_err e = {name, err, errlen};
	int rc = csv_read_all(d, &c, &m, &e);
	csv_rec_free(&m.header);
	return vbr_read_end(d, &mk, rc, &e, "no runs after the header");
}


size_t vbr_csv_header_names(const char *text, size_t len)
{
	struct csv_cur c = {text + vbr_bom_len(text, len), text + len, 1};
	struct csv_rec r = {0};
	size_t named = 0;

	if (csv_next(&c, &r, &(const struct vbr_err){"", NULL, 0}) == 1)
		for (size_t k = 0; k < VB_CSV_REQUIRED; k++)
			named += csv_index(&r, vb_csv_names[k]) != SIZE_MAX;
	csv_rec_free(&r);
	return named;
}


/* ---- --trace files ---------------------------------------------------------------- */

bool vbr_is_trace(const char *text, size_t len)
{
	struct csv_cur c = {text + vbr_bom_len(text, len), text + len, 1};
	struct csv_rec r = {0};
	bool trace = csv_next(&c, &r, &(const struct vbr_err){"", NULL, 0}) == 1 &&
		     csv_index(&r, "start_secs") != SIZE_MAX;
	csv_rec_free(&r);
	return trace;
}

/* The columns of a trace, in the order vb_out_trace_header writes them. */
static const char *const trace_cols[] = {"label", "run", "warmup", "start_secs", "secs",
					 "bytes", "bytes_per_sec"};
#define N_TRACE_COLS (sizeof trace_cols / sizeof trace_cols[0])

/* One sample row of a trace into t. */
static int trace_row(struct vbr_trace *t, const size_t *col, const struct csv_rec *r,
		     const struct vbr_err *e)
{
	struct vbr_tsample s;
	const char *v[N_TRACE_COLS];

	for (size_t i = 0; i < N_TRACE_COLS; i++) {
		if (col[i] >= r->n)
			return vbr_fail(e, r->line, "missing column %s", trace_cols[i]);
		v[i] = csv_field(r, col[i]);
	}
	memset(&s, 0, sizeof s);
	s.warmup = strcmp(v[2], "1") == 0;
	if (v[0][0] == '\0' || !vbr_parse_u64(v[1], strlen(v[1]), &s.run) ||
	    !vbr_parse_number(v[3], strlen(v[3]), &s.start_secs) ||
	    !vbr_parse_number(v[4], strlen(v[4]), &s.secs) ||
	    !vbr_parse_u64(v[5], strlen(v[5]), &s.bytes) ||
	    !vbr_parse_number(v[6], strlen(v[6]), &s.bytes_per_sec))
		return vbr_fail(e, r->line, "not a sample (label, run, start_secs, secs, bytes and "
				"bytes_per_sec are needed)");
	/* The chart's axes reach the end of the last sample: it must be a number too. */
	char why[160];
	if (vbr_check_measure("start_secs", s.start_secs, false, why, sizeof why) < 0 ||
	    vbr_check_measure("secs", s.secs, false, why, sizeof why) < 0 ||
	    vbr_check_measure("start_secs + secs", s.start_secs + s.secs, false, why,
			      sizeof why) < 0 ||
	    vbr_check_measure("bytes_per_sec", s.bytes_per_sec, true, why, sizeof why) < 0 ||
	    vbr_check_rate(s.bytes, s.secs, vbr_last_digit(v[4], strlen(v[4])), s.bytes_per_sec,
			   1, why, sizeof why) < 0)
		return vbr_fail(e, r->line, "%s", why);
	if (vbr_trace_add(t, vb_csv_plain(v[0]), &s) < 0)
		return vbr_fail(e, r->line, "out of memory");
	return 0;
}

int vbr_read_trace(struct vbr_trace *t, const char *text, size_t len, const char *name,
		   char *err, size_t errlen)
{
	struct csv_cur c = {text + vbr_bom_len(text, len), text + len, 1};
	struct csv_rec h = {0}, r = {0};
	size_t col[N_TRACE_COLS];
	const struct vbr_err e = {name, err, errlen};
	int rc = csv_next(&c, &h, &e);

	if (rc == 1) {
		for (size_t i = 0; i < N_TRACE_COLS && rc == 1; i++)
			if ((col[i] = csv_index(&h, trace_cols[i])) == SIZE_MAX)
				rc = vbr_fail(&e, h.line, "missing column %s", trace_cols[i]);
	}
	while (rc == 1 && (rc = csv_next(&c, &r, &e)) == 1) {
		if (csv_blank(&r) || csv_same(&r, &h))
			continue;
		if (trace_row(t, col, &r, &e) < 0)
			rc = -1;
	}
	csv_rec_free(&h);
	csv_rec_free(&r);
	return rc < 0 ? -1 : 0;
}
