/* Formatters: the exact dd lines, summary lines, CSV and JSON for fixed inputs. */
#include "vb_test.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/vb_escape.h"
#include "bench/vb_analysis.h"
#include "output/vb_output.h"
#include "common/vb_units.h"

static char buf[65536];

static FILE *open_buf(void)
{
	memset(buf, 0, sizeof buf);
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");
	assert_non_null(f);
	return f;
}

static struct vb_config cfg;
static struct vb_env env;
static struct vb_context ctx;

static int setup(void **state)
{
	(void)state;
	vb_config_defaults(&cfg);
	memset(&env, 0, sizeof env);
	strcpy(env.host, "guest");
	strcpy(env.os, "Linux");
	strcpy(env.kernel, "6.1.0");
	strcpy(env.fs, "ext4");
	strcpy(env.mount, "/mnt");
	strcpy(env.device, "vda");
	strcpy(env.driver, "virtio_blk");
	ctx = (struct vb_context){&cfg, &env, "ext4-virtio_blk", "/mnt", NULL, 0, NULL, false, NULL,
				  NULL, NULL, false, "00c0ffee12345678", "2026-12-02T10:40:12Z", 0, NULL};
	return 0;
}

static struct vb_run run_of(uint64_t n, uint64_t bytes, double secs)
{
	struct vb_run r;
	memset(&r, 0, sizeof r);
	r.run = n;
	r.full_blocks = bytes / 1048576;
	r.bytes = bytes;
	r.secs = secs;
	r.bytes_per_sec = vb_rate(bytes, secs);
	return r;
}

static void test_status_line_matches_bsd_dd(void **state)
{
	char line[200];
	(void)state;
	/* The contract's example: 1048576000 / 37.101394 = 28262442.2 -> 28262442. */
	vb_format_status(line, sizeof line, 1048576000, 37.101394);
	assert_string_equal(line,
		"1048576000 bytes transferred in 37.101394 secs (28262442 bytes/sec)");
	vb_format_status(line, sizeof line, 0, 0);
	assert_string_equal(line, "0 bytes transferred in 0.000000 secs (0 bytes/sec)");
}

static void test_rate_rounding(void **state)
{
	(void)state;
	assert_int_equal(vb_rate(3, 2.0), 2);      /* 1.5 rounds up */
	assert_int_equal(vb_rate(10, 4.0), 3);     /* 2.5 rounds up */
	assert_int_equal(vb_rate(7, 3.0), 2);      /* 2.33 rounds down */
	assert_int_equal(vb_rate(100, 0), 0);
}

static void test_human_run_lines(void **state)
{
	struct vb_run r = run_of(1, 1048576000, 37.101394);
	FILE *f = open_buf();
	(void)state;
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_non_null(strstr(buf, "# run 1 of 5\n"
		"1000+0 records in\n1000+0 records out\n"
		"1048576000 bytes transferred in 37.101394 secs (28262442 bytes/sec)\n"));
	assert_non_null(strstr(buf, "# 26.95 MiB/s = 28.26 MB/s"));
	/* Everything that is not a dd line is a "# " context line. */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		assert_true(line[0] == '#' || strstr(line, "records") || strstr(line, "transferred"));
}

/* A run the data source held back says so in a context line, with the writers' wait;
 * one it did not hold back (by VB_DATA_NOTE or less, as the writer decides) says
 * nothing. */
static void test_data_source_held_back(void **state)
{
	struct vb_run r = run_of(1, 1048576000, 1.28);
	FILE *f = open_buf();
	(void)state;
	r.data_wait_secs = 0.041;
	r.data_held_back = 0.041 / 1.28;
	r.data_note = true;
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_non_null(strstr(buf, "\n# the data source held this run back 3.2% "
			       "(writer waited 41 ms)\n"));
	f = open_buf();
	cfg.qd = 4;
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_non_null(strstr(buf, "\n# the data source held this run back 3.2% "
			       "(writers waited 41 ms in all)\n"));
	f = open_buf();
	r.data_note = false;
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_null(strstr(buf, "held"));
}

