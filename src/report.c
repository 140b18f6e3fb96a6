#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vb_escape.h"
#include "vb_report.h"
#include "vb_stats.h"

/* Deepest nesting the JSON reader follows: vbench writes 3 levels; the limit keeps a
 * hostile file from exhausting the stack. */
#define JSON_MAX_DEPTH 64

/* Significance level of the verdicts. */
#define ALPHA 0.05

/* ---------------------------------------------------------------------------------- */
/* Small helpers                                                                      */
/* ---------------------------------------------------------------------------------- */

#if defined(__GNUC__)
#define VB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VB_PRINTF(a, b)
#endif

/* Formats "name:line: message" (or "name: message" when line is 0) into err; returns -1
 * so callers can write `return fail(...)`. */
static int fail(char *err, size_t errlen, const char *name, size_t line, const char *fmt, ...)
	VB_PRINTF(5, 6);

static int fail(char *err, size_t errlen, const char *name, size_t line, const char *fmt, ...)
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
static int grow(void **p, size_t *cap, size_t need, size_t size)
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
static char *dup_n(const char *s, size_t n)
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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parses exactly the n bytes at s as a decimal unsigned integer (no sign, no blanks). */
static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n == 0)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
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
	while (i < n && is_digit(s[i]))
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && is_digit(s[i]))
			i++, digits++;
	}
	if (digits == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		size_t k = j;
		while (k < n && is_digit(s[k]))
			k++;
		if (k > j)
			i = k;
	}
	return i;
}

/* Converts the n bytes at s (already checked by decimal_len or the JSON grammar) with
 * strtod; false if out of memory or not finite. */
static bool to_double(const char *s, size_t n, double *out)
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
	return n > 0 && decimal_len(s, n) == n && to_double(s, n, out);
}

/* The label of a text log: the file name without directory and extension. */
static char *file_stem(const char *name)
{
	if (strcmp(name, "-") == 0)
		return dup_n("stdin", 5);
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	const char *dot = strrchr(base, '.');
	/* A leading dot is a hidden file's name, not an extension. */
	size_t n = (dot && dot != base) ? (size_t)(dot - base) : strlen(base);
	if (n == 0)
		return dup_n(name, strlen(name));
	return dup_n(base, n);
}

/* Skips a UTF-8 byte order mark, which some editors put at the start of CSV files. */
static size_t bom_len(const char *text, size_t len)
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
	if (grow((void **)&d->labels, &d->cap_labels, d->n_labels + 1, sizeof *d->labels) < 0)
		return SIZE_MAX;
	char *copy = dup_n(label, strlen(label));
	if (copy == NULL)
		return SIZE_MAX;
	d->labels[d->n_labels] = copy;
	return d->n_labels++;
}

int vb_dataset_add(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bytes_per_sec)
{
	if (grow((void **)&d->samples, &d->cap_samples, d->n_samples + 1, sizeof *d->samples) < 0)
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

/* What a reader must restore when it fails, so that d is left unchanged. */
struct mark {
	size_t n_labels, n_samples, skipped_warmup, skipped_zero;
};

static struct mark mark_of(const struct vb_dataset *d)
{
	struct mark m = {d->n_labels, d->n_samples, d->skipped_warmup, d->skipped_zero};
	return m;
}

static void rollback(struct vb_dataset *d, struct mark m)
{
	for (size_t i = m.n_labels; i < d->n_labels; i++)
		free(d->labels[i]);
	d->n_labels = m.n_labels;
	d->n_samples = m.n_samples;
	d->skipped_warmup = m.skipped_warmup;
	d->skipped_zero = m.skipped_zero;
}

/* Adds a run unless it has no rate (secs 0), which is counted instead; 0 or -1. */
static int add_run(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bps)
{
	if (!(secs > 0) || !isfinite(bps)) {
		d->skipped_zero++;
		return 0;
	}
	return vb_dataset_add(d, label, run, bytes, secs, bps);
}

/* The error every reader gives for a file that held no run. */
static int no_runs(const struct vb_dataset *d, struct mark m, const char *name, const char *what,
		   char *err, size_t errlen)
{
	size_t skipped = (d->skipped_warmup - m.skipped_warmup) + (d->skipped_zero - m.skipped_zero);
	if (skipped > 0)
		return fail(err, errlen, name, 0, "no measured runs (%zu warm-up, partial or "
			    "zero-second runs skipped)", skipped);
	return fail(err, errlen, name, 0, "%s", what);
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
	if (grow((void **)&r->buf, &r->bcap, r->blen + 1, 1) < 0)
		return -1;
	r->buf[r->blen++] = c;
	return 0;
}

/* Starts a new field in r; 0 or -1 without memory. */
static int csv_begin_field(struct csv_rec *r)
{
	if (grow((void **)&r->off, &r->cap, r->n + 1, sizeof *r->off) < 0)
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
			return fail(err, errlen, name, start, "unterminated quoted field");
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
			return fail(err, errlen, name, c->line, "NUL byte in a field");
		}
		if (csv_put(r, ch) < 0)
			return fail(err, errlen, name, c->line, "out of memory");
	}
	if (!csv_at_eol(c) && *c->p != ',')
		return fail(err, errlen, name, c->line, "text after a closing quote");
	return 0;
}

/* Reads an unquoted field up to the next comma or record end. */
static int csv_plain(struct csv_cur *c, struct csv_rec *r, const char *name, char *err,
		     size_t errlen)
{
	while (!csv_at_eol(c) && *c->p != ',') {
		char ch = *c->p++;
		if (ch == '"')
			return fail(err, errlen, name, c->line, "quote inside an unquoted field");
		if (ch == '\0')
			return fail(err, errlen, name, c->line, "NUL byte in a field");
		if (csv_put(r, ch) < 0)
			return fail(err, errlen, name, c->line, "out of memory");
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
			return fail(err, errlen, name, c->line, "out of memory");
		int rc;
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			rc = csv_quoted(c, r, name, err, errlen);
		} else {
			rc = csv_plain(c, r, name, err, errlen);
		}
		if (rc < 0 || csv_put(r, '\0') < 0)
			return rc < 0 ? rc : fail(err, errlen, name, c->line, "out of memory");
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
			return fail(err, errlen, name, h->line, "missing column %s", csv_required[i]);
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
		return fail(err, errlen, name, r->line, "column %s: not a yes/no value", what);
	return 0;
}

/* The error for a field that is not the number its column needs. */
static int csv_bad(const struct csv_rec *r, const char *col, const char *value, const char *name,
		   char *err, size_t errlen)
{
	return fail(err, errlen, name, r->line, "column %s: not a non-negative number: \"%.40s\"",
		    col, value);
}

