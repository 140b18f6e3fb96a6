#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"
#include "common/vb_schema.h"
#include "report/report_internal.h"

/* The JSON reader of `vbench report`: a strict RFC 8259 parser and the reading of
 * vbench's documents. */

/* Deepest nesting the JSON reader follows: vbench writes 3 levels; the limit keeps a
 * hostile file from exhausting the stack. */
#define JSON_MAX_DEPTH 64

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

/* One parsed JSON value. Numbers keep their text so 64-bit integers stay exact. */
struct jval {
	enum jtype type;
	size_t line;
	const char *num;       /* J_NUM: points into the input */
	size_t numlen;
	char *str;             /* J_STR: decoded bytes, NUL-terminated (may hold NULs) */
	size_t len;
	struct jval *items;    /* J_ARR, J_OBJ: elements or members */
	char *key;             /* a member: its name, decoded */
	size_t n, cap;
};

/* Position in the JSON text and where errors go. */
struct jcur {
	const char *p, *end;
	size_t line;
	const struct vbr_err *e;
};

static void jfree(struct jval *v)
{
	free(v->str);
	free(v->key);
	for (size_t i = 0; i < v->n; i++)
		jfree(&v->items[i]);
	free(v->items);
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
		return vbr_fail(c->e, c->line, "unexpected end of input, %s", wanted);
	unsigned char ch = (unsigned char)*c->p;
	if (ch > 0x20 && ch < 0x7f)
		return vbr_fail(c->e, c->line, "unexpected '%c', %s", ch, wanted);
	return vbr_fail(c->e, c->line, "unexpected byte 0x%02x, %s", ch, wanted);
}

static int jparse(struct jcur *c, struct jval *v, int depth);

/* Appends byte ch to the string being decoded in v. */
static int jput(struct jcur *c, struct jval *v, char ch)
{
	if (vbr_grow((void **)&v->str, &v->cap, v->len + 2, 1) < 0)
		return vbr_fail(c->e, c->line, "out of memory");
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
	char hex[5] = "";

	/* (not isxdigit: no locale decides what JSON's hex digits are) */
	for (int i = 0; i < 4; i++, c->p++) {
		if (c->p >= c->end || *c->p == '\0' ||
		    strchr("0123456789abcdefABCDEF", *c->p) == NULL)
			return junexpected(c, "expected 4 hex digits after \\u");
		hex[i] = *c->p;
	}
	*out = (uint32_t)strtoul(hex, NULL, 16);
	return 0;
}

