#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vb_test.h"
#include "common/vb_escape.h"
#include "output/vb_output.h"
#include "report/vb_report.h"
#include "report/report_internal.h"

/* ---------------------------------------------------------------------------------- */
/* Helpers                                                                            */
/* ---------------------------------------------------------------------------------- */

/* |got - want| <= eps in double precision; cmocka 1.1.5 compares floats only. */
#define assert_double_equal(got, want, eps) assert_near((got), (want), (eps), #got, __LINE__)

static void assert_near(double got, double want, double eps, const char *what, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: %s = %.15g, want %.15g (within %g)", line, what, got, want, eps);
}

/* An in-memory FILE whose text the test can read after closing it. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	return m->f;
}

/* Closes the stream; the caller frees the returned text. */
static char *mem_close(struct mem *m)
{
	assert_int_equal(fclose(m->f), 0);
	return m->buf;
}

/* Reads a NUL-terminated text with the auto-detecting reader. */
static int read_str(struct vb_dataset *d, const char *text, const char *name, char *err,
		    size_t errlen)
{
	return vb_report_read(d, text, strlen(text), name, err, errlen);
}

/* Asserts that reading text fails with exactly the message want. */
static void expect_error(const char *text, size_t len, const char *name, const char *want)
{
	struct vb_dataset d;
	char err[512] = "";
	vb_dataset_init(&d);
	assert_int_equal(vb_report_read(&d, text, len, name, err, sizeof err), -1);
	assert_string_equal(err, want);
	assert_int_equal(d.n_samples, 0);
	assert_int_equal(d.n_labels, 0);
	vb_dataset_free(&d);
}

/* Asserts that reading text fails with a message that starts with want. */
static void expect_error_prefix(const char *text, const char *name, const char *want)
{
	struct vb_dataset d;
	char err[512] = "";
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, text, name, err, sizeof err), -1);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err, want);
	vb_dataset_free(&d);
}

/* Minimal XML well-formedness check for the SVG we write: tags balance and nest,
 * attribute values are quoted, and '&' only starts the five predefined entities. */
static int xml_well_formed(const char *s)
{
	const char *stack[64];
	size_t stack_len[64], depth = 0;
	int root_seen = 0;
	while (*s) {
		if (*s == '&') {
			static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
			int ok = 0;
			for (size_t i = 0; i < 5; i++)
				ok |= strncmp(s, ents[i], strlen(ents[i])) == 0;
			if (!ok)
				return 0;
			s++;
			continue;
		}
		if (*s == '>')
			return 0;  /* we always escape it in text */
		if (*s != '<') {
			if (depth == 0 && *s != '\n' && *s != ' ')
				return 0;
			s++;
			continue;
		}
		if (strncmp(s, "<!--", 4) == 0) {
			s = strstr(s, "-->");
			if (s == NULL)
				return 0;
			s += 3;
			continue;
		}
		if (s[1] == '?') {
			s = strstr(s, "?>");
			if (!s)
				return 0;
			s += 2;
			continue;
		}
		int closing = s[1] == '/';
		const char *name = s + 1 + closing;
		size_t n = strcspn(name, " />\n");
		const char *p = name + n;
		char quote = 0;
		while (*p && (quote || *p != '>')) {
			if (quote && *p == quote)
				quote = 0;
			else if (!quote && (*p == '"' || *p == '\''))
				quote = *p;
			else if (!quote && *p == '<')
				return 0;
			p++;
		}
		if (!*p)
			return 0;
		int self = p[-1] == '/';
		if (closing) {
			if (depth == 0 || stack_len[depth - 1] != n ||
			    strncmp(stack[depth - 1], name, n) != 0)
				return 0;
			depth--;
		} else if (!self) {
			if (depth == 0 && root_seen)
				return 0;
			root_seen = 1;
			if (depth == 64)
				return 0;
			stack[depth] = name;
			stack_len[depth++] = n;
		}
		s = p + 1;
	}
	return depth == 0 && root_seen;
}

/* A dataset built directly: ext4 {10,12,14} MB/s-ish, xfs {20,22,24}, one run of "solo". */
static void sample_dataset(struct vb_dataset *d)
{
	vb_dataset_init(d);
	static const double ext4[] = {10e6, 12e6, 14e6}, xfs[] = {20e6, 22e6, 24e6};
	for (int i = 0; i < 3; i++) {
		/* interleaved on purpose: grouping keeps first-seen label order */
		assert_int_equal(vb_dataset_add(d, "ext4", (uint64_t)i + 1, 1000, 1, ext4[i]), 0);
		assert_int_equal(vb_dataset_add(d, "xfs", (uint64_t)i + 1, 1000, 1, xfs[i]), 0);
	}
	assert_int_equal(vb_dataset_add(d, "solo", 1, 1000, 1, 13e6), 0);
}

/* ---------------------------------------------------------------------------------- */
/* CSV                                                                                */
/* ---------------------------------------------------------------------------------- */

static void test_csv_field_quoting(void **state)
{
	(void)state;
	static const char *const in[] = {"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rx", ""};
	static const char *const want[] = {"plain", "\"a,b\"", "\"say \"\"hi\"\"\"",
					   "two\\x0alines", "cr\\x0dx", ""};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct vb_buf b;
		vb_buf_init(&b);
		vb_csv_field(&b, in[i]);
		assert_string_equal(b.p ? b.p : "", want[i]);
		vb_buf_free(&b);
	}
}

/* Labels written with vb_csv_field come back from the reader as vb_text shows them: the
 * control characters and stray bytes escaped, all else (quotes, commas, a formula's
 * first character) byte for byte. */
static void test_csv_round_trip(void **state)
{
	(void)state;
	static const char *const labels[] = {
		"plain", "with,comma", "with \"quotes\"", "multi\nline", "crlf\r\ninside",
		"caf\xc3\xa9", "bad utf8 \xff\xfe", "\"", ",", " spaced ", "=cmd|' /C calc'!A0",
		"-rf", "'=quoted", "@x,y", "'", "\x1b[2J\tc1 \xc2\x9b del \x7f", "\\x1b"};
	size_t n = sizeof labels / sizeof labels[0];
	struct vb_buf b;
	vb_buf_init(&b);
	vb_buf_puts(&b, "label,run,bytes,secs,bytes_per_sec,bs\r\n");
	for (size_t i = 0; i < n; i++) {
		vb_csv_field(&b, labels[i]);
		vb_buf_printf(&b, ",%zu,1000,0.5,2000,1048576\r\n", i + 1);
	}
	char *text = b.p;
	struct vb_dataset d;
	char err[256];
	assert_csv_clean(text);
	vb_dataset_init(&d);
	assert_int_equal(vb_report_detect(text, strlen(text)), VB_INPUT_CSV);
	assert_int_equal(read_str(&d, text, "rt.csv", err, sizeof err), 0);
	assert_int_equal(d.n_labels, n);
	assert_int_equal(d.n_samples, n);
	for (size_t i = 0; i < n; i++) {
		char *shown = vb_text_dup(labels[i]);
		assert_non_null(shown);
		assert_string_equal(d.labels[i], shown);
		free(shown);
		assert_int_equal(d.samples[i].label, i);
		assert_int_equal(d.samples[i].run, i + 1);
		assert_int_equal(d.samples[i].bytes, 1000);
		assert_true(d.samples[i].secs == 0.5);
		assert_true(d.samples[i].bytes_per_sec == 2000);
	}
	vb_dataset_free(&d);
	free(text);
}

/* LF endings, a BOM, repeated identical headers (a shell loop appending), blank lines,
 * extra columns in any order, warm-up and partial rows. */
static void test_csv_appended_loop(void **state)
{
	(void)state;
	const char *text =
		"\xef\xbb\xbfhost,label,run,bytes,secs,bytes_per_sec,warmup,partial\n"
		"h,ext4,0,100,1,100,1,0\n"
		"h,ext4,1,100,1,100,0,0\n"
		"h,ext4,2,100,1,110,,\n"
		"\n"
		"host,label,run,bytes,secs,bytes_per_sec,warmup,partial\n"
		"h,xfs,1,100,0.5,200,false,true\n"
		"h,xfs,2,100,0.5,200,no,no\n"
		"h,xfs,3,100,0,0,no,no\n"
		"h,xfs,4,100,0.5,190,no,no";  /* no final newline */
	struct vb_dataset d;
	char err[256];
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, text, "loop.csv", err, sizeof err), 0);
	assert_int_equal(d.n_labels, 2);
	assert_string_equal(d.labels[0], "ext4");
	assert_string_equal(d.labels[1], "xfs");
	assert_int_equal(d.n_samples, 4);
	assert_int_equal(d.skipped_warmup, 2);
	assert_int_equal(d.skipped_zero, 1);
	assert_true(d.samples[3].bytes_per_sec == 190);
	vb_dataset_free(&d);
}