static void test_partial_run_lines(void **state)
{
	struct vb_run r = run_of(3, 5 * 1048576 + 512, 1.0);
	FILE *f = open_buf();
	(void)state;
	r.partial_blocks = 1;
	r.stop = VB_STOP_ERROR;
	r.stage = VB_STAGE_WRITE;
	r.err = 28; /* ENOSPC on Linux; the text comes from strerror */
	r.err_offset_bytes = 5 * 1048576 + 512;
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_non_null(strstr(buf, "# run 3 of 5: partial, write failed at offset 5243392"));
	/* Marked as context, so that only complete runs leave bare dd lines. */
	assert_non_null(strstr(buf, "# 5+1 records in\n# 5+1 records out\n# 5243392 bytes "
			       "transferred"));
}

static void test_run_problems_on_stderr(void **state)
{
	struct vb_run r = run_of(3, 4096, 1.0);
	FILE *f = open_buf();
	(void)state;
	cfg.target_path = "/mnt";
	r.stop = VB_STOP_ERROR;
	r.stage = VB_STAGE_WRITE;
	r.err = ENOSPC;
	r.err_offset_bytes = 4096;
	vb_out_run_problem(f, &ctx, &r);
	r.stage = VB_STAGE_SYNC;
	r.err = EIO;
	vb_out_run_problem(f, &ctx, &r);
	r.stop = VB_STOP_NOPROGRESS;
	r.stage = VB_STAGE_WRITE;
	vb_out_run_problem(f, &ctx, &r);
	r.stop = VB_STOP_ERROR;
	r.err = EINVAL;
	r.err_offset_bytes = 0;
	r.direct_refused = true;   /* as the writer decides */
	vb_out_run_problem(f, &ctx, &r);
	r.direct_refused = false;
	r.stop = VB_STOP_TIMEOUT;   /* the value given, never rounded to 0 */
	r.err_offset_bytes = 8192;
	cfg.timeout_secs = 0.5;
	vb_out_run_problem(f, &ctx, &r);
	r.stop = VB_STOP_DONE;
	vb_out_run_problem(f, &ctx, &r);  /* a complete run: nothing to say */
	fclose(f);
	char expect[1024];
	snprintf(expect, sizeof expect,
		 "vbench: run 3: write of /mnt failed at offset 4096: %s\n"
		 "vbench: run 3: sync of /mnt failed at offset 4096: %s (the data of this run is "
		 "not durable)\n"
		 "vbench: run 3: write of /mnt failed at offset 4096: write() stopped making "
		 "progress\n"
		 "vbench: /mnt: the first O_DIRECT write of 1048576 bytes was refused (EINVAL): bs "
		 "must be a multiple of the device's logical block size\n"
		 "vbench: run 3 aborted: a write of /mnt did not return within --timeout 0.5 s "
		 "(at offset 8192)\n",
		 strerror(ENOSPC), strerror(EIO));
	assert_string_equal(buf, expect);
	/* a directory's kept file is named, not the directory */
	ctx.written = "/mnt/vbench-abcdefgh.tmp";
	r.stop = VB_STOP_ERROR;
	r.stage = VB_STAGE_WRITE;
	r.err = EIO;
	r.direct_refused = false;
	f = open_buf();
	vb_out_run_problem(f, &ctx, &r);
	fclose(f);
	ctx.written = NULL;
	assert_non_null(strstr(buf, "write of /mnt/vbench-abcdefgh.tmp failed at offset 8192"));
}

static void test_summary_lines(void **state)
{
	/* Rates 27082972, 32581066, 29895209, 30021587 (see test_stats for the hand
	 * calculation): mean 29895208.5, sample stddev 2246365.67 (Python's
	 * statistics.stdev gives 2246365.669809867), cv 7.5%. */
	struct vb_run runs[4] = {run_of(1, 27082972, 1), run_of(2, 32581066, 1),
				 run_of(3, 29895209, 1), run_of(4, 30021587, 1)};
	struct vb_run_analysis a;
	FILE *f = open_buf();
	(void)state;
	cfg.quiet = true;
	vb_analyze(&cfg, runs, 4, NULL, 0, &a);
	vb_out_human_summary(f, &ctx, &a);
	fclose(f);
	char expect[512];
	snprintf(expect, sizeof expect,
		 "mean    29895208.5 bytes/sec\nmin     27082972 bytes/sec\n"
		 "max     32581066 bytes/sec\nstddev  2246365.7 bytes/sec (7.5%%)\n");
	assert_string_equal(buf, expect);
}

/* The burst line suggests a --size the target holds: on a 256 MiB disk, not twice a
 * 131 MiB burst. */