/* Converts one data row and adds it to d. */
static int csv_row(struct vb_dataset *d, const struct csv_map *m, const struct csv_rec *r,
		   const char *name, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_REQUIRED; i++)
		if (m->col[i] >= r->n)
			return fail(err, errlen, name, r->line, "missing column %s", csv_required[i]);
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
		return fail(err, errlen, name, r->line, "empty label");
	const char *run_s = csv_field(r, m->col[COL_RUN]);
	const char *bytes_s = csv_field(r, m->col[COL_BYTES]);
	const char *secs_s = csv_field(r, m->col[COL_SECS]);
	const char *bps_s = csv_field(r, m->col[COL_BPS]);
	uint64_t run, bytes;
	double secs, bps;
	if (!parse_u64(run_s, strlen(run_s), &run))
		return csv_bad(r, "run", run_s, name, err, errlen);
	if (!parse_u64(bytes_s, strlen(bytes_s), &bytes))
		return csv_bad(r, "bytes", bytes_s, name, err, errlen);
	if (!parse_number(secs_s, strlen(secs_s), &secs))
		return csv_bad(r, "secs", secs_s, name, err, errlen);
	if (!parse_number(bps_s, strlen(bps_s), &bps))
		return csv_bad(r, "bytes_per_sec", bps_s, name, err, errlen);
	if (add_run(d, label, run, bytes, secs, bps) < 0)
		return fail(err, errlen, name, r->line, "out of memory");
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
		return fail(err, errlen, name, r->line, "header row differs from the one on "
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
		return fail(err, errlen, name, 0, "empty file");
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
	struct mark mk = mark_of(d);
	size_t skip = bom_len(text, len);
	struct csv_cur c = {text + skip, text + len, 1};
	struct csv_map m = {{0}, {0}};
	int rc = csv_read_all(d, &c, &m, name, err, errlen);
	csv_rec_free(&m.header);
	if (rc == 0 && d->n_samples == mk.n_samples)
		rc = no_runs(d, mk, name, "no runs after the header", err, errlen);
	if (rc < 0)
		rollback(d, mk);
	return rc;
}

/* ---------------------------------------------------------------------------------- */
/* JSON reader                                                                        */
/* ---------------------------------------------------------------------------------- */

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

/* One parsed JSON value. Numbers keep their text so 64-bit integers stay exact. */
struct jval {
	enum jtype type;
	size_t line;
	const char *num;       /* J_NUM: points into the input */
	size_t numlen;
	char *str;             /* J_STR: decoded bytes, NUL-terminated (may hold NULs) */
	size_t len;
	struct jval *items;    /* J_ARR, J_OBJ: elements or member values */
	char **keys;           /* J_OBJ: member names, decoded */
	size_t n, cap;
};

/* Position in the JSON text and where errors go. */
struct jcur {
	const char *p, *end;
	size_t line;
	const char *name;
	char *err;
	size_t errlen;
};

static void jfree(struct jval *v)
{
	free(v->str);
	for (size_t i = 0; i < v->n; i++) {
		jfree(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
}

static void jskip_ws(struct jcur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
		if (*c->p == '\n')
			c->line++;
		c->p++;
	}
}

/* The error for the byte at the cursor, shown so the user can find it. */
static int junexpected(struct jcur *c, const char *wanted)
{
	if (c->p >= c->end)
		return fail(c->err, c->errlen, c->name, c->line, "unexpected end of input, %s",
			    wanted);
	unsigned char ch = (unsigned char)*c->p;
	if (ch > 0x20 && ch < 0x7f)
		return fail(c->err, c->errlen, c->name, c->line, "unexpected '%c', %s", ch, wanted);
	return fail(c->err, c->errlen, c->name, c->line, "unexpected byte 0x%02x, %s", ch, wanted);
}

static int jparse(struct jcur *c, struct jval *v, int depth);

/* Appends byte ch to the string being decoded in v. */
static int jput(struct jcur *c, struct jval *v, char ch)
{
	if (grow((void **)&v->str, &v->cap, v->len + 2, 1) < 0)
		return fail(c->err, c->errlen, c->name, c->line, "out of memory");
	v->str[v->len++] = ch;
	v->str[v->len] = '\0';
	return 0;
}

/* Appends code point cp to v as UTF-8. */
static int jput_utf8(struct jcur *c, struct jval *v, uint32_t cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6)), b[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12)), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18)), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	for (size_t i = 0; i < n; i++)
		if (jput(c, v, b[i]) < 0)
			return -1;
	return 0;
}

/* Reads the 4 hex digits of a \u escape (the cursor is after the 'u'). */
static int jhex4(struct jcur *c, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++, c->p++) {
		if (c->p >= c->end)
			return junexpected(c, "expected 4 hex digits after \\u");
		char h = *c->p;
		uint32_t d;
		if (h >= '0' && h <= '9')
			d = (uint32_t)(h - '0');
		else if (h >= 'a' && h <= 'f')
			d = (uint32_t)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			d = (uint32_t)(h - 'A' + 10);
		else
			return junexpected(c, "expected 4 hex digits after \\u");
		v = v * 16 + d;
	}
	*out = v;
	return 0;
}

