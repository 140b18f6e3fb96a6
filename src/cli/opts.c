#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/vb_args.h"
#include "cli/vb_opts.h"
#include "common/vb_status.h"
#include "cli/vb_size.h"

/* One setting of the configuration; an operand and its option twin share one. */
enum key {
	K_OUTPUT, K_SOURCE, K_BS, K_COUNT, K_SIZE, K_RUNS, K_DIRECT, K_SYNC, K_PROGRESS,
	K_LABEL, K_FORMAT, K_KEEP, K_FORCE, K_QUIET, K_HELP, K_VERSION, K_WARMUP,
	K_OVERWRITE, K_SEED, K_INTERVAL, K_STALL, K_TIMEOUT, K_CSV_APPEND, K_NO_HEADER,
	K_QD, K_PRECISION, K_MAX_RUNS, K_MAX_TIME, K_CHECK_FLUSH, K_TRACE, K_NKEYS
};

struct optdef {
	const char *name;   /* long option without "--" */
	char short_name;    /* 0 when there is none */
	int takes_value;
	enum key key;
	const char *fixed;  /* value implied by a flag such as --no-progress */
};

static const struct optdef options[] = {
	{"output", 'o', 1, K_OUTPUT, NULL},
	{"source", 'i', 1, K_SOURCE, NULL},
	{"bs", 'b', 1, K_BS, NULL},
	{"count", 'c', 1, K_COUNT, NULL},
	{"size", 's', 1, K_SIZE, NULL},
	{"runs", 'r', 1, K_RUNS, NULL},
	{"direct", 'd', 0, K_DIRECT, "direct"},
	{"sync", 0, 1, K_SYNC, NULL},
	{"progress", 0, 0, K_PROGRESS, "progress"},
	{"no-progress", 0, 0, K_PROGRESS, "none"},
	{"label", 'l', 1, K_LABEL, NULL},
	{"format", 'f', 1, K_FORMAT, NULL},
	{"json", 0, 0, K_FORMAT, "json"},
	{"keep", 'k', 0, K_KEEP, "1"},
	{"force", 0, 0, K_FORCE, "1"},
	{"quiet", 'q', 0, K_QUIET, "1"},
	{"help", 'h', 0, K_HELP, "1"},
	{"version", 'V', 0, K_VERSION, "1"},
	{"warmup", 0, 1, K_WARMUP, NULL},
	{"overwrite", 0, 0, K_OVERWRITE, "1"},
	{"seed", 0, 1, K_SEED, NULL},
	{"interval", 0, 1, K_INTERVAL, NULL},
	{"stall-timeout", 0, 1, K_STALL, NULL},
	{"timeout", 0, 1, K_TIMEOUT, NULL},
	{"csv-append", 0, 1, K_CSV_APPEND, NULL},
	{"no-header", 0, 0, K_NO_HEADER, "1"},
	{"qd", 0, 1, K_QD, NULL},
	{"precision", 0, 1, K_PRECISION, NULL},
	{"max-runs", 0, 1, K_MAX_RUNS, NULL},
	{"max-time", 0, 1, K_MAX_TIME, NULL},
	{"check-flush", 0, 0, K_CHECK_FLUSH, "1"},
	{"trace", 0, 1, K_TRACE, NULL},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

struct parse_state {
	struct vb_config *cfg;
	enum vb_opts_action *action;
	int seen[K_NKEYS];
	char seen_as[K_NKEYS][96];     /* each setting as typed ("bs=1k", "--bs 1k"), for messages */
	uint64_t size_bytes;
	uint64_t max_runs;
	struct vb_err *err;
};

static int fail(struct parse_state *st, const char *fmt, ...) VB_PRINTF(2, 3);

static int fail(struct parse_state *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->err->msg, sizeof st->err->msg, fmt, ap);
	va_end(ap);
	st->err->status = VB_E_USAGE;
	return -1;
}

/* A size's or seconds' parser said why (NULL: fine); `how` is the word the user typed
 * ("bs=" or "--bs "), so messages quote it back. */
static int parsed(struct parse_state *st, const char *how, const char *value, const char *why)
{
	if (why != NULL)
		return fail(st, "%s%s: %s", how, value, why);
	return 0;
}

