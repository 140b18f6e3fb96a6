/* vbench report reads back what vbench wrote about the storage: the flush probe's row
 * and the knee of a run, as notes under their label; the probe's row is not a run. */
#include "vb_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/vb_analysis.h"
#include "output/vb_output.h"
#include "report/vb_report.h"
#include "report/report_internal.h"
#include "common/vb_escape.h"

static char *written(void)
{
	static struct vb_config cfg;
	static struct vb_env env;
	struct vb_context ctx;
	struct vb_buf b;
	struct vb_run r;
	struct vb_flush_result fr;

	memset(&ctx, 0, sizeof ctx);
	ctx.cfg = &cfg;
	ctx.env = &env;
	ctx.label = "ext4-virtio_blk";
	ctx.target = "/mnt";
	vb_config_defaults(&cfg);
	memset(&env, 0, sizeof env);
	strcpy(env.write_cache, "write back");
	vb_buf_init(&b);
	vb_out_csv_header(&b);
	for (uint64_t i = 1; i <= 3; i++) {
		memset(&r, 0, sizeof r);
		r.run = i;
		r.bytes = 1 << 30;
		r.secs = 2.0;
		r.bytes_per_sec = vb_rate(r.bytes, r.secs);
		if (i == 2) {
			r.knee.found = true;
			r.knee.burst_bytes_per_sec = 1.92e9;
			r.knee.sustained_bytes_per_sec = 3.1e8;
			r.knee.at_bytes = 2100000000;
		}
		vb_out_csv_row(&b, &ctx, &r, NULL);
	}
	memset(&fr, 0, sizeof fr);
	fr.verdict = VB_FLUSH_NO_WORK;
	fr.samples = 64;
	fr.flush_p50_ns = 38000;
	fr.write_p50_ns = 35000;
	fr.calls = 66;
	vb_out_csv_row(&b, &ctx, NULL, &fr);
	assert_false(b.oom);
	return b.p;
}

static char *print(const struct vb_comparison *a, int (*fn)(FILE *, const struct vb_comparison *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fn(f, a), 0);
	fclose(f);
	return buf;
}

static void test_notes_read_back(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	char *csv = written();
	(void)state;
	vb_dataset_init(&d);
	assert_int_equal(vb_report_read_csv(&d, csv, strlen(csv), "lies.csv", err, sizeof err), 0);
	assert_int_equal(d.n_samples, 3);        /* the flush row is no run */
	assert_int_equal(d.skipped_warmup, 0);   /* nor a skipped one */
	assert_int_equal(d.n_notes, 2);
	assert_string_equal(d.notes[0].label, "ext4-virtio_blk");
	assert_non_null(strstr(d.notes[0].text, "run 2: burst 1920.0 MB/s for the first 2100.0 "
					    "MB, then 310.0 MB/s sustained"));
	assert_non_null(strstr(d.notes[1].text, "flushes do no work"));
	assert_non_null(strstr(d.notes[1].text, "(flush 38 us p50, a small write 35 us)"));
	assert_null(strstr(d.notes[1].text, " safe"));
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	/* The comparison owns its notes: `vbench report` frees the runs it read before it
	 * prints (the notes once pointed into them, and printed freed memory). */
	vb_dataset_free(&d);
	char *text = print(&a, vb_report_print_text);
	assert_non_null(strstr(text, "\nstorage:\n  ext4-virtio_blk: run 2: burst"));
	assert_non_null(strstr(text, "\n  ext4-virtio_blk: flushes do no work"));
	free(text);
	text = print(&a, vb_report_print_markdown);
	assert_non_null(strstr(text, "\nStorage:\n\n- ext4-virtio_blk: run 2: burst"));
	free(text);
	text = print(&a, vb_report_print_json);
	assert_non_null(strstr(text, "\"storage_notes\": [\n    {\"label\": \"ext4-virtio_blk\", "
				     "\"text\": \"run 2: burst"));
	free(text);
	vb_comparison_free(&a);
	free(csv);
}

/* A "no work" row from a vbench before the yardstick rule, whose write cost 8 times its
 * flush, is not repeated: the figures say the probe could not tell. */