/* Decodes a \u escape, joining a UTF-16 surrogate pair into one code point. */
static int junicode(struct jcur *c, struct jval *v)
{
	uint32_t hi = 0, lo = 0;  /* set by jhex4; initialized for gcc's flow analysis */
	if (jhex4(c, &hi) < 0)
		return -1;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(c->err, c->errlen, c->name, c->line, "lone low surrogate \\u%04X", hi);
	if (hi < 0xd800 || hi > 0xdbff)
		return jput_utf8(c, v, hi);
	if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
		return fail(c->err, c->errlen, c->name, c->line, "lone high surrogate \\u%04X", hi);
	c->p += 2;
	if (jhex4(c, &lo) < 0)
		return -1;
	if (lo < 0xdc00 || lo > 0xdfff)
		return fail(c->err, c->errlen, c->name, c->line, "high surrogate \\u%04X not "
			    "followed by a low one", hi);
	return jput_utf8(c, v, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
}

/* Decodes one backslash escape (the cursor is after the backslash). */
static int jescape(struct jcur *c, struct jval *v)
{
	if (c->p >= c->end)
		return junexpected(c, "expected an escape");
	char e = *c->p++;
	switch (e) {
	case '"': case '\\': case '/':
		return jput(c, v, e);
	case 'b': return jput(c, v, '\b');
	case 'f': return jput(c, v, '\f');
	case 'n': return jput(c, v, '\n');
	case 'r': return jput(c, v, '\r');
	case 't': return jput(c, v, '\t');
	case 'u': return junicode(c, v);
	default:
		c->p--;
		return junexpected(c, "expected a valid escape");
	}
}

/* Parses a string (the cursor is on the opening quote). Bytes that are not UTF-8 are
 * kept as they are: labels from old files must survive, and nothing here needs UTF-8. */
static int jstring(struct jcur *c, struct jval *v)
{
	v->type = J_STR;
	c->p++;
	if (jput(c, v, '\0') < 0)  /* an empty string still gets its buffer */
		return -1;
	v->len = 0;
	for (;;) {
		if (c->p >= c->end)
			return fail(c->err, c->errlen, c->name, v->line, "unterminated string");
		unsigned char ch = (unsigned char)*c->p++;
		if (ch == '"')
			return 0;
		if (ch < 0x20) {
			c->p--;
			return junexpected(c, "control characters must be escaped in strings");
		}
		int rc = ch == '\\' ? jescape(c, v) : jput(c, v, (char)ch);
		if (rc < 0)
			return -1;
	}
}

/* Skips the digits at the cursor; how many there were. */
static size_t jdigits(struct jcur *c)
{
	size_t n = 0;
	while (c->p < c->end && is_digit(*c->p))
		c->p++, n++;
	return n;
}

/* Parses a number by RFC 8259's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int jnumber(struct jcur *c, struct jval *v)
{
	v->type = J_NUM;
	v->num = c->p;
	if (*c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0') {
		c->p++;
	} else if (jdigits(c) == 0) {
		return junexpected(c, "expected a digit");
	}
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (jdigits(c) == 0)
			return junexpected(c, "expected a digit after '.'");
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (jdigits(c) == 0)
			return junexpected(c, "expected a digit in the exponent");
	}
	v->numlen = (size_t)(c->p - v->num);
	if (c->p < c->end && is_digit(*c->p))
		return junexpected(c, "leading zeros are not allowed");
	return 0;
}

/* Parses true, false or null. */
static int jliteral(struct jcur *c, struct jval *v)
{
	static const struct { const char *word; enum jtype type; } lits[] = {
		{"true", J_TRUE}, {"false", J_FALSE}, {"null", J_NULL}};
	for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
		size_t n = strlen(lits[i].word);
		if ((size_t)(c->end - c->p) >= n && memcmp(c->p, lits[i].word, n) == 0) {
			c->p += n;
			v->type = lits[i].type;
			return 0;
		}
	}
	return junexpected(c, "expected a value");
}

/* Makes room for one more element (and key, for objects) in v. */
static int jgrow(struct jcur *c, struct jval *v)
{
	size_t cap = v->cap;
	if (grow((void **)&v->items, &cap, v->n + 1, sizeof *v->items) < 0)
		return fail(c->err, c->errlen, c->name, c->line, "out of memory");
	if (v->type == J_OBJ) {
		size_t kcap = v->cap;
		if (grow((void **)&v->keys, &kcap, v->n + 1, sizeof *v->keys) < 0)
			return fail(c->err, c->errlen, c->name, c->line, "out of memory");
	}
	v->cap = cap;
	memset(&v->items[v->n], 0, sizeof v->items[v->n]);
	if (v->type == J_OBJ)
		v->keys[v->n] = NULL;
	v->n++;
	return 0;
}

/* Parses one object member: "key": value. */
static int jmember(struct jcur *c, struct jval *obj, int depth)
{
	jskip_ws(c);
	if (c->p >= c->end || *c->p != '"')
		return junexpected(c, "expected a member name");
	if (jgrow(c, obj) < 0)
		return -1;
	struct jval key = {0};
	key.line = c->line;
	if (jstring(c, &key) < 0) {
		jfree(&key);
		return -1;
	}
	obj->keys[obj->n - 1] = key.str;
	jskip_ws(c);
	if (c->p >= c->end || *c->p != ':')
		return junexpected(c, "expected ':'");
	c->p++;
	return jparse(c, &obj->items[obj->n - 1], depth);
}

