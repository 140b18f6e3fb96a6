/* Operand and option parsing into struct vb_config. */
#include "vb_test.h"
#include <stdio.h>
#include <string.h>
#include "common/vb_args.h"
#include "cli/vb_opts.h"

static struct vb_err err;
static enum vb_opts_action action;

/* Parses a NULL-terminated list of words into cfg; returns vb_opts_parse's result. */
static int parse_words(struct vb_config *cfg, const char *const *words)
{
	int n = 0;
	while (words[n] != NULL)
		n++;
	vb_config_defaults(cfg);
	return vb_opts_parse(n, (char *const *)words, cfg, &action, &err) == VB_OK ? 0 : -1;
}

#define PARSE_OK(cfg, ...) do { \
	const char *const w_[] = {__VA_ARGS__, NULL}; \
	if (parse_words(cfg, w_) != 0) fail_msg("rejected: %s", err.msg); \
} while (0)

#define PARSE_FAILS(fragment, ...) do { \
	struct vb_config c_; \
	const char *const w_[] = {__VA_ARGS__, NULL}; \
	if (parse_words(&c_, w_) == 0) fail_msg("accepted: %s", #__VA_ARGS__); \
	if (err.status != VB_E_USAGE) fail_msg("status %d for %s", err.status, #__VA_ARGS__); \
	if (strstr(err.msg, fragment) == NULL) fail_msg("message '%s' lacks '%s'", err.msg, fragment); \
} while (0)

static void test_defaults(void **state)
{
	struct vb_config c;
	const char *const only_target[] = {"/t", NULL};
	(void)state;
	assert_int_equal(parse_words(&c, only_target), 0);
	assert_int_equal(action, VB_ACT_RUN);
	assert_string_equal(c.target_path, "/t");
	assert_int_equal(c.qd, 1);
	assert_int_equal(c.bs_bytes, 1048576);
	assert_int_equal(c.count_blocks, 1000);
	assert_int_equal(c.runs, 5);
	assert_int_equal(c.source, VB_SRC_ZERO);
	assert_int_equal(c.sync, VB_SYNC_FSYNC);
	assert_false(c.direct);
	assert_int_equal(c.format, VB_FMT_HUMAN);
	assert_int_equal(c.progress, VB_AUTO);
	assert_false(c.keep);
	assert_false(c.force);
	assert_true(c.stall_secs == 30.0);
	assert_true(c.timeout_secs == 0.0);
}

static void test_operands(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "of=/tmp/x", "if=/dev/urandom", "bs=4k", "count=10", "runs=3",
		 "oflag=direct,dsync", "status=progress");
	assert_string_equal(c.target_path, "/tmp/x");
	assert_int_equal(c.source, VB_SRC_URANDOM);
	assert_int_equal(c.bs_bytes, 4096);
	assert_int_equal(c.count_blocks, 10);
	assert_int_equal(c.runs, 3);
	assert_true(c.direct);
	assert_int_equal(c.sync, VB_SYNC_DSYNC);
	assert_int_equal(c.progress, VB_ON);
	PARSE_OK(&c, "conv=fdatasync", "if=/dev/zero", "status=none", "/t");
	assert_int_equal(c.sync, VB_SYNC_FDATASYNC);
	assert_int_equal(c.source, VB_SRC_ZERO);
	assert_int_equal(c.progress, VB_OFF);
	PARSE_OK(&c, "conv=fsync", "if=random", "/t");
	assert_int_equal(c.sync, VB_SYNC_FSYNC);
	assert_int_equal(c.source, VB_SRC_RANDOM);
}

static void test_option_twins(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "-o", "/tmp/y", "-i", "urandom", "-b", "8k", "-c", "7", "-r", "2", "-d",
		 "--sync", "none", "-l", "ext4 test", "-f", "json", "-k", "--force", "-q");
	assert_string_equal(c.target_path, "/tmp/y");
	assert_int_equal(c.source, VB_SRC_URANDOM);
	assert_int_equal(c.bs_bytes, 8192);
	assert_int_equal(c.count_blocks, 7);
	assert_int_equal(c.runs, 2);
	assert_true(c.direct);
	assert_int_equal(c.sync, VB_SYNC_NONE);
	assert_string_equal(c.label, "ext4 test");
	assert_int_equal(c.format, VB_FMT_JSON);
	assert_true(c.keep && c.force && c.quiet);
	PARSE_OK(&c, "--output=/z", "--source=random", "--bs=1M", "--count=3", "--runs=9",
		 "--direct", "--sync=fdatasync", "--format=csv", "--no-progress", "--keep",
		 "--quiet", "--label=x");
	assert_string_equal(c.target_path, "/z");
	assert_int_equal(c.bs_bytes, 1048576);
	assert_int_equal(c.runs, 9);
	assert_int_equal(c.progress, VB_OFF);
	assert_int_equal(c.format, VB_FMT_CSV);
	PARSE_OK(&c, "-dkq", "-b4k", "--progress", "/t");
	assert_true(c.direct && c.keep && c.quiet);
	assert_int_equal(c.bs_bytes, 4096);
	assert_int_equal(c.progress, VB_ON);
}