static void test_burst_line_fits_the_target(void **state)
{
	struct vb_run_analysis a;
	(void)state;
	memset(&a, 0, sizeof a);
	a.knee.checked = a.knee.found = 1;
	a.knee.burst_bytes_per_sec = 2e9;
	a.knee.sustained_bytes_per_sec = 3e8;
	a.knee.at_bytes = 131.0 * 1048576;
	ctx.room_bytes = 256ULL << 20;
	FILE *f = open_buf();
	vb_out_human_verdicts(f, &ctx, &a);
	fclose(f);
	ctx.room_bytes = 0;
	assert_non_null(strstr(buf, "# burst 2.00 GB/s for the first 137 MB, then 300 MB/s "
			       "sustained: a cache or burst allowance of about 137 MB"));
	assert_non_null(strstr(buf, "such as --size 256m\n"));
}

static void test_summary_one_run_and_none(void **state)
{
	struct vb_run r = run_of(1, 1000, 1);
	struct vb_run_analysis a;
	FILE *f = open_buf();
	(void)state;
	cfg.quiet = true;
	vb_analyze(&cfg, &r, 1, NULL, 0, &a);
	vb_out_human_summary(f, &ctx, &a);
	fclose(f);
	assert_string_equal(buf, "mean    1000.0 bytes/sec\nmin     1000 bytes/sec\n"
			    "max     1000 bytes/sec\nstddev  n/a (one run)\n");
	r.stop = VB_STOP_SIGNAL;
	vb_analyze(&cfg, &r, 1, NULL, 0, &a);
	f = open_buf();
	vb_out_human_summary(f, &ctx, &a);
	fclose(f);
	assert_non_null(strstr(buf, "mean    n/a (no completed run)"));
}

/* The line to paste: the label, the settings in short, and MB/s of 10^6 with the range,
 * the CV and n, as in the example. */
static void test_result_line(void **state)
{
	struct vb_summary s = {5, 2312.4e6, 2182.1e6, 2467.4e6, 101.7e6, 0.044};
	char line[256];

	(void)state;
	cfg.bs_bytes = 1 << 20;
	cfg.count_blocks = 256;
	cfg.direct = true;
	vb_format_result_line(line, sizeof line, "ext4-virtio_blk", &cfg, &s);
	assert_string_equal(line, "ext4-virtio_blk  bs=1M x256 direct fsync qd1: 2312 MB/s "
			    "(2182-2467, CV 4.4%, n=5)");
	/* small rates keep three significant digits; other settings are all named */
	struct vb_summary slow = {3, 45.26e6, 44.1e6, 46.02e6, 1e6, 0.0221};
	cfg.bs_bytes = 4096;
	cfg.count_blocks = 100;
	cfg.direct = false;
	cfg.sync = VB_SYNC_NONE;
	cfg.qd = 8;
	cfg.source = VB_SRC_RANDOM;
	vb_format_result_line(line, sizeof line, "xfs", &cfg, &slow);
	assert_string_equal(line, "xfs  bs=4k x100 buffered nosync qd8 random: 45.3 MB/s "
			    "(44.1-46.0, CV 2.2%, n=3)");
	struct vb_summary one = {1, 0.5e6, 0.5e6, 0.5e6, 0, 0};
	cfg.bs_bytes = 1000;
	cfg.sync = VB_SYNC_DSYNC;
	vb_format_result_line(line, sizeof line, "l", &cfg, &one);
	assert_string_equal(line, "l  bs=1000 x100 buffered dsync qd8 random: 0.500 MB/s (n=1)");
	struct vb_summary none = {0, 0, 0, 0, 0, 0};
	vb_format_result_line(line, sizeof line, "l", &cfg, &none);
	assert_non_null(strstr(line, ": no completed run"));
}

/* The summary ends with why runs=auto stopped and the line to paste, also with -q. */
static void test_summary_ends_with_result_line(void **state)
{
	struct vb_run runs[2] = {run_of(1, 1000000, 1), run_of(2, 3000000, 1)};
	struct vb_run_analysis a;
	FILE *f = open_buf();
	(void)state;
	cfg.quiet = true;
	ctx.result_line = "L  bs=1M x1000 buffered fsync qd1: 2.00 MB/s (1.00-3.00, CV 70.7%, n=2)";
	ctx.auto_note = "stopped after 9 runs: 95% CI +-2.7% (--precision 3%)";
	vb_analyze(&cfg, runs, 2, NULL, 0, &a);
	vb_out_human_summary(f, &ctx, &a);
	fclose(f);
	assert_non_null(strstr(buf, "(70.7%)\nruns    stopped after 9 runs: 95% CI +-2.7% "
			       "(--precision 3%)\nL  bs=1M x1000 buffered fsync qd1: 2.00 MB/s "
			       "(1.00-3.00, CV 70.7%, n=2)\n"));
}