/* Parses an array or object (the cursor is on '[' or '{'). */
static int jcontainer(struct jcur *c, struct jval *v, int depth)
{
	bool obj = *c->p == '{';
	char close = obj ? '}' : ']';
	v->type = obj ? J_OBJ : J_ARR;
	if (depth >= JSON_MAX_DEPTH)
		return fail(c->err, c->errlen, c->name, c->line, "nested deeper than %d levels",
			    JSON_MAX_DEPTH);
	c->p++;
	jskip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 0;
	}
	for (;;) {
		int rc = obj ? jmember(c, v, depth + 1)
			     : (jgrow(c, v) < 0 ? -1 : jparse(c, &v->items[v->n - 1], depth + 1));
		if (rc < 0)
			return -1;
		jskip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 0;
		}
		return junexpected(c, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

/* Parses any value at the cursor into v (which must be zeroed); depth counts the
 * containers around it. On error v may be partly filled: jfree it. */
static int jparse(struct jcur *c, struct jval *v, int depth)
{
	jskip_ws(c);
	v->line = c->line;
	if (c->p >= c->end)
		return junexpected(c, "expected a value");
	char ch = *c->p;
	if (ch == '{' || ch == '[')
		return jcontainer(c, v, depth);
	if (ch == '"')
		return jstring(c, v);
	if (ch == '-' || is_digit(ch))
		return jnumber(c, v);
	return jliteral(c, v);
}

/* The value of member key in object o, or NULL (the first one if repeated). */
static const struct jval *jget(const struct jval *o, const char *key)
{
	if (o == NULL || o->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return &o->items[i];
	return NULL;
}

/* A JSON number as a non-negative integer, exactly when written as one. */
static bool jas_u64(const struct jval *v, uint64_t *out)
{
	if (v == NULL || v->type != J_NUM)
		return false;
	if (parse_u64(v->num, v->numlen, out))
		return true;
	double d;
	/* 1e9 or 1048576000.0: integral values beyond 2^53 would not be exact, refuse them. */
	if (!to_double(v->num, v->numlen, &d) || d < 0 || d > 9007199254740992.0 || d != floor(d))
		return false;
	*out = (uint64_t)d;
	return true;
}

/* A JSON number as a finite non-negative double. */
static bool jas_number(const struct jval *v, double *out)
{
	return v != NULL && v->type == J_NUM && to_double(v->num, v->numlen, out) && *out >= 0;
}

/* True for a true flag: JSON true, or a number other than 0. */
static bool jflag(const struct jval *v)
{
	double d;
	if (v == NULL)
		return false;
	return v->type == J_TRUE || (v->type == J_NUM && to_double(v->num, v->numlen, &d) && d != 0);
}

/* A string member of o if it is a non-empty string without NUL bytes, else NULL. */
static const char *jstr(const struct jval *o, const char *key)
{
	const struct jval *v = jget(o, key);
	if (v == NULL || v->type != J_STR || v->len == 0 || strlen(v->str) != v->len)
		return NULL;
	return v->str;
}

/* The label of a document: "label", else environment "fs-driver", else the file stem;
 * 0 with a new string in *out, or -1 with a message in err. */
static int jlabel(const struct jval *doc, const char *name, char **out, char *err, size_t errlen)
{
	const struct jval *l = jget(doc, "label");
	const struct jval *env = jget(doc, "environment");
	const char *fs = jstr(env, "fs"), *drv = jstr(env, "driver");
	if (l != NULL && (l->type != J_STR || l->len == 0))
		return fail(err, errlen, name, l->line, "label is not a non-empty string");
	if (l != NULL && strlen(l->str) != l->len)
		return fail(err, errlen, name, l->line, "label holds a NUL character");
	if (l != NULL) {
		*out = dup_n(l->str, l->len);
	} else if (fs == NULL && drv == NULL) {
		*out = file_stem(name);
	} else {
		fs = fs ? fs : "unknown";
		drv = drv ? drv : "unknown";
		size_t n = strlen(fs) + 1 + strlen(drv);
		*out = malloc(n + 1);
		if (*out != NULL)
			snprintf(*out, n + 1, "%s-%s", fs, drv);
	}
	return *out ? 0 : fail(err, errlen, name, doc->line, "out of memory");
}

/* The error for a runs entry whose key is missing or of the wrong type. */
static int jbad_run(const struct jval *r, const char *key, const char *name, char *err,
		    size_t errlen)
{
	if (jget(r, key) == NULL)
		return fail(err, errlen, name, r->line, "run entry without \"%s\"", key);
	return fail(err, errlen, name, jget(r, key)->line, "\"%s\" is not a non-negative %s", key,
		    (strcmp(key, "run") == 0 || strcmp(key, "bytes") == 0) ? "integer" : "number");
}

/* Adds one entry of "runs" to d under label. */
static int jrun(struct vb_dataset *d, const struct jval *r, const char *label, const char *name,
		char *err, size_t errlen)
{
	if (r->type != J_OBJ)
		return fail(err, errlen, name, r->line, "runs entry is not an object");
	if (jflag(jget(r, "warmup")) || jflag(jget(r, "partial"))) {
		d->skipped_warmup++;
		return 0;
	}
	uint64_t run, bytes;
	double secs, bps;
	if (!jas_u64(jget(r, "run"), &run))
		return jbad_run(r, "run", name, err, errlen);
	if (!jas_u64(jget(r, "bytes"), &bytes))
		return jbad_run(r, "bytes", name, err, errlen);
	if (!jas_number(jget(r, "secs"), &secs))
		return jbad_run(r, "secs", name, err, errlen);
	if (!jas_number(jget(r, "bytes_per_sec"), &bps))
		return jbad_run(r, "bytes_per_sec", name, err, errlen);
	if (add_run(d, label, run, bytes, secs, bps) < 0)
		return fail(err, errlen, name, r->line, "out of memory");
	return 0;
}

/* Adds the runs of one top-level document to d. */
static int jdocument(struct vb_dataset *d, const struct jval *doc, const char *name, char *err,
		     size_t errlen)
{
	if (doc->type != J_OBJ)
		return fail(err, errlen, name, doc->line, "a vbench JSON document is an object");
	const struct jval *runs = jget(doc, "runs");
	if (runs == NULL)
		return fail(err, errlen, name, doc->line, "document without \"runs\"");
	if (runs->type != J_ARR)
		return fail(err, errlen, name, runs->line, "\"runs\" is not an array");
	char *label;
	if (jlabel(doc, name, &label, err, errlen) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < runs->n && rc == 0; i++)
		rc = jrun(d, &runs->items[i], label, name, err, errlen);
	free(label);
	return rc;
}

/* Parses and adds every concatenated document in the text. */
static int json_read_all(struct vb_dataset *d, struct jcur *c)
{
	for (;;) {
		jskip_ws(c);
		if (c->p >= c->end)
			return 0;
		struct jval doc = {0};
		int rc = jparse(c, &doc, 0);
		if (rc == 0)
			rc = jdocument(d, &doc, c->name, c->err, c->errlen);
		jfree(&doc);
		if (rc < 0)
			return -1;
	}
}

int vb_report_read_json(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen)
{
	struct mark mk = mark_of(d);
	size_t skip = bom_len(text, len);
	struct jcur c = {text + skip, text + len, 1, name, err, errlen};
	jskip_ws(&c);
	if (c.p >= c.end)
		return fail(err, errlen, name, 0, "empty file");
	int rc = json_read_all(d, &c);
	if (rc == 0 && d->n_samples == mk.n_samples)
		rc = no_runs(d, mk, name, "no runs in \"runs\"", err, errlen);
	if (rc < 0)
		rollback(d, mk);
	return rc;
}

/* ---------------------------------------------------------------------------------- */
/* dd logs                                                                            */
/* ---------------------------------------------------------------------------------- */

/* Start of the run of digits that ends at index e of s (e itself excluded); e if none. */
static size_t digits_before(const char *s, size_t e)
{
	size_t b = e;
	while (b > 0 && is_digit(s[b - 1]))
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
	while (i + k < n && k < sizeof buf - 1 && (is_digit(s[i + k]) || s[i + k] == '.' ||
	       (s[i + k] == ',' && i + k + 1 < n && is_digit(s[i + k + 1])) ||
	       s[i + k] == 'e' || s[i + k] == 'E' || s[i + k] == '-' || s[i + k] == '+')) {
		buf[k] = s[i + k] == ',' ? '.' : s[i + k];
		k++;
	}
	size_t used = decimal_len(buf, k);
	if (used == 0 || !to_double(buf, used, out))
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
	if (b == k || !word_start(s, b) || !parse_u64(s + b, k - b, &out->bytes))
		return 0;
	size_t i = dd_secs(s, k + strlen(" bytes transferred in "), n, &out->secs);
	if (i == 0 || !eat(s, n, &i, " secs ("))
		return 0;
	size_t r = i;
	size_t rlen = decimal_len(s + r, n - r);
	i = r + rlen;
	double rate;
	/* A zero time prints "inf bytes/sec" (or similar): take the rate from bytes and secs. */
	if (rlen > 0 && eat(s, n, &i, " bytes/sec)") && to_double(s + r, rlen, &rate))
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
	if (b == e || !word_start(s, b) || !parse_u64(s + b, e - b, &out->bytes))
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
		if (add_run(d, label, run, dl.bytes, dl.secs, dl.bytes_per_sec) < 0)
			return -1;
	}
	return 0;
}

int vb_report_read_text(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen)
{
	struct mark mk = mark_of(d);
	char *label = file_stem(name);
	if (label == NULL)
		return fail(err, errlen, name, 0, "out of memory");
	int rc = text_lines(d, text, len, label);
	free(label);
	if (rc < 0)
		rc = fail(err, errlen, name, 0, "out of memory");
	else if (d->n_samples == mk.n_samples)
		rc = no_runs(d, mk, name, "no dd summary lines (\"... bytes transferred in ... "
			     "secs\" or \"... bytes ... copied, ... s, ...\")", err, errlen);
	if (rc < 0)
		rollback(d, mk);
	return rc;
}

/* ---------------------------------------------------------------------------------- */
/* Detection                                                                          */
/* ---------------------------------------------------------------------------------- */

enum vb_input_kind vb_report_detect(const char *text, size_t len)
{
	size_t i = bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && text[i] == '{')
		return VB_INPUT_JSON;
	/* CSV: a first record naming two of the required columns. Two, not all, so that a
	 * CSV file missing one gets "missing column" rather than "no dd summary lines". */
	struct csv_cur c = {text + bom_len(text, len), text + len, 1};
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
	size_t i = bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len)
		return fail(err, errlen, name, 0, "empty file");
	switch (vb_report_detect(text, len)) {
	case VB_INPUT_JSON:
		return vb_report_read_json(d, text, len, name, err, errlen);
	case VB_INPUT_CSV:
		return vb_report_read_csv(d, text, len, name, err, errlen);
	default:
		return vb_report_read_text(d, text, len, name, err, errlen);
	}
}