static void test_csv_errors(void **state)
{
	(void)state;
	const char *nocol = "label,run,bytes,secs\next4,1,2,3\n";
	expect_error(nocol, strlen(nocol), "runs.csv", "runs.csv:1: missing column bytes_per_sec");
	const char *short_row = "label,run,bytes,secs,bytes_per_sec\r\next4,1,8,2,4\r\nxfs,1,2\r\n";
	expect_error(short_row, strlen(short_row), "runs.csv",
		     "runs.csv:3: row has 3 fields, the header 5: cut short or run on, not a run");
	const char *bad_num = "label,run,bytes,secs,bytes_per_sec\next4,1,2,abc,4\n";
	expect_error(bad_num, strlen(bad_num), "n.csv",
		     "n.csv:2: column secs: not a non-negative number: \"abc\"");
	const char *negative = "label,run,bytes,secs,bytes_per_sec\next4,1,-2,1,4\n";
	expect_error_prefix(negative, "n.csv", "n.csv:2: column bytes:");
	const char *unterminated = "label,run,bytes,secs,bytes_per_sec\n\"ext4,1,8,2,4\nx\n";
	expect_error(unterminated, strlen(unterminated), "q.csv",
		     "q.csv:2: unterminated quoted field");
	const char *stray = "label,run,bytes,secs,bytes_per_sec\next\"4,1,8,2,4\n";
	expect_error(stray, strlen(stray), "q.csv", "q.csv:2: quote inside an unquoted field");
	const char *other_header = "label,run,bytes,secs,bytes_per_sec\ne,1,8,2,4\n"
				   "label,run,bytes,secs,bytes_per_sec,host\n";
	expect_error(other_header, strlen(other_header), "h.csv",
		     "h.csv:3: header row differs from the one on line 1");
	const char *header_only = "label,run,bytes,secs,bytes_per_sec\n";
	expect_error(header_only, strlen(header_only), "h.csv", "h.csv: no runs after the header");
	const char *bad_flag = "label,run,bytes,secs,bytes_per_sec,warmup\ne,1,8,2,4,maybe\n";
	expect_error(bad_flag, strlen(bad_flag), "w.csv",
		     "w.csv:2: column warmup: not a yes/no value");
	const char nul[] = "label,run,bytes,secs,bytes_per_sec\ne\0x,1,8,2,4\n";
	expect_error(nul, sizeof nul - 1, "z.csv", "z.csv:2: NUL byte in a field");
}

/* A failing file leaves what earlier files added untouched. */
static void test_reader_rolls_back(void **state)
{
	(void)state;
	struct vb_dataset d;
	char err[256];
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, "label,run,bytes,secs,bytes_per_sec\na,1,1,1,1\n", "1.csv",
				  err, sizeof err), 0);
	assert_int_equal(read_str(&d, "label,run,bytes,secs,bytes_per_sec\nb,1,1,1,1\nc,x,1,1,1\n",
				  "2.csv", err, sizeof err), -1);
	assert_int_equal(d.n_labels, 1);
	assert_int_equal(d.n_samples, 1);
	assert_string_equal(d.labels[0], "a");
	vb_dataset_free(&d);
}

/* ---------------------------------------------------------------------------------- */
/* JSON                                                                               */
/* ---------------------------------------------------------------------------------- */

static void test_json_string_escaping(void **state)
{
	(void)state;
	/* quote, backslash, slash, the short escapes, other controls, DEL, valid UTF-8
	 * (2, 3 and 4 bytes), a stray byte, a truncated sequence, an overlong '/', an
	 * encoded surrogate. */
	const char in[] = "q\"b\\s/\n\r\t\b\f\x01\x1f\x7f "
			  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xff\xc3(\xc0\xaf\xed\xa0\x80";
	const char *want = "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f "
			   "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \\ufffd\\ufffd(\\ufffd\\ufffd"
			   "\\ufffd\\ufffd\\ufffd\"";
	struct mem m;
	vb_json_string_n(mem_open(&m), in, sizeof in - 1);
	char *got = mem_close(&m);
	assert_string_equal(got, want);
	free(got);
	/* An embedded NUL is a control character too. */
	vb_json_string_n(mem_open(&m), "a\0b", 3);
	got = mem_close(&m);
	assert_string_equal(got, "\"a\\u0000b\"");
	free(got);
}

static void test_json_reader(void **state)
{
	(void)state;
	/* Two concatenated documents; escapes in the label, a surrogate pair, a raw
	 * non-UTF-8 byte kept as is, a 64-bit byte count, warm-up and partial entries. */
	const char *text =
		"  {\"label\": \"a\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\n\xff\",\n"
		"   \"config\": {\"bs\": 1048576, \"nested\": [[{}], []]},\n"
		"   \"environment\": {\"fs\": \"ext4\", \"driver\": \"virtio_blk\"},\n"
		"   \"runs\": [\n"
		"     {\"run\": 1, \"bytes\": 18446744073709551615, \"secs\": 2e1,"
		" \"bytes_per_sec\": 922337203685477581, \"warmup\": false},\n"
		"     {\"run\": 0, \"bytes\": 1, \"secs\": 1, \"bytes_per_sec\": 1, \"warmup\": true},\n"
		"     {\"run\": 2, \"bytes\": 1, \"secs\": 1, \"bytes_per_sec\": 1, \"partial\": 1}\n"
		"   ],\n"
		"   \"summary\": {\"mean\": null}}\n"
		"{\"environment\": {\"fs\": \"xfs\", \"driver\": \"nvme\"},"
		" \"runs\": [{\"run\": 1, \"bytes\": 100, \"secs\": 0.5, \"bytes_per_sec\": 200,"
		" \"extra\": [true, false, null, -1.5E+3, \"x\"]}]}"
		"{\"runs\": [{\"run\": 1, \"bytes\": 150, \"secs\": 0.5, \"bytes_per_sec\": 300}]}\n";
	struct vb_dataset d;
	char err[256];
	vb_dataset_init(&d);
	assert_int_equal(vb_report_detect(text, strlen(text)), VB_INPUT_JSON);
	assert_int_equal(read_str(&d, text, "dir/some.run.json", err, sizeof err), 0);
	assert_int_equal(d.n_labels, 3);
	assert_string_equal(d.labels[0], "a\xc3\xa9\xf0\x9f\x98\x80\"\\/\n\xff");
	assert_string_equal(d.labels[1], "xfs-nvme");     /* environment fallback */
	assert_string_equal(d.labels[2], "some.run");     /* file stem fallback */
	assert_int_equal(d.n_samples, 3);
	assert_true(d.samples[0].bytes == UINT64_MAX);
	assert_true(d.samples[0].secs == 20);
	assert_true(d.samples[0].bytes_per_sec == 922337203685477581.0);
	assert_int_equal(d.skipped_warmup, 2);
	vb_dataset_free(&d);
}

/* Builds a document whose "x" member nests `levels` arrays. */
static char *nested_doc(int levels)
{
	size_t n = (size_t)levels * 2 + 200;
	char *s = malloc(n);
	assert_non_null(s);
	strcpy(s, "{\"x\": ");
	for (int i = 0; i < levels; i++)
		strcat(s, "[");
	for (int i = 0; i < levels; i++)
		strcat(s, "]");
	strcat(s, ", \"runs\": [{\"run\": 1, \"bytes\": 1, \"secs\": 1, \"bytes_per_sec\": 1}]}");
	return s;
}

static void test_json_depth_limit(void **state)
{
	(void)state;
	struct vb_dataset d;
	char err[256];
	/* The document object is level 1, so 63 arrays inside make 64 levels: allowed. */
	char *ok = nested_doc(63), *deep = nested_doc(64);
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, ok, "ok.json", err, sizeof err), 0);
	vb_dataset_free(&d);
	expect_error(deep, strlen(deep), "deep.json", "deep.json:1: nested deeper than 64 levels");
	free(ok);
	free(deep);
}