static void test_later_issue_options(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "/t", "--warmup", "2", "--overwrite", "--seed", "42", "--interval", "0.5",
		 "--stall-timeout", "10", "--timeout", "60", "--csv-append", "all.csv",
		 "--no-header");
	assert_int_equal(c.warmup_runs, 2);
	assert_true(c.overwrite);
	assert_true(c.seed_given);
	assert_int_equal(c.seed, 42);
	assert_true(c.interval_secs == 0.5);
	assert_true(c.stall_secs == 10.0);
	assert_true(c.timeout_secs == 60.0);
	assert_string_equal(c.csv_append_path, "all.csv");
	assert_true(c.no_header);
	PARSE_OK(&c, "--warmup=0", "--stall-timeout=0", "/t");
	assert_int_equal(c.warmup_runs, 0);
	assert_true(c.stall_secs == 0.0);
}

static void test_size_option(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "bs=1M", "--size", "64M", "/t");
	assert_int_equal(c.count_blocks, 64);
	PARSE_FAILS("count=4 and --size 4M both given", "count=4", "--size", "4M");
	PARSE_FAILS("-s 1500k is not a multiple of bs", "bs=1M", "-s", "1500k");
}

static void test_path_and_order(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "/mnt/test", "bs=4k", "--runs", "2");
	assert_string_equal(c.target_path, "/mnt/test");
	PARSE_OK(&c, "bs=4k", "/mnt/a=b/file", "-r", "1");   /* '=' after a slash is a path */
	assert_string_equal(c.target_path, "/mnt/a=b/file");
	PARSE_OK(&c, "--", "-weird-name");
	assert_string_equal(c.target_path, "-weird-name");
	PARSE_FAILS("more than one target", "/a", "/b");
	PARSE_FAILS("more than one target", "of=/a", "/b");
	PARSE_FAILS("given twice", "/a", "of=/b");
}

static void test_bad_values(void **state)
{
	(void)state;
	PARSE_FAILS("bs=0: zero", "bs=0");
	PARSE_FAILS("bs=-1: a sign", "bs=-1");
	PARSE_FAILS("bs=1Q: unknown suffix", "bs=1Q");
	PARSE_FAILS("bs=: the value is empty", "bs=");
	PARSE_FAILS("count=abc", "count=abc");
	PARSE_FAILS("--bs 1Q", "--bs", "1Q");
	PARSE_FAILS("runs=0: zero", "runs=0");
	PARSE_FAILS("count=0: zero is not allowed", "count=0");
	PARSE_FAILS("-c 0: zero is not allowed", "-c", "0");
	PARSE_FAILS("-c 0: zero is not allowed", "-c0");
	PARSE_FAILS("--count 0: zero is not allowed", "--count", "0");
	PARSE_FAILS("--count 0: zero is not allowed", "--count=0");
	PARSE_FAILS("--size 0: zero is not allowed", "--size", "0");
	PARSE_FAILS("qd=0: zero is not allowed", "qd=0");
	PARSE_FAILS("unknown source", "if=/dev/random");
	PARSE_FAILS("unknown sync mode", "--sync", "always");
	PARSE_FAILS("unknown format", "-f", "xml");
	PARSE_FAILS("unknown flag", "oflag=sync");
	PARSE_FAILS("unknown conversion", "conv=notrunc");
	PARSE_FAILS("unknown status", "status=noisy");
	/* dd's status=noxfer would drop the transfer line, the result: refused, not ignored */
	PARSE_FAILS("status=noxfer: vbench always prints the transfer line", "status=noxfer", "/t");
	/* a leading 0 is octal to BSD dd and decimal to GNU dd: refused in every number */
	PARSE_FAILS("bs=010: octal is not accepted", "bs=010", "/t");
	PARSE_FAILS("count=08: octal is not accepted", "count=08", "/t");
	PARSE_FAILS("--timeout 010: octal is not accepted", "--timeout", "010", "/t");
	PARSE_FAILS("seconds", "--timeout", "-3");
	/* below what the watchdog can honour: refused, quoting the value given */
	PARSE_FAILS("--timeout 0.0001: shorter than 0.1 s", "--timeout", "0.0001", "/t");
}