/* ---------------------------------------------------------------------------------- */
/* Analysis                                                                           */
/* ---------------------------------------------------------------------------------- */

void vb_analysis_free(struct vb_analysis *a)
{
	for (size_t i = 0; i < a->n_groups; i++) {
		free(a->groups[i].label);
		free(a->groups[i].samples);
	}
	free(a->groups);
	memset(a, 0, sizeof *a);
}

/* Copies the samples of each label of d into its group, in input order. */
static int fill_groups(const struct vb_dataset *d, struct vb_analysis *a)
{
	for (size_t s = 0; s < d->n_samples; s++)
		a->groups[d->samples[s].label].n++;
	for (size_t g = 0; g < a->n_groups; g++) {
		struct vb_group *gr = &a->groups[g];
		gr->label = dup_n(d->labels[g], strlen(d->labels[g]));
		gr->samples = malloc((gr->n ? gr->n : 1) * sizeof *gr->samples);
		if (gr->label == NULL || gr->samples == NULL)
			return -1;
		if (gr->n > a->max_runs)
			a->max_runs = gr->n;
		gr->n = 0;
	}
	for (size_t s = 0; s < d->n_samples; s++) {
		struct vb_group *gr = &a->groups[d->samples[s].label];
		gr->samples[gr->n++] = d->samples[s];
	}
	return 0;
}

/* The summary of a group's bytes/sec. */
static struct vb_summary summarize_group(const struct vb_group *g)
{
	struct vb_welford w;
	vb_welford_init(&w);
	for (size_t i = 0; i < g->n; i++)
		vb_welford_add(&w, g->samples[i].bytes_per_sec);
	return vb_welford_summary(&w);
}

/* Compares g with the baseline b and decides the verdict. */
static void compare(struct vb_group *g, const struct vb_group *b, bool is_base)
{
	g->cmp = vb_welch_test(&g->sum, &b->sum);
	if (is_base)
		g->verdict = VB_VERDICT_BASELINE;
	else if (g->n < 2)
		g->verdict = VB_VERDICT_ONE_RUN;
	else if (b->n < 2)
		g->verdict = VB_VERDICT_BASE_ONE_RUN;
	else if (!(g->sum.mean > 0) || !(b->sum.mean > 0))
		g->verdict = VB_VERDICT_ZERO_MEAN;
	else if (!g->cmp.valid)
		g->verdict = VB_VERDICT_NO_TEST;
	else if (!(g->cmp.p < ALPHA))
		g->verdict = VB_VERDICT_SAME;
	else
		g->verdict = g->cmp.ratio >= 1 ? VB_VERDICT_FASTER : VB_VERDICT_SLOWER;
}

/* Index of the group named label, or SIZE_MAX. */
static size_t group_index(const struct vb_analysis *a, const char *label)
{
	for (size_t g = 0; g < a->n_groups; g++)
		if (strcmp(a->groups[g].label, label) == 0)
			return g;
	return SIZE_MAX;
}

/* The error for --baseline naming no label: lists the labels there are. */
static void unknown_baseline(const struct vb_analysis *a, const char *label, char *err,
			     size_t errlen)
{
	if (err == NULL || errlen == 0)
		return;
	size_t used = (size_t)snprintf(err, errlen, "unknown baseline label \"%s\"; the labels are:",
				       label);
	for (size_t g = 0; g < a->n_groups && used < errlen; g++)
		used += (size_t)snprintf(err + used, errlen - used, "%s \"%s\"", g ? "," : "",
					 a->groups[g].label);
}

int vb_report_analyze(const struct vb_dataset *d, const char *baseline, struct vb_analysis *a,
		      char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	if (d->n_samples == 0) {
		if (err && errlen)
			snprintf(err, errlen, "no runs to report");
		return -1;
	}
	a->groups = calloc(d->n_labels, sizeof *a->groups);
	if (a->groups == NULL || (a->n_groups = d->n_labels, fill_groups(d, a) < 0)) {
		vb_analysis_free(a);
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	a->baseline = baseline ? group_index(a, baseline) : 0;
	if (a->baseline == SIZE_MAX) {
		unknown_baseline(a, baseline, err, errlen);
		vb_analysis_free(a);
		return -1;
	}
	for (size_t g = 0; g < a->n_groups; g++)
		a->groups[g].sum = summarize_group(&a->groups[g]);
	for (size_t g = 0; g < a->n_groups; g++)
		compare(&a->groups[g], &a->groups[a->baseline], g == a->baseline);
	return 0;
}

void vb_report_verdict(const struct vb_group *g, char *buf, size_t n)
{
	double r = g->cmp.ratio;
	switch (g->verdict) {
	case VB_VERDICT_BASELINE:
		snprintf(buf, n, "baseline");
		break;
	case VB_VERDICT_FASTER:
		snprintf(buf, n, "%.2fx faster, significant at p<0.05", r);
		break;
	case VB_VERDICT_SLOWER:
		snprintf(buf, n, "%.2fx (%.2fx slower), significant at p<0.05", r, 1 / r);
		break;
	case VB_VERDICT_SAME:
		snprintf(buf, n, "no significant difference (p=%.2g)", g->cmp.p);
		break;
	case VB_VERDICT_ONE_RUN:
		snprintf(buf, n, "one run: no stddev, no t-test");
		break;
	case VB_VERDICT_BASE_ONE_RUN:
		snprintf(buf, n, "baseline has one run: no t-test");
		break;
	case VB_VERDICT_ZERO_MEAN:
		snprintf(buf, n, "a mean of 0 bytes/sec: no t-test");
		break;
	default:
		snprintf(buf, n, "no variance in either label: no t-test");
		break;
	}
}

/* ---------------------------------------------------------------------------------- */
/* Escaping                                                                           */
/* ---------------------------------------------------------------------------------- */

/* Writes at most max code points of s as XML text, then "..." if s was longer. */
static void xml_text_n(FILE *f, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), count = 0;
	for (size_t i = 0; i < len; count++) {
		if (count == max) {
			fputs("...", f);
			return;
		}
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    cp == 0xfffe || cp == 0xffff) {
			fputs("\xef\xbf\xbd", f);  /* U+FFFD: XML 1.0 forbids these characters */
			i += k ? k : 1;
			continue;
		}
		const char *esc = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;" :
				  cp == '"' ? "&quot;" : cp == '\'' ? "&apos;" :
				  cp < 0x20 ? " " : NULL;
		if (esc)
			fputs(esc, f);
		else
			fwrite(u + i, 1, k, f);
		i += k;
	}
}