static void test_old_no_work_judged_again(void **state)
{
	struct vb_dataset d;
	(void)state;
	vb_dataset_init(&d);
	assert_int_equal(vbr_note_flush(&d, "nbd", "no-work", 1321858, 10503781), 0);
	assert_int_equal(vbr_note_flush(&d, "tmpfs", "no-work", 14688, 13265), 0);
	assert_int_equal(d.n_notes, 2);
	assert_non_null(strstr(d.notes[0].text, "could not tell: a small write costs far more "
					    "than a flush, so it is no yardstick (flush 1322 us"));
	assert_non_null(strstr(d.notes[1].text, "flushes do no work"));
	vb_dataset_free(&d);
}

/* A flush row vbench cannot have written is refused, naming the file and line: a
 * verdict that is none of its words, a figure that is no number, an interval whose low
 * end lies above its high end. The same row as written is read. */
static void test_bad_flush_row_refused(void **state)
{
	static const char *const from[] = {",no-work,38000,0,35000,0,0,", ",no-work,38000,0,35000,0,0,",
					   ",no-work,38000,0,35000,0,0,", ",no-work,38000,0,35000,0,0,"};
	static const char *const to[] = {",\x1b]0;x\x07,38000,0,35000,0,0,", ",no-work,38000,0,35000,7,-3,",
					 ",no-work,38000,0,35k,0,0,", ",no-work,38000,0,35000,-70,-30,"};
	static const char *const want[] = {
		"lies.csv:5: column flush_verdict: \"\x1b]0;x\x07\" is none of the words vbench writes",
		"lies.csv:5: the flush interval runs backwards (flush_diff_lo_ns 7 above "
		"flush_diff_hi_ns -3)",
		"lies.csv:5: column flush_write_p50_ns: \"35k\" is not a count of nanoseconds",
		NULL};
	char err[256];
	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct vb_dataset d;
		char *csv = written();
		char *at = strstr(csv, from[i]);
		assert_non_null(at);
		size_t head = (size_t)(at - csv), fl = strlen(from[i]), tl = strlen(to[i]);
		char *bad = malloc(strlen(csv) - fl + tl + 1);
		assert_non_null(bad);
		memcpy(bad, csv, head);
		memcpy(bad + head, to[i], tl);
		strcpy(bad + head + tl, at + fl);
		vb_dataset_init(&d);
		err[0] = '\0';
		int rc = vb_report_read_csv(&d, bad, strlen(bad), "lies.csv", err, sizeof err);
		if (want[i] != NULL) {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, want[i]));
		} else {
			/* a signed interval in order, as vbench writes one: read */
			assert_int_equal(rc, 0);
			assert_int_equal(d.n_notes, 2);
		}
		vb_dataset_free(&d);
		free(bad);
		free(csv);
	}
}