static void test_json_errors(void **state)
{
	(void)state;
	static const struct { const char *text, *want; } cases[] = {
		{"{\"runs\": [{\"run\": 1,}]}", "j.json:1: unexpected '}', expected a member name"},
		{"{\"runs\": [1 2]}", "j.json:1: unexpected '2', expected ',' or ']'"},
		{"{\"runs\": 01}", "j.json:1: unexpected '1', leading zeros are not allowed"},
		{"{\"runs\": [], \"label\": \"a\\ud800\"}", "j.json:1: lone high surrogate \\uD800"},
		{"{\"label\": \"a\\udc00\", \"runs\": []}", "j.json:1: lone low surrogate \\uDC00"},
		{"{\"label\": \"a\\x\", \"runs\": []}", "j.json:1: unexpected 'x', expected a valid"},
		{"{\"label\": \"a\tb\", \"runs\": []}", "j.json:1: unexpected byte 0x09, control"},
		{"{\"label\": \"a\\u0000b\", \"runs\": []}", "j.json:1: label holds a NUL character"},
		{"{\"label\": 5, \"runs\": []}", "j.json:1: label is not a non-empty string"},
		{"{\"label\": \"abc", "j.json:1: unterminated string"},
		{"{\n\"config\": {}\n}", "j.json:1: document without \"runs\""},
		{"{\"runs\": {}}", "j.json:1: \"runs\" is not an array"},
		{"{\"runs\": []}", "j.json: no runs in \"runs\""},
		{"{\"runs\": [{\"warmup\": true}]}", "j.json: no measured runs (1 warm-up"},
		{"{\"runs\": [\n{\"run\": 1, \"bytes\": 2, \"secs\": 3}]}",
		 "j.json:2: run entry without \"bytes_per_sec\""},
		{"{\"runs\": [{\"run\": 1, \"bytes\": -2, \"secs\": 3, \"bytes_per_sec\": 1}]}",
		 "j.json:1: \"bytes\" is not a non-negative integer"},
		{"{\"runs\": [{\"run\": 1, \"bytes\": 2, \"secs\": \"3\", \"bytes_per_sec\": 1}]}",
		 "j.json:1: \"secs\" is not a non-negative number"},
		{"{\"runs\": [{\"run\": 1, \"bytes\": 2, \"secs\": 1, \"bytes_per_sec\": 1}]} x",
		 "j.json:1: unexpected 'x', expected a value"},
		{"{\"runs\": [{\"run\": 1, \"bytes\": 2, \"secs\": 1, \"bytes_per_sec\": 1}]} []",
		 "j.json:1: a vbench JSON document is an object"},
		{"{\"runs\": [tru]}", "j.json:1: unexpected 't', expected a value"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_error_prefix(cases[i].text, "j.json", cases[i].want);
}

/* ---------------------------------------------------------------------------------- */
/* dd logs                                                                            */
/* ---------------------------------------------------------------------------------- */

/* Parses s as a dd line, asserting it is one. */
static struct vb_dd_line dd(const char *s)
{
	struct vb_dd_line l;
	if (vb_report_parse_dd_line(s, strlen(s), &l) != 1)
		fail_msg("not parsed as a dd line: %s", s);
	return l;
}

static void test_dd_bsd_lines(void **state)
{
	(void)state;
	struct vb_dd_line l = dd("1048576000 bytes transferred in 37.101394 secs (28262442 bytes/sec)");
	assert_int_equal(l.kind, VB_DD_BSD);
	assert_true(l.bytes == 1048576000u);
	assert_double_equal(l.secs, 37.101394, 1e-12);
	assert_true(l.bytes_per_sec == 28262442);  /* as printed, not recomputed */
	/* NetBSD and OpenBSD print milliseconds. */
	l = dd("512 bytes transferred in 0.001 secs (512000 bytes/sec)");
	assert_true(l.bytes == 512 && l.bytes_per_sec == 512000);
	/* A zero time: the rate is not a number, so it comes from bytes and secs. */
	l = dd("0 bytes transferred in 0.000000 secs (inf bytes/sec)");
	assert_true(l.secs == 0 && isinf(l.bytes_per_sec));
	/* A prefix such as a timestamp is allowed. */
	l = dd("[2024-01-01 10:00:00] 1000 bytes transferred in 2.000000 secs (500 bytes/sec)");
	assert_true(l.bytes == 1000 && l.bytes_per_sec == 500);
}

static void test_dd_gnu_lines(void **state)
{
	(void)state;
	struct vb_dd_line l = dd("1048576000 bytes (1.0 GB, 1000 MiB) copied, 37.1014 s, 28.3 MB/s");
	assert_int_equal(l.kind, VB_DD_GNU);
	assert_true(l.bytes == 1048576000u);
	assert_double_equal(l.secs, 37.1014, 1e-12);
	/* recomputed: 1048576000 / 37.1014 = 28262329.187039... */
	assert_double_equal(l.bytes_per_sec, 1048576000.0 / 37.1014, 1e-6);
	l = dd("512 bytes copied, 0.00012 s, 4.3 MB/s");             /* below 1000: no "(...)" */
	assert_true(l.bytes == 512);
	assert_double_equal(l.bytes_per_sec, 512 / 0.00012, 1e-3);
	l = dd("1000 bytes (1.0 kB) copied, 0.000234 s, 4.3 MB/s");  /* older coreutils */
	assert_true(l.bytes == 1000);
	l = dd("1000 bytes (1.0 kB, 1000 B) copied, 1e-05 s, 100 MB/s");  /* %g seconds */
	assert_double_equal(l.secs, 1e-05, 1e-20);
	assert_double_equal(l.bytes_per_sec, 1e8, 1e-3);
	l = dd("1 byte copied, 2.5e-06 s, 400 kB/s");                /* singular */
	assert_true(l.bytes == 1);
	assert_double_equal(l.secs, 2.5e-06, 1e-20);
	l = dd("0 bytes copied, 0 s, Infinity B/s");
	assert_true(l.secs == 0 && isinf(l.bytes_per_sec));
	l = dd("2048 bytes (2.0 kB, 2.0 KiB) copied, 0,5 s, 4,1 kB/s"); /* decimal comma */
	assert_double_equal(l.secs, 0.5, 0);
	l = dd("1048576000 bytes (1,0 GB, 1000 MiB) copied, 37,1014 s, 28,3 MB/s");
	assert_double_equal(l.secs, 37.1014, 1e-12);
}

static void test_dd_non_lines(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"1000+0 records in", "1000+0 records out", "", "bytes transferred in 1 secs",
		"x bytes transferred in 1.0 secs (1 bytes/sec)",
		"abc123 bytes transferred in 1.0 secs (1 bytes/sec)",
		"100 bytes transferred in soon secs (1 bytes/sec)",
		"100 bytes copied, fast s, 1 MB/s", "100 bytes copied, 1 s", "100 copied, 1 s, 1 MB/s",
		"mean    29895208.6 bytes/sec"};
	struct vb_dd_line l;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (vb_report_parse_dd_line(lines[i], strlen(lines[i]), &l) != 0)
			fail_msg("parsed as a dd line: %s", lines[i]);
}

static void test_text_log(void **state)
{
	(void)state;
	const char *log =
		"# vbench 0.1.0 on ext4\r\n"
		"1000+0 records in\r\n"
		"1000+0 records out\r\n"
		"1000 bytes transferred in 1.000000 secs (1000 bytes/sec)\r\n"
		"# warm-up 1 of 1 (not counted)\n"
		"# 7000 bytes transferred in 1.000000 secs (7000 bytes/sec)\n"
		"\r900 bytes (900 B) copied, 1 s, 900 B/s\r1000 bytes copied, 2 s, 500 B/s   \n"
		"2000 bytes (2.0 kB, 2.0 KiB) copied, 1 s, 2.0 kB/s\n"
		"0 bytes copied, 0 s, Infinity B/s\n"
		"mean 1500 bytes/sec\n";
	struct vb_dataset d;
	char err[256];
	vb_dataset_init(&d);
	assert_int_equal(vb_report_detect(log, strlen(log)), VB_INPUT_TEXT);
	assert_int_equal(read_str(&d, log, "/var/log/ext4-virtio.log", err, sizeof err), 0);
	assert_int_equal(d.n_labels, 1);
	assert_string_equal(d.labels[0], "ext4-virtio");
	/* The progress line, the "# " warm-up line and the 0 s line are left out. */
	assert_int_equal(d.n_samples, 2);
	assert_int_equal(d.skipped_zero, 1);
	assert_true(d.samples[0].run == 1 && d.samples[0].bytes_per_sec == 1000);
	assert_true(d.samples[1].run == 2 && d.samples[1].bytes_per_sec == 2000);
	assert_int_equal(read_str(&d, log, ".hidden", err, sizeof err), 0);
	assert_string_equal(d.labels[1], ".hidden");
	assert_int_equal(read_str(&d, log, "-", err, sizeof err), 0);
	assert_string_equal(d.labels[2], "stdin");
	vb_dataset_free(&d);
}

static void test_empty_and_lineless_inputs(void **state)
{
	(void)state;
	expect_error("", 0, "e.csv", "e.csv: empty file");
	expect_error(" \n\r\n\t", 4, "e.log", "e.log: empty file");
	expect_error("\xef\xbb\xbf\n", 4, "bom.csv", "bom.csv: empty file");
	const char *words = "hello\nworld\n";
	expect_error_prefix(words, "w.log", "w.log: neither a vbench CSV or JSON file nor a dd "
			    "log");
	const char *zero = "0 bytes copied, 0 s, Infinity B/s\n";
	expect_error(zero, strlen(zero), "z.log",
		     "z.log: no measured runs (1 warm-up, partial or zero-second runs skipped)");
}

/* ---------------------------------------------------------------------------------- */
/* Analysis                                                                           */
/* ---------------------------------------------------------------------------------- */

/* Expected values were computed independently with mpmath at 40 digits:
 *   mean, sample sd by definition; t = (ma - mb) / sqrt(sa²/na + sb²/nb);
 *   df = (va+vb)² / (va²/(na-1) + vb²/(nb-1)) with va = sa²/na, vb = sb²/nb;
 *   p = 2 ∫_|t|^∞ f_df(x) dx with the Student t density f integrated numerically
 *   (mpmath.quad), not through the incomplete beta function stats.c uses;
 *   ratio CI by Fieller: the roots in r of (mb² - q² vb) r² - 2 ma mb r + (ma² - q² va),
 *   q the 0.975 quantile of t with the Welch df (mpmath.findroot on the integrated CDF).
 * {20,22,24} vs {10,12,14}: t = 6.12372435696 (= 10/sqrt(8/3)), df = 4 exactly,
 *   p = 0.0036022326091, ratio = 1.83333333333, q = 2.77644510520,
 *   CI = [1.37837635994, 2.57011959531].
 * {15,25,35} vs {10,11,12,13}: t = 2.32379000772, df = 2.05009894803,
 *   p = 0.142672486815, ratio = 2.17391304348, q = 4.20344698350,
 *   CI = [0.0635456562182, 4.54058219829].
 * {100,101,99,100.5} vs {100,99.5,101,100.2}: t = -0.0945615027077,
 *   df = 5.49234025337, p = 0.928017434866, ratio = 0.999500873471. */
static void test_analysis_numbers(void **state)
{
	(void)state;
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	sample_dataset(&d);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 3);
	assert_int_equal(a.baseline, 0);
	assert_int_equal(a.max_runs, 3);
	assert_string_equal(a.groups[0].label, "ext4");
	assert_string_equal(a.groups[1].label, "xfs");
	assert_string_equal(a.groups[2].label, "solo");
	const struct vb_group *x = &a.groups[1];
	assert_int_equal(x->n, 3);
	assert_double_equal(x->sum.mean, 22e6, 1e-6);
	assert_double_equal(x->sum.stddev, 2e6, 1e-6);
	assert_true(x->cmp.valid);
	assert_double_equal(x->cmp.t, 6.12372435696, 1e-9);
	assert_double_equal(x->cmp.df, 4.0, 1e-9);
	assert_double_equal(x->cmp.p, 0.0036022326091, 1e-10);
	assert_double_equal(x->cmp.ratio, 1.83333333333, 1e-10);
	assert_double_equal(x->cmp.ratio_lo, 1.37837635994, 1e-8);
	assert_double_equal(x->cmp.ratio_hi, 2.57011959531, 1e-8);
	assert_int_equal(x->verdict, VB_VERDICT_FASTER);
	assert_int_equal(a.groups[0].verdict, VB_VERDICT_BASELINE);
	assert_int_equal(a.groups[2].verdict, VB_VERDICT_ONE_RUN);
	assert_int_equal(a.groups[2].sum.n, 1);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

static void test_analysis_unequal_variances(void **state)
{
	(void)state;
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	static const double base[] = {10, 11, 12, 13}, other[] = {15, 25, 35};
	static const double near1[] = {100, 101, 99, 100.5}, near2[] = {100, 99.5, 101, 100.2};
	vb_dataset_init(&d);
	for (int i = 0; i < 4; i++)
		assert_int_equal(vb_dataset_add(&d, "base", 1, 1, 1, base[i]), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(vb_dataset_add(&d, "other", 1, 1, 1, other[i]), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(vb_dataset_add(&d, "near2", 1, 1, 1, near2[i]), 0);
		assert_int_equal(vb_dataset_add(&d, "near1", 1, 1, 1, near1[i]), 0);
	}
	assert_int_equal(vb_report_compare(&d, "base", &a, err, sizeof err), 0);
	const struct vb_group *o = &a.groups[1];
	assert_double_equal(o->cmp.t, 2.32379000772, 1e-9);
	assert_double_equal(o->cmp.df, 2.05009894803, 1e-9);
	assert_double_equal(o->cmp.p, 0.142672486815, 1e-9);
	assert_double_equal(o->cmp.ratio_lo, 0.0635456562182, 1e-8);
	assert_double_equal(o->cmp.ratio_hi, 4.54058219829, 1e-8);
	assert_int_equal(o->verdict, VB_VERDICT_SAME);
	char v[96];
	vb_report_verdict(o, v, sizeof v);
	assert_string_equal(v, "no significant difference (p=0.14)");
	vb_comparison_free(&a);
	/* near1 against near2 as the baseline */
	assert_int_equal(vb_report_compare(&d, "near2", &a, err, sizeof err), 0);
	assert_int_equal(a.baseline, 2);
	const struct vb_group *n1 = &a.groups[3];
	assert_string_equal(n1->label, "near1");
	assert_double_equal(n1->cmp.t, -0.0945615027077, 1e-9);
	assert_double_equal(n1->cmp.df, 5.49234025337, 1e-9);
	assert_double_equal(n1->cmp.p, 0.928017434866, 1e-9);
	assert_double_equal(n1->cmp.ratio, 0.999500873471, 1e-11);
	vb_report_verdict(n1, v, sizeof v);
	assert_string_equal(v, "no significant difference (p=0.93)");
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

static void test_verdicts_and_baseline(void **state)
{
	(void)state;
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256], v[96];
	sample_dataset(&d);
	assert_int_equal(vb_report_compare(&d, "xfs", &a, err, sizeof err), 0);
	assert_int_equal(a.baseline, 1);
	vb_report_verdict(&a.groups[0], v, sizeof v);  /* ratio 12/22 = 0.545, 1/r = 1.833 */
	assert_string_equal(v, "0.55x (1.83x slower), significant at p<0.05");
	vb_report_verdict(&a.groups[1], v, sizeof v);
	assert_string_equal(v, "baseline");
	vb_report_verdict(&a.groups[2], v, sizeof v);
	assert_string_equal(v, "one run: no stddev, no t-test");
	vb_comparison_free(&a);
	assert_int_equal(vb_report_compare(&d, "solo", &a, err, sizeof err), 0);
	vb_report_verdict(&a.groups[0], v, sizeof v);
	assert_string_equal(v, "baseline has one run: no t-test");
	vb_comparison_free(&a);
	assert_int_equal(vb_report_compare(&d, "zfs", &a, err, sizeof err), -1);
	assert_string_equal(err, "unknown baseline label \"zfs\"; the labels are: \"ext4\", "
			    "\"xfs\", \"solo\"");
	vb_dataset_free(&d);
	/* identical values: no variance, no test */
	vb_dataset_init(&d);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(vb_dataset_add(&d, "a", 1, 1, 1, 5), 0);
		assert_int_equal(vb_dataset_add(&d, "b", 1, 1, 1, 5), 0);
	}
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	vb_report_verdict(&a.groups[1], v, sizeof v);
	assert_string_equal(v, "no variance in either label: no t-test");
	vb_comparison_free(&a);
	vb_dataset_free(&d);
	/* a label that wrote nothing (0 bytes in 1 s) */
	vb_dataset_init(&d);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(vb_dataset_add(&d, "a", 1, 1, 1, 5 + i), 0);
		assert_int_equal(vb_dataset_add(&d, "b", 1, 0, 1, 0), 0);
	}
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	vb_report_verdict(&a.groups[1], v, sizeof v);
	assert_string_equal(v, "a mean of 0 bytes/sec: no t-test");
	vb_comparison_free(&a);
	vb_dataset_free(&d);
	vb_dataset_init(&d);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), -1);
	assert_string_equal(err, "no runs to report");
}