void vb_report_xml_text(FILE *f, const char *s)
{
	xml_text_n(f, s, SIZE_MAX);
}

/* Columns a label takes on a terminal as text_label prints it: one per code point (or
 * stray byte), four per control character. */
static size_t text_width(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), w = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		w += (k == 1 && (cp < 0x20 || cp == 0x7f)) ? 4 : 1;
		i += k ? k : 1;
	}
	return w;
}

/* Writes a label for a terminal: bytes as they are, control characters as \xNN so a
 * label cannot move the cursor or break the table. */
static void text_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			putc(c, f);
	}
}

/* Writes a label into a markdown table cell: characters markdown would format are
 * backslash-escaped, line breaks and control characters become spaces. */
static void md_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			putc(' ', f);
		else if (strchr("\\|*_`<>[]#~", c))
			fprintf(f, "\\%c", c);
		else
			putc(c, f);
	}
}

/* ---------------------------------------------------------------------------------- */
/* Tables                                                                             */
/* ---------------------------------------------------------------------------------- */

/* Rows after the runs: the statistics of each label. */
static const char *const stat_rows[] = {"mean", "min", "max", "stddev"};
#define N_STATS 4
#define CELL_MAX 64

/* Name of table row r: "run 1", ... then the statistics. */
static void row_name(const struct vb_analysis *a, size_t r, char *buf, size_t n)
{
	if (r < a->max_runs)
		snprintf(buf, n, "run %zu", r + 1);
	else
		snprintf(buf, n, "%s", r - a->max_runs < N_STATS ? stat_rows[r - a->max_runs] : "");
}

/* Cell of group g in row r, in bytes/sec: runs and extremes rounded as dd prints them,
 * mean and stddev with one decimal as vbench's summary does; "" past a label's last run,
 * "-" for the stddev of one run. */
static void cell(const struct vb_analysis *a, size_t g, size_t r, char *buf, size_t n)
{
	const struct vb_group *gr = &a->groups[g];
	if (r < a->max_runs) {
		if (r < gr->n)
			snprintf(buf, n, "%.0f", gr->samples[r].bytes_per_sec);
		else
			snprintf(buf, n, "%s", "");
		return;
	}
	switch (r - a->max_runs) {
	case 0: snprintf(buf, n, "%.1f", gr->sum.mean); break;
	case 1: snprintf(buf, n, "%.0f", gr->sum.min); break;
	case 2: snprintf(buf, n, "%.0f", gr->sum.max); break;
	default:
		if (gr->n < 2)
			snprintf(buf, n, "-");
		else
			snprintf(buf, n, "%.1f", gr->sum.stddev);
	}
}

/* Width of column g of the text table: its label or its widest cell. */
static size_t column_width(const struct vb_analysis *a, size_t g)
{
	size_t w = text_width(a->groups[g].label);
	char buf[CELL_MAX];
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		cell(a, g, r, buf, sizeof buf);
		if (strlen(buf) > w)
			w = strlen(buf);
	}
	return w;
}

static void pad(FILE *f, size_t n)
{
	while (n-- > 0)
		putc(' ', f);
}

/* Writes ratio r with two decimals, or two significant digits below 0.01 so that a tiny
 * ratio does not read as 0.00. */
static void fmt_number_ratio(double r, char *buf, size_t n)
{
	snprintf(buf, n, r < 0.01 ? "%.2g" : "%.2f", r);
}

/* "1.83x", or "n/a" when the baseline mean is 0. */
static void fmt_ratio(const struct vb_group *g, char *buf, size_t n)
{
	if (isfinite(g->cmp.ratio)) {
		fmt_number_ratio(g->cmp.ratio, buf, n);
		strncat(buf, "x", n - strlen(buf) - 1);
	} else {
		snprintf(buf, n, "n/a");
	}
}

/* "95% CI [1.59, 2.11], t=6.12, df=4.0, p=0.0036" when the test ran, else "". */
static void fmt_test(const struct vb_group *g, char *buf, size_t n)
{
	const struct vb_welch *w = &g->cmp;
	if (g->verdict == VB_VERDICT_BASELINE || !w->valid)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "95%% CI [%.2f, %.2f], Welch t=%.2f, df=%.1f, p=%.3g",
			 w->ratio_lo, w->ratio_hi, w->t, w->df, w->p);
}

/* Ends a printer: flushes so that a full disk shows up as an error here. */
static int finish(FILE *f)
{
	return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}

/* The run table; -1 without memory. */
static int text_table(FILE *f, const struct vb_analysis *a, size_t first)
{
	char buf[CELL_MAX];
	size_t *width = malloc((a->n_groups ? a->n_groups : 1) * sizeof *width);
	if (width == NULL)
		return -1;
	fprintf(f, "%-*s", (int)first, "bytes/sec");
	for (size_t g = 0; g < a->n_groups; g++) {
		width[g] = column_width(a, g);
		fputs("  ", f);
		pad(f, width[g] - text_width(a->groups[g].label));
		text_label(f, a->groups[g].label);
	}
	putc('\n', f);
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		row_name(a, r, buf, sizeof buf);
		fprintf(f, "%-*s", (int)first, buf);
		for (size_t g = 0; g < a->n_groups; g++) {
			cell(a, g, r, buf, sizeof buf);
			fprintf(f, "  %*s", (int)width[g], buf);
		}
		putc('\n', f);
	}
	free(width);
	return 0;
}

int vb_report_print_text(FILE *f, const struct vb_analysis *a)
{
	/* The first column holds "bytes/sec" and "run N" for the largest N. */
	int run_w = snprintf(NULL, 0, "run %zu", a->max_runs);
	size_t first = run_w > 9 ? (size_t)run_w : 9;
	if (text_table(f, a, first) < 0)
		return -1;
	const struct vb_group *base = &a->groups[a->baseline];
	size_t lw = 0;
	for (size_t g = 0; g < a->n_groups; g++)
		if (g != a->baseline && text_width(a->groups[g].label) > lw)
			lw = text_width(a->groups[g].label);
	if (a->n_groups > 1) {
		fputs("\nagainst ", f);
		text_label(f, base->label);
		fputs(" (ratio of means):\n", f);
	}
	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		if (g == a->baseline)
			continue;
		char ratio[32], test[160], verdict[96];
		fmt_ratio(gr, ratio, sizeof ratio);
		fmt_test(gr, test, sizeof test);
		vb_report_verdict(gr, verdict, sizeof verdict);
		text_label(f, gr->label);
		pad(f, lw - text_width(gr->label));
		fprintf(f, "  %s%s%s: %s\n", ratio, test[0] ? ", " : "", test, verdict);
	}
	return finish(f);
}