/* The same from vbench's JSON document: each run's knee, and the summary's verdict. */
static void test_notes_from_json(void **state)
{
	static struct vb_config cfg;
	static struct vb_env env;
	struct vb_context ctx;
	struct vb_run runs[2];
	struct vb_run_analysis an;
	struct vb_dataset d;
	char err[256], *buf = NULL;
	size_t len = 0;
	(void)state;
	vb_config_defaults(&cfg);
	memset(&env, 0, sizeof env);
	memset(&ctx, 0, sizeof ctx);
	ctx.cfg = &cfg;
	ctx.env = &env;
	ctx.label = "nbd-slowflush";
	ctx.target = "/dev/vdc";
	memset(runs, 0, sizeof runs);
	for (int i = 0; i < 2; i++) {
		runs[i].run = (uint64_t)i + 1;
		runs[i].bytes = 1 << 20;
		runs[i].secs = 0.5;
		runs[i].bytes_per_sec = vb_rate(runs[i].bytes, runs[i].secs);
	}
	runs[1].knee.found = true;
	runs[1].knee.burst_bytes_per_sec = 29.3e6;
	runs[1].knee.sustained_bytes_per_sec = 4.3e6;
	runs[1].knee.at_bytes = 15728640;
	memset(&an, 0, sizeof an);
	an.rate.n = 2;
	an.rate.mean = an.rate.min = an.rate.max = (double)runs[0].bytes_per_sec;
	an.flush.verdict = VB_FLUSH_WORKS;
	an.flush.samples = 64;
	an.flush.flush_p50_ns = 10600000;
	an.flush.write_p50_ns = 449000;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	vb_out_json(f, &ctx, runs, 2, &an, NULL, 0);
	fclose(f);
	vb_dataset_init(&d);
	assert_int_equal(vb_report_read_json(&d, buf, len, "x.json", err, sizeof err), 0);
	assert_int_equal(d.n_samples, 2);
	assert_int_equal(d.n_notes, 2);
	assert_non_null(strstr(d.notes[0].text, "run 2: burst 29.3 MB/s for the first 15.7 MB, "
					    "then 4.3 MB/s sustained"));
	assert_non_null(strstr(d.notes[1].text, "flushes take time"));
	assert_non_null(strstr(d.notes[1].text, "(flush 10600 us p50, a small write 449 us)"));
	vb_dataset_free(&d);
	/* A verdict vbench never writes, or an interval that runs backwards, is refused,
	 * naming the line of the flush member. */
	static const char *const from[2] = {"\"verdict\": \"works\"", "\"diff_hi_ns\": 0"};
	static const char *const to[2] = {"\"verdict\": \"wrks\"", "\"diff_hi_ns\": -5"};
	static const char *const want[2] = {"column flush_verdict: \"wrks\" is none",
					    "the flush interval runs backwards"};
	for (int i = 0; i < 2; i++) {
		char *at = strstr(buf, from[i]);
		assert_non_null(at);
		size_t head = (size_t)(at - buf), fl = strlen(from[i]), tl = strlen(to[i]);
		char *bad = malloc(len - fl + tl + 1);
		assert_non_null(bad);
		memcpy(bad, buf, head);
		memcpy(bad + head, to[i], tl);
		strcpy(bad + head + tl, at + fl);
		vb_dataset_init(&d);
		assert_int_equal(vb_report_read_json(&d, bad, strlen(bad), "x.json", err, sizeof err),
				 -1);
		/* the line of the flush member */
		size_t line = 1;
		for (const char *c = bad; c < strstr(bad, "\"flush\": {"); c++)
			line += *c == '\n';
		char where[32];
		snprintf(where, sizeof where, "x.json:%zu: ", line);
		assert_true(line > 1 && strncmp(err, where, strlen(where)) == 0);
		assert_non_null(strstr(err, want[i]));
		vb_dataset_free(&d);
		free(bad);
	}
	free(buf);
}

/* A file that fails after its notes leaves none behind. */
static void test_notes_rolled_back(void **state)
{
	struct vb_dataset d;
	char err[256];
	char *csv = written();
	(void)state;
	size_t len = strlen(csv);
	char *bad = malloc(len + 64);
	assert_non_null(bad);
	memcpy(bad, csv, len);
	strcpy(bad + len, "x,1,oops,1,1\r\n");
	vb_dataset_init(&d);
	assert_int_equal(vb_report_read_csv(&d, bad, strlen(bad), "bad.csv", err, sizeof err), -1);
	assert_int_equal(d.n_notes, 0);
	assert_int_equal(d.n_samples, 0);
	vb_dataset_free(&d);
	free(bad);
	free(csv);
}

/* A --trace file is refused: its samples are not runs. */
static void test_trace_file_refused(void **state)
{
	static const char trace[] = "label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\n"
				    "x,1,0,0.000000,0.500000,1000000,2000000\r\n";
	struct vb_dataset d;
	char err[256];
	(void)state;
	vb_dataset_init(&d);
	assert_int_equal(vb_report_read(&d, trace, strlen(trace), "t.csv", err, sizeof err), -1);
	assert_non_null(strstr(err, "t.csv:1: a --trace file"));
	assert_int_equal(d.n_samples, 0);
	vb_dataset_free(&d);
}

/* Writes text to path. */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* A flush column's bad value is quoted cut at a whole character, with the marker: the
 * escape sequence at its end is not silently left out. */
static void test_flush_quote_cut(void **state)
{
	const char *num[4] = {NULL, NULL, NULL, NULL};
	char v[80], why[256];
	(void)state;
	memset(v, 'w', 39);
	strcpy(v + 39, "\xc3\xa4\x1b[2J tail");
	assert_int_equal(vbr_check_flush(v, num, why, sizeof why), -1);
	assert_non_null(strstr(why, "\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww" VB_CUT_END "\" is none"));
	num[0] = v;
	assert_int_equal(vbr_check_flush("works", num, why, sizeof why), -1);
	assert_non_null(strstr(why, "w" VB_CUT_END "\" is not a count of nanoseconds"));
	assert_null(strstr(why, "\xc3"));
}