/* ---------------------------------------------------------------------------------- */
/* Formatters                                                                         */
/* ---------------------------------------------------------------------------------- */

/* Runs printer on the sample dataset with a label that needs escaping everywhere. */
static char *format_sample(int (*printer)(FILE *, const struct vb_comparison *), const char *solo)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	struct mem m;
	sample_dataset(&d);
	free(d.labels[2]);
	d.labels[2] = strdup(solo);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(printer(mem_open(&m), &a), 0);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
	return mem_close(&m);
}

static void test_markdown_output(void **state)
{
	(void)state;
	char *got = format_sample(vb_report_print_markdown, "one|run*");
	const char *want =
		"| bytes/sec | ext4 | xfs | one\\|run\\* |\n"
		"|:---|---:|---:|---:|\n"
		"| run 1 | 10000000 | 20000000 | 13000000 |\n"
		"| run 2 | 12000000 | 22000000 |  |\n"
		"| run 3 | 14000000 | 24000000 |  |\n"
		"| mean | 12000000.0 | 22000000.0 | 13000000.0 |\n"
		"| mean MB/s | 12.0 | 22.0 | 13.0 |\n"
		"| min | 10000000 | 20000000 | 13000000 |\n"
		"| max | 14000000 | 24000000 | 13000000 |\n"
		"| stddev | 2000000.0 | 2000000.0 | - |\n"
		"\n"
		"| label | mean (bytes/sec) | MB/s | ratio | 95% CI | t | df | p | verdict |\n"
		"|:---|---:|---:|---:|:---|---:|---:|---:|:---|\n"
		"| ext4 | 12000000.0 | 12.0 | 1.00 |  |  |  |  | baseline |\n"
		"| xfs | 22000000.0 | 22.0 | 1.83 | 1.38 to 2.57 | 6.12 | 4.0 | 0.0036 | "
		"1.83x faster, significant at p<0.05 |\n"
		"| one\\|run\\* | 13000000.0 | 13.0 | 1.08 |  |  |  |  | one run: no stddev, no "
		"t-test |\n";
	assert_string_equal(got, want);
	free(got);
}