/* The run table as markdown. */
static void md_runs(FILE *f, const struct vb_analysis *a)
{
	char buf[CELL_MAX];
	fputs("| bytes/sec |", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		putc(' ', f);
		md_label(f, a->groups[g].label);
		fputs(" |", f);
	}
	fputs("\n|:---|", f);
	for (size_t g = 0; g < a->n_groups; g++)
		fputs("---:|", f);
	putc('\n', f);
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		row_name(a, r, buf, sizeof buf);
		fprintf(f, "| %s |", buf);
		for (size_t g = 0; g < a->n_groups; g++) {
			cell(a, g, r, buf, sizeof buf);
			fprintf(f, " %s |", buf);
		}
		putc('\n', f);
	}
}

/* One row of the markdown comparison table. */
static void md_compare_row(FILE *f, const struct vb_group *g)
{
	const struct vb_welch *w = &g->cmp;
	char verdict[96];
	vb_report_verdict(g, verdict, sizeof verdict);
	fputs("| ", f);
	md_label(f, g->label);
	fprintf(f, " | %.1f | ", g->sum.mean);
	char ratio[32];
	fmt_number_ratio(w->ratio, ratio, sizeof ratio);
	if (isfinite(w->ratio))
		fputs(ratio, f);
	if (g->verdict != VB_VERDICT_BASELINE && w->valid)
		fprintf(f, " | %.2f to %.2f | %.2f | %.1f | %.3g", w->ratio_lo, w->ratio_hi, w->t,
			w->df, w->p);
	else
		fputs(" |  |  |  | ", f);
	fprintf(f, " | %s |\n", verdict);
}

int vb_report_print_markdown(FILE *f, const struct vb_analysis *a)
{
	md_runs(f, a);
	fputs("\n| label | mean (bytes/sec) | ratio | 95% CI | t | df | p | verdict |\n"
	      "|:---|---:|---:|:---|---:|---:|---:|:---|\n", f);
	for (size_t g = 0; g < a->n_groups; g++)
		md_compare_row(f, &a->groups[g]);
	return finish(f);
}

/* Writes x for CSV or JSON: full precision when finite, else the text for "none". */
static void num_or(FILE *f, double x, const char *none)
{
	if (isfinite(x))
		fprintf(f, "%.15g", x);
	else
		fputs(none, f);
}

int vb_report_print_csv(FILE *f, const struct vb_analysis *a)
{
	fputs("label,runs,mean,min,max,stddev,cv,baseline,ratio,ratio_lo,ratio_hi,t,df,p,"
	      "significant,verdict\r\n", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		bool test = gr->verdict != VB_VERDICT_BASELINE && gr->cmp.valid;
		char verdict[96];
		vb_report_verdict(gr, verdict, sizeof verdict);
		vb_csv_field(f, gr->label);
		fprintf(f, ",%zu,%.15g,%.15g,%.15g,", gr->n, gr->sum.mean, gr->sum.min, gr->sum.max);
		num_or(f, gr->n >= 2 ? gr->sum.stddev : NAN, "");
		putc(',', f);
		num_or(f, gr->n >= 2 ? gr->sum.cv : NAN, "");
		fprintf(f, ",%d,", g == a->baseline);
		num_or(f, gr->cmp.ratio, "");
		double v[5] = {gr->cmp.ratio_lo, gr->cmp.ratio_hi, gr->cmp.t, gr->cmp.df, gr->cmp.p};
		for (size_t i = 0; i < 5; i++) {
			putc(',', f);
			num_or(f, test ? v[i] : NAN, "");
		}
		fprintf(f, ",%d,", gr->verdict == VB_VERDICT_FASTER || gr->verdict == VB_VERDICT_SLOWER);
		vb_csv_field(f, verdict);
		fputs("\r\n", f);
	}
	return finish(f);
}

/* Writes "key": s with s escaped. */
static void json_key_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\": ", key);
	vb_json_string(f, s);
}

static void json_runs(FILE *f, const struct vb_group *g)
{
	fputs("      \"runs\": [", f);
	for (size_t i = 0; i < g->n; i++) {
		const struct vb_sample *s = &g->samples[i];
		fprintf(f, "%s\n        {\"run\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"secs\": ",
			i ? "," : "", s->run, s->bytes);
		num_or(f, s->secs, "null");
		fputs(", \"bytes_per_sec\": ", f);
		num_or(f, s->bytes_per_sec, "null");
		putc('}', f);
	}
	fputs(g->n ? "\n      ],\n" : "],\n", f);
}

static void json_summary(FILE *f, const struct vb_group *g)
{
	fprintf(f, "      \"summary\": {\"n\": %zu, \"mean\": ", g->n);
	num_or(f, g->sum.mean, "null");
	fputs(", \"min\": ", f);
	num_or(f, g->sum.min, "null");
	fputs(", \"max\": ", f);
	num_or(f, g->sum.max, "null");
	fputs(", \"stddev\": ", f);
	num_or(f, g->n >= 2 ? g->sum.stddev : NAN, "null");
	fputs(", \"cv\": ", f);
	num_or(f, g->n >= 2 ? g->sum.cv : NAN, "null");
	fputs("},\n", f);
}

static void json_comparison(FILE *f, const struct vb_group *g)
{
	static const char *const keys[] = {"ratio_lo", "ratio_hi", "t", "df", "p"};
	const struct vb_welch *w = &g->cmp;
	double v[5] = {w->ratio_lo, w->ratio_hi, w->t, w->df, w->p};
	bool test = g->verdict != VB_VERDICT_BASELINE && w->valid;
	char verdict[96];
	vb_report_verdict(g, verdict, sizeof verdict);
	fputs("      \"comparison\": {\"ratio\": ", f);
	num_or(f, w->ratio, "null");
	for (size_t i = 0; i < 5; i++) {
		fprintf(f, ", \"%s\": ", keys[i]);
		num_or(f, test ? v[i] : NAN, "null");
	}
	fprintf(f, ", \"significant\": %s, ", (g->verdict == VB_VERDICT_FASTER ||
					       g->verdict == VB_VERDICT_SLOWER) ? "true" : "false");
	json_key_str(f, "verdict", verdict);
	fputs("}\n", f);
}

int vb_report_print_json(FILE *f, const struct vb_analysis *a)
{
	fputs("{\n  ", f);
	json_key_str(f, "baseline", a->groups[a->baseline].label);
	fputs(",\n  \"unit\": \"bytes/sec\",\n  \"labels\": [", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		fputs(g ? ",\n    {\n      " : "\n    {\n      ", f);
		json_key_str(f, "label", a->groups[g].label);
		fputs(",\n", f);
		json_runs(f, &a->groups[g]);
		json_summary(f, &a->groups[g]);
		json_comparison(f, &a->groups[g]);
		fputs("    }", f);
	}
	fputs("\n  ]\n}\n", f);
	return finish(f);
}