/* A warning names the configuration it is about. */
static void test_warning_names_the_label(void **state)
{
	FILE *f = open_buf();
	(void)state;
	vb_out_warning_about(f, "ext4-loop", "something");
	fclose(f);
	assert_string_equal(buf, "vbench: warning: ext4-loop: something\n");
}

static void test_size_short(void **state)
{
	char b[32];
	(void)state;
	vb_size_short(b, sizeof b, 1 << 20);
	assert_string_equal(b, "1M");
	vb_size_short(b, sizeof b, 3 << 10);
	assert_string_equal(b, "3k");
	vb_size_short(b, sizeof b, 1536);
	assert_string_equal(b, "1536");
	vb_size_short(b, sizeof b, 1ULL << 40);
	assert_string_equal(b, "1T");
	vb_size_short(b, sizeof b, 1ULL << 50);
	assert_string_equal(b, "1024T");
	vb_size_short(b, sizeof b, 512);
	assert_string_equal(b, "512");
}

static void test_warmups_left_out(void **state)
{
	struct vb_run runs[3] = {run_of(1, 100, 1), run_of(1, 1000, 1), run_of(2, 3000, 1)};
	struct vb_run_analysis a;
	(void)state;
	runs[0].warmup = true;
	vb_analyze(&cfg, runs, 3, NULL, 0, &a);
	assert_int_equal(a.completed, 2);
	assert_true(a.rate.mean == 2000.0);
}

/* RFC 4180 quoting of the text as vb_text shows it: commas and quotes are quoted, and no
 * control character or stray byte reaches the file, where `cat` would show it. */
static void test_csv_quoting(void **state)
{
	struct vb_buf b;
	(void)state;
	vb_buf_init(&b);
	const char *fields[] = {"plain", "a,b", "say \"hi\"", "two\nlines", "caf\xc3\xa9 \xff",
				"a\x1b[2J\rb\xc2\x9b,c\x7f"};
	size_t n = sizeof fields / sizeof fields[0];
	for (size_t i = 0; i < n; i++) {
		if (i)
			vb_buf_putc(&b, '|');
		vb_csv_field(&b, fields[i]);
	}
	assert_string_equal(b.p, "plain|\"a,b\"|\"say \"\"hi\"\"\"|two\\x0alines|caf\xc3\xa9 \\xff|"
			    "\"a\\x1b[2J\\x0db\\xc2\\x9b,c\\x7f\"");
	assert_csv_clean(b.p);
	vb_buf_free(&b);
}

/* A field a spreadsheet would run as a formula gets an apostrophe, which the reader
 * takes off again: the text survives the round trip as vb_text shows it. */
static void test_csv_formula_fields(void **state)
{
	static const char *const cases[][2] = {
		{"=1+2", "'=1+2"}, {"+x", "'+x"}, {"-rf", "'-rf"}, {"@SUM(A1)", "'@SUM(A1)"},
		{"'=x", "''=x"}, {"\tx", "\\x09x"}, {"a=b", "a=b"}, {"'a", "'a"}, {"'", "'"},
		{"=a,b", "\"'=a,b\""}, {"", ""}, {"=\r", "'=\\x0d"},
	};
	struct vb_buf b;
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		vb_buf_init(&b);
		vb_csv_field(&b, cases[i][0]);
		assert_string_equal(b.p ? b.p : "", cases[i][1]);
		vb_buf_free(&b);
	}
	assert_string_equal(vb_csv_plain("'=1+2"), "=1+2");
	assert_string_equal(vb_csv_plain("''=x"), "'=x");
	assert_string_equal(vb_csv_plain("'a"), "'a");
	assert_string_equal(vb_csv_plain("'"), "'");
	assert_string_equal(vb_csv_plain("'=a,b"), "=a,b");
	assert_string_equal(vb_csv_plain("'\tx"), "\tx");   /* as files of older versions hold it */
}

/* Every text field of a result row and of a --trace row, whether from the user (the
 * label) or from the system (device, mount point, write cache), is written escaped: a
 * label cannot forge a dd status line in a file that is `cat`. */
