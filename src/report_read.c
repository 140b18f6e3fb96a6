#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vb_report.h"
#include "report_internal.h"

/* The readers of `vbench report`: the dataset, the CSV reader, dd logs and the detection
 * of a file's kind, with the helpers all report_*.c files share (report_internal.h). The
 * JSON reader is in report_json.c. */

/* ---------------------------------------------------------------------------------- */
/* Small helpers                                                                      */
/* ---------------------------------------------------------------------------------- */

/* Formats "name:line: message" (or "name: message" when line is 0) into err; returns -1
 * so callers can write `return vbr_fail(...)`. */
int vbr_fail(char *err, size_t errlen, const char *name, size_t line, const char *fmt, ...)
{
	if (err == NULL || errlen == 0)
		return -1;
	int n;
	if (line > 0)
		n = snprintf(err, errlen, "%s:%zu: ", name, line);
	else
		n = snprintf(err, errlen, "%s: ", name);
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Makes room for need elements in *p (capacity *cap); 0, or -1 without memory. */
int vbr_grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -1;
		ncap *= 2;
	}
	void *q = realloc(*p, ncap * size);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = ncap;
	return 0;
}

/* Copies n bytes of s into a new NUL-terminated string, or NULL without memory. */
char *vbr_dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Finds the first occurrence of pat in the n bytes at s; index, or SIZE_MAX. */
static size_t find(const char *s, size_t n, const char *pat)
{
	size_t m = strlen(pat);
	for (size_t i = 0; m <= n && i <= n - m; i++)
		if (memcmp(s + i, pat, m) == 0)
			return i;
	return SIZE_MAX;
}

bool vbr_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parses exactly the n bytes at s as a decimal unsigned integer (no sign, no blanks). */
bool vbr_parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n == 0)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!vbr_is_digit(s[i]))
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Length of the decimal number at the start of the n bytes at s: digits with an optional
 * fraction and exponent ("12", "1.5", ".5", "1e-05"); 0 if there is none. No sign, no
 * hex, no inf or nan: strtod would take those, dd and vbench never write them. */
static size_t decimal_len(const char *s, size_t n)
{
	size_t i = 0, digits = 0;
	while (i < n && vbr_is_digit(s[i]))
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && vbr_is_digit(s[i]))
			i++, digits++;
	}
	if (digits == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		size_t k = j;
		while (k < n && vbr_is_digit(s[k]))
			k++;
		if (k > j)
			i = k;
	}
	return i;
}

/* Converts the n bytes at s (already checked by decimal_len or the JSON grammar) with
 * strtod; false if out of memory or not finite. */
bool vbr_to_double(const char *s, size_t n, double *out)
{
	char buf[64];
	char *copy = n < sizeof buf ? buf : malloc(n + 1);
	if (copy == NULL)
		return false;
	memcpy(copy, s, n);
	copy[n] = '\0';
	errno = 0;
	double v = strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	if (!isfinite(v))
		return false;
	*out = v;
	return true;
}

/* Parses exactly the n bytes at s as a non-negative finite decimal number. */
static bool parse_number(const char *s, size_t n, double *out)
{
	return n > 0 && decimal_len(s, n) == n && vbr_to_double(s, n, out);
}

/* The label of a text log: the file name without directory and extension. */
char *vbr_file_stem(const char *name)
{
	if (strcmp(name, "-") == 0)
		return vbr_dup_n("stdin", 5);
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	const char *dot = strrchr(base, '.');
	/* A leading dot is a hidden file's name, not an extension. */
	size_t n = (dot && dot != base) ? (size_t)(dot - base) : strlen(base);
	if (n == 0)
		return vbr_dup_n(name, strlen(name));
	return vbr_dup_n(base, n);
}

/* Skips a UTF-8 byte order mark, which some editors put at the start of CSV files. */
size_t vbr_bom_len(const char *text, size_t len)
{
	return (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) ? 3 : 0;
}

/* ---------------------------------------------------------------------------------- */
/* Dataset                                                                            */
/* ---------------------------------------------------------------------------------- */

