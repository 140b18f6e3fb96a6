/* What vbench report refuses to print (issue 32): numbers no clock measured, comparisons
 * that cannot be computed, axes that cannot be drawn; and the recorded rates of a trace
 * are the ones it prints. */
#include "vb_test.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/vb_report.h"
#include "report/report_internal.h"

/* Reading text (auto-detected) fails, with a message holding want. */
static void refused(const char *text, const char *name, const char *want)
{
	struct vb_dataset d;
	char err[512] = "";

	vb_dataset_init(&d);
	assert_int_equal(vb_report_read(&d, text, strlen(text), name, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("reading %s: error \"%s\" lacks \"%s\"", name, err, want);
	assert_int_equal(d.n_samples, 0);
	vb_dataset_free(&d);
}

/* Reading a trace fails, with a message holding want. */
static void trace_refused(const char *text, const char *want)
{
	struct vbr_trace t = {0};
	char err[512] = "";

	assert_true(vbr_is_trace(text, strlen(text)));
	assert_int_equal(vbr_read_trace(&t, text, strlen(text), "t.csv", err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
	vbr_trace_free(&t);
}

#define CSV_HEAD "label,run,bytes,secs,bytes_per_sec\n"
#define TRACE_HEAD "label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\n"

/* A duration that is subnormal, or a rate beyond 64 bits, is no measurement, in every
 * reader: each would make an infinite rate, mean or axis. */
static void test_unmeasurable_values_refused(void **state)
{
	(void)state;
	refused(CSV_HEAD "a,1,1000,1e-310,1000\n", "a.csv",
		"a.csv:2: secs 1e-310 is too small to be measured (a subnormal number)");
	refused(CSV_HEAD "a,1,1000,1,1.7e308\n", "a.csv",
		"a.csv:2: bytes_per_sec 1.7e+308 bytes/sec is beyond any measured rate");
	refused(CSV_HEAD "a,1,1000,1,18446744073709551616\n", "a.csv", "beyond any measured rate");
	refused("label,run,bytes,secs,bytes_per_sec,knee_burst_bytes_per_sec\n"
		"a,1,1000,1,1000,1e300\n", "k.csv",
		"k.csv:2: knee_burst_bytes_per_sec 1e+300 bytes/sec is beyond any measured rate");
	refused("{\"label\": \"a\", \"runs\": [{\"run\": 1, \"bytes\": 1000, \"secs\": 5e-324, "
		"\"bytes_per_sec\": 1000}]}", "a.json", "a.json:1: secs 4.94066e-324 is too small");
	refused("{\"label\": \"a\", \"runs\": [{\"run\": 1, \"bytes\": 1000, \"secs\": 1, "
		"\"bytes_per_sec\": 1e20}]}", "a.json", "bytes_per_sec 1e+20 bytes/sec is beyond");
	refused("{\"label\": \"a\", \"runs\": [{\"run\": 1, \"bytes\": 1000, \"secs\": 1, "
		"\"bytes_per_sec\": 1000, \"knee\": {\"burst_bytes_per_sec\": 1e300, "
		"\"sustained_bytes_per_sec\": 1, \"at_bytes\": 1}}]}", "a.json",
		"burst_bytes_per_sec 1e+300 bytes/sec is beyond");
	/* dd logs: a GNU rate is made from the seconds, a BSD one is as printed */
	refused("1048576 bytes (1.0 MB, 1.0 MiB) copied, 1e-310 s, 1 MB/s\n", "g.log",
		"g.log:1: secs 1e-310 is too small");
	refused("1000+0 records out\n"
		"1048576 bytes (1.0 MB, 1.0 MiB) copied, 1e-300 s, 1 MB/s\n", "g.log",
		"g.log:2: bytes/sec 1.04858e+306 bytes/sec is beyond");
	refused("1 bytes transferred in 1.000000 secs (99999999999999999999999 bytes/sec)\n",
		"b.log", "b.log:1: bytes/sec 1e+23 bytes/sec is beyond");
	/* traces: the values that looped the chart's ticks forever */
	trace_refused(TRACE_HEAD "x,1,0,0,5e-324,1048576,1\r\n", "t.csv:2: secs 4.94066e-324 is "
		      "too small to be measured");
	trace_refused(TRACE_HEAD "x,1,0,0,1e-310,1048576,1\r\n", "secs 1e-310 is too small");
	trace_refused(TRACE_HEAD "x,1,0,1e308,1e308,1048576,1\r\n",
		      "t.csv:2: start_secs + secs inf is not a finite");
	trace_refused(TRACE_HEAD "x,1,0,0,1,1048576,1e300\r\n", "bytes_per_sec 1e+300 bytes/sec");
	trace_refused("label,run,warmup,start_secs,secs,bytes\r\nx,1,0,0,1,1048576\r\n",
		      "missing column bytes_per_sec");
}

/* The axis of a chart is counted out in a bounded number of round steps, or refused:
 * never a step lost in its sum (0 or infinite), which looped forever. */
static void test_axis_bounded(void **state)
{
	static const double tops[] = {0, 1e-300, DBL_MIN, 0.3, 1, 7, 1000, 1.2e19, 1e300, 1e308,
				      DBL_MAX};
	double step, top;
	(void)state;
	for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++) {
		size_t n = vbr_axis(tops[i], 8, &step, &top);
		if (n == 0)
			continue;
		assert_true(n <= 32);
		assert_true(step > 0 && isfinite(step) && isfinite(top));
		assert_true(top >= tops[i]);
		assert_true(top - step < (tops[i] > 0 ? tops[i] : 1));   /* no step too many */
	}
	assert_int_equal(vbr_axis(1000, 5, &step, &top), 5);
	assert_true(step == 200 && top == 1000);
	assert_int_equal(vbr_axis(INFINITY, 8, &step, &top), 0);
	assert_int_equal(vbr_axis(NAN, 8, &step, &top), 0);
	assert_int_equal(vbr_axis(-1, 8, &step, &top), 0);
	assert_int_equal(vbr_axis(5e-324, 8, &step, &top), 0);   /* max / 8 is 0 */
}

/* A trace that reaches the reader's limits still draws a chart in bounded time, and one
 * built past them (as a fuzzer may) is refused rather than looped on. */
static void test_trace_chart_bounded(void **state)
{
	struct vbr_trace t = {0};
	struct vbr_tsample s;
	FILE *null = fopen("/dev/null", "w");
	(void)state;
	assert_non_null(null);
	memset(&s, 0, sizeof s);
	s.run = 1;
	s.start_secs = 1e308;
	s.secs = 5e307;
	s.bytes = 1;
	s.bytes_per_sec = 1.8e19;
	assert_int_equal(vbr_trace_add(&t, "x", &s), 0);
	assert_int_equal(vbr_trace_svg(null, &t, NULL), 0);
	t.s[0].secs = 1e308;   /* the end is infinite */
	assert_int_equal(vbr_trace_svg(null, &t, NULL), -3);
	t.s[0].start_secs = 0;
	t.s[0].secs = 1;
	t.s[0].bytes_per_sec = INFINITY;
	assert_int_equal(vbr_trace_svg(null, &t, NULL), -3);
	vbr_trace_free(&t);
	fclose(null);
}

/* The rate of a trace's sample is the one recorded from the unrounded seconds: 1048576
 * bytes in 0.00097344 s is 1077.2 MB/s, not 1077.7 MB/s from the "0.000973" written. */
static void test_trace_recorded_rate(void **state)
{
	static const char text[] = TRACE_HEAD "x,1,0,0.000000,0.000973,1048576,1077186062\r\n"
					      "x,1,0,0.000973,0.000973,1048576,1077186062\r\n";
	struct vbr_trace t = {0};
	char err[256], *out = NULL;
	size_t len = 0;
	(void)state;
	assert_int_equal(vbr_read_trace(&t, text, strlen(text), "t.csv", err, sizeof err), 0);
	assert_true(t.s[0].bytes_per_sec == 1077186062);
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(vbr_trace_print(f, &t), 0);
	fclose(f);
	assert_non_null(strstr(out, "x run 1: 2 samples over 0.0 s, 1077.2 to 1077.2 MB/s, "
				    "1077.2 MB/s in all"));
	free(out);
	vbr_trace_free(&t);
}

/* Prints a with fn into a new string. */
static char *printed(const struct vb_comparison *a,
		     int (*fn)(FILE *, const struct vb_comparison *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, a), 0);
	fclose(f);
	return buf;
}

/* Adds runs of label at the rates given, 1 s each. */
static void add_runs(struct vb_dataset *d, const char *label, const double *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(vb_dataset_add(d, label, i + 1, 1000, 1, r[i]), 0);
}

/* A ratio that is no finite number is said in words, never printed as a row of digits
 * or "inf"; an interval without an upper bound says so. */
static void test_comparison_in_words(void **state)
{
	static const double tiny[] = {1e-300, 2e-300, 3e-300}, huge[] = {1e19, 1.1e19, 1.05e19};
	static const double small[] = {1, 2, 1.5};
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256], v[128];
	(void)state;
	vb_dataset_init(&d);
	add_runs(&d, "tiny", tiny, 3);
	add_runs(&d, "huge", huge, 3);
	add_runs(&d, "small", small, 3);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.groups[1].verdict, VB_VERDICT_NOT_COMPUTABLE);
	vb_report_verdict(&a.groups[1], v, sizeof v);
	assert_string_equal(v, "cannot be compared: the ratio or the t-test is no finite number");
	int (*fns[])(FILE *, const struct vb_comparison *) = {
		vb_report_print_text, vb_report_print_markdown, vb_report_print_csv,
		vb_report_print_json};
	for (size_t i = 0; i < 4; i++) {
		char *out = printed(&a, fns[i]);
		assert_null(strstr(out, "inf"));
		assert_null(strstr(out, "nan"));
		assert_null(strstr(out, "0000000000000000000000000000000x"));
		if (i == 0) {
			assert_non_null(strstr(out, "huge   n/a (10500000000000 MB/s): cannot be "
						    "compared"));
			assert_non_null(strstr(out, "small  7.5e+299x (0.000 MB/s), 95% CI from 0.00, "
						    "no upper bound, Welch t=5.20"));
			assert_non_null(strstr(out, "7.5e+299x faster"));
		}
		free(out);
	}
	vb_comparison_free(&a);
	/* A mean that overflows is refused, naming its label. */
	static const double absurd[] = {1.7e308, 1.6e308, 1.5e308};
	add_runs(&d, "absurd", absurd, 3);
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), -1);
	assert_string_equal(err, "\"absurd\": the mean or the spread of its rates is no finite "
				 "number (rates up to 1.7e+308 bytes/sec): they cannot be compared");
	vb_dataset_free(&d);
}