static void test_csv_rows_escaped(void **state)
{
	static const char hostile[] = "x\n16384 bytes transferred in 0.000001 secs (1 bytes/sec)"
				      "\n\x1b[2J\r\xff\xc2\x9b";
	struct vb_run r = run_of(1, 1048576, 0.5);
	struct vb_interval iv = {.start_secs = 0, .secs = 0.5, .bytes = 1048576};
	struct vb_buf b;
	(void)state;
	ctx.label = hostile;
	strcpy(env.device, "sd\x1b]0;t\x07");
	strcpy(env.mount, "/m\nnt\x7f");
	strcpy(env.write_cache, "wb\r\x9b");
	ctx.session = "\x1b\x9b";
	r.intervals = &iv;
	r.n_intervals = 1;
	vb_buf_init(&b);
	vb_out_csv_row(&b, &ctx, &r, NULL);
	vb_out_trace_run(&b, &ctx, &r);
	assert_csv_clean(b.p);
	char *shown = vb_text_dup(hostile);
	assert_non_null(shown);
	assert_memory_equal(b.p, shown, strlen(shown));
	assert_non_null(strstr(b.p, ",sd\\x1b]0;t\\x07,"));
	assert_non_null(strstr(b.p, ",/m\\x0ant\\x7f,"));
	assert_non_null(strstr(b.p, ",wb\\x0d\\x9b,"));
	assert_non_null(strstr(b.p, ",\\x1b\\x9b,"));
	assert_non_null(strstr(b.p, "\r\n" "x\\x0a16384 bytes"));   /* the trace row's label */
	free(shown);
	vb_buf_free(&b);
}

static void test_csv_row(void **state)
{
	struct vb_run r = run_of(2, 1048576, 0.5);
	struct vb_buf b;
	(void)state;
	vb_buf_init(&b);
	ctx.label = "ext4, \"fast\"";
	cfg.qd = 4;
	strcpy(env.write_cache, "write back");
	vb_out_csv_header(&b);
	vb_out_csv_row(&b, &ctx, &r, NULL);
	assert_memory_equal(b.p, "label,run,bytes,secs,bytes_per_sec,bs,count,source,direct,sync,"
			    "fs,device,driver,host,", 71);
	assert_non_null(strstr(b.p, ",interval_bytes_per_sec,qd,data_wait_secs,schema_version,"
			       "knee_burst_bytes_per_sec,"
			       "knee_sustained_bytes_per_sec,knee_at_bytes,flush_verdict,"));
	assert_non_null(strstr(b.p, "\r\n\"ext4, \"\"fast\"\"\",2,1048576,0.500000,2097152,"
			       "1048576,1000,zero,0,fsync,ext4,vda,virtio_blk,guest,Linux,"));
	/* no intervals, then the depth and the time the writers waited for data, the
	 * version of the schema; no knee, no flush figures, the write cache, how the writes were cached,
	 * and the invocation with its start (issue 37) */
	assert_non_null(strstr(b.p, ",,4,0.000000,1,,,,,,,,,,,write back,buffered I/O,00c0ffee12345678,2026-12-02T10:40:12Z\r\n"));
	vb_buf_free(&b);
	vb_buf_init(&b);
	r.data_wait_secs = 0.041;
	vb_out_csv_row(&b, &ctx, &r, NULL);
	assert_non_null(strstr(b.p, ",,4,0.041000,1,,,,,,,,,,,write back,buffered I/O,00c0ffee12345678,2026-12-02T10:40:12Z\r\n"));
	vb_buf_free(&b);
}

/* Text from the system reaches a terminal escaped: no control character, no byte that
 * is not UTF-8, no C1 code; UTF-8 stays readable. */