void vb_dataset_init(struct vb_dataset *d)
{
	memset(d, 0, sizeof *d);
}

void vb_dataset_free(struct vb_dataset *d)
{
	for (size_t i = 0; i < d->n_labels; i++)
		free(d->labels[i]);
	free(d->labels);
	free(d->samples);
	vb_dataset_init(d);
}

/* Index of label in d, adding it when new; SIZE_MAX without memory. */
static size_t intern(struct vb_dataset *d, const char *label)
{
	for (size_t i = 0; i < d->n_labels; i++)
		if (strcmp(d->labels[i], label) == 0)
			return i;
	if (vbr_grow((void **)&d->labels, &d->cap_labels, d->n_labels + 1, sizeof *d->labels) < 0)
		return SIZE_MAX;
	char *copy = vbr_dup_n(label, strlen(label));
	if (copy == NULL)
		return SIZE_MAX;
	d->labels[d->n_labels] = copy;
	return d->n_labels++;
}

int vb_dataset_add(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bytes_per_sec)
{
	if (vbr_grow((void **)&d->samples, &d->cap_samples, d->n_samples + 1,
		     sizeof *d->samples) < 0)
		return -1;
	size_t li = intern(d, label);
	if (li == SIZE_MAX)
		return -1;
	struct vb_sample *s = &d->samples[d->n_samples++];
	s->label = li;
	s->run = run;
	s->bytes = bytes;
	s->secs = secs;
	s->bytes_per_sec = bytes_per_sec;
	return 0;
}

struct vbr_mark vbr_mark_of(const struct vb_dataset *d)
{
	struct vbr_mark m = {d->n_labels, d->n_samples, d->skipped_warmup, d->skipped_zero};
	return m;
}

void vbr_rollback(struct vb_dataset *d, struct vbr_mark m)
{
	for (size_t i = m.n_labels; i < d->n_labels; i++)
		free(d->labels[i]);
	d->n_labels = m.n_labels;
	d->n_samples = m.n_samples;
	d->skipped_warmup = m.skipped_warmup;
	d->skipped_zero = m.skipped_zero;
}

/* Adds a run unless it has no rate (secs 0), which is counted instead; 0 or -1. */
int vbr_add_run(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		double secs, double bps)
{
	if (!(secs > 0) || !isfinite(bps)) {
		d->skipped_zero++;
		return 0;
	}
	return vb_dataset_add(d, label, run, bytes, secs, bps);
}

/* The error every reader gives for a file that held no run. */
int vbr_no_runs(const struct vb_dataset *d, struct vbr_mark m, const char *name, const char *what,
		char *err, size_t errlen)
{
	size_t skipped = (d->skipped_warmup - m.skipped_warmup) + (d->skipped_zero - m.skipped_zero);
	if (skipped > 0)
		return vbr_fail(err, errlen, name, 0, "no measured runs (%zu warm-up, partial or "
				"zero-second runs skipped)", skipped);
	return vbr_fail(err, errlen, name, 0, "%s", what);
}

/* ---------------------------------------------------------------------------------- */
/* CSV reader                                                                         */
/* ---------------------------------------------------------------------------------- */

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
static int csv_quoted(struct csv_cur *c, struct csv_rec *r, const char *name, char *err,
		      size_t errlen)
{
	size_t start = c->line;
	for (;;) {
		if (c->p >= c->end)
			return vbr_fail(err, errlen, name, start, "unterminated quoted field");
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
			return vbr_fail(err, errlen, name, c->line, "NUL byte in a field");
		}
		if (csv_put(r, ch) < 0)
			return vbr_fail(err, errlen, name, c->line, "out of memory");
	}
	if (!csv_at_eol(c) && *c->p != ',')
		return vbr_fail(err, errlen, name, c->line, "text after a closing quote");
	return 0;
}

