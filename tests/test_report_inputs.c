/* What vbench report takes as runs, and how it prints them (attack report after issue
 * 32): rows cut short, runs read twice, rates that contradict their own figures, groups
 * that must be kept apart, names that must not clash, text that must not reach a
 * terminal raw. */
#include "vb_test.h"
#include "common/vb_escape.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/vb_report.h"
#include "common/vb_schema.h"
#include "report/report_internal.h"

/* The header vbench writes, with its CRLF. */
static void header(char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < VB_N_COLS; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "," : "", vb_csv_names[i]);
	snprintf(buf + len, n - len, "\r\n");
}

/* A run row as vbench writes it; set is "col=value|col=value" overriding the defaults. */
static void row(char *buf, size_t n, const char *set)
{
	const char *v[VB_N_COLS];
	char over[VB_N_COLS][96];

	for (int i = 0; i < VB_N_COLS; i++)
		v[i] = "0";
	v[VB_COL_LABEL] = "a";
	v[VB_COL_RUN] = "1";
	v[VB_COL_BYTES] = "1048576";
	v[VB_COL_SECS] = "0.010000";
	v[VB_COL_BPS] = "104857600";
	v[VB_COL_BS] = "65536";
	v[VB_COL_COUNT] = "16";
	v[VB_COL_SOURCE] = "zero";
	v[VB_COL_SYNC] = "fsync";
	v[VB_COL_FS] = "ext4";
	v[VB_COL_DEVICE] = "vda";
	v[VB_COL_STATUS] = "ok";
	v[VB_COL_QD] = "1";
	v[VB_COL_SCHEMA] = "1";
	v[VB_COL_INTERVALS] = "";
	v[VB_COL_FLUSH_VERDICT] = "";
	v[VB_COL_WRITE_CACHE] = "";
	v[VB_COL_IO] = "";
	v[VB_COL_SESSION] = "00112233aabbccdd";
	v[VB_COL_SESSION_START] = "2026-12-02T10:40:12Z";
	char copy[1024];
	snprintf(copy, sizeof copy, "%s", set);
	for (char *tok = strtok(copy, "|"); tok != NULL; tok = strtok(NULL, "|")) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		*eq = '\0';
		int c = 0;
		while (c < VB_N_COLS && strcmp(vb_csv_names[c], tok) != 0)
			c++;
		assert_true(c < VB_N_COLS);
		snprintf(over[c], sizeof over[c], "%s", eq + 1);
		v[c] = over[c];
	}
	size_t len = 0;
	for (int i = 0; i < VB_N_COLS; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "," : "", v[i]);
	snprintf(buf + len, n - len, "\r\n");
}

/* A CSV of header and rows (each a row() override set; NULL ends). */
static char *csv_of(const char *first, ...)
{
	static char text[65536];
	size_t len;
	va_list ap;

	header(text, sizeof text);
	len = strlen(text);
	va_start(ap, first);
	for (const char *s = first; s != NULL; s = va_arg(ap, const char *)) {
		row(text + len, sizeof text - len, s);
		len += strlen(text + len);
	}
	va_end(ap);
	return text;
}