static void test_text_output(void **state)
{
	(void)state;
	char *got = format_sample(vb_report_print_text, "caf\xc3\xa9\n");
	/* "café\n" is 5 columns wide on a terminal once the newline shows as \x0a: 8 */
	const char *want =
		"bytes/sec        ext4         xfs    caf\xc3\xa9\\x0a\n"
		"run 1        10000000    20000000    13000000\n"
		"run 2        12000000    22000000            \n"
		"run 3        14000000    24000000            \n"
		"mean       12000000.0  22000000.0  13000000.0\n"
		"mean MB/s        12.0        22.0        13.0\n"
		"min          10000000    20000000    13000000\n"
		"max          14000000    24000000    13000000\n"
		"stddev      2000000.0   2000000.0           -\n"
		"\n"
		"against ext4 (ratio of means):\n"
		"xfs       1.83x (22.0 MB/s), 95% CI [1.38, 2.57], Welch t=6.12, df=4.0, p=0.0036: "
		"1.83x faster, significant at p<0.05\n"
		"caf\xc3\xa9\\x0a  1.08x (13.0 MB/s): one run: no stddev, no t-test\n";
	assert_string_equal(got, want);
	free(got);
}

static void test_csv_output(void **state)
{
	(void)state;
	char *got = format_sample(vb_report_print_csv, "a \"b\", c");
	const char *want =
		"label,runs,mean,min,max,stddev,cv,baseline,ratio,ratio_lo,ratio_hi,t,df,p,"
		"significant,verdict,measured_on,label_names_other_fs\r\n"
		"ext4,3,12000000,10000000,14000000,2000000,0.166666666666667,1,1,,,,,,0,baseline,,"
		"\r\n";
	assert_memory_equal(got, want, strlen(want));
	assert_non_null(strstr(got, "\r\nxfs,3,22000000,20000000,24000000,2000000,"));
	assert_non_null(strstr(got, ",1,\"1.83x faster, significant at p<0.05\",,\r\n"));
	assert_non_null(strstr(got, "\r\n\"a \"\"b\"\", c\",1,13000000,13000000,13000000,,,0,"));
	assert_non_null(strstr(got, ",,,,,,0,\"one run: no stddev, no t-test\",,\r\n"));
	free(got);
}

static void test_json_output(void **state)
{
	(void)state;
	char *got = format_sample(vb_report_print_json, "ctl\x01 \"q\" \xff");
	assert_non_null(strstr(got, "\"baseline\": \"ext4\""));
	/* the control and the stray byte as every output shows them: \x01, \xff */
	assert_non_null(strstr(got, "\"label\": \"ctl\\\\x01 \\\"q\\\" \\\\xff\""));
	assert_non_null(strstr(got, "{\"run\": 1, \"bytes\": 1000, \"secs\": 1, "
				    "\"bytes_per_sec\": 10000000}"));
	assert_non_null(strstr(got, "\"summary\": {\"n\": 1, \"mean\": 13000000, \"min\": 13000000,"
				    " \"max\": 13000000, \"stddev\": null, \"cv\": null}"));
	assert_non_null(strstr(got, "\"t\": 6.12372435695795"));
	assert_non_null(strstr(got, "\"significant\": true, \"verdict\": \"1.83x faster"));
	assert_null(strstr(got, "nan"));
	assert_null(strstr(got, "inf"));
	free(got);
}

/* The chart with a fixed configuration subtitle. */
static int print_svg(FILE *f, const struct vb_comparison *a)
{
	return vb_report_print_svg(f, a, "bs=4096, direct, <sync>");
}

/* The number in attribute `name="..."` of the first element at or after from. */
static double attr_num(const char *from, const char *name)
{
	char key[32];
	snprintf(key, sizeof key, " %s=\"", name);
	const char *p = strstr(from, key);
	assert_non_null(p);
	return strtod(p + strlen(key), NULL);
}

/* The start of the <text> element whose content ends with `content`. */
static const char *text_element(const char *svg, const char *content)
{
	const char *p = strstr(svg, content);
	assert_non_null(p);
	while (p > svg && strncmp(p, "<text", 5) != 0)
		p--;
	return p;
}

static void test_svg_output(void **state)
{
	(void)state;
	char *got = format_sample(print_svg, "<a & 'b'>\x01\xff");
	assert_true(xml_well_formed(got));
	assert_non_null(strstr(got, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" VB_SVG_MARK "\n<svg "
				    "xmlns=\"http://www.w3.org/2000/svg\" width=\""));
	assert_non_null(strstr(got, "viewBox=\"0 0 "));
	assert_non_null(strstr(got, "<title>vbench report"));
	assert_non_null(strstr(got, ">MB/s</text>"));
	assert_non_null(strstr(got, ">Mean write throughput (MB/s)</text>"));
	assert_non_null(strstr(got, ">ext4</text>"));
	/* the label escaped, the control char and the stray byte as every output shows
	 * them (\x01, \xff) */
	assert_non_null(strstr(got, ">&lt;a &amp; &apos;b&apos;&gt;\\x01\\xff</text>"));
	size_t bars = 0;
	for (const char *p = got; (p = strstr(p, "<g class=\"bar\">")) != NULL; p++)
		bars++;
	assert_int_equal(bars, 3);
	/* means 12, 22, 13 MB/s; whiskers only where there are two runs or more */
	assert_non_null(strstr(got, ">12.0</text>"));
	assert_non_null(strstr(got, ">22.0</text>"));
	assert_non_null(strstr(got, ">13.0</text>"));
	size_t whiskers = 0;
	for (const char *p = got; (p = strstr(p, "<path d=")) != NULL; p++)
		whiskers++;
	assert_int_equal(whiskers, 2);
	free(got);
	/* long labels are slanted and shortened; the chart stays well formed */
	got = format_sample(print_svg, "a-very-long-label-\xc3\xa9\xc3\xa9\xc3\xa9"
				"-for-some-filesystem");
	assert_true(xml_well_formed(got));
	assert_non_null(strstr(got, "rotate(-35"));
	assert_non_null(strstr(got, ">a-very-long-label-\xc3\xa9\xc3\xa9\xc3\xa9-fo...</text>"));
	free(got);
}

/* The mean is written on its bar, never above the whisker (where it would read as the
 * maximum); the bars that differ significantly from the baseline carry a star; the
 * configuration is the subtitle; no empty band between the labels and the axis title. */
static void test_svg_reads_right(void **state)
{
	(void)state;
	char *got = format_sample(print_svg, "solo");
	size_t bars = 0, stars = 0;
	double last_right = 0;
	for (const char *g = got; (g = strstr(g, "<g class=\"bar\">")) != NULL; g++) {
		double top = attr_num(strstr(g, "<rect "), "y");
		double height = attr_num(strstr(g, "<rect "), "height");
		double text_y = attr_num(strstr(g, "<text class=\"mean\""), "y");
		if (!(text_y > top && text_y < top + height))
			fail_msg("bar %zu: mean at y=%.1f, bar from %.1f to %.1f", bars, text_y, top,
				 top + height);
		const char *end = strstr(g, "</g>");
		const char *star = strstr(g, "class=\"significant\"");
		stars += star != NULL && star < end;
		/* the whisker (min to max) never crosses the number: it is drawn from ylo up to
		 * yhi at the bar's centre, and the text's baseline must be 12 px below ylo or
		 * at or above yhi */
		const char *path = strstr(g, "<path d=\"M");
		if (path != NULL && path < end) {
			double x, ylo, yhi;
			assert_int_equal(sscanf(path, "<path d=\"M%lf %lfV%lf", &x, &ylo, &yhi), 3);
			if (text_y > yhi && text_y - 12 < ylo)
				fail_msg("bar %zu: mean at y=%.1f, whisker from %.1f to %.1f", bars,
					 text_y, yhi, ylo);
		}
		last_right = attr_num(strstr(g, "<rect "), "x") + attr_num(strstr(g, "<rect "), "width");
		bars++;
	}
	assert_int_equal(bars, 3);
	/* the plot takes the chart's width: the last bar ends within its last slot */
	double width = attr_num(got, "width");
	assert_true(width >= 640);
	assert_true(last_right > width - 40 - (width - 120) / 3 * 0.5);
	assert_int_equal(stars, 1);   /* xfs only: ext4 is the baseline, solo has one run */
	const char *xfs = strstr(got, "<title>xfs: ");
	assert_non_null(xfs);
	assert_true(strstr(xfs, "class=\"significant\"") < strstr(xfs, "</g>"));
	assert_non_null(strstr(got, "* differs from it (p&lt;0.05)"));
	assert_non_null(strstr(got, "<text class=\"config\""));
	assert_non_null(strstr(got, ">bs=4096, direct, &lt;sync&gt;</text>"));
	/* the axis title sits just below the labels, at the bottom of the chart */
	double height = attr_num(got, "height");
	double label_y = attr_num(text_element(got, ">ext4</text>"), "y");
	double title_y = attr_num(text_element(got, ">label</text>"), "y");
	assert_true(title_y - label_y <= 24);
	assert_true(height - title_y <= 16);
	free(got);
}