/* Reads an unquoted field up to the next comma or record end. */
static int csv_plain(struct csv_cur *c, struct csv_rec *r, const char *name, char *err,
		     size_t errlen)
{
	while (!csv_at_eol(c) && *c->p != ',') {
		char ch = *c->p++;
		if (ch == '"')
			return vbr_fail(err, errlen, name, c->line,
					"quote inside an unquoted field");
		if (ch == '\0')
			return vbr_fail(err, errlen, name, c->line, "NUL byte in a field");
		if (csv_put(r, ch) < 0)
			return vbr_fail(err, errlen, name, c->line, "out of memory");
	}
	return 0;
}

/* Reads the next record into r; 1 when one was read, 0 at the end, -1 on an error. */
static int csv_next(struct csv_cur *c, struct csv_rec *r, const char *name, char *err,
		    size_t errlen)
{
	r->n = 0;
	r->blen = 0;
	r->line = c->line;
	if (c->p >= c->end)
		return 0;
	for (;;) {
		if (csv_begin_field(r) < 0)
			return vbr_fail(err, errlen, name, c->line, "out of memory");
		int rc;
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			rc = csv_quoted(c, r, name, err, errlen);
		} else {
			rc = csv_plain(c, r, name, err, errlen);
		}
		if (rc < 0 || csv_put(r, '\0') < 0)
			return rc < 0 ? rc : vbr_fail(err, errlen, name, c->line, "out of memory");
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '\r')
			c->p++;
		if (c->p < c->end && *c->p == '\n') {
			c->p++;
			c->line++;
		}
		return 1;
	}
}

/* A record that is one empty field: a blank line. */
static bool csv_blank(const struct csv_rec *r)
{
	return r->n == 1 && csv_field(r, 0)[0] == '\0';
}

/* True when r has a field equal to s. */
static bool csv_has(const struct csv_rec *r, const char *s)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(csv_field(r, i), s) == 0)
			return true;
	return false;
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

/* Columns report needs, in the order of enum csv_col. */
static const char *const csv_required[] = {"label", "run", "bytes", "secs", "bytes_per_sec"};
enum csv_col { COL_LABEL, COL_RUN, COL_BYTES, COL_SECS, COL_BPS, COL_WARMUP, COL_PARTIAL, N_COLS };
#define N_REQUIRED 5

/* Where each column is in the header; SIZE_MAX for an optional one that is absent. */
struct csv_map {
	size_t col[N_COLS];
	struct csv_rec header;
};

static size_t csv_index(const struct csv_rec *r, const char *s)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(csv_field(r, i), s) == 0)
			return i;
	return SIZE_MAX;
}

/* Finds the columns in header h; -1 naming the first required column missing. */
static int csv_map_header(struct csv_map *m, const struct csv_rec *h, const char *name,
			  char *err, size_t errlen)
{
	for (size_t i = 0; i < N_REQUIRED; i++) {
		m->col[i] = csv_index(h, csv_required[i]);
		if (m->col[i] == SIZE_MAX)
			return vbr_fail(err, errlen, name, h->line, "missing column %s",
					csv_required[i]);
	}
	m->col[COL_WARMUP] = csv_index(h, "warmup");
	m->col[COL_PARTIAL] = csv_index(h, "partial");
	return 0;
}

/* Reads a yes/no column; an absent column or field counts as no. */
static int csv_flag(const struct csv_rec *r, size_t col, const char *what, bool *out,
		    const char *name, char *err, size_t errlen)
{
	*out = false;
	if (col == SIZE_MAX || col >= r->n)
		return 0;
	const char *v = csv_field(r, col);
	if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0)
		*out = true;
	else if (!(v[0] == '\0' || strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 ||
		   strcasecmp(v, "no") == 0))
		return vbr_fail(err, errlen, name, r->line, "column %s: not a yes/no value", what);
	return 0;
}

/* The error for a field that is not the number its column needs. */
static int csv_bad(const struct csv_rec *r, const char *col, const char *value, const char *name,
		   char *err, size_t errlen)
{
	return vbr_fail(err, errlen, name, r->line,
			"column %s: not a non-negative number: \"%.40s\"", col, value);
}