/* Reading text fails naming want. */
static void refused(const char *text, size_t len, const char *want)
{
	struct vb_dataset d;
	char err[512] = "";

	vb_dataset_init(&d);
	assert_int_equal(vb_report_read(&d, text, len, "r.csv", err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
	assert_int_equal(d.n_samples, 0);
	vb_dataset_free(&d);
}

/* Reading text succeeds with n runs. */
static void read_ok(struct vb_dataset *d, const char *text, size_t n)
{
	char err[512] = "";

	vb_dataset_init(d);
	if (vb_report_read(d, text, strlen(text), "r.csv", err, sizeof err) != 0)
		fail_msg("%s", err);
	assert_int_equal(d->n_samples, n);
}

/* A row cut anywhere, or run on with more fields, is refused naming its line. */
static void test_cut_rows(void **state)
{
	(void)state;
	char *t = csv_of("run=1", "run=2", "run=3", (const char *)NULL);
	size_t len = strlen(t), last = len - 2;

	while (last > 0 && t[last - 1] != '\n')
		last--;
	/* every cut of the last row (but none at all) is refused */
	for (size_t cut = last + 1; cut < len - 2; cut++)
		refused(t, cut, "r.csv:4: ");
	refused(t, len - 1, "r.csv:4: the last row ends without its line break");
	refused(t, last + 22, "r.csv:4: row has 5 fields, the header 48");
	/* a cut row followed by a later append */
	char two[70000];
	snprintf(two, sizeof two, "%.*s\r\n%s", (int)(last + 22), t, t + last);
	refused(two, strlen(two), "r.csv:4: row has 5 fields");
	/* a row run on with more fields */
	snprintf(two, sizeof two, "%.*s,x\r\n", (int)(len - 2), t);
	refused(two, strlen(two), "r.csv:4: row has 49 fields, the header 48");
	struct vb_dataset d;
	read_ok(&d, t, 3);
	vb_dataset_free(&d);
}

/* A run that stopped early is no run, whatever its partial column says. */
static void test_stopped_status(void **state)
{
	(void)state;
	struct vb_dataset d;
	static const char *const words[] = {"interrupted", "timeout", "noprogress", "error"};

	for (size_t i = 0; i < 4; i++) {
		char set[64];
		snprintf(set, sizeof set, "run=4|status=%s|bytes_per_sec=5", words[i]);
		read_ok(&d, csv_of("run=1", "run=2", set, (const char *)NULL), 2);
		assert_int_equal(d.skipped_warmup, 1);
		vb_dataset_free(&d);
	}
	char *t = csv_of("run=1", "run=2|status=crashed", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: column status: \"crashed\" is none of the words");
	const char *j = "{\"label\": \"a\", \"runs\": [{\"run\": 1, \"status\": \"error\", "
			"\"bytes\": 5, \"secs\": 1.000000, \"bytes_per_sec\": 5},\n"
			"{\"run\": 2, \"status\": \"ok\", \"bytes\": 5, \"secs\": 1.000000, "
			"\"bytes_per_sec\": 5}]}\n";
	read_ok(&d, j, 1);
	assert_int_equal(d.skipped_warmup, 1);
	vb_dataset_free(&d);
	const char *jb = "{\"label\": \"a\", \"runs\": [{\"run\": 1, \"status\": 7, "
			 "\"bytes\": 5, \"secs\": 1.000000, \"bytes_per_sec\": 5}]}\n";
	refused(jb, strlen(jb), "\"status\" is none of the words");
}

/* Reads each text in turn (as files named f1, f2, ...) into d; the error of the first
 * that fails, or "". */
static void read_all(struct vb_dataset *d, const char *const *texts, size_t n, char *err,
		     size_t errlen)
{
	vb_dataset_init(d);
	err[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char name[24];
		snprintf(name, sizeof name, "f%zu", i + 1);
		if (vb_report_read(d, texts[i], strlen(texts[i]), name, err, errlen) < 0)
			return;
	}
}

/* The runs of one session under many labels spread over the index of runs: with a hash
 * that let the label reach only its high bits, they all took one slot and reading 100,000
 * labels took minutes instead of a second. */
static void test_run_hash_spreads_labels(void **state)
{
	(void)state;
	enum { N = 8192, SLOTS = 16384 };
	static unsigned char seen[SLOTS];
	struct vb_sample s;
	size_t distinct = 0;

	memset(&s, 0, sizeof s);
	snprintf(s.cfg.session, sizeof s.cfg.session, "00112233aabbccdd");
	for (size_t i = 0; i < N; i++) {
		s.label = i / 2;
		s.run = 1 + i % 2;
		size_t k = vbr_run_hash(&s) & (SLOTS - 1);
		distinct += !seen[k];
		seen[k] = 1;
	}
	/* (a uniform hash fills about 6,400 of them; the flawed one filled 2) */
	if (distinct < N / 2)
		fail_msg("%zu runs took only %zu of %d slots", (size_t)N, distinct, SLOTS);
}

/* The same runs read twice (a copy of a file, a JSON document twice) count once. */
static void test_runs_read_twice(void **state)
{
	(void)state;
	struct vb_dataset d;
	char err[512], copy[65536];
	const char *t = csv_of("run=1", "run=2|secs=0.020000|bytes_per_sec=52428800",
			       (const char *)NULL);

	snprintf(copy, sizeof copy, "%s", t);
	const char *two[] = {copy, t};
	read_all(&d, two, 2, err, sizeof err);
	assert_string_equal(err, "");
	assert_int_equal(d.n_samples, 2);
	assert_int_equal(d.skipped_dup, 2);
	vb_dataset_free(&d);
	/* many runs of one session: each is in the index of runs once, however it grew */
	char many[16384];
	size_t k = (size_t)snprintf(many, sizeof many, "{\"label\": \"a\", \"session\": "
				    "\"00112233aabbccdd\", \"runs\": [");
	for (int r = 1; r <= 100; r++)
		k += (size_t)snprintf(many + k, sizeof many - k, "%s{\"run\": %d, \"bytes\": 5, "
				      "\"secs\": 1.000000, \"bytes_per_sec\": 5}",
				      r > 1 ? ", " : "", r);
	snprintf(many + k, sizeof many - k, "]}\n");
	read_ok(&d, many, 100);
	assert_int_equal(d.n_keyed, 100);
	vb_dataset_free(&d);
	/* one JSON document twice in one file */
	const char *doc = "{\"label\": \"a\", \"session\": \"00112233aabbccdd\", \"runs\": ["
			  "{\"run\": 1, \"bytes\": 1048576, \"secs\": 0.010000, "
			  "\"bytes_per_sec\": 104857600}]}\n";
	char j2[1024];
	snprintf(j2, sizeof j2, "%s%s", doc, doc);
	read_ok(&d, j2, 1);
	assert_int_equal(d.skipped_dup, 1);
	vb_dataset_free(&d);
	/* and the CSV and the JSON of one session are one set of runs */
	const char *mixed[] = {t, doc};
	read_all(&d, mixed, 2, err, sizeof err);
	assert_string_equal(err, "");
	assert_int_equal(d.n_samples, 2);
	vb_dataset_free(&d);
	/* one identity, two results: refused, and the file left out whole */
	snprintf(copy, sizeof copy, "%s", t);
	const char *other = csv_of("run=2|secs=0.030000|bytes_per_sec=34952533",
				   (const char *)NULL);
	const char *clash[] = {copy, other};
	read_all(&d, clash, 2, err, sizeof err);
	if (strstr(err, "f2:2: run 2 of session 00112233aabbccdd was read before") == NULL)
		fail_msg("%s", err);
	assert_int_equal(d.n_samples, 2);
	vb_dataset_free(&d);
	/* runs of other sessions, or of none recorded, are all kept */
	const char *s2 = csv_of("run=1|session=0011223344556677", "run=1|session=",
				"run=1|session=", (const char *)NULL);
	read_ok(&d, s2, 3);
	assert_int_equal(d.skipped_dup, 0);
	vb_dataset_free(&d);
}

/* Prints a in fmt (4: the SVG chart) into a new string. */
static char *print_as(const struct vb_comparison *a, int fmt, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (fmt == 4)
		assert_int_equal(vb_report_print_svg(f, a, "bs=64k"), 0);
	else
		assert_int_equal(vb_report_print(f, a, (enum vb_report_format)fmt), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* No output format passes a terminal escape, a bare CR or LF, a C1 control or a byte that
 * is not UTF-8 from a label, a file system or a device name (findings 3 and 11). */
static void test_one_escaping_rule(void **state)
{
	(void)state;
	const char *nasty = "L\x1b[31mRED\nrun 9\r\xc2\x9b" "2J\xff\xfe" "A";
	char set[256], set2[256];
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512];

	snprintf(set, sizeof set, "label=\"%s\"|fs=x\x1b]0;T\x07|device=\xc2\x9b" "1", nasty);
	snprintf(set2, sizeof set2, "label=\"%s\"|run=2|fs=x\x1b]0;T\x07|device=\xc2\x9b" "1",
		 nasty);
	read_ok(&d, csv_of(set, set2, "label=b", (const char *)NULL), 3);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	for (int fmt = 0; fmt <= 4; fmt++) {
		size_t len;
		char *out = print_as(&a, fmt, &len);
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)out[i];
			if (c == 0x1b || c == 0x07 || c == 0xff || c == 0xfe ||
			    (c == 0xc2 && i + 1 < len && (unsigned char)out[i + 1] == 0x9b) ||
			    (c == '\r' && (i + 1 == len || out[i + 1] != '\n')))
				fail_msg("format %d: byte 0x%02x at %zu passed raw", fmt, c, i);
			if (c == '\n' && strncmp(out + i + 1, "run 9", 5) == 0)
				fail_msg("format %d: the label starts a line of its own", fmt);
		}
		if (fmt == VB_REPORT_CSV &&
		    strstr(out, "\r\nL\\x1b[31mRED\\x0arun 9\\x0d\\xc2\\x9b2J\\xff\\xfeA,") == NULL)
			fail_msg("csv: %s", out);
		free(out);
	}
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* Reads text named name: 0 with n runs, or the error holding want. */
static void named(const char *text, const char *name, size_t n, const char *want)
{
	struct vb_dataset d;
	char err[512] = "";

	vb_dataset_init(&d);
	int rc = vb_report_read(&d, text, strlen(text), name, err, sizeof err);
	if (want == NULL && rc != 0)
		fail_msg("%s: %s", name, err);
	if (want != NULL && (rc != -1 || strstr(err, want) == NULL))
		fail_msg("%s: error \"%s\" lacks \"%s\"", name, err, want);
	assert_int_equal(d.n_samples, want == NULL ? n : 0);
	vb_dataset_free(&d);
}

/* A rate is checked against its own bytes and seconds, in every input (finding 4). */
static void test_rate_agrees(void **state)
{
	(void)state;
	const char *why = "disagrees with its bytes and secs";
	char *t = csv_of("run=1", "run=2|bytes_per_sec=10000000000000000000", (const char *)NULL);
	refused(t, strlen(t), why);
	t = csv_of("run=1", "run=2|secs=1e300", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: bytes_per_sec 104857600 disagrees");
	t = csv_of("run=1|bytes=0", (const char *)NULL);
	refused(t, strlen(t), why);
	/* the rate vbench writes: rounded from the unrounded seconds, which are printed
	 * to 6 decimals (1048576 B in 0.0100004 s; in 0.0000015 s) */
	t = csv_of("run=1|secs=0.010000|bytes_per_sec=104852406",
		   "run=2|secs=0.000002|bytes_per_sec=699050666667", (const char *)NULL);
	named(t, "ok.csv", 2, NULL);
	const char *j = "{\"label\": \"a\", \"runs\": [{\"run\": 1, \"bytes\": 0, "
			"\"secs\": 1.000000, \"bytes_per_sec\": -0.0}]}\n";
	named(j, "z.json", 0, "z.json:1: bytes_per_sec -0 is not a finite non-negative");
	j = "{\"label\": \"a\", \"runs\": [{\"run\": 1, \"bytes\": 1048576, "
	    "\"secs\": 0.010000, \"bytes_per_sec\": 1e19}]}\n";
	named(j, "r.json", 0, why);
	named("1048576000 bytes transferred in 2.500000 secs (1 bytes/sec)\n"
	      "1048576000 bytes transferred in 2.000000 secs (524288000 bytes/sec)\n",
	      "bsd.log", 0, "bsd.log:1: bytes_per_sec 1 disagrees");
	named("1048576000 bytes transferred in 2.500000 secs (419430400 bytes/sec)\n"
	      "1048576000 bytes transferred in 2.000 secs (524288000 bytes/sec)\n",
	      "bsd.log", 2, NULL);
	named("4096 bytes (4.1 kB, 4.0 KiB) copied, 1e-15 s, 4 MB/s\n", "gnu.log", 0,
	      "gnu.log:1: bytes_per_sec 4000000 disagrees");
	named("1048576000 bytes (1.0 GB, 1000 MiB) copied, 2.5 s, 419 MB/s\n"
	      "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.23456 s, 870 MB/s\n"
	      "4096 bytes (4.1 kB, 4.0 KiB) copied, 0.000123 s, 33.3 MB/s\n"
	      "1073741824 bytes (1,1 GB, 1,0 GiB) copied, 0,9 s, 1,2 GB/s\n"
	      "1073741824 bytes (1.1 GB) copied, 2 s, 512 MiB/s\n", "gnu.log", 5, NULL);
	named("1073741824 bytes (1.1 GB) copied, 2.000 s, 600 MiB/s\n", "gnu.log", 0, why);
	static const char trace[] = "label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\n"
				    "x,1,0,0.000000,0.001000,1048576,10000000000000000000\r\n";
	struct vbr_trace tr = {0};
	char err[512] = "";
	assert_int_equal(vbr_read_trace(&tr, trace, strlen(trace), "t.csv", err, sizeof err), -1);
	if (strstr(err, "t.csv:2: bytes_per_sec 10000000000000000000 disagrees") == NULL)
		fail_msg("%s", err);
	vbr_trace_free(&tr);
}

/* A --trace file's runs come out per label and run in first-seen order, each with all
 * its samples wherever they lie in the file, warm-up left out. */
static void test_trace_order(void **state)
{
	static const char trace[] = "label,run,warmup,start_secs,secs,bytes,bytes_per_sec\n"
				    "B,2,0,0.000000,1.000000,1000000,1000000\n"
				    "A,1,0,0.000000,1.000000,2000000,2000000\n"
				    "B,1,0,0.000000,1.000000,3000000,3000000\n"
				    "B,2,0,1.000000,1.000000,1000000,1000000\n"
				    "A,1,1,0.000000,1.000000,9000000,9000000\n"
				    "A,3,0,0.000000,1.000000,4000000,4000000\n"
				    "A,1,0,1.000000,1.000000,2000000,2000000\n";
	struct vbr_trace tr = {0};
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	(void)state;
	assert_int_equal(vbr_read_trace(&tr, trace, strlen(trace), "t.csv", err, sizeof err), 0);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(vbr_trace_print(f, &tr), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "B run 2: 2 samples over 2.0 s, 1.0 to 1.0 MB/s, 1.0 MB/s in all\n"
			    "B run 1: 1 samples over 1.0 s, 3.0 to 3.0 MB/s, 3.0 MB/s in all\n"
			    "A run 1: 2 samples over 2.0 s, 2.0 to 2.0 MB/s, 2.0 MB/s in all\n"
			    "A run 3: 1 samples over 1.0 s, 4.0 to 4.0 MB/s, 4.0 MB/s in all\n");
	free(buf);
	vbr_trace_free(&tr);
}

/* Groups of text's runs, their names joined by "|". */
static void groups_of(const char *text, const char *want)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512], names[1024] = "";

	vb_dataset_init(&d);
	assert_int_equal(vb_report_read(&d, text, strlen(text), "r.csv", err, sizeof err), 0);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	for (size_t g = 0; g < a.n_groups; g++)
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", g ? "|" : "",
			 a.groups[g].label);
	assert_string_equal(names, want);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* A value quoted in an error, or a device in a group's name, is cut at a whole character
 * (here 38 bytes, then a 3-byte one over the 40th), with the marker, so that what was
 * left out (a right-to-left override at the end) is never hidden. */
static void test_quotes_cut_at_a_character(void **state)
{
	(void)state;
	const char *tail = "\xe4\xb8\xad" "tail tail tail\xe2\x80\xae";
	char v[128], want[128], t38[39];
	memset(t38, 'd', 38);
	t38[38] = '\0';
	snprintf(v, sizeof v, "run=2|bs=%s%s", t38, tail);
	snprintf(want, sizeof want, "r.csv:3: column bs: \"%s" VB_CUT_END "\" is not a count", t38);
	refused(csv_of("run=1", v, (const char *)NULL), strlen(csv_of("run=1", v, (const char *)NULL)),
		want);
	snprintf(v, sizeof v, "run=2|direct=%s%s", t38, tail);
	snprintf(want, sizeof want, "column direct: \"%s" VB_CUT_END "\" is not 0 or 1", t38);
	refused(csv_of("run=1", v, (const char *)NULL), strlen(csv_of("run=1", v, (const char *)NULL)),
		want);
	snprintf(v, sizeof v, "run=2|device=%s%s", t38, tail);
	snprintf(want, sizeof want, "a ext4 on vda|a ext4 on %s" VB_CUT_END, t38);
	groups_of(csv_of("run=1", v, (const char *)NULL), want);
	/* one that fits is quoted whole */
	snprintf(v, sizeof v, "run=2|bs=%s\xe4\xb8\xad", t38);
	snprintf(want, sizeof want, "column bs: \"%s\xe4\xb8\xad\" is not a count", t38);
	refused(csv_of("run=1", v, (const char *)NULL), strlen(csv_of("run=1", v, (const char *)NULL)),
		want);
}

/* Runs of another size or on another disk under one label are reported apart, named by
 * what differs (finding 5). */
static void test_apart_by_size_and_disk(void **state)
{
	(void)state;
	const char *big = "count=16000|bytes=1048576000|secs=10.000000";
	char b1[128], b2[128];
	snprintf(b1, sizeof b1, "run=4|%s", big);
	snprintf(b2, sizeof b2, "run=5|%s", big);
	groups_of(csv_of("run=1", "run=2", b1, b2, "label=b", (const char *)NULL),
		  "a size=1M|a size=1000M|b");
	groups_of(csv_of("run=1", "run=2", "run=3|fs=tmpfs|device=sdb",
			 "run=4|fs=tmpfs|device=sdb", (const char *)NULL),
		  "a ext4 on vda|a tmpfs on sdb");
	groups_of(csv_of("run=1", "run=2|device=sdb", (const char *)NULL),
		  "a ext4 on vda|a ext4 on sdb");
	groups_of(csv_of("run=1", "run=2|bs=4096|count=256", (const char *)NULL),
		  "a bs=64k|a bs=4k");   /* the same size in other blocks */
	groups_of(csv_of("run=1", "run=2|bs=4096|count=16", (const char *)NULL),
		  "a bs=64k size=1M|a bs=4k size=64k");
	groups_of(csv_of("run=1", "run=2|session=0011223344556677", (const char *)NULL), "a");
	/* two sessions started in one second: the note says they all did */
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512], note[512];
	read_ok(&d, csv_of("run=1", "run=2|session=0011223344556677", (const char *)NULL), 2);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(vb_report_session_note(&a, 0, note, sizeof note), 1);
	assert_non_null(strstr(note, "holds runs of 2 sessions, all started 2026-12-02T10:40:12Z:"));
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* Two groups never print under one name; --baseline naming both is refused (finding 6). */
static void test_names_unique(void **state)
{
	(void)state;
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512];

	/* label a split by bs into "a bs=64k" and "a bs=1M", and a label "a bs=64k" */
	const char *t = csv_of("run=1", "run=2", "run=3|bs=1048576|count=1",
			       "run=4|bs=1048576|count=1", "label=a bs=64k|run=5",
			       "label=a bs=64k|run=6", (const char *)NULL);
	groups_of(t, "a bs=64k #1|a bs=1M|a bs=64k #2");
	read_ok(&d, t, 6);
	assert_int_equal(vb_report_compare(&d, "a bs=64k", &a, err, sizeof err), -1);
	assert_string_equal(err, "--baseline \"a bs=64k\" is ambiguous: two groups or more have "
			    "that name; name one of \"a bs=64k #1\", \"a bs=64k #2\"");
	assert_int_equal(vb_report_compare(&d, "a bs=64k #2", &a, err, sizeof err), 0);
	assert_int_equal(a.baseline, 2);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
	/* labels that differ only in bytes no output shows raw; a label that is a suffix */
	groups_of(csv_of("label=\xff\xfe" "A", "label=\\xff\\xfe" "A|run=2",
			 "label=\\xff\\xfe" "A #1|run=3", (const char *)NULL),
		  "\\xff\\xfeA #1 #1|\\xff\\xfeA #2|\\xff\\xfeA #1 #2");
}