/* Reads text (auto-detected) as name into d, which must succeed. */
static void read_ok(struct vb_dataset *d, const char *text, const char *name)
{
	char err[512] = "";

	if (vb_report_read(d, text, strlen(text), name, err, sizeof err) != 0)
		fail_msg("reading %s: %s", name, err);
}

/* Labels are kept whole: two that differ only past byte 511 are two groups, printed
 * whole (they were cut to one name). */
static void test_long_labels_whole(void **state)
{
	char label[601], csv[2000];
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	(void)state;
	memset(label, 'l', 599);
	label[599] = 'A';
	label[600] = '\0';
	snprintf(csv, sizeof csv, CSV_HEAD "%s,1,100,1,100\n%.599sB,1,200,1,200\n", label, label);
	vb_dataset_init(&d);
	read_ok(&d, csv, "long.csv");
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	vb_dataset_free(&d);
	assert_int_equal(a.n_groups, 2);
	assert_string_equal(a.groups[0].label, label);
	assert_int_equal(strlen(a.groups[1].label), 600);
	assert_int_equal(a.groups[1].label[599], 'B');
	vb_comparison_free(&a);
}

/* A saved log of vbench counts only its run lines: not its result line or warnings,
 * though a label quotes a dd line in them. */
static void test_saved_log_counts_runs(void **state)
{
	static const char log[] =
		"# vbench 0.2.0: 1048576 bytes per run (bs=65536 count=16), 3 runs, source zero\n"
		"# label ext4 1 bytes transferred in 0.000001 secs (9999999999999 bytes/sec): ext4\n"
		"# run 1 of 3\n16+0 records in\n16+0 records out\n"
		"1048576 bytes transferred in 0.002000 secs (524288000 bytes/sec)\n"
		"# run 2 of 3\n16+0 records in\n16+0 records out\n"
		"1048576 bytes transferred in 0.004000 secs (262144000 bytes/sec)\n"
		"# run 3 of 3\n16+0 records in\n16+0 records out\n"
		"1048576 bytes transferred in 0.002000 secs (524288000 bytes/sec)\n"
		"mean    436906666.7 bytes/sec\n"
		"ext4 1 bytes transferred in 0.000001 secs (9999999999999 bytes/sec)  bs=64k x16 "
		"buffered fsync qd1: 437 MB/s (262-524, CV 34.6%, n=3)\n"
		"vbench: warning: ext4 1 bytes transferred in 0.000001 secs (9999999999999 "
		"bytes/sec): runs vary by 34.6%\n"
		"vbench: warning: 1 bytes transferred in 0.000001 secs (9999999999999 bytes/sec)\n"
		"vbench: cannot open x 1 bytes copied, 1 s, 1 B/s\n"
		"[10:00:01] 1 bytes transferred in 0.000001 secs (9999999999999 bytes/sec)\n";
	struct vb_dataset d;
	(void)state;
	vb_dataset_init(&d);
	read_ok(&d, log, "saved.log");
	assert_int_equal(d.n_samples, 3);
	assert_true(d.samples[1].bytes_per_sec == 262144000);
	/* a log dd wrote, with a timestamp before each line, is read as before */
	read_ok(&d, "[10:00:01] 1000+0 records out\n"
		    "[10:00:01] 1000 bytes transferred in 2.000000 secs (500 bytes/sec)\n", "ts.log");
	assert_int_equal(d.n_samples, 4);
	vb_dataset_free(&d);
	/* a line that goes on after the rate is no dd line */
	static const char *const lines[] = {
		"1 bytes transferred in 1.000000 secs (1 bytes/sec)  bs=64k: 1 MB/s",
		"1 bytes transferred in 1.000000 secs (1 bytes/sec): runs vary",
		"1 bytes copied, 1 s, 1 B/s: runs vary", "1 bytes copied, 1 s, 1 MB/s x",
		"1 bytes copied, 1 s, fast/s"};
	struct vb_dd_line l;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (vb_report_parse_dd_line(lines[i], strlen(lines[i]), &l) != 0)
			fail_msg("parsed as a dd line: %s", lines[i]);
	static const char blanks[] = "5 bytes copied, 1 s, 5 B/s \t";
	assert_int_equal(vb_report_parse_dd_line(blanks, strlen(blanks), &l), 1);
	assert_int_equal(l.at, 0);
}