/* vbench report of --trace files: each run's rates and knee as text, one label's lines
 * as a chart; a trace is not mixed with runs. */
static void test_trace_report(void **state)
{
	static struct vb_config cfg;
	static struct vb_env env;
	struct vb_context ctx;
	struct vb_interval iv[40];
	struct vb_run r;
	struct vb_buf b;
	char dir[] = "/tmp/vbench-lies-XXXXXX", trace[64], runs[64], svg[64];
	char *out = NULL, *err = NULL;
	size_t olen = 0, elen = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(trace, sizeof trace, "%s/t.csv", dir);
	snprintf(runs, sizeof runs, "%s/r.csv", dir);
	snprintf(svg, sizeof svg, "%s/t.svg", dir);
	vb_config_defaults(&cfg);
	memset(&env, 0, sizeof env);
	memset(&ctx, 0, sizeof ctx);
	ctx.cfg = &cfg;
	ctx.env = &env;
	ctx.label = "nbd-cache";
	/* 1 GB/s for 5 samples of 0.5 s, then 100 MB/s */
	for (size_t i = 0; i < 40; i++) {
		iv[i].start_secs = 0.5 * (double)i;
		iv[i].secs = 0.5;
		iv[i].bytes = i < 5 ? 500000000 : 50000000;
	}
	memset(&r, 0, sizeof r);
	r.run = 1;
	r.intervals = iv;
	r.n_intervals = 40;
	vb_buf_init(&b);
	vb_out_trace_header(&b);
	vb_out_trace_run(&b, &ctx, &r);
	assert_false(b.oom);
	put_file(trace, b.p);
	vb_buf_free(&b);
	char *argv[] = {"report", "--svg", svg, "--label", "nbd-cache", trace, NULL};
	FILE *fo = open_memstream(&out, &olen), *fe = open_memstream(&err, &elen);
	assert_int_equal(vb_report_main(6, argv, fo, fe), VB_OK);
	fclose(fo);
	fclose(fe);
	assert_non_null(strstr(out, "nbd-cache run 1: 40 samples over 20.0 s, 100.0 to 1000.0 MB/s"));
	assert_non_null(strstr(out, "; knee at 2.5 s: burst 1000.0 MB/s for the first 2500.0 MB, "
				    "then 100.0 MB/s\n"));
	free(out);
	free(err);
	FILE *f = fopen(svg, "r");
	assert_non_null(f);
	char head[4096];
	size_t n = fread(head, 1, sizeof head - 1, f);
	head[n] = '\0';
	fclose(f);
	assert_non_null(strstr(head, "<!-- made by vbench report -->"));
	assert_non_null(strstr(head, "nbd-cache: write rate within each run"));
	assert_non_null(strstr(head, "stroke-dasharray"));   /* the knee */
	/* an unknown label, and a trace mixed with runs, are refused */
	char *bad[] = {"report", "--label", "nope", trace, NULL};
	fo = open_memstream(&out, &olen);
	fe = open_memstream(&err, &elen);
	assert_int_equal(vb_report_main(4, bad, fo, fe), VB_E_USAGE);
	fclose(fo);
	fclose(fe);
	assert_non_null(strstr(err, "--label nope: no such label"));
	free(out);
	free(err);
	put_file(runs, "label,run,bytes,secs,bytes_per_sec\nx,1,1000,1,1000\n");
	char *mixed[] = {"report", trace, runs, NULL};
	fo = open_memstream(&out, &olen);
	fe = open_memstream(&err, &elen);
	assert_int_equal(vb_report_main(3, mixed, fo, fe), VB_E_USAGE);
	fclose(fo);
	fclose(fe);
	assert_non_null(strstr(err, "cannot be reported together"));
	free(out);
	free(err);
	unlink(trace);
	unlink(runs);
	unlink(svg);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notes_read_back),
		cmocka_unit_test(test_old_no_work_judged_again),
		cmocka_unit_test(test_bad_flush_row_refused),
		cmocka_unit_test(test_notes_from_json),
		cmocka_unit_test(test_notes_rolled_back),
		cmocka_unit_test(test_trace_file_refused),
		cmocka_unit_test(test_trace_report),
		cmocka_unit_test(test_flush_quote_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