static void test_limits(void **state)
{
	(void)state;
	PARSE_FAILS("bs=2G: block size above the 1 GiB limit", "bs=2G");
	PARSE_FAILS("bs=1G count=9000000000: bs x count is more than 2^63-1", "bs=1G",
		    "count=9000000000");
	PARSE_FAILS("bs=1048576 count=9000000000000: bs x count", "count=9000000000000");
	PARSE_FAILS("too large", "count=9223372036854775808");
	PARSE_FAILS("runs=200000: at most 100000 runs", "runs=200000");
	PARSE_FAILS("--interval 0.001: the interval must be at least 0.01", "--interval", "0.001");
	/* 0 is below the least too, not a way to say none (that is leaving it out) */
	PARSE_FAILS("--interval 0: the interval must be at least 0.01", "--interval", "0");
	PARSE_FAILS("--qd 257: at most 256 writes in flight", "--qd", "257", "/t");
}

static void test_target_required(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_FAILS("no target given", "bs=4k");
	PARSE_FAILS("no target given", "--direct");
	PARSE_OK(&c, "--help");   /* help and version need none */
	assert_int_equal(action, VB_ACT_HELP);
	PARSE_OK(&c, "qd=8", ".");
	assert_int_equal(c.qd, 8);
	assert_string_equal(c.target_path, ".");
	PARSE_OK(&c, "--qd", "256", "of=x");
	assert_int_equal(c.qd, 256);
}

/* Issue 37: a mistyped option or operand is answered with the one it most likely meant,
 * in the one line of the message; a word near nothing, or near two, gets no guess. */
static void test_did_you_mean(void **state)
{
	static const char *const names[] = {"direct", "count", "csv-append", "stall-timeout",
					    "timeout", "qd", "runs"};
	(void)state;
	assert_string_equal(vb_nearest("dirct", 5, names, 7), "direct");     /* left out */
	assert_string_equal(vb_nearest("dierct", 6, names, 7), "direct");    /* swapped */
	assert_string_equal(vb_nearest("cout", 4, names, 7), "count");
	assert_string_equal(vb_nearest("csv-apend", 9, names, 7), "csv-append");
	assert_string_equal(vb_nearest("timout", 6, names, 7), "timeout");
	assert_string_equal(vb_nearest("dir", 3, names, 7), "direct");       /* a beginning */
	assert_string_equal(vb_nearest("count=4", 5, names, 7), "count");    /* len counts */
	assert_null(vb_nearest("fast", 4, names, 7));
	assert_null(vb_nearest("q", 1, names, 7));
	assert_null(vb_nearest("rd", 2, (const char *const[]){"qd", "rs"}, 2));  /* two as near */
	assert_null(vb_nearest("", 0, names, 7));

	PARSE_FAILS("unknown option '--dirct': did you mean --direct?", "--dirct", "/t");
	PARSE_FAILS("unknown operand 'cout=' in 'cout=5': did you mean count=?", "cout=5", "/t");
	PARSE_FAILS("unknown option '--stal-timeout': did you mean --stall-timeout?",
		    "--stal-timeout", "3", "/t");
	PARSE_FAILS("unknown option '--fast' (see vbench --help)", "--fast", "/t");
	assert_null(strchr(err.msg, '\n'));
}

static void test_unknown_and_repeated(void **state)
{
	(void)state;
	PARSE_FAILS("unknown operand 'iflag='", "iflag=direct");
	PARSE_FAILS("unknown option '--fast'", "--fast");
	PARSE_FAILS("unknown option '-z'", "-z");
	PARSE_FAILS("bs=2k: given twice (already as bs=1k)", "bs=1k", "bs=2k");
	PARSE_FAILS("--bs 2k: given twice (already as bs=1k)", "bs=1k", "--bs", "2k");
	PARSE_FAILS("oflag=dsync conflicts with conv=fsync", "conv=fsync", "oflag=dsync");
	PARSE_FAILS("--direct: given twice (already as -d)", "-d", "--direct");
	PARSE_FAILS("needs a value", "--bs");
	PARSE_FAILS("needs a value", "-b");
	PARSE_FAILS("option -b needs a value", "-b", "-q");
	PARSE_FAILS("option --bs needs a value", "--bs", "--direct");
	PARSE_FAILS("-b -1: a sign", "-b", "-1");
	PARSE_FAILS("takes no value", "--direct=yes");
	PARSE_FAILS("empty argument", "");
	PARSE_FAILS("--label: the value is empty", "--label=");
	/* A label is never cut: two cut to the same text would be one configuration. */
	char label[VB_LABEL_MAX + 2];
	memset(label, 'x', sizeof label - 1);
	label[VB_LABEL_MAX + 1] = '\0';
	PARSE_FAILS("--label: 257 bytes; a label is at most 256 bytes", "-l", label, "/t");
	label[VB_LABEL_MAX] = '\0';
	const char *const longest[] = {"-l", label, "/t", NULL};
	struct vb_config c;
	assert_int_equal(parse_words(&c, longest), 0);
	assert_string_equal(c.label, label);
}