static void test_text_escaping(void **state)
{
	char out[256];
	(void)state;
	vb_text_to(out, sizeof out, "a\nb\rc\x1b[2Jd\x7f e\xc2\x9b f\xff caf\xc3\xa9");
	assert_string_equal(out, "a\\x0ab\\x0dc\\x1b[2Jd\\x7f e\\xc2\\x9b f\\xff caf\xc3\xa9");
	assert_int_equal(vb_text_width("caf\xc3\xa9"), 4);
	assert_int_equal(vb_text_width("a\n"), 5);
	vb_text_to(out, 7 + strlen(VB_CUT_END), "abcdef\nghijkl");
	assert_string_equal(out, "abcdef" VB_CUT_END);   /* cut before an escape, marked */
	vb_text_to(out, 6 + strlen(VB_CUT_END), "ab\x01" "cdefghijkl");
	assert_string_equal(out, "ab" VB_CUT_END);   /* nothing after what did not fit */
	vb_text_to(out, 5 + strlen(VB_CUT_END), "ab\xc3\xa4\xe4\xb8\xad" "xxxxxxx");
	assert_string_equal(out, "ab\xc3\xa4" VB_CUT_END);   /* never inside a character */
	vb_text_to(out, 10, "abcdefghi");
	assert_string_equal(out, "abcdefghi");   /* what fits has no marker */
	vb_text_to(out, 4, "abcdefghi");
	assert_string_equal(out, "...");   /* too small for the marker: what fits of it */
}

/* A mount source with newlines cannot forge a dd line in the human output. */
static void test_header_escapes_the_environment(void **state)
{
	FILE *f = open_buf();
	(void)state;
	strcpy(env.mount, "/mnt\n1048576000 bytes transferred in 1.000000 secs (1 bytes/sec)");
	strcpy(env.device, "vda\x1b]0;owned\x07");
	strcpy(env.host, "h\nmean    1 bytes/sec");
	ctx.target = "/mnt/t\nx";
	vb_out_human_header(f, &ctx);
	fclose(f);
	for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (line[0] != '#')
			fail_msg("a line that is not context: %s", line);
	assert_non_null(strstr(buf, "/mnt\\x0a1048576000 bytes"));
	assert_non_null(strstr(buf, "vda\\x1b]0;owned\\x07"));
	assert_null(strchr(buf, '\x1b'));
}

static void test_sink_header_has_no_disk_context(void **state)
{
	FILE *f = open_buf();
	(void)state;
	ctx.sink = true;
	ctx.label = "sink-null";
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_null(strstr(buf, "block size"));
	assert_null(strstr(buf, "mounted on"));
	assert_non_null(strstr(buf, "# label sink-null\n"));
}

/* Issue 22 (findings 8, 9): the header, the CSV and the JSON say how the writes were
 * cached as the platform found it, not only what was asked. */
static void test_io_mode_as_found(void **state)
{
	FILE *f = open_buf();
	struct vb_run r = run_of(1, 1048576, 0.5);
	struct vb_buf b;
	(void)state;
	env.cache = VB_CACHE_NONE;      /* a raw disk (/dev/ada1 on FreeBSD) */
	cfg.direct = false;
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, ", raw disk I/O (never cached)"));
	assert_null(strstr(buf, "buffered I/O"));
	env.cache = VB_CACHE_FS_BUFFERS;   /* FreeBSD UFS, HAMMER2 */
	cfg.direct = true;
	f = open_buf();
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, ", direct requested; this file system buffers it"));
	vb_buf_init(&b);
	vb_out_csv_header(&b);
	vb_out_csv_row(&b, &ctx, &r, NULL);
	assert_non_null(strstr(b.p, ",write_cache,io,session,session_start\r\n"));
	assert_non_null(strstr(b.p, ",direct requested; this file system buffers it,00c0ffee12345678,2026-12-02T10:40:12Z\r\n"));
	vb_buf_free(&b);
	env.cache = VB_CACHE_AS_ASKED;
	vb_buf_init(&b);
	vb_out_csv_row(&b, &ctx, &r, NULL);
	assert_non_null(strstr(b.p, ",direct I/O,00c0ffee12345678,2026-12-02T10:40:12Z\r\n"));
	vb_buf_free(&b);
	/* NetBSD FFS, the file written before the clock: header, CSV and JSON say so. */
	static const char filled[] = "direct I/O (in place: the file was written once before "
				     "the clock, as this file system buffers direct writes that "
				     "extend a file)";
	env.cache = VB_CACHE_FS_BUFFERS_EXTENDING;
	ctx.filled = true;
	f = open_buf();
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, filled));
	assert_null(strstr(buf, "buffers it"));
	vb_buf_init(&b);
	vb_out_csv_row(&b, &ctx, &r, NULL);
	assert_non_null(strstr(b.p, filled));
	vb_buf_free(&b);
	struct vb_run_analysis an;
	vb_analyze(&cfg, &r, 1, NULL, 0, &an);
	f = open_buf();
	vb_out_json(f, &ctx, &r, 1, &an, NULL, 0);
	fclose(f);
	assert_non_null(strstr(buf, filled));
	/* A fill that failed is named as what it is, not as a run. */
	r.fill = r.warmup = true;
	r.run = 0;
	r.stop = VB_STOP_ERROR;
	r.stage = VB_STAGE_WRITE;
	r.err = ENOSPC;
	r.err_offset_bytes = 8192;
	f = open_buf();
	vb_out_run_problem(f, &ctx, &r);
	vb_out_human_run(f, &ctx, &r);
	fclose(f);
	assert_non_null(strstr(buf, "vbench: the fill before the clock: write of "));
	assert_non_null(strstr(buf, "# the fill before the clock (not counted): partial"));
	assert_null(strstr(buf, "warm-up 0"));
	/* and so is a call of the fill that does not return */
	struct vb_stall st = {false, true, 0, "write", 1, 1, 4096, 31};
	f = open_buf();
	vb_out_live(f).stall(f, &st, false);
	fclose(f);
	assert_string_equal(buf, "vbench: stall: the fill before the clock: write at offset 4096 "
			    "has not returned after 31 s\n");
	st.run = 2;
	f = open_buf();
	vb_out_live(f).stall(f, &st, false);
	fclose(f);
	assert_non_null(strstr(buf, "stall: warm-up 2: write"));
	st.secs = 0.5;   /* --stall-timeout 0.5: never "after 0 s" */
	f = open_buf();
	vb_out_live(f).stall(f, &st, false);
	fclose(f);
	assert_non_null(strstr(buf, "has not returned after 0.5 s\n"));
	/* the flush check after the runs is not a run */
	st.probe = true;
	f = open_buf();
	vb_out_live(f).stall(f, &st, false);
	fclose(f);
	assert_non_null(strstr(buf, "vbench: stall: the flush check: write at offset 4096"));
}