int vb_report_parse_format(const char *s, enum vb_report_format *out)
{
	static const struct { const char *name; enum vb_report_format fmt; } names[] = {
		{"text", VB_REPORT_TEXT}, {"markdown", VB_REPORT_MARKDOWN},
		{"md", VB_REPORT_MARKDOWN}, {"csv", VB_REPORT_CSV}, {"json", VB_REPORT_JSON}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].fmt;
			return 0;
		}
	return -1;
}

int vb_report_print(FILE *f, const struct vb_analysis *a, enum vb_report_format fmt)
{
	switch (fmt) {
	case VB_REPORT_MARKDOWN: return vb_report_print_markdown(f, a);
	case VB_REPORT_CSV: return vb_report_print_csv(f, a);
	case VB_REPORT_JSON: return vb_report_print_json(f, a);
	default: return vb_report_print_text(f, a);
	}
}

/* ---------------------------------------------------------------------------------- */
/* SVG chart                                                                          */
/* ---------------------------------------------------------------------------------- */

/* Geometry of the chart, in SVG user units (pixels). */
struct chart {
	double left, top, plot_w, plot_h, width, height, slot;
	double y_top, y_step;      /* MB/s at the top of the axis, between ticks */
	bool slanted;              /* long labels are drawn at an angle */
};

/* Longest label drawn on the x axis; the full label is in the bar's tooltip. */
#define SVG_LABEL_MAX 24

/* A round tick step (1, 2 or 5 times a power of ten) near raw. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static struct chart chart_layout(const struct vb_analysis *a)
{
	struct chart c = {80, 60, 0, 300, 0, 0, 100, 0, 0, false};
	double ymax = 0;
	for (size_t g = 0; g < a->n_groups; g++) {
		ymax = fmax(ymax, fmax(a->groups[g].sum.max, a->groups[g].sum.mean) / 1e6);
		if (text_width(a->groups[g].label) > 12)
			c.slanted = true;
	}
	if (!(ymax > 0) || !isfinite(ymax))
		ymax = 1;
	c.y_step = nice_step(ymax / 5);
	c.y_top = ceil(ymax / c.y_step - 1e-9) * c.y_step;
	c.plot_w = c.slot * (double)a->n_groups;
	/* The subtitle names the baseline; the chart is widened so that it is never cut
	 * (about 6.6 px per character at font-size 12). */
	double label_chars = fmin((double)text_width(a->groups[a->baseline].label), SVG_LABEL_MAX);
	double subtitle_px = (56 + label_chars) * 6.6 + 40;
	c.width = fmax(fmax(c.left + c.plot_w + 40, 420), subtitle_px);
	c.left += (c.width - (c.left + c.plot_w + 40)) / 2;
	c.height = c.top + c.plot_h + (c.slanted ? 150 : 80);
	return c;
}

/* Vertical position of v MB/s. */
static double chart_y(const struct chart *c, double v)
{
	return c->top + c->plot_h - v / c->y_top * c->plot_h;
}

static void svg_axes(FILE *f, const struct chart *c)
{
	double x0 = c->left, y0 = c->top + c->plot_h;
	int ticks = (int)lround(c->y_top / c->y_step);
	fputs("<g class=\"y-axis\" stroke=\"#000\">\n", f);
	for (int i = 0; i <= ticks; i++) {
		double y = chart_y(c, i * c->y_step);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			x0, y, x0 + c->plot_w, y);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0 - 5, y, x0, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" stroke=\"none\">%g</text>\n",
			x0 - 8, y + 4, i * c->y_step);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, c->top, x0, y0);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, y0,
		x0 + c->plot_w, y0);
	fputs("</g>\n", f);
	fprintf(f, "<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 20 %.1f)\">"
		"MB/s</text>\n", c->top + c->plot_h / 2, c->top + c->plot_h / 2);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">label</text>\n",
		x0 + c->plot_w / 2, c->height - 12);
}

/* One bar with its whisker, value and tooltip. */
static void svg_bar(FILE *f, const struct chart *c, const struct vb_group *g, size_t i,
		    bool base)
{
	double mean = g->sum.mean / 1e6, lo = g->sum.min / 1e6, hi = g->sum.max / 1e6;
	double cx = c->left + c->slot * ((double)i + 0.5), bw = c->slot * 0.6;
	double y0 = c->top + c->plot_h, ym = chart_y(c, mean);
	fputs("<g class=\"bar\">\n<title>", f);
	vb_report_xml_text(f, g->label);
	fprintf(f, ": mean %.2f MB/s, min %.2f, max %.2f, %zu run%s%s</title>\n", mean, lo, hi,
		g->n, g->n == 1 ? "" : "s", base ? " (baseline)" : "");
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		cx - bw / 2, ym, bw, y0 - ym, base ? "#9e9e9e" : "#4e79a7");
	if (g->n >= 2) {
		double ylo = chart_y(c, lo), yhi = chart_y(c, hi);
		fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
			"stroke=\"#000\" fill=\"none\"/>\n", cx, ylo, yhi, cx - bw / 6, ylo,
			cx + bw / 6, cx - bw / 6, yhi, cx + bw / 6);
	}
	/* Three significant digits at most sizes, so small means do not show as 0.0. */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n", cx,
		chart_y(c, fmax(hi, mean)) - 6, mean >= 100 ? 0 : mean >= 1 ? 1 : 3, mean);
	if (c->slanted)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"transform=\"rotate(-35 %.1f %.1f)\">", cx, y0 + 16, cx, y0 + 16);
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cx, y0 + 18);
	xml_text_n(f, g->label, SVG_LABEL_MAX);
	fputs("</text>\n</g>\n", f);
}

int vb_report_print_svg(FILE *f, const struct vb_analysis *a)
{
	struct chart c = chart_layout(a);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		c.width, c.height, c.width, c.height);
	fputs("<title>vbench report: mean write throughput per label</title>\n", f);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fprintf(f, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"16\" "
		"font-weight=\"bold\">Mean write throughput (MB/s)</text>\n", c.width / 2);
	fprintf(f, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" fill=\"#555\">whiskers: "
		"min to max; grey: baseline ", c.width / 2);
	xml_text_n(f, a->groups[a->baseline].label, SVG_LABEL_MAX);
	fputs("; 1 MB = 10^6 bytes</text>\n", f);
	svg_axes(f, &c);
	for (size_t g = 0; g < a->n_groups; g++)
		svg_bar(f, &c, &a->groups[g], g, g == a->baseline);
	fputs("</svg>\n", f);
	return finish(f);
}