/* What the runs share, from the configuration the inputs give. */
/* Runs under one label made with different settings are split by those settings, each
 * part named after what differs, and never averaged together; a baseline naming the
 * label alone is refused with the names to use instead. */
static void test_split_by_settings(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512], note[512];
	(void)state;
	const char *csv =
		"label,run,bytes,secs,bytes_per_sec,bs,direct,sync,qd,source\n"
		"ext4-loop,1,1000000,1,1000000,4096,1,fsync,1,zero\n"
		"ext4-loop,1,9000000,1,9000000,1048576,1,fsync,1,zero\n"
		"xfs,1,5000000,1,5000000,1048576,1,fsync,1,zero\n"
		"ext4-loop,2,1200000,1,1200000,4096,1,fsync,1,zero\n"
		"ext4-loop,2,9400000,1,9400000,1048576,1,fsync,1,zero\n"
		"xfs,2,5200000,1,5200000,1048576,1,fsync,1,zero\n"
		"mix,1,100,1,100,4096,1,fsync,8,random\n"
		"mix,1,100,1,100,4096,0,fsync,1,zero\n"
		"src,1,100,1,100,4096,1,fsync,1,zero\n"
		"src,1,300,1,300,4096,1,fsync,1,random\n";
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, csv, "x.csv", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 7);
	assert_string_equal(a.groups[0].label, "ext4-loop bs=4k");
	assert_string_equal(a.groups[1].label, "ext4-loop bs=1M");
	assert_string_equal(a.groups[2].label, "xfs");
	assert_string_equal(a.groups[3].label, "mix direct qd8 random");
	assert_string_equal(a.groups[4].label, "mix buffered qd1 zero");
	/* the source alone is enough: zeros and fresh data are different measurements */
	assert_string_equal(a.groups[5].label, "src zero");
	assert_string_equal(a.groups[6].label, "src random");
	assert_true(a.groups[5].n == 1 && a.groups[6].n == 1);

	assert_true(a.groups[0].n == 2 && a.groups[0].sum.mean == 1100000);
	assert_true(a.groups[1].n == 2 && a.groups[1].sum.mean == 9200000);
	assert_false(a.groups[2].split);
	assert_int_equal(vb_report_split_note(&a, 0, note, sizeof note), 1);
	assert_string_equal(note, "note: label \"ext4-loop\" holds runs made with different "
			    "settings, which are never averaged together: reported as \"ext4-loop "
			    "bs=4k\", \"ext4-loop bs=1M\"");
	assert_int_equal(vb_report_split_note(&a, 1, note, sizeof note), 0);
	assert_int_equal(vb_report_split_note(&a, 2, note, sizeof note), 0);
	vb_comparison_free(&a);
	assert_int_equal(vb_report_compare(&d, "ext4-loop", &a, err, sizeof err), -1);
	assert_string_equal(err, "--baseline \"ext4-loop\" holds runs with different settings; "
			    "name one of \"ext4-loop bs=4k\", \"ext4-loop bs=1M\"");
	assert_int_equal(vb_report_compare(&d, "ext4-loop bs=1M", &a, err, sizeof err), 0);
	assert_int_equal(a.baseline, 1);
	assert_int_equal(a.groups[2].verdict, VB_VERDICT_SLOWER);
	vb_comparison_free(&a);
	/* a dd log named like a label of a CSV file: its runs say nothing of their settings */
	assert_int_equal(read_str(&d, "100 bytes transferred in 1.0 secs (100 bytes/sec)\n",
				  "xfs.log", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_string_equal(a.groups[2].label, "xfs bs=1M direct fsync qd1 zero");
	assert_string_equal(a.groups[7].label, "xfs (settings unknown)");
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* Issue 37: rows that vbench writes carry their invocation (session) and its start; a
 * label whose runs were appended by two invocations gets a note with the dates, one of a
 * single invocation none. What is written is what is read back. */
static char *rows_of(const char *label, const char *session, const char *start, bool header)
{
	static struct vb_config cfg;
	static struct vb_env env;
	struct vb_context ctx;
	struct vb_buf b;
	struct vb_run r;

	memset(&ctx, 0, sizeof ctx);
	vb_config_defaults(&cfg);
	memset(&env, 0, sizeof env);
	ctx.cfg = &cfg;
	ctx.env = &env;
	ctx.label = label;
	ctx.session = session;
	ctx.session_start = start;
	vb_buf_init(&b);
	if (header)
		vb_out_csv_header(&b);
	for (uint64_t i = 1; i <= 2; i++) {
		memset(&r, 0, sizeof r);
		r.run = i;
		r.bytes = 1000 + i;
		r.secs = 1.0;
		r.bytes_per_sec = 1000 + i;
		vb_out_csv_row(&b, &ctx, &r, NULL);
	}
	assert_false(b.oom);
	return b.p;
}

static void test_sessions_mixed(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512], note[512], csv[8192];
	(void)state;
	char *s1 = rows_of("ext4", "00c0ffee00000001", "2026-12-01T09:00:00Z", true);
	char *s2 = rows_of("xfs", "00c0ffee00000001", "2026-12-01T09:00:00Z", false);
	char *s3 = rows_of("ext4", "00c0ffee00000002", "2026-12-02T10:40:12Z", false);
	snprintf(csv, sizeof csv, "%s%s%s", s1, s2, s3);
	free(s1);
	free(s2);
	free(s3);
	assert_non_null(strstr(csv, ",session,session_start\r\n"));
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, csv, "fs.csv", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 2);   /* sessions never split a label */
	assert_int_equal(a.groups[0].n, 4);
	assert_int_equal(vb_report_session_note(&a, 0, note, sizeof note), 1);
	assert_string_equal(note, "note: label \"ext4\" holds runs of 2 sessions, started "
			    "2026-12-01T09:00:00Z and 2026-12-02T10:40:12Z: runs appended to one "
			    "file at different times are mixed in; remove the file before a new "
			    "series (rm -f) to keep them apart");
	assert_int_equal(vb_report_session_note(&a, 1, note, sizeof note), 0);
	vb_comparison_free(&a);
	vb_dataset_free(&d);

	/* JSON documents say theirs too; an older file (no session) beside a newer one */
	const char *json =
		"{\"label\": \"vda\", \"session\": \"0a\", \"session_start\": "
		"\"2026-12-01T09:00:00Z\", \"runs\": [{\"run\": 1, \"bytes\": 10, "
		"\"secs\": 1, \"bytes_per_sec\": 10}]}\n"
		"{\"label\": \"vda\", \"session\": \"0b\", \"session_start\": "
		"\"2026-12-03T09:00:00Z\", \"runs\": [{\"run\": 1, \"bytes\": 10, "
		"\"secs\": 1, \"bytes_per_sec\": 11}]}\n"
		"{\"label\": \"vdb\", \"session\": \"0c\", \"runs\": [{\"run\": 1, "
		"\"bytes\": 10, \"secs\": 1, \"bytes_per_sec\": 10}]}\n"
		"{\"label\": \"vdb\", \"runs\": [{\"run\": 2, \"bytes\": 10, \"secs\": 1, "
		"\"bytes_per_sec\": 10}]}\n";
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, json, "x.json", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(vb_report_session_note(&a, 0, note, sizeof note), 1);
	assert_non_null(strstr(note, "\"vda\" holds runs of 2 sessions, started "
				     "2026-12-01T09:00:00Z and 2026-12-03T09:00:00Z: "));
	assert_int_equal(vb_report_session_note(&a, 1, note, sizeof note), 1);
	assert_non_null(strstr(note, "\"vdb\" holds runs of 1 session and runs that do not "
				     "say theirs: "));
	vb_comparison_free(&a);
	vb_dataset_free(&d);

	/* files without the columns, and a field that is not an id, say nothing */
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, "label,run,bytes,secs,bytes_per_sec,session\n"
				  "a,1,1,1,1,x\n" "a,2,1,1,1,\n", "old.csv", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(vb_report_session_note(&a, 0, note, sizeof note), 0);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* The p-value is printed once: in the verdict when it is "no significant difference",
 * else beside the test; markdown has a column for it. */
static void test_p_printed_once(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	struct mem m;
	(void)state;
	vb_dataset_init(&d);
	static const double x[] = {10e6, 12e6, 14e6}, y[] = {11e6, 13e6, 15e6};
	for (int i = 0; i < 3; i++) {
		assert_int_equal(vb_dataset_add(&d, "x", (uint64_t)i + 1, 1000, 1, x[i]), 0);
		assert_int_equal(vb_dataset_add(&d, "y", (uint64_t)i + 1, 1000, 1, y[i]), 0);
	}
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	FILE *f = mem_open(&m);
	assert_int_equal(vb_report_print_text(f, &a), 0);
	char *text = mem_close(&m);
	const char *line = strstr(text, "\ny ");
	assert_non_null(line);
	const char *p = strstr(line, "p=");
	assert_non_null(p);
	assert_null(strstr(p + 2, "p="));
	assert_non_null(strstr(line, ": no significant difference (p=0.57)\n"));
	free(text);
	f = mem_open(&m);
	assert_int_equal(vb_report_print_markdown(f, &a), 0);
	text = mem_close(&m);
	assert_non_null(strstr(text, " | no significant difference |\n"));
	free(text);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

static void test_config_text(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256], buf[256];
	(void)state;
	const char *csv =
		"label,run,bytes,secs,bytes_per_sec,bs,direct,sync,qd\n"
		"a,1,100,1,100,4096,1,fsync,8\n"
		"a,2,100,1,100,4096,1,fsync,8\n"
		"b,1,100,1,100,4096,1,fsync,8\n";
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, csv, "x.csv", err, sizeof err), 0);
	assert_int_equal(d.samples[0].cfg.bs, 4096);
	assert_int_equal(d.samples[0].cfg.qd, 8);
	assert_int_equal(d.samples[0].cfg.direct, 1);
	assert_string_equal(d.samples[0].cfg.sync, "fsync");
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_string_equal(vb_report_config_text(&a, &d, buf, sizeof buf),
			    "bs=4k, direct, sync fsync, qd 8, source unknown, 1 to 2 runs per label");
	vb_comparison_free(&a);
	/* another depth, buffered, from a file of before --qd (no qd column: depth 1) */
	assert_int_equal(read_str(&d, "label,run,bytes,secs,bytes_per_sec,bs,direct,sync\n"
				      "b,2,100,1,100,4096,0,fsync\n", "old.csv", err, sizeof err), 0);
	assert_int_equal(d.samples[3].cfg.qd, 1);
	assert_int_equal(d.samples[3].cfg.direct, 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_string_equal(vb_report_config_text(&a, &d, buf, sizeof buf),
			    "bs=4k, direct differs, sync fsync, qd differs, source unknown, 1 to 2 runs "
			    "per label");
	vb_comparison_free(&a);
	/* JSON carries it in "config"; a dd log says nothing, which makes it unknown */
	const char *json = "{\"label\": \"j\", \"config\": {\"bs\": 65536, \"direct\": false, "
			   "\"sync\": \"dsync\", \"qd\": 4, \"source\": \"random\"}, \"runs\": [{\"run\": 1, "
			   "\"bytes\": 100, \"secs\": 1, \"bytes_per_sec\": 100}]}";
	vb_dataset_free(&d);
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, json, "j.json", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_string_equal(vb_report_config_text(&a, &d, buf, sizeof buf),
			    "bs=64k, buffered, sync dsync, qd 4, source random, 1 run per label");
	vb_comparison_free(&a);
	assert_int_equal(read_str(&d, "100 bytes transferred in 1.0 secs (100 bytes/sec)\n",
				  "dd.log", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_string_equal(vb_report_config_text(&a, &d, buf, sizeof buf),
			    "bs differs, direct differs, sync differs, qd differs, source differs, 1 run "
			    "per label");
	vb_comparison_free(&a);
	/* an odd sync name is not taken (it would be printed) */
	vb_dataset_free(&d);
	vb_dataset_init(&d);
	assert_int_equal(read_str(&d, "label,run,bytes,secs,bytes_per_sec,sync\n"
				      "a,1,100,1,100,\"\x1b[2J\"\n", "y.csv", err, sizeof err), 0);
	assert_string_equal(d.samples[0].cfg.sync, "");
	vb_dataset_free(&d);
}

/* ---------------------------------------------------------------------------------- */
/* Command line                                                                       */
/* ---------------------------------------------------------------------------------- */

/* A scratch directory with the files the CLI tests read. */
struct scratch {
	char dir[64];
	char csv[128], log[128], empty[128], svg[128], missing[128];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int scratch_setup(void **state)
{
	struct scratch *s = calloc(1, sizeof *s);
	if (s == NULL)
		return -1;
	strcpy(s->dir, "/tmp/vb_report_test.XXXXXX");
	if (mkdtemp(s->dir) == NULL)
		return -1;
	snprintf(s->csv, sizeof s->csv, "%s/runs.csv", s->dir);
	snprintf(s->log, sizeof s->log, "%s/old-disk.log", s->dir);
	snprintf(s->empty, sizeof s->empty, "%s/empty.csv", s->dir);
	snprintf(s->svg, sizeof s->svg, "%s/chart.svg", s->dir);
	snprintf(s->missing, sizeof s->missing, "%s/missing.csv", s->dir);
	write_file(s->csv, "label,run,bytes,secs,bytes_per_sec,bs,count\n"
			   "ext4,1,10000000,1,10000000,1048576,1\next4,2,12000000,1,12000000,1048576,1\n"
			   "ext4,3,14000000,1,14000000,1048576,1\n"
			   "label,run,bytes,secs,bytes_per_sec,bs,count\n"
			   "xfs,1,20000000,1,20000000,1048576,1\nxfs,2,22000000,1,22000000,1048576,1\n"
			   "xfs,3,24000000,1,24000000,1048576,1\n");
	write_file(s->log, "1000000 bytes transferred in 0.100000 secs (10000000 bytes/sec)\n"
			   "1000000 bytes (1.0 MB, 977 KiB) copied, 0.08 s, 12.5 MB/s\n");
	write_file(s->empty, "");
	*state = s;
	return 0;
}

static int scratch_teardown(void **state)
{
	struct scratch *s = *state;
	unlink(s->csv);
	unlink(s->log);
	unlink(s->empty);
	unlink(s->svg);
	rmdir(s->dir);
	free(s);
	return 0;
}

/* Runs vb_report_main on a NULL-terminated argument list; returns the exit status and
 * the text of out and err (the caller frees them). */
static int run_cli(char **out, char **err, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, err);
	argv[argc++] = "report";
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	struct mem mo, me;
	int rc = vb_report_main(argc, argv, mem_open(&mo), mem_open(&me));
	*out = mem_close(&mo);
	*err = mem_close(&me);
	return rc;
}

static void test_cli_report(void **state)
{
	struct scratch *s = *state;
	char *out, *err;
	/* options after the files, as the contract allows */
	int rc = run_cli(&out, &err, s->csv, s->log, "--format", "markdown", "--baseline=xfs",
			 "--svg", s->svg, NULL);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "| bytes/sec | ext4 | xfs | old-disk |\n"));
	assert_non_null(strstr(out, "| run 2 | 12000000 | 22000000 | 12500000 |\n"));
	assert_non_null(strstr(out, "| xfs | 22000000.0 | 22.0 | 1.00 |  |  |  |  | baseline |\n"));
	free(out);
	free(err);
	FILE *f = fopen(s->svg, "r");
	assert_non_null(f);
	char buf[16384];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_true(xml_well_formed(buf));
	assert_non_null(strstr(buf, ">old-disk</text>"));
	rc = run_cli(&out, &err, "--format=json", "--", s->csv, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"baseline\": \"ext4\""));
	free(out);
	free(err);
}