/* A system that does not say its block sizes gets "unknown", not "0 logical". */
static void test_unknown_block_size(void **state)
{
	FILE *f = open_buf();
	(void)state;
	env.logical_block = env.physical_block = 0;
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, ", block size unknown\n"));
	assert_null(strstr(buf, "0 logical"));
}

/* Issue 37: memory is read in GiB (25275953152 bytes is 23.5 GiB); block sizes stay
 * exact byte counts. */
static void test_header_ram_in_gib(void **state)
{
	FILE *f = open_buf();
	(void)state;
	env.ram_bytes = 25275953152ULL;
	env.logical_block = 512;
	env.physical_block = 4096;
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, ", RAM 23.5 GiB, block size 512 logical / 4096 physical bytes\n"));
	assert_null(strstr(buf, "25275953152"));
	f = open_buf();
	env.ram_bytes = 473956352ULL;   /* a small guest's 452 MiB: two decimals, not "0.4" */
	vb_out_human_header(f, &ctx);
	fclose(f);
	assert_non_null(strstr(buf, ", RAM 0.44 GiB,"));
}

static void test_error_messages_escaped(void **state)
{
	FILE *f = open_buf();
	(void)state;
	vb_out_error(f, "cannot open /tmp/a\nvbench: fake: \x1b[31m");
	fclose(f);
	assert_string_equal(buf, "vbench: cannot open /tmp/a\\x0avbench: fake: \\x1b[31m\n");
}

static void test_json_escaping(void **state)
{
	FILE *f = open_buf();
	(void)state;
	vb_json_string(f, "q\"b\\s\n\t\x01 caf\xc3\xa9 bad\xff\xc3 end");
	fclose(f);
	assert_string_equal(buf, "\"q\\\"b\\\\s\\n\\t\\u0001 caf\xc3\xa9 bad\\ufffd\\ufffd end\"");
}