/* The notes on a label's groups follow the label's own groups only (finding 9): many
 * labels, each split, each note right. */
static void test_notes_per_label(void **state)
{
	(void)state;
	static char text[1 << 20];
	struct vb_dataset d;
	struct vb_comparison a;
	char err[512], note[1024], row1[256], row2[256];
	size_t len;

	header(text, sizeof text);
	len = strlen(text);
	for (int i = 0; i < 2000; i++) {
		char set[128];
		snprintf(set, sizeof set, "label=l%d|run=1%s", i, i % 2 ? "|session=00000000000000ff" : "");
		row(row1, sizeof row1, set);
		snprintf(set, sizeof set, "label=l%d|run=2|bs=4096|count=256", i);
		row(row2, sizeof row2, set);
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", row1, row2);
	}
	read_ok(&d, text, 4000);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 4000);
	size_t split = 0, sessions = 0;
	for (size_t g = 0; g < a.n_groups; g++) {
		if (vb_report_split_note(&a, g, note, sizeof note)) {
			char want[256];
			snprintf(want, sizeof want, "reported as \"l%zu bs=64k\", \"l%zu bs=4k\"",
				 g / 2, g / 2);
			assert_non_null(strstr(note, want));
			split++;
		}
		if (vb_report_session_note(&a, g, note, sizeof note)) {
			char want[64];
			snprintf(want, sizeof want, "label \"l%zu\" holds runs of 2 sessions", g / 2);
			assert_non_null(strstr(note, want));
			assert_int_equal(g / 2 % 2, 1);
			sessions++;
		}
	}
	assert_int_equal(split, 2000);
	assert_int_equal(sessions, 1000);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* An input is read up to a limit; one byte more is refused (finding 8). */