/* runs=auto with its rule's settings; they mean nothing without it. */
static void test_runs_auto(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "runs=auto", "/t");
	assert_true(c.runs_auto);
	assert_int_equal(c.runs, VB_AUTO_MAX_RUNS);
	assert_true(c.precision == 0.03);
	assert_true(c.max_time_secs == 0);
	PARSE_OK(&c, "--runs", "auto", "--precision", "1.5%", "--max-runs", "50", "--max-time",
		 "120", "/t");
	assert_true(c.runs_auto);
	assert_int_equal(c.runs, 50);
	assert_true(c.precision > 0.01499 && c.precision < 0.01501);
	assert_true(c.max_time_secs == 120);
	PARSE_OK(&c, "-r", "auto", "--precision=5", "/t");
	assert_true(c.precision > 0.04999 && c.precision < 0.05001);
	PARSE_OK(&c, "runs=7", "/t");
	assert_false(c.runs_auto);
	assert_int_equal(c.runs, 7);
	PARSE_FAILS("--precision 2 applies only to runs=auto", "--precision", "2", "/t");
	PARSE_FAILS("--max-runs 9 applies only to runs=auto", "runs=3", "--max-runs", "9", "/t");
	PARSE_FAILS("--max-time 9 applies only to runs=auto", "--max-time", "9", "/t");
	/* no budget is said by leaving --max-time out; 0 is refused, not taken for that */
	PARSE_FAILS("--max-time 0: a budget of no time", "runs=auto", "--max-time", "0", "/t");
	PARSE_FAILS("--max-runs 2: runs=auto makes at least 3 runs", "runs=auto", "--max-runs",
		    "2", "/t");
	PARSE_FAILS("--max-runs 200000: at most 100000 runs", "runs=auto", "--max-runs",
		    "200000", "/t");
	PARSE_FAILS("--precision 0: expected a percentage above 0", "runs=auto", "--precision",
		    "0", "/t");
	PARSE_FAILS("--precision 100%: expected a percentage", "runs=auto", "--precision",
		    "100%", "/t");
	PARSE_FAILS("--precision %: expected a percentage", "runs=auto", "--precision", "%",
		    "/t");
	PARSE_FAILS("runs=automatic", "runs=automatic", "/t");
}

/* --json is -f json, and counts as the format setting. */
static void test_json_flag(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "--json", "/t");
	assert_int_equal(c.format, VB_FMT_JSON);
	PARSE_FAILS("given twice", "--json", "-f", "csv", "/t");
	PARSE_FAILS("takes no value", "--json=yes", "/t");
}

static void test_help_and_version(void **state)
{
	struct vb_config c;
	(void)state;
	PARSE_OK(&c, "bs=1k", "--help");
	assert_int_equal(action, VB_ACT_HELP);
	PARSE_OK(&c, "-V");
	assert_int_equal(action, VB_ACT_VERSION);
}

static void test_usage_mentions_every_option(void **state)
{
	char buf[8192] = {0};
	const char *words[] = {"--output", "--source", "--bs", "--count", "--size", "--runs",
			       "--direct", "--sync", "--progress", "--no-progress", "--label",
			       "--format", "--keep", "--force", "--quiet", "--help", "--version",
			       "--warmup", "--overwrite", "--seed", "--interval", "--stall-timeout",
			       "--timeout", "--csv-append", "--no-header", "--qd", "--json",
			       "--precision", "--max-runs", "--max-time", "qd=", "of=", "if=", "bs=",
			       "count=", "runs=", "oflag=direct", "oflag=dsync", "conv=fsync",
			       "conv=fdatasync", "status=progress", "status=none"};
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");
	(void)state;
	assert_non_null(f);
	vb_opts_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(buf, words[i]) == NULL)
			fail_msg("--help lacks %s", words[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_option_twins),
		cmocka_unit_test(test_later_issue_options),
		cmocka_unit_test(test_size_option),
		cmocka_unit_test(test_path_and_order),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_target_required),
		cmocka_unit_test(test_unknown_and_repeated),
		cmocka_unit_test(test_runs_auto),
		cmocka_unit_test(test_json_flag),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_usage_mentions_every_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