/* Converts one data row and adds it to d. */
static int csv_row(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		   const char *name, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_REQUIRED; i++)
		if (m->col[i] >= r->n)
			return vbr_fail(err, errlen, name, r->line, "missing column %s",
					csv_required[i]);
	bool warm, partial;
	if (csv_flag(r, m->col[COL_WARMUP], "warmup", &warm, name, err, errlen) < 0 ||
	    csv_flag(r, m->col[COL_PARTIAL], "partial", &partial, name, err, errlen) < 0)
		return -1;
	if (warm || partial) {
		d->skipped_warmup++;
		return 0;
	}
	const char *label = csv_field(r, m->col[COL_LABEL]);
	if (label[0] == '\0')
		return vbr_fail(err, errlen, name, r->line, "empty label");
	const char *run_s = csv_field(r, m->col[COL_RUN]);
	const char *bytes_s = csv_field(r, m->col[COL_BYTES]);
	const char *secs_s = csv_field(r, m->col[COL_SECS]);
	const char *bps_s = csv_field(r, m->col[COL_BPS]);
	uint64_t run, bytes;
	double secs, bps;
	if (!vbr_parse_u64(run_s, strlen(run_s), &run))
		return csv_bad(r, "run", run_s, name, err, errlen);
	if (!vbr_parse_u64(bytes_s, strlen(bytes_s), &bytes))
		return csv_bad(r, "bytes", bytes_s, name, err, errlen);
	if (!parse_number(secs_s, strlen(secs_s), &secs))
		return csv_bad(r, "secs", secs_s, name, err, errlen);
	if (!parse_number(bps_s, strlen(bps_s), &bps))
		return csv_bad(r, "bytes_per_sec", bps_s, name, err, errlen);
	if (vbr_add_run(d, label, run, bytes, secs, bps) < 0)
		return vbr_fail(err, errlen, name, r->line, "out of memory");
	return 0;
}

/* Handles one record after the header: a repeated header, a blank line or a row. */
static int csv_record(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		      const char *name, char *err, size_t errlen)
{
	if (csv_blank(r))
		return 0;
	if (csv_same(r, &m->header))
		return 0;  /* a loop appending invocations repeats the header: harmless */
	if (csv_has(r, "label") && csv_has(r, "bytes_per_sec"))
		return vbr_fail(err, errlen, name, r->line, "header row differs from the one on "
				"line %zu", m->header.line);
	return csv_row(d, m, r, name, err, errlen);
}

/* Reads the header, then every record; d may hold part of the file on error. */
static int csv_read_all(struct vb_dataset *d, struct csv_cur *c, struct csv_map *m,
			const char *name, char *err, size_t errlen)
{
	int rc;
	do {
		rc = csv_next(c, &m->header, name, err, errlen);
	} while (rc == 1 && csv_blank(&m->header));
	if (rc < 0)
		return -1;
	if (rc == 0)
		return vbr_fail(err, errlen, name, 0, "empty file");
	if (csv_map_header(m, &m->header, name, err, errlen) < 0)
		return -1;
	struct csv_rec r = {0};
	while ((rc = csv_next(c, &r, name, err, errlen)) == 1)
		if (csv_record(d, m, &r, name, err, errlen) < 0) {
			rc = -1;
			break;
		}
	csv_rec_free(&r);
	return rc;
}

int vb_report_read_csv(struct vb_dataset *d, const char *text, size_t len, const char *name,
		       char *err, size_t errlen)
{
	struct vbr_mark mk = vbr_mark_of(d);
	size_t skip = vbr_bom_len(text, len);
	struct csv_cur c = {text + skip, text + len, 1};
	struct csv_map m = {{0}, {0}};
	int rc = csv_read_all(d, &c, &m, name, err, errlen);
	csv_rec_free(&m.header);
	if (rc == 0 && d->n_samples == mk.n_samples)
		rc = vbr_no_runs(d, mk, name, "no runs after the header", err, errlen);
	if (rc < 0)
		vbr_rollback(d, mk);
	return rc;
}

/* ---------------------------------------------------------------------------------- */
/* dd logs                                                                            */
/* ---------------------------------------------------------------------------------- */