static void test_input_bounded(void **state)
{
	(void)state;
	char *buf;
	size_t len;

	for (size_t size = 65535; size <= 200001; size += 67233) {
		FILE *f = tmpfile();
		assert_non_null(f);
		for (size_t i = 0; i < size; i++)
			putc('x', f);
		rewind(f);
		assert_int_equal(vbr_slurp(f, size, &buf, &len), 0);
		assert_int_equal(len, size);
		free(buf);
		rewind(f);
		assert_int_equal(vbr_slurp(f, size - 1, &buf, &len), -2);
		fclose(f);
	}
}

/* No dd line is dropped unseen: a BOM before the first, the old GNU wording, and lines
 * in dd's words but not in its form counted (finding 10). */
static void test_dd_lines_kept(void **state)
{
	(void)state;
	struct vb_dataset d;

	read_ok(&d, "\xef\xbb\xbf" "1048576000 bytes transferred in 2.500000 secs (419430400 "
		"bytes/sec)\r\n1048576000 bytes transferred in 2.000000 secs (524288000 "
		"bytes/sec)\r\n", 2);
	assert_true(d.samples[0].bytes_per_sec == 419430400);
	vb_dataset_free(&d);
	read_ok(&d, "1048576000 bytes (1.0 GB) copied, 2.5 s, 419 MB/s\n"
		"1048576000 bytes (1.0 GB) copied, 2.0 seconds, 524 MB/s\n", 2);
	assert_int_equal(d.skipped_ddlike, 0);
	vb_dataset_free(&d);
	read_ok(&d, "1048576000 bytes transferred in 2.500000 secs (419430400 bytes/sec)\n"
		"1048576000 bytes transferred in 2.5 minutes (419430400 bytes/sec)\n"
		"1048576000 bytes (1.0 GB) copied, 2 s, 524 MB/s, and more\n"
		"nothing to see here\n", 1);
	assert_int_equal(d.skipped_ddlike, 2);
	vb_dataset_free(&d);
	/* a saved log of vbench stopped in its first run says so */
	named("# vbench 0.2.0: bs=65536 count=16\n# label c: ext4 on vda\n"
	      "vbench: interrupted by signal 2\n", "c.log", 0,
	      "c.log: a saved log of vbench without a measured run");
}