static void test_cli_errors(void **state)
{
	struct scratch *s = *state;
	char *out, *err, want[256];
	assert_int_equal(run_cli(&out, &err, s->csv, s->missing, NULL), 1);
	snprintf(want, sizeof want, "vbench report: cannot open %s: No such file or directory\n",
		 s->missing);
	assert_string_equal(err, want);
	assert_string_equal(out, "");
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->empty, s->log, NULL), 1);
	snprintf(want, sizeof want, "vbench report: %s: empty file\n", s->empty);
	assert_string_equal(err, want);
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->dir, NULL), 1);
	assert_non_null(strstr(err, "cannot read"));
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->csv, "--baseline", "zfs", NULL), 1);
	assert_non_null(strstr(err, "unknown baseline label \"zfs\""));
	free(out);
	free(err);
	/* Each usage error is one line: what was wrong, and the way on. */
	static const char *const usage[][3] = {
		{"--format", "xml", "unknown format 'xml' (text, markdown, csv, json)\n"},
		{"--svg", NULL, "option --svg needs a value\n"},
		{"--frobnicate", NULL, "unknown option '--frobnicate' (see vbench report --help)\n"},
		{"--svgg", "x.svg", "unknown option '--svgg': did you mean --svg?\n"},
		{"--baselin=ext4", NULL, "unknown option '--baselin': did you mean --baseline?\n"},
		{NULL, NULL, "no input files: name vbench CSV, JSON or --trace files, or a saved "
			     "log (see vbench report --help)\n"}};
	for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
		char line[200];
		assert_int_equal(run_cli(&out, &err, usage[i][0], usage[i][1], NULL), 1);
		snprintf(line, sizeof line, "vbench report: %s", usage[i][2]);
		assert_string_equal(err, line);
		free(out);
		free(err);
	}
	assert_int_equal(run_cli(&out, &err, "--help", NULL), 0);
	assert_non_null(strstr(out, "usage: vbench report"));
	assert_string_equal(err, "");
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", "/nonexistent-dir/x.svg", NULL), 1);
	assert_non_null(strstr(err, "--svg /nonexistent-dir/x.svg: cannot open its directory"));
	free(out);
	free(err);
}