/* Decodes a \u escape, joining a UTF-16 surrogate pair into one code point. */
static int junicode(struct jcur *c, struct jval *v)
{
	uint32_t hi = 0, lo = 0;  /* set by jhex4; initialized for gcc's flow analysis */
	if (jhex4(c, &hi) < 0)
		return -1;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return vbr_fail(c->e, c->line, "lone low surrogate \\u%04X", hi);
	if (hi < 0xd800 || hi > 0xdbff)
		return jput_utf8(c, v, hi);
	if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
		return vbr_fail(c->e, c->line, "lone high surrogate \\u%04X", hi);
	c->p += 2;
	if (jhex4(c, &lo) < 0)
		return -1;
	if (lo < 0xdc00 || lo > 0xdfff)
		return vbr_fail(c->e, c->line, "high surrogate \\u%04X not followed by a low one",
				hi);
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
			return vbr_fail(c->e, v->line, "unterminated string");
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
	while (c->p < c->end && vbr_is_digit(*c->p))
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
	if (c->p < c->end && vbr_is_digit(*c->p))
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

/* Makes room for one more element or member in v. */
static int jgrow(struct jcur *c, struct jval *v)
{
	if (vbr_grow((void **)&v->items, &v->cap, v->n + 1, sizeof *v->items) < 0)
		return vbr_fail(c->e, c->line, "out of memory");
	memset(&v->items[v->n], 0, sizeof v->items[v->n]);
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
	obj->items[obj->n - 1].key = key.str;
	jskip_ws(c);
	if (c->p >= c->end || *c->p != ':')
		return junexpected(c, "expected ':'");
	c->p++;
	return jparse(c, &obj->items[obj->n - 1], depth);
}

static int by_key(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Refuses an object that names a member twice: readers disagree on which one counts
 * (the first here, the last in Python), so neither may. Sorted: n log n. */
static int jno_dup_keys(struct jcur *c, const struct jval *o)
{
	char **k = malloc((o->n ? o->n : 1) * sizeof *k);
	int rc = 0;

	if (k == NULL)
		return vbr_fail(c->e, o->line, "out of memory");
	for (size_t i = 0; i < o->n; i++)
		k[i] = o->items[i].key;
	qsort(k, o->n, sizeof *k, by_key);
	for (size_t i = 1; i < o->n && rc == 0; i++)
		if (strcmp(k[i - 1], k[i]) == 0) {
			char q[VBR_QUOTE_MAX];
			rc = vbr_fail(c->e, o->line, "the object starting here names member \"%s\" "
				      "twice", vbr_cut(q, sizeof q, k[i]));
		}
	free(k);
	return rc;
}

/* Parses an array or object (the cursor is on '[' or '{'). */
static int jcontainer(struct jcur *c, struct jval *v, int depth)
{
	bool obj = *c->p == '{';
	char close = obj ? '}' : ']';
	v->type = obj ? J_OBJ : J_ARR;
	if (depth >= JSON_MAX_DEPTH)
		return vbr_fail(c->e, c->line, "nested deeper than %d levels", JSON_MAX_DEPTH);
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
			return obj ? jno_dup_keys(c, v) : 0;
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
	if (ch == '-' || vbr_is_digit(ch))
		return jnumber(c, v);
	return jliteral(c, v);
}

/* The value of member key in object o, or NULL (the first one if repeated). */
static const struct jval *jget(const struct jval *o, const char *key)
{
	if (o == NULL || o->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->items[i].key, key) == 0)
			return &o->items[i];
	return NULL;
}

/* A JSON number as a non-negative integer, exactly when written as one. */
static bool jas_u64(const struct jval *v, uint64_t *out)
{
	if (v == NULL || v->type != J_NUM)
		return false;
	if (vbr_parse_u64(v->num, v->numlen, out))
		return true;
	double d;
	/* 1e9 or 1048576000.0: integral values beyond 2^53 would not be exact, refuse them. */
	if (!vbr_to_double(v->num, v->numlen, &d) || d < 0 || d > 9007199254740992.0 ||
	    d != floor(d))
		return false;
	*out = (uint64_t)d;
	return true;
}

/* A JSON number as a finite non-negative double. */
static bool jas_number(const struct jval *v, double *out)
{
	return v != NULL && v->type == J_NUM && vbr_to_double(v->num, v->numlen, out) && *out >= 0;
}

/* True for a true flag: JSON true, or a number other than 0. */
static bool jflag(const struct jval *v)
{
	double d;
	if (v == NULL)
		return false;
	return v->type == J_TRUE ||
	       (v->type == J_NUM && vbr_to_double(v->num, v->numlen, &d) && d != 0);
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
static int jlabel(const struct jval *doc, char **out, const struct vbr_err *e)
{
	const struct jval *l = jget(doc, "label");
	const struct jval *env = jget(doc, "environment");
	const char *fs = jstr(env, "fs"), *drv = jstr(env, "driver");
	if (l != NULL && (l->type != J_STR || l->len == 0))
		return vbr_fail(e, l->line, "label is not a non-empty string");
	if (l != NULL && strlen(l->str) != l->len)
		return vbr_fail(e, l->line, "label holds a NUL character");
	if (l != NULL) {
		*out = vbr_dup_n(l->str, l->len);
	} else if (fs == NULL && drv == NULL) {
		*out = vbr_file_stem(e->name);
	} else {
		fs = fs ? fs : "unknown";
		drv = drv ? drv : "unknown";
		size_t n = strlen(fs) + 1 + strlen(drv);
		*out = malloc(n + 1);
		if (*out != NULL)
			snprintf(*out, n + 1, "%s-%s", fs, drv);
	}
	return *out ? 0 : vbr_fail(e, doc->line, "out of memory");
}

/* The error for a runs entry whose key is missing or of the wrong type. */
static int jbad_run(const struct jval *r, const char *key, const struct vbr_err *e)
{
	if (jget(r, key) == NULL)
		return vbr_fail(e, r->line, "run entry without \"%s\"", key);
	return vbr_fail(e, jget(r, key)->line, "\"%s\" is not a non-negative %s", key,
			(strcmp(key, "run") == 0 || strcmp(key, "bytes") == 0) ? "integer" : "number");
}

/* How the runs of a document were made, from its "config"; unknown where absent. A
 * setting vbench cannot have written (a bs that is no count, a direct that is no boolean)
 * is refused: taken as unknown, it would split a label on nonsense. 0, or -1 with a
 * message in err. */
static int jconfig(const struct jval *doc, struct vb_runcfg *c, const struct vbr_err *e)
{
	static const char *const counts[] = {"bs", "count", "qd"};
	const struct jval *cfg = jget(doc, "config"), *direct = jget(cfg, "direct");
	uint64_t *to[] = {&c->bs, &c->count, &c->qd};

	memset(c, 0, sizeof *c);
	c->direct = -1;
	vbr_cfg_names(c, jstr(cfg, "sync"), jstr(cfg, "source"), jstr(doc, VB_JK_SESSION),
		      jstr(doc, VB_JK_SESSION_START));
	if (cfg == NULL)
		return 0;
	if (cfg->type != J_OBJ)
		return vbr_fail(e, cfg->line, "\"config\" is not an object");
	c->qd = 1;   /* documents from before --qd: one write in flight */
	for (size_t i = 0; i < 3; i++) {
		const struct jval *v = jget(cfg, counts[i]);
		if (v != NULL && !jas_u64(v, to[i]))
			return vbr_fail(e, v->line, "config \"%s\" is not a non-negative integer "
					"below 2^64", counts[i]);
	}
	if (direct != NULL && direct->type != J_TRUE && direct->type != J_FALSE)
		return vbr_fail(e, direct->line, "config \"direct\" is not true or false");
	if (direct != NULL)
		c->direct = direct->type == J_TRUE;
	return 0;
}

/* Adds one entry of "runs" to d under label. */
static int jrun(struct vb_dataset *d, const struct jval *r, const char *label,
		const struct vb_runcfg *cfg, const struct jval *env, const struct vbr_err *e)
{
	if (r->type != J_OBJ)
		return vbr_fail(e, r->line, "runs entry is not an object");
	const struct jval *status = jget(r, VB_JK_STATUS);
	int st = 1;
	if (status != NULL && (status->type != J_STR || strlen(status->str) != status->len ||
			       (st = vbr_status_is_run(status->str)) < 0))
		return vbr_fail(e, status->line, "\"status\" is none of the words vbench writes "
				"(%s)", VBR_STATUS_WORDS);
	if (jflag(jget(r, "warmup")) || jflag(jget(r, "partial")) || st == 0) {
		d->skipped_warmup++;
		return 0;
	}
	uint64_t run, bytes;
	double secs, bps;
	if (!jas_u64(jget(r, "run"), &run))
		return jbad_run(r, "run", e);
	if (!jas_u64(jget(r, "bytes"), &bytes))
		return jbad_run(r, "bytes", e);
	if (!jas_number(jget(r, "secs"), &secs))
		return jbad_run(r, "secs", e);
	if (!jas_number(jget(r, "bytes_per_sec"), &bps))
		return jbad_run(r, "bytes_per_sec", e);
	char why[160];
	const struct jval *js = jget(r, "secs");
	if (vbr_check_measure("secs", secs, false, why, sizeof why) < 0 ||
	    vbr_check_measure("bytes_per_sec", bps, true, why, sizeof why) < 0 ||
	    vbr_check_rate(bytes, secs, vbr_last_digit(js->num, js->numlen), bps, 1, why,
			   sizeof why) < 0)
		return vbr_fail(e, r->line, "%s", why);
	const char *fs = jstr(env, "fs"), *device = jstr(env, "device");
	int added = vbr_add_run_cfg(d, label, run, bytes, secs, bps, cfg, fs ? fs : "",
				    device ? device : "");
	if (added == -2)
		return vbr_fail(e, r->line, "run %" PRIu64 " of session %s was read before with "
				"other figures: one run cannot have two results", run,
				cfg->session);
	if (added < 0)
		return vbr_fail(e, r->line, "out of memory");
	if (added == 0)
		return 0;   /* left out: its knee is no note either */
	/* A knee within the run (see vbench(1)): a note, when its figures are there. */
	const struct jval *knee = jget(r, "knee");
	static const char *const kk[] = {"burst_bytes_per_sec", "sustained_bytes_per_sec",
					 "at_bytes"};
	double kv[3];
	for (size_t i = 0; i < 3; i++) {
		if (!jas_number(jget(knee, kk[i]), &kv[i]))
			return 0;
		if (vbr_check_measure(kk[i], kv[i], i < 2, why, sizeof why) < 0)
			return vbr_fail(e, jget(knee, kk[i])->line, "%s", why);
	}
	if (kv[0] > 0 && vbr_note_knee(d, label, run, kv[0], kv[1], kv[2]) < 0)
		return vbr_fail(e, r->line, "out of memory");
	return 0;
}

/* The flush probe's verdict in the summary, as a note; one vbench cannot have written
 * is refused (vbr_check_flush). 0, or -1 with a message in err. */
static int jflush(struct vb_dataset *d, const struct jval *doc, const char *label,
		  const struct vbr_err *e)
{
	static const char *const keys[4] = {"flush_p50_ns", "write_p50_ns", "diff_lo_ns",
					    "diff_hi_ns"};
	const struct jval *fl = jget(jget(doc, "summary"), "flush");
	const char *verdict = jstr(fl, "verdict"), *num[4];
	char text[4][32], why[160];
	uint64_t p50 = 0, w50 = 0;

	if (fl == NULL)
		return 0;
	for (size_t i = 0; i < 4; i++) {
		const struct jval *v = jget(fl, keys[i]);
		/* the number's text as written; anything else is no number */
		snprintf(text[i], sizeof text[i], "%.*s", v != NULL && v->type == J_NUM ?
			 (int)(v->numlen < 31 ? v->numlen : 31) : 0,
			 v != NULL && v->type == J_NUM ? v->num : "");
		num[i] = v == NULL ? NULL : text[i];
	}
	if (vbr_check_flush(verdict != NULL ? verdict : "", num, why, sizeof why) < 0)
		return vbr_fail(e, fl->line, "%s", why);
	if (!jas_u64(jget(fl, "flush_p50_ns"), &p50) || !jas_u64(jget(fl, "write_p50_ns"), &w50))
		p50 = w50 = 0;
	if (vbr_note_flush(d, label, verdict, p50, w50) < 0)
		return vbr_fail(e, doc->line, "out of memory");
	return 0;
}

/* Adds the runs of one top-level document to d. */
static int jdocument(struct vb_dataset *d, const struct jval *doc, const struct vbr_err *e)
{
	if (doc->type != J_OBJ)
		return vbr_fail(e, doc->line, "a vbench JSON document is an object");
	const struct jval *runs = jget(doc, "runs");
	if (runs == NULL)
		return vbr_fail(e, doc->line, "document without \"runs\"");
	if (runs->type != J_ARR)
		return vbr_fail(e, runs->line, "\"runs\" is not an array");
	const struct jval *ver = jget(doc, VB_JK_SCHEMA);
	uint64_t version = 0;
	if (ver != NULL && (!jas_u64(ver, &version) || version > VB_SCHEMA_VERSION))
		return vbr_fail(e, ver->line, "\"" VB_JK_SCHEMA "\" is not one this vbench reads "
				"(0 to %d): a newer vbench wrote it, or it is not a number",
				VB_SCHEMA_VERSION);
	struct vb_runcfg cfg;
	char *label;
	if (jconfig(doc, &cfg, e) < 0 || jlabel(doc, &label, e) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < runs->n && rc == 0; i++)
		rc = jrun(d, &runs->items[i], label, &cfg, jget(doc, "environment"), e);
	if (rc == 0)
		rc = jflush(d, doc, label, e);
	free(label);
	return rc;
}

int vb_report_read_json(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen)
{
	const struct vb_dataset mk = *d;   /* what a failed read returns to */
	size_t skip = vbr_bom_len(text, len);
	struct vbr_err e = {name, err, errlen};
	struct jcur c = {text + skip, text + len, 1, &e};
	jskip_ws(&c);
	if (c.p >= c.end)
		return vbr_fail(&e, 0, "empty file");
	int rc = 0;
	for (; rc == 0 && c.p < c.end; jskip_ws(&c)) {   /* the concatenated documents */
		struct jval doc = {0};
		rc = jparse(&c, &doc, 0);
		if (rc == 0)
			rc = jdocument(d, &doc, &e);
		jfree(&doc);
	}
	return vbr_read_end(d, &mk, rc, &e, "no runs in \"runs\"");
}