static int set_source(struct parse_state *st, const char *how, const char *v)
{
	if (strcmp(v, "zero") == 0 || strcmp(v, "/dev/zero") == 0)
		st->cfg->source = VB_SRC_ZERO;
	else if (strcmp(v, "urandom") == 0 || strcmp(v, "/dev/urandom") == 0)
		st->cfg->source = VB_SRC_URANDOM;
	else if (strcmp(v, "random") == 0)
		st->cfg->source = VB_SRC_RANDOM;
	else
		return fail(st, "%s%s: unknown source (use zero, urandom or random)", how, v);
	return 0;
}

static int set_sync(struct parse_state *st, const char *how, const char *v)
{
	int mode = vb_sync_by_name(v);

	if (mode < 0)
		return fail(st, "%s%s: unknown sync mode (use none, fsync, fdatasync or dsync)",
			    how, v);
	st->cfg->sync = (enum vb_sync)mode;
	return 0;
}

static int set_format(struct parse_state *st, const char *how, const char *v)
{
	if (strcmp(v, "human") == 0)
		st->cfg->format = VB_FMT_HUMAN;
	else if (strcmp(v, "csv") == 0)
		st->cfg->format = VB_FMT_CSV;
	else if (strcmp(v, "json") == 0)
		st->cfg->format = VB_FMT_JSON;
	else
		return fail(st, "%s%s: unknown format (use human, csv or json)", how, v);
	return 0;
}

/* --precision: a percentage of the mean, "3", "3%" or "0.5%", above 0 and below 100. */
static int set_precision(struct parse_state *st, const char *how, const char *v)
{
	char num[32];
	size_t n = strlen(v);
	double pct;

	if (n > 0 && v[n - 1] == '%')
		n--;
	if (n == 0 || n >= sizeof num)
		return fail(st, "%s%s: expected a percentage such as 3 or 0.5%%", how, v);
	memcpy(num, v, n);
	num[n] = '\0';
	if (vb_parse_secs(num, &pct) != NULL || !(pct > 0) || !(pct < 100))
		return fail(st, "%s%s: expected a percentage above 0 and below 100, such as 3 or "
			    "0.5%%", how, v);
	st->cfg->precision = pct / 100.0;
	return 0;
}

/* Applies one setting; `how` names it as typed, for messages and repeat detection. */
static int apply(struct parse_state *st, enum key k, const char *how, const char *v)
{
	struct vb_config *cfg = st->cfg;

	char name[64];
	size_t len = strlen(how);

	/* `how` ends in a space when a value follows it ("--bs "); names in messages do not. */
	snprintf(name, sizeof name, "%.*s", (int)(len && how[len - 1] == ' ' ? len - 1 : len), how);
	int is_flag = v == NULL || (strcmp(how, name) == 0 && how[len - 1] != '=');
	if (st->seen[k] && k == K_SYNC)
		return fail(st, "%s%s conflicts with %s: choose one sync mode", how,
			    is_flag ? "" : v, st->seen_as[k]);
	if (st->seen[k] && k != K_HELP && k != K_VERSION)
		return fail(st, "%s%s: given twice (already as %s)", how, is_flag ? "" : v,
			    st->seen_as[k]);
	st->seen[k] = 1;
	snprintf(st->seen_as[k], sizeof st->seen_as[k], "%s%s", how, is_flag ? "" : v);
	if (v != NULL && *v == '\0')
		return fail(st, "%s: the value is empty", name);
	switch (k) {
	case K_OUTPUT: cfg->target_path = v; return 0;
	case K_SOURCE: return set_source(st, how, v);
	case K_BS: return parsed(st, how, v, vb_parse_size0(v, 0, &cfg->bs_bytes));
	case K_COUNT: return parsed(st, how, v, vb_parse_size0(v, 0, &cfg->count_blocks));
	case K_SIZE: return parsed(st, how, v, vb_parse_size0(v, 0, &st->size_bytes));
	case K_RUNS:
		if (strcmp(v, "auto") == 0) {
			cfg->runs_auto = true;
			return 0;
		}
		return parsed(st, how, v, vb_parse_size0(v, 0, &cfg->runs));
	case K_PRECISION: return set_precision(st, how, v);
	case K_MAX_RUNS: return parsed(st, how, v, vb_parse_size0(v, 0, &st->max_runs));
	case K_MAX_TIME:
		if (parsed(st, how, v, vb_parse_secs(v, &cfg->max_time_secs)) != 0)
			return -1;
		if (!(cfg->max_time_secs > 0))
			return fail(st, "%s%s: a budget of no time (leave --max-time out for no "
				    "budget)", how, v);
		return 0;
	case K_WARMUP: return parsed(st, how, v, vb_parse_size0(v, 1, &cfg->warmup_runs));
	case K_SEED:
		cfg->seed_given = true;
		return parsed(st, how, v, vb_parse_size0(v, 1, &cfg->seed));
	case K_DIRECT: cfg->direct = true; return 0;
	case K_SYNC: return set_sync(st, how, v);
	case K_PROGRESS: cfg->progress = strcmp(v, "progress") == 0 ? VB_ON : VB_OFF; return 0;
	case K_LABEL:
		if (strlen(v) > VB_LABEL_MAX)
			return fail(st, "--label: %zu bytes; a label is at most %d bytes, and one "
				    "that is longer is not cut", strlen(v), VB_LABEL_MAX);
		cfg->label = v;
		return 0;
	case K_FORMAT: return set_format(st, how, v);
	case K_KEEP: cfg->keep = true; return 0;
	case K_FORCE: cfg->force = true; return 0;
	case K_QUIET: cfg->quiet = true; return 0;
	case K_OVERWRITE: cfg->overwrite = true; return 0;
	case K_NO_HEADER: cfg->no_header = true; return 0;
	case K_HELP: *st->action = VB_ACT_HELP; return 0;
	case K_VERSION:
		if (*st->action != VB_ACT_HELP)
			*st->action = VB_ACT_VERSION;
		return 0;
	case K_INTERVAL: return parsed(st, how, v, vb_parse_secs(v, &cfg->interval_secs));
	case K_STALL: return parsed(st, how, v, vb_parse_secs(v, &cfg->stall_secs));
	case K_TIMEOUT:
		if (parsed(st, how, v, vb_parse_secs(v, &cfg->timeout_secs)) != 0)
			return -1;
		/* The watchdog looks every VB_TIMEOUT_MIN_SECS: nothing shorter is honoured. */
		if (cfg->timeout_secs > 0 && cfg->timeout_secs < VB_TIMEOUT_MIN_SECS)
			return fail(st, "%s%s: shorter than %g s, the shortest timeout vbench "
				    "honours (0 means no timeout)", how, v, VB_TIMEOUT_MIN_SECS);
		return 0;
	case K_CSV_APPEND: cfg->csv_append_path = v; return 0;
	case K_QD: return parsed(st, how, v, vb_parse_size0(v, 0, &cfg->qd));
	case K_CHECK_FLUSH: cfg->check_flush = true; return 0;
	case K_TRACE: cfg->trace_path = v; return 0;
	case K_NKEYS: break;
	}
	return fail(st, "%s: internal error", how);
}