/* Start of the run of digits that ends at index e of s (e itself excluded); e if none. */
static size_t digits_before(const char *s, size_t e)
{
	size_t b = e;
	while (b > 0 && vbr_is_digit(s[b - 1]))
		b--;
	return b;
}

/* True when the byte count starting at index b stands on its own: at the line start or
 * after a blank, tab or punctuation that a log prefix might end with. */
static bool word_start(const char *s, size_t b)
{
	return b == 0 || s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == ':' ||
	       s[b - 1] == ']' || s[b - 1] == ')';
}

/* Parses the seconds of a dd line at s[i..n): a %f or %g number, or with a decimal comma
 * as GNU dd prints it under some LC_NUMERIC locales; the index after it, or 0. */
static size_t dd_secs(const char *s, size_t i, size_t n, double *out)
{
	char buf[64];
	size_t k = 0;
	while (i + k < n && k < sizeof buf - 1 && (vbr_is_digit(s[i + k]) || s[i + k] == '.' ||
	       (s[i + k] == ',' && i + k + 1 < n && vbr_is_digit(s[i + k + 1])) ||
	       s[i + k] == 'e' || s[i + k] == 'E' || s[i + k] == '-' || s[i + k] == '+')) {
		buf[k] = s[i + k] == ',' ? '.' : s[i + k];
		k++;
	}
	size_t used = decimal_len(buf, k);
	if (used == 0 || !vbr_to_double(buf, used, out))
		return 0;
	return i + used;
}

/* True if the n bytes at s[i..] begin with pat; advances *i past it. */
static bool eat(const char *s, size_t n, size_t *i, const char *pat)
{
	size_t m = strlen(pat);
	if (n - *i < m || memcmp(s + *i, pat, m) != 0)
		return false;
	*i += m;
	return true;
}

/* BSD: "N bytes transferred in S secs (R bytes/sec)". */
static int dd_bsd(const char *s, size_t n, struct vb_dd_line *out)
{
	size_t k = find(s, n, " bytes transferred in ");
	if (k == SIZE_MAX)
		return 0;
	size_t b = digits_before(s, k);
	if (b == k || !word_start(s, b) || !vbr_parse_u64(s + b, k - b, &out->bytes))
		return 0;
	size_t i = dd_secs(s, k + strlen(" bytes transferred in "), n, &out->secs);
	if (i == 0 || !eat(s, n, &i, " secs ("))
		return 0;
	size_t r = i;
	size_t rlen = decimal_len(s + r, n - r);
	i = r + rlen;
	double rate;
	/* A zero time prints "inf bytes/sec" (or similar): take the rate from bytes and secs. */
	if (rlen > 0 && eat(s, n, &i, " bytes/sec)") && vbr_to_double(s + r, rlen, &rate))
		out->bytes_per_sec = rate;
	else if (find(s + r, n - r, " bytes/sec)") != SIZE_MAX)
		out->bytes_per_sec = out->secs > 0 ? (double)out->bytes / out->secs : INFINITY;
	else
		return 0;
	out->kind = VB_DD_BSD;
	return 1;
}

/* GNU: "N bytes (1.0 GB, 1000 MiB) copied, S s, R MB/s"; "1 byte copied, ..."; the
 * parenthesis is absent below 1000 bytes. The printed rate is rounded to 2 digits, so
 * it is recomputed from bytes and seconds. */