/* One label with synced and unsynced runs is two groups: they measure different things. */
static void test_split_by_sync(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	(void)state;
	vb_dataset_init(&d);
	read_ok(&d, "label,run,bytes,secs,bytes_per_sec,bs,direct,sync,qd,source\n"
		    "same,1,1000,1,1000,4096,0,fsync,1,zero\nsame,1,9000,1,9000,4096,0,none,1,zero\n"
		    "same,2,1100,1,1100,4096,0,fsync,1,zero\nsame,2,9100,1,9100,4096,0,none,1,zero\n",
		"sync.csv");
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	assert_int_equal(a.n_groups, 2);
	assert_string_equal(a.groups[0].label, "same fsync");
	assert_string_equal(a.groups[1].label, "same nosync");
	assert_true(a.groups[0].n == 2 && a.groups[0].sum.mean == 1050);
	assert_true(a.groups[1].n == 2 && a.groups[1].sum.mean == 9050);
	vb_comparison_free(&a);
	vb_dataset_free(&d);
}

/* A file that is none of what report reads says so, and quotes its first line,
 * escaped and cut. */
static void test_not_ours(void **state)
{
	(void)state;
	refused("a,b,c\n1,2,3\n", "other.csv", "other.csv: neither a vbench CSV or JSON file nor "
		"a dd log (no \"... bytes transferred in ... secs\" or \"... bytes ... copied, ... "
		"s, ...\" line); its first line is \"a,b,c\"");
	refused("\n\n\x1b[31mred\tzone\xff\n", "esc.csv", "its first line is "
		"\"\\x1b[31mred\\x09zone\\xff\"");
	char longline[200];
	memset(longline, 'z', sizeof longline - 1);
	longline[sizeof longline - 1] = '\0';
	refused(longline, "long.csv", "its first line is \"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
		"zzzzzzzzzzzzzzzzzzz\" (cut)");
}