/* oflag= takes a comma list of direct and dsync. */
static int apply_oflag(struct parse_state *st, const char *v)
{
	char word[64];
	const char *p = v;

	if (*v == '\0')
		return fail(st, "oflag='': the value is empty");
	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof word)
			return fail(st, "oflag='%s': unknown flag (use direct, dsync)", v);
		memcpy(word, p, n);
		word[n] = '\0';
		int rc;
		if (strcmp(word, "direct") == 0)
			rc = apply(st, K_DIRECT, "oflag=direct", "direct");
		else if (strcmp(word, "dsync") == 0)
			rc = apply(st, K_SYNC, "oflag=dsync", "dsync");
		else
			return fail(st, "oflag='%s': unknown flag '%s' (use direct, dsync)", v, word);
		if (rc != 0)
			return rc;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* conv= takes fsync or fdatasync; status= takes progress or none. */
static int apply_conv(struct parse_state *st, const char *v)
{
	if (strcmp(v, "fsync") == 0)
		return apply(st, K_SYNC, "conv=fsync", "fsync");
	if (strcmp(v, "fdatasync") == 0)
		return apply(st, K_SYNC, "conv=fdatasync", "fdatasync");
	return fail(st, "conv='%s': unknown conversion (use fsync or fdatasync)", v);
}

static int apply_status(struct parse_state *st, const char *v)
{
	if (strcmp(v, "progress") == 0)
		return apply(st, K_PROGRESS, "status=progress", "progress");
	if (strcmp(v, "none") == 0)
		return apply(st, K_PROGRESS, "status=none", "none");
	/* dd's noxfer drops the transfer line, which is vbench's result. */
	if (strcmp(v, "noxfer") == 0)
		return fail(st, "status=noxfer: vbench always prints the transfer line, its "
			    "result (status=none turns the progress line off)");
	return fail(st, "status='%s': unknown status (use progress or none)", v);
}