static void test_json_document(void **state)
{
	struct vb_run runs[2] = {run_of(1, 2097152, 1.0), run_of(2, 2097152, 2.0)};
	struct vb_run_analysis a;
	const char *warn[] = {"watch \"this\"", "two\nlines"};
	FILE *f = open_buf();
	(void)state;
	runs[1].data_wait_secs = 0.25;
	vb_analyze(&cfg, runs, 2, NULL, 0, &a);
	vb_out_json(f, &ctx, runs, 2, &a, warn, 2);
	fclose(f);
	assert_non_null(strstr(buf, "\"config\": {\"bs\": 1048576, \"count\": 1000,"));
	assert_non_null(strstr(buf, "\"environment\": {\"fs\": \"ext4\", \"device\": \"vda\", "
			       "\"driver\": \"virtio_blk\", \"host\": \"guest\", \"os\": \"Linux\""));
	assert_non_null(strstr(buf, "{\"run\": 2, \"warmup\": false, \"partial\": false, "
			       "\"status\": \"ok\", \"bytes\": 2097152, \"secs\": 2.000000, "
			       "\"bytes_per_sec\": 1048576"));
	assert_non_null(strstr(buf, "\"summary\": {\"unit\": \"bytes_per_sec\", \"runs\": 2, "
			       "\"mean\": 1572864.0, \"min\": 1048576, \"max\": 2097152"));
	assert_non_null(strstr(buf, "\"warnings\": [\"watch \\\"this\\\"\", \"two lines\"]"));
	assert_non_null(strstr(buf, "\"paused\": false, \"data_wait_secs\": 0.250000"));
	/* the version of the schema comes first; no runs=auto, no note of why runs stopped */
	assert_true(strncmp(buf, "{\n  \"schema_version\": 1,\n", 25) == 0);
	assert_non_null(strstr(buf, "\"runs_auto\": false}"));
	assert_null(strstr(buf, "runs_stopped"));
	/* with runs=auto: its rule, why the runs stopped and the line to paste */
	cfg.runs_auto = true;
	cfg.runs = 20;
	ctx.auto_note = "stopped after 3 runs";
	ctx.result_line = "L  bs=1M";
	f = open_buf();
	vb_out_json(f, &ctx, runs, 2, &a, NULL, 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"runs_auto\": true, \"precision\": 0.03, \"max_runs\": 20, "
			       "\"max_time_secs\": 0}"));
	assert_non_null(strstr(buf, "\"result_line\": \"L  bs=1M\",\n  \"runs_stopped\": "
			       "\"stopped after 3 runs\",\n"));
}

static void test_progress_line(void **state)
{
	char line[256];
	struct vb_progress p = {2, 5, 250000000, 1000000000, 2.5, 120e6};
	(void)state;
	vb_format_progress(line, sizeof line, &p);
	/* 25%, average 100 MB/s, 750 MB left at that rate: 7.5 s -> "8s". */
	assert_string_equal(line, "run 2/5: 250000000 bytes (25.0%), now 120.0 MB/s, "
			    "avg 100.0 MB/s, ETA 8s");
	p.elapsed_secs = 0;
	vb_format_progress(line, sizeof line, &p);
	assert_non_null(strstr(line, "ETA ?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_status_line_matches_bsd_dd, setup),
		cmocka_unit_test_setup(test_rate_rounding, setup),
		cmocka_unit_test_setup(test_burst_line_fits_the_target, setup),
		cmocka_unit_test_setup(test_human_run_lines, setup),
		cmocka_unit_test_setup(test_data_source_held_back, setup),
		cmocka_unit_test_setup(test_partial_run_lines, setup),
		cmocka_unit_test_setup(test_run_problems_on_stderr, setup),
		cmocka_unit_test_setup(test_summary_lines, setup),
		cmocka_unit_test_setup(test_summary_one_run_and_none, setup),
		cmocka_unit_test_setup(test_result_line, setup),
		cmocka_unit_test_setup(test_summary_ends_with_result_line, setup),
		cmocka_unit_test_setup(test_warning_names_the_label, setup),
		cmocka_unit_test_setup(test_size_short, setup),
		cmocka_unit_test_setup(test_warmups_left_out, setup),
		cmocka_unit_test_setup(test_csv_quoting, setup),
		cmocka_unit_test_setup(test_csv_formula_fields, setup),
		cmocka_unit_test_setup(test_csv_rows_escaped, setup),
		cmocka_unit_test_setup(test_csv_row, setup),
		cmocka_unit_test_setup(test_text_escaping, setup),
		cmocka_unit_test_setup(test_header_escapes_the_environment, setup),
		cmocka_unit_test_setup(test_sink_header_has_no_disk_context, setup),
		cmocka_unit_test_setup(test_header_ram_in_gib, setup),
		cmocka_unit_test_setup(test_io_mode_as_found, setup),
		cmocka_unit_test_setup(test_unknown_block_size, setup),
		cmocka_unit_test_setup(test_error_messages_escaped, setup),
		cmocka_unit_test_setup(test_json_escaping, setup),
		cmocka_unit_test_setup(test_json_document, setup),
		cmocka_unit_test_setup(test_progress_line, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