/* Where each label was measured, from the CSV's and JSON's fs and device, is shown in
 * every format, and a label naming another file system is pointed at. */
static void test_where_measured(void **state)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char err[256];
	(void)state;
	vb_dataset_init(&d);
	read_ok(&d, "label,run,bytes,secs,bytes_per_sec,fs,device\n"
		    "ext4-root,1,1000,1,1000,ext4,vda\next4-root,2,1100,1,1100,ext4,vda\n"
		    "xfs,1,900,1,900,ext4,vda\nxfs,2,950,1,950,ext4,vda\n"
		    "mixed,1,900,1,900,ext4,vda\nmixed,2,950,1,950,xfs,loop0\n", "m.csv");
	read_ok(&d, "{\"label\": \"btrfs-nvme\", \"environment\": {\"fs\": \"btrfs\", "
		    "\"device\": \"nvme0n1\"}, \"runs\": [{\"run\": 1, \"bytes\": 1, \"secs\": 1, "
		    "\"bytes_per_sec\": 1}]}", "b.json");
	read_ok(&d, "1 bytes transferred in 1.000000 secs (1 bytes/sec)\n", "old-xfs.log");
	assert_int_equal(vb_report_compare(&d, NULL, &a, err, sizeof err), 0);
	vb_dataset_free(&d);
	/* runs of one label on two disks are two groups, never averaged */
	assert_int_equal(a.n_groups, 6);
	assert_string_equal(a.groups[0].where, "ext4 on vda");
	assert_null(a.groups[0].other_fs);
	assert_string_equal(a.groups[1].where, "ext4 on vda");
	assert_string_equal(a.groups[1].other_fs, "xfs");
	assert_string_equal(a.groups[2].label, "mixed ext4 on vda");
	assert_string_equal(a.groups[2].where, "ext4 on vda");
	assert_string_equal(a.groups[3].label, "mixed xfs on loop0");
	assert_string_equal(a.groups[3].where, "xfs on loop0");
	assert_null(a.groups[2].other_fs);
	assert_string_equal(a.groups[4].where, "btrfs on nvme0n1");
	assert_null(a.groups[5].where);   /* a dd log does not say */
	char *text = printed(&a, vb_report_print_text);
	assert_non_null(strstr(text, "\nmeasured on:\n  ext4-root: ext4 on vda\n"
				     "  xfs: ext4 on vda (but the label names xfs: not what was "
				     "measured)\n  mixed ext4 on vda: ext4 on vda\n"
				     "  mixed xfs on loop0: xfs on loop0\n"
				     "  btrfs-nvme: btrfs on nvme0n1\n  old-xfs: not recorded\n"));
	free(text);
	text = printed(&a, vb_report_print_markdown);
	assert_non_null(strstr(text, "\n- xfs: ext4 on vda **(but the label names xfs"));
	free(text);
	text = printed(&a, vb_report_print_json);
	assert_non_null(strstr(text, "\"label\": \"xfs\",\n      \"measured_on\": \"ext4 on vda\", "
				     "\"label_names_other_fs\": \"xfs\","));
	assert_non_null(strstr(text, "\"label\": \"old-xfs\",\n      \"measured_on\": null, "
				     "\"label_names_other_fs\": null,"));
	free(text);
	text = printed(&a, vb_report_print_csv);
	assert_non_null(strstr(text, ",measured_on,label_names_other_fs\r\n"));
	assert_non_null(strstr(text, ",ext4 on vda,xfs\r\n"));
	free(text);
	vb_comparison_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unmeasurable_values_refused),
		cmocka_unit_test(test_axis_bounded),
		cmocka_unit_test(test_trace_chart_bounded),
		cmocka_unit_test(test_trace_recorded_rate),
		cmocka_unit_test(test_comparison_in_words),
		cmocka_unit_test(test_long_labels_whole),
		cmocka_unit_test(test_saved_log_counts_runs),
		cmocka_unit_test(test_split_by_sync),
		cmocka_unit_test(test_not_ours),
		cmocka_unit_test(test_where_measured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