static const struct {
	const char *word;
	enum key key;
	const char *how;
} operands[] = {
	{"of", K_OUTPUT, "of="}, {"if", K_SOURCE, "if="}, {"bs", K_BS, "bs="},
	{"count", K_COUNT, "count="}, {"runs", K_RUNS, "runs="}, {"qd", K_QD, "qd="},
};

static int apply_operand(struct parse_state *st, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = (size_t)(eq - arg);
	const char *v = eq + 1;

	if (n == 5 && strncmp(arg, "oflag", 5) == 0)
		return apply_oflag(st, v);
	if (n == 4 && strncmp(arg, "conv", 4) == 0)
		return apply_conv(st, v);
	if (n == 6 && strncmp(arg, "status", 6) == 0)
		return apply_status(st, v);
	for (size_t i = 0; i < sizeof operands / sizeof operands[0]; i++) {
		if (strlen(operands[i].word) == n && strncmp(arg, operands[i].word, n) == 0)
			return apply(st, operands[i].key, operands[i].how, v);
	}
	static const char *const words[] = {"of", "if", "bs", "count", "runs", "qd", "oflag",
					    "conv", "status"};
	const char *near = vb_nearest(arg, n, words, sizeof words / sizeof words[0]);
	if (near != NULL)
		return fail(st, "unknown operand '%.*s=' in '%s': did you mean %s=?", (int)n, arg,
			    arg, near);
	return fail(st, "unknown operand '%.*s=' in '%s' (known: of if bs count runs qd oflag conv "
		    "status)",
		    (int)n, arg, arg);
}

static const struct optdef *find_long(const char *name, size_t n)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (strlen(options[i].name) == n && strncmp(options[i].name, name, n) == 0)
			return &options[i];
	}
	return NULL;
}

static const struct optdef *find_short(char c)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (options[i].short_name == c)
			return &options[i];
	}
	return NULL;
}

/* Handles "--name", "--name=value" and "--name value"; *i advances past a used value. */
static int parse_long(struct parse_state *st, int argc, char *const argv[], int *i)
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct optdef *o = find_long(arg, n);
	char how[48];

	if (o == NULL) {
		const char *names[N_OPTIONS];
		for (size_t k = 0; k < N_OPTIONS; k++)
			names[k] = options[k].name;
		const char *near = vb_nearest(arg, n, names, N_OPTIONS);
		if (near != NULL)
			return fail(st, "unknown option '--%.*s': did you mean --%s?", (int)n, arg,
				    near);
		return fail(st, "unknown option '--%.*s' (see vbench --help)", (int)n, arg);
	}
	if (!o->takes_value) {
		if (eq != NULL)
			return fail(st, "option --%s takes no value (got '%s')", o->name, eq + 1);
		snprintf(how, sizeof how, "--%s", o->name);
		return apply(st, o->key, how, o->fixed);
	}
	snprintf(how, sizeof how, "--%s ", o->name);
	if (eq != NULL)
		return apply(st, o->key, how, eq + 1);
	if (*i + 1 >= argc || vb_arg_is_option(argv[*i + 1]))
		return fail(st, "option --%s needs a value", o->name);
	*i += 1;
	return apply(st, o->key, how, argv[*i]);
}

/* Handles "-d", "-dkq", "-b 4k" and "-b4k". */
static int parse_short(struct parse_state *st, int argc, char *const argv[], int *i)
{
	char how[8];

	for (const char *p = argv[*i] + 1; *p != '\0'; p++) {
		const struct optdef *o = find_short(*p);
		if (o == NULL)
			return fail(st, "unknown option '-%c' (see vbench --help)", *p);
		if (!o->takes_value) {
			snprintf(how, sizeof how, "-%c", *p);
			if (apply(st, o->key, how, o->fixed) != 0)
				return -1;
			continue;
		}
		snprintf(how, sizeof how, "-%c ", *p);
		if (p[1] != '\0')
			return apply(st, o->key, how, p + 1);
		if (*i + 1 >= argc || vb_arg_is_option(argv[*i + 1]))
			return fail(st, "option -%c needs a value", *p);
		*i += 1;
		return apply(st, o->key, how, argv[*i]);
	}
	return 0;
}

/* The setting k as the user typed it, or "word=value" for a default. */
static const char *given(struct parse_state *st, enum key k, const char *word, uint64_t value)
{
	if (!st->seen[k])
		snprintf(st->seen_as[k], sizeof st->seen_as[k], "%s=%llu", word,
			 (unsigned long long)value);
	return st->seen_as[k];
}