/* A structure readers could read two ways is refused: a column named twice, a JSON
 * member named twice, a schema_version newer than this vbench (finding 12). */
static void test_ambiguous_structure(void **state)
{
	(void)state;
	const char *dup = "label,run,bytes,secs,bytes_per_sec,label\na,1,100,1,100,zz\n";
	refused(dup, strlen(dup), "r.csv:1: column label is named twice");
	char *t = csv_of("run=1", "run=2|schema_version=99", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: column schema_version: \"99\" is not one this vbench reads");
	const char *j = "{\"label\": \"a\",\n \"runs\": [{\"run\": 1, \"bytes\": 100, "
			"\"secs\": 1, \"bytes_per_sec\": 100, \"secs\": 2}], \"label\": \"zz\"}\n";
	named(j, "j.json", 0, "j.json:2: the object starting here names member \"secs\" twice");
	j = "{\"schema_version\": 99, \"label\": \"a\", \"runs\": [{\"run\": 1, "
	    "\"bytes\": 100, \"secs\": 1, \"bytes_per_sec\": 100}]}\n";
	named(j, "j.json", 0, "j.json:1: \"schema_version\" is not one this vbench reads");
	j = "{\"schema_version\": 1, \"label\": \"a\", \"runs\": [{\"run\": 1, "
	    "\"bytes\": 100, \"secs\": 1, \"bytes_per_sec\": 100}]}\n";
	named(j, "j.json", 1, NULL);
	/* settings vbench cannot have written are refused, not kept apart as unknown */
	t = csv_of("run=1", "run=2|direct=yes", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: column direct: \"yes\" is not 0 or 1");
	t = csv_of("run=1", "run=2|qd=-1", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: column qd: \"-1\" is not a count");
	t = csv_of("run=1", "run=2|bs=abc", (const char *)NULL);
	refused(t, strlen(t), "r.csv:3: column bs: \"abc\" is not a count");
	j = "{\"label\": \"a\", \"config\": {\"bs\": 18446744073709551616}, \"runs\": [{\"run\": 1, "
	    "\"bytes\": 100, \"secs\": 1, \"bytes_per_sec\": 100}]}\n";
	named(j, "j.json", 0, "j.json:1: config \"bs\" is not a non-negative integer");
	j = "{\"label\": \"a\", \"config\": {\"direct\": \"yes\"}, \"runs\": [{\"run\": 1, "
	    "\"bytes\": 100, \"secs\": 1, \"bytes_per_sec\": 100}]}\n";
	named(j, "j.json", 0, "j.json:1: config \"direct\" is not true or false");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_rows),
		cmocka_unit_test(test_stopped_status),
		cmocka_unit_test(test_runs_read_twice),
		cmocka_unit_test(test_run_hash_spreads_labels),
		cmocka_unit_test(test_one_escaping_rule),
		cmocka_unit_test(test_rate_agrees),
		cmocka_unit_test(test_apart_by_size_and_disk),
		cmocka_unit_test(test_quotes_cut_at_a_character),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_notes_per_label),
		cmocka_unit_test(test_input_bounded),
		cmocka_unit_test(test_dd_lines_kept),
		cmocka_unit_test(test_ambiguous_structure),
		cmocka_unit_test(test_trace_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