static int dd_gnu(const char *s, size_t n, struct vb_dd_line *out)
{
	size_t k = find(s, n, " copied, ");
	if (k == SIZE_MAX)
		return 0;
	size_t e = k;
	if (e > 0 && s[e - 1] == ')') {
		while (e > 0 && s[e - 1] != '(')
			e--;
		if (e < 2 || s[e - 2] != ' ')
			return 0;
		e -= 2;
	}
	if (e >= 6 && memcmp(s + e - 6, " bytes", 6) == 0)
		e -= 6;
	else if (e >= 5 && memcmp(s + e - 5, " byte", 5) == 0)
		e -= 5;
	else
		return 0;
	size_t b = digits_before(s, e);
	if (b == e || !word_start(s, b) || !vbr_parse_u64(s + b, e - b, &out->bytes))
		return 0;
	size_t i = dd_secs(s, k + strlen(" copied, "), n, &out->secs);
	if (i == 0 || !eat(s, n, &i, " s, "))
		return 0;
	/* The rate: "28.3 MB/s", "4.3 kB/s", "Infinity B/s"; only its shape is checked. */
	size_t end = n;
	while (end > i && (s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	if (end - i < 3 || memcmp(s + end - 2, "/s", 2) != 0)
		return 0;
	out->bytes_per_sec = out->secs > 0 ? (double)out->bytes / out->secs : INFINITY;
	out->kind = VB_DD_GNU;
	return 1;
}

int vb_report_parse_dd_line(const char *line, size_t len, struct vb_dd_line *out)
{
	struct vb_dd_line tmp;
	if (dd_bsd(line, len, &tmp) || dd_gnu(line, len, &tmp)) {
		*out = tmp;
		return 1;
	}
	return 0;
}

/* Reads every line of the log into d under label. */
static int text_lines(struct vb_dataset *d, const char *text, size_t len, const char *label)
{
	uint64_t run = 0;
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		const char *line = text + i;
		i += n + (nl != NULL);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		/* dd status=progress redraws one line with CRs: those are not results. Nor are
		 * comment lines: vbench marks its warm-up and partial runs' dd lines "# ". */
		if (memchr(line, '\r', n) != NULL || (n > 0 && line[0] == '#'))
			continue;
		struct vb_dd_line dl;
		if (!vb_report_parse_dd_line(line, n, &dl))
			continue;
		run++;
		if (vbr_add_run(d, label, run, dl.bytes, dl.secs, dl.bytes_per_sec) < 0)
			return -1;
	}
	return 0;
}

int vb_report_read_text(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen)
{
	struct vbr_mark mk = vbr_mark_of(d);
	char *label = vbr_file_stem(name);
	if (label == NULL)
		return vbr_fail(err, errlen, name, 0, "out of memory");
	int rc = text_lines(d, text, len, label);
	free(label);
	if (rc < 0)
		rc = vbr_fail(err, errlen, name, 0, "out of memory");
	else if (d->n_samples == mk.n_samples)
		rc = vbr_no_runs(d, mk, name, "no dd summary lines (\"... bytes transferred in ... "
				 "secs\" or \"... bytes ... copied, ... s, ...\")", err, errlen);
	if (rc < 0)
		vbr_rollback(d, mk);
	return rc;
}

/* ---------------------------------------------------------------------------------- */
/* Detection                                                                          */
/* ---------------------------------------------------------------------------------- */

enum vb_input_kind vb_report_detect(const char *text, size_t len)
{
	size_t i = vbr_bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && text[i] == '{')
		return VB_INPUT_JSON;
	/* CSV: a first record naming two of the required columns. Two, not all, so that a
	 * CSV file missing one gets "missing column" rather than "no dd summary lines". */
	struct csv_cur c = {text + vbr_bom_len(text, len), text + len, 1};
	struct csv_rec r = {0};
	size_t named = 0;
	if (csv_next(&c, &r, "", NULL, 0) == 1)
		for (size_t k = 0; k < N_REQUIRED; k++)
			named += csv_has(&r, csv_required[k]);
	csv_rec_free(&r);
	return named >= 2 ? VB_INPUT_CSV : VB_INPUT_TEXT;
}

int vb_report_read(struct vb_dataset *d, const char *text, size_t len, const char *name,
		   char *err, size_t errlen)
{
	size_t i = vbr_bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len)
		return vbr_fail(err, errlen, name, 0, "empty file");
	switch (vb_report_detect(text, len)) {
	case VB_INPUT_JSON:
		return vb_report_read_json(d, text, len, name, err, errlen);
	case VB_INPUT_CSV:
		return vb_report_read_csv(d, text, len, name, err, errlen);
	default:
		return vb_report_read_text(d, text, len, name, err, errlen);
	}
}