/* Checks the settings against each other once all are known. */
static int finish(struct parse_state *st)
{
	struct vb_config *cfg = st->cfg;

	if (st->seen[K_COUNT] && st->seen[K_SIZE])
		return fail(st, "%s and %s both given: say either how many blocks or how many bytes",
			    st->seen_as[K_COUNT], st->seen_as[K_SIZE]);
	if (cfg->bs_bytes > VB_BS_MAX)
		return fail(st, "%s: block size above the 1 GiB limit", st->seen_as[K_BS]);
	if (st->seen[K_SIZE]) {
		if (st->size_bytes % cfg->bs_bytes != 0)
			return fail(st, "%s is not a multiple of bs (%llu bytes)", st->seen_as[K_SIZE],
				    (unsigned long long)cfg->bs_bytes);
		cfg->count_blocks = st->size_bytes / cfg->bs_bytes;
	}
	if (cfg->count_blocks > VB_SIZE_MAX / cfg->bs_bytes)
		return fail(st, "%s %s: bs x count is more than 2^63-1 bytes",
			    given(st, K_BS, "bs", cfg->bs_bytes),
			    given(st, K_COUNT, "count", cfg->count_blocks));
	if (!cfg->runs_auto) {
		const enum key only_auto[] = {K_PRECISION, K_MAX_RUNS, K_MAX_TIME};
		for (size_t i = 0; i < sizeof only_auto / sizeof only_auto[0]; i++)
			if (st->seen[only_auto[i]])
				return fail(st, "%s applies only to runs=auto (add --runs auto)",
					    st->seen_as[only_auto[i]]);
	} else {
		cfg->runs = st->seen[K_MAX_RUNS] ? st->max_runs : VB_AUTO_MAX_RUNS;
		if (cfg->runs < VB_AUTO_MIN_RUNS)
			return fail(st, "%s: runs=auto makes at least %d runs", st->seen_as[K_MAX_RUNS],
				    VB_AUTO_MIN_RUNS);
	}
	if (cfg->runs > VB_RUNS_MAX)
		return fail(st, "%s: at most %d runs",
			    st->seen_as[cfg->runs_auto ? K_MAX_RUNS : K_RUNS], VB_RUNS_MAX);
	if (cfg->warmup_runs > VB_RUNS_MAX)
		return fail(st, "%s: at most %d warm-up runs", st->seen_as[K_WARMUP], VB_RUNS_MAX);
	if (cfg->qd > VB_QD_MAX)
		return fail(st, "%s: at most %d writes in flight", st->seen_as[K_QD], VB_QD_MAX);
	if (st->seen[K_INTERVAL] && cfg->interval_secs < VB_INTERVAL_MIN_SECS)
		return fail(st, "%s: the interval must be at least %g s", st->seen_as[K_INTERVAL],
			    VB_INTERVAL_MIN_SECS);
	/* Last: a benchmark that writes gigabytes must be asked for explicitly. */
	if (cfg->target_path == NULL)
		return fail(st, "no target given: name a directory, a new file, or (with --force) "
			    "a disk to write to, e.g. 'vbench /var/tmp'");
	return 0;
}

/* "word=value" with a word that could not be part of a path is a dd operand. */
static int is_operand(const char *a)
{
	const char *eq = strchr(a, '=');
	return eq != NULL && eq != a && memchr(a, '/', (size_t)(eq - a)) == NULL;
}

enum vb_status vb_opts_parse(int argc, char *const argv[], struct vb_config *cfg,
			     enum vb_opts_action *action, struct vb_err *err)
{
	struct parse_state st = {0};
	int path_seen = 0;
	int options_done = 0;

	st.cfg = cfg;
	st.action = action;
	st.err = err;
	*err = (struct vb_err){VB_OK, ""};
	*action = VB_ACT_RUN;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc = 0;
		if (*a == '\0')
			return fail(&st, "an empty argument was given (check the quoting)"), VB_E_USAGE;
		if (!options_done && strcmp(a, "--") == 0) {
			options_done = 1;
			continue;
		}
		if (!options_done && a[0] == '-' && a[1] == '-')
			rc = parse_long(&st, argc, argv, &i);
		else if (!options_done && a[0] == '-' && a[1] != '\0')
			rc = parse_short(&st, argc, argv, &i);
		else if (!options_done && is_operand(a))
			rc = apply_operand(&st, a);
		else if (path_seen || st.seen[K_OUTPUT])
			return fail(&st, "more than one target given ('%s' and '%s')",
				    cfg->target_path, a), VB_E_USAGE;
		else {
			path_seen = 1;
			rc = apply(&st, K_OUTPUT, "PATH ", a);
		}
		if (rc != 0)
			return VB_E_USAGE;
	}
	if (*action != VB_ACT_RUN)
		return VB_OK;
	return finish(&st) == 0 ? VB_OK : VB_E_USAGE;
}