/* Options follow vbench's own rules: once each, and no option taken for a value. */
static void test_cli_option_rules(void **state)
{
	struct scratch *s = *state;
	char *out, *err;
	static const char *const cases[][4] = {
		{"--format", "csv", "--format=json", "--format=json: given twice (already as --format)"},
		{"-f", "csv", "--format=csv", "given twice"},
		{"--svg", "--format", "csv", "option --svg needs a value"},
		{"--baseline", "-f", "csv", "option --baseline needs a value"},
		{"--force", "--force", "x", "--force: given twice"},
		{"--svg=", "x", "y", "--svg: the value is empty"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(run_cli(&out, &err, s->csv, cases[i][0], cases[i][1], cases[i][2],
					 NULL), 1);
		if (strstr(err, cases[i][3]) == NULL)
			fail_msg("'%s' lacks '%s'", err, cases[i][3]);
		free(out);
		free(err);
	}
	assert_int_equal(run_cli(&out, &err, s->csv, "--force", NULL), 1);
	assert_non_null(strstr(err, "--force applies to --svg"));
	free(out);
	free(err);
}

/* The same file twice would count its runs twice: refused, under any name. */
static void test_cli_file_given_twice(void **state)
{
	struct scratch *s = *state;
	char *out, *err, alias[200];
	snprintf(alias, sizeof alias, "%s/alias.csv", s->dir);
	assert_int_equal(link(s->csv, alias), 0);
	assert_int_equal(run_cli(&out, &err, s->csv, alias, NULL), 1);
	assert_non_null(strstr(err, "given twice"));
	assert_string_equal(out, "");
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->csv, s->csv, NULL), 1);
	free(out);
	free(err);
	unlink(alias);
}

/* Control bytes from an input never reach the terminal raw in a message. */
static void test_cli_errors_escaped(void **state)
{
	struct scratch *s = *state;
	char *out, *err;
	write_file(s->empty, "label,run,bytes,secs,bytes_per_sec\n\x1b[31mevil\x07,x,1,1,1\n");
	assert_int_equal(run_cli(&out, &err, s->empty, NULL), 1);
	assert_null(strchr(err, '\x1b'));
	assert_null(strchr(err, '\x07'));
	free(out);
	free(err);
	write_file(s->empty, "");
}

static bool has_mark(const char *path)
{
	char head[256] = {0};
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return false;
	size_t n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	return strstr(head, VB_SVG_MARK) != NULL;
}

static char *contents(const char *path)
{
	static char text[256];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

/* --svg never follows a link, never overwrites an input, and replaces a file it did not
 * write only with --force; its own chart it replaces, through a new file and a rename. */
static void test_cli_svg_never_clobbers(void **state)
{
	struct scratch *s = *state;
	char *out, *err, victim[200], other[200];
	snprintf(victim, sizeof victim, "%s/victim", s->dir);
	snprintf(other, sizeof other, "%s/other.svg", s->dir);
	write_file(victim, "precious\n");
	/* its own input */
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", s->csv, "--force", NULL), 1);
	assert_non_null(strstr(err, "is an input of this report"));
	assert_non_null(strstr(contents(s->csv), "label,run,bytes"));
	free(out);
	free(err);
	/* a link planted where the chart goes */
	assert_int_equal(symlink(victim, s->svg), 0);
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", s->svg, "--force", NULL), 1);
	assert_non_null(strstr(err, "symbolic link"));
	assert_string_equal(contents(victim), "precious\n");
	free(out);
	free(err);
	unlink(s->svg);
	/* a file vbench did not write */
	write_file(other, "someone's drawing\n");
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", other, NULL), 1);
	assert_non_null(strstr(err, "not written by vbench report; add --force"));
	assert_string_equal(contents(other), "someone's drawing\n");
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", other, "--force", NULL), 0);
	assert_true(has_mark(other));
	free(out);
	free(err);
	/* its own chart: replaced without --force */
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", s->svg, NULL), 0);
	assert_true(has_mark(s->svg));
	free(out);
	free(err);
	assert_int_equal(run_cli(&out, &err, s->csv, "--svg", s->svg, NULL), 0);
	free(out);
	free(err);
	/* nothing but the files named is left in the directory */
	char cmd[300];
	snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s' | grep -c vbench-svg)\" = 0", s->dir);
	assert_int_equal(system(cmd), 0);
	unlink(victim);
	unlink(other);
}

/* Many labels: each is found again by its name (a quadratic reader took 95 s for 200,000
 * labels; this one is linear). */
static void test_many_labels(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char label[32], err[256];
	(void)state;
	vb_dataset_init(&d);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 200000; i++) {
			snprintf(label, sizeof label, "label-%d", i);
			assert_int_equal(vb_dataset_add(&d, label, (uint64_t)round + 1, 1000, 1.0,
							1000.0 + i + round), 0);
		}
	assert_int_equal(d.n_labels, 200000);
	assert_int_equal(d.n_samples, 400000);
	assert_int_equal(d.samples[200000 + 123456].label, 123456);
	assert_string_equal(d.labels[199999], "label-199999");
	assert_int_equal(vb_report_compare(&d, "label-150000", &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 200000);
	assert_int_equal(a.baseline, 150000);
	assert_int_equal(a.groups[7].n, 2);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* The verdict against the significance level: p of 0.29, 0.07 and 0.037 (Welch, df 4;
 * the p of each pair is checked too) pin the threshold between 0.037 and 0.07. */
static void verdict_of(const double *a, const double *b, double p_lo, double p_hi,
		       const char *want)
{
	struct vb_dataset d;
	struct vb_comparison c;
	char err[256], v[96];
	vb_dataset_init(&d);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(vb_dataset_add(&d, "base", 1, 1, 1, a[i]), 0);
		assert_int_equal(vb_dataset_add(&d, "other", 1, 1, 1, b[i]), 0);
	}
	assert_int_equal(vb_report_compare(&d, NULL, &c, err, sizeof err), 0);
	if (!(c.groups[1].cmp.p > p_lo && c.groups[1].cmp.p < p_hi))
		fail_msg("p = %g, expected between %g and %g", c.groups[1].cmp.p, p_lo, p_hi);
	vb_report_verdict(&c.groups[1], v, sizeof v);
	assert_string_equal(v, want);
	vb_comparison_free(&c);
	vb_dataset_free(&d);
}

static void test_significance_threshold(void **state)
{
	(void)state;
	const double base[] = {10, 12, 14}, near[] = {12, 14, 16};
	verdict_of(base, near, 0.2, 0.4, "no significant difference (p=0.29)");
	const double tight[] = {10, 11, 12}, above[] = {12, 13, 14}, below[] = {12.5, 13.5, 14.5};
	verdict_of(tight, above, 0.06, 0.08, "no significant difference (p=0.07)");
	verdict_of(tight, below, 0.03, 0.045, "1.23x faster, significant at p<0.05");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_field_quoting),
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_csv_appended_loop),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_reader_rolls_back),
		cmocka_unit_test(test_json_string_escaping),
		cmocka_unit_test(test_json_reader),
		cmocka_unit_test(test_json_depth_limit),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_dd_bsd_lines),
		cmocka_unit_test(test_dd_gnu_lines),
		cmocka_unit_test(test_dd_non_lines),
		cmocka_unit_test(test_text_log),
		cmocka_unit_test(test_empty_and_lineless_inputs),
		cmocka_unit_test(test_analysis_numbers),
		cmocka_unit_test(test_analysis_unequal_variances),
		cmocka_unit_test(test_verdicts_and_baseline),
		cmocka_unit_test(test_significance_threshold),
		cmocka_unit_test(test_markdown_output),
		cmocka_unit_test(test_split_by_settings),
		cmocka_unit_test(test_sessions_mixed),
		cmocka_unit_test(test_p_printed_once),
		cmocka_unit_test(test_text_output),
		cmocka_unit_test(test_csv_output),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_svg_output),
		cmocka_unit_test(test_svg_reads_right),
		cmocka_unit_test(test_config_text),
		cmocka_unit_test_setup_teardown(test_cli_report, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_cli_errors, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_cli_option_rules, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_cli_file_given_twice, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_cli_errors_escaped, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_cli_svg_never_clobbers, scratch_setup,
						scratch_teardown),
		cmocka_unit_test(test_many_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