void vb_opts_usage(FILE *f)
{
	fputs(
"usage: vbench [options] [operand ...] PATH\n"
"       vbench report [options] FILE ...\n"
"\n"
"Measures sequential write throughput like `dd if=/dev/zero of=F bs=1M`,\n"
"repeated and synced, with statistics in bytes/sec and one line in MB/s\n"
"(10^6) to paste. PATH (required) is a directory (a fresh file is made in\n"
"it and removed), a new file, or with --force an existing file or a disk\n"
"that nothing is layered on.\n"
"\n"
"Operands and options:\n"
"  of=PATH         -o, --output PATH   target (required)\n"
"  if=SRC          -i, --source SRC    zero, urandom or random (default zero)\n"
"  bs=SIZE         -b, --bs SIZE       bytes per write (default 1M)\n"
"  count=N         -c, --count N       writes per run (default 1000)\n"
"                  -s, --size SIZE     bytes per run instead of count\n"
"  runs=N          -r, --runs N        measured runs (default 5), or auto:\n"
"                                      3 or more until the mean is known\n"
"                  --precision PCT     runs=auto: 95% CI within +-PCT (3)\n"
"                  --max-runs N        runs=auto: at most N runs (20)\n"
"                  --max-time SECS     runs=auto: no run past SECS\n"
"  qd=N            --qd N              writes in flight, 1-256 (default 1)\n"
"  oflag=direct    -d, --direct        bypass the page cache (O_DIRECT)\n"
"  oflag=dsync     --sync dsync        every write durable (O_DSYNC)\n"
"  conv=fsync      --sync fsync        fsync before the clock stops (default)\n"
"  conv=fdatasync  --sync fdatasync    fdatasync before the clock stops\n"
"                  --sync none         no sync: measures the page cache\n"
"  status=progress --progress          live progress (default on a TTY)\n"
"  status=none     --no-progress       no live progress\n"
"                  -l, --label TEXT    name of this configuration\n"
"                  -f, --format FMT    human, csv or json (default human)\n"
"                  --json              the same as -f json\n"
"                  --csv-append FILE   also append CSV rows to FILE\n"
"                  --no-header         CSV without its header row\n"
"                  -k, --keep          keep the file vbench created\n"
"                  --force             allow an existing file, or a disk\n"
"                  --overwrite         rewrite one file in place every run\n"
"                  --warmup N          unmeasured runs first (default 0)\n"
"                  --seed N            seed of the random source\n"
"                  --interval SECS     print throughput every SECS (sampled\n"
"                                      every 0.5 s anyway, to find a knee)\n"
"                  --trace FILE        append the samples to FILE (CSV)\n"
"                  --check-flush       time a flush against a write (a short\n"
"                                      check follows every synced session)\n"
"                  --stall-timeout S   warn when a call hangs (default 30)\n"
"                  --timeout SECS      abort a stuck run (0: never)\n"
"                  -q, --quiet         print only the summary\n"
"                  -h, --help          this text\n"
"                  -V, --version       the version\n"
"\n"
"SIZE: bytes, or with k m g t (x1024), KiB MiB GiB TiB, kB MB GB TB (x1000),\n"
"b (512); x multiplies (2x512). Exit status: 0 ok, 1 usage, 2 setup, 3 I/O, or\n"
"a run that did not end clean (a file left behind, results not written).\n"
"More in vbench(1) and `vbench report --help`. Examples:\n"
"\n"
"  # compare two file systems, then chart them (rm: no old runs mixed in)\n"
"  rm -f fs.csv\n"
"  vbench -q --direct -l ext4 --csv-append fs.csv /mnt/ext4\n"
"  vbench -q --direct -l xfs --csv-append fs.csv /mnt/xfs\n"
"  vbench report --svg fs.svg fs.csv\n"
"\n"
"  # virtio against IDE: two whole disks, unmounted (their data is lost)\n"
"  vbench -q --force --direct -l virtio --csv-append bus.csv /dev/vdb\n"
"  vbench -q --force --direct -l ide --csv-append bus.csv /dev/sdb\n"
"  vbench report --baseline ide --svg bus.svg bus.csv\n", f);
}
