#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_args.h"
#include "common/vb_escape.h"
#include "common/vb_io.h"
#include "os/vb_os.h"
#include "report/report_internal.h"

/* Big enough for a file name, a line number and a sentence. */
#define ERR_MAX 1024

/* The options of `vbench report`, parsed by the same rules as vbench's own: each may be
 * given once, and a value that looks like an option is a forgotten value. */
enum ropt { R_FORMAT, R_BASELINE, R_SVG, R_FORCE, R_HELP, R_LABEL, R_NOPTS };

static const struct {
	const char *name, *short_name;
	bool takes_value;
} ropts[R_NOPTS] = {
	[R_FORMAT] = {"--format", "-f", true}, [R_BASELINE] = {"--baseline", NULL, true},
	[R_SVG] = {"--svg", NULL, true}, [R_FORCE] = {"--force", NULL, false},
	[R_HELP] = {"--help", "-h", false}, [R_LABEL] = {"--label", NULL, true},
};

/* What the command line of `vbench report` asked for. */
struct report_args {
	enum vb_report_format format;
	const char *baseline;      /* NULL: the first label */
	const char *svg;           /* NULL: no chart */
	bool force;                /* --svg may replace a file vbench did not write */
	const char *label;         /* --label: the label of a --trace file --svg draws */
	bool help;
	char **files;              /* points into argv */
	size_t n_files;
	const char *seen_as[R_NOPTS];
};

/* An input that was read: its identity, so that no file is read twice or overwritten. */
struct input {
	const char *name;
	struct vb_fileinfo id;
	bool have_id;
};

/* Writes the usage of `vbench report` to f. */
static void report_usage(FILE *f)
{
	fputs("usage: vbench report [--format text|markdown|csv|json] [--baseline LABEL]\n"
	      "                     [--svg FILE [--force]] FILE...\n"
	      "\n"
	      "Compares runs read from vbench CSV and JSON files and from text logs holding dd\n"
	      "summary lines (BSD \"... bytes transferred in ... secs (... bytes/sec)\", GNU\n"
	      "\"... bytes (...) copied, ... s, ...\"). A text log is one label, named after the\n"
	      "file without its extension; \"-\" reads standard input. Each file is read once.\n"
	      "\n"
	      "  -f, --format FMT   text (default), markdown, csv or json\n"
	      "      --baseline L   compare every label with L (default: the first label read)\n"
	      "      --svg FILE     also write a bar chart of the means in MB/s to FILE; a file\n"
	      "                     vbench report did not write is replaced only with --force,\n"
	      "                     an input never, a link never followed\n"
	      "      --force        let --svg replace an existing file\n"
	      "      --label L      with files of vbench --trace: the label --svg draws (the\n"
	      "                     first by default); the text says each run's rates and knee\n"
	      "  -h, --help         print this help\n"
	      "\n"
	      "Warm-up and partial runs, and runs that took 0 seconds, are left out; a run\n"
	      "read twice counts once. Runs of one label made with different bs, run size,\n"
	      "direct, sync, qd or source, or on another file system or device, are reported\n"
	      "apart, never averaged. Ratios are of mean bytes/sec with a 95% confidence\n"
	      "interval; significance is Welch's t-test at p<0.05; MB/s is 10^6 bytes/sec.\n", f);
}

/* Prints "vbench report: MSG", escaped: messages quote file names and file contents. */
static void say(FILE *err, const char *msg)
{
	fputs("vbench report: ", err);
	vb_text(err, msg);
	fputc('\n', err);
}

/* Parses "text", "markdown" (or "md"), "csv" or "json"; returns 0, or -1 if unknown. */
static int parse_format(const char *s, enum vb_report_format *out)
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

/* Handles option argv[*i]; 0, or -1 with a message in err. */
static int parse_option(int argc, char *argv[], int *i, struct report_args *ra, char *err,
			size_t errlen)
{
	const char *arg = argv[*i], *val = NULL;
	int k;

	for (k = 0; k < R_NOPTS; k++) {
		size_t n = strlen(ropts[k].name);
		if (ropts[k].takes_value && strncmp(arg, ropts[k].name, n) == 0 && arg[n] == '=') {
			val = arg + n + 1;
			break;
		}
		if (strcmp(arg, ropts[k].name) == 0 ||
		    (ropts[k].short_name && strcmp(arg, ropts[k].short_name) == 0))
			break;
	}
	if (k == R_NOPTS) {
		const char *names[R_NOPTS], *near = NULL;
		size_t n = strcspn(arg, "=");
		for (int j = 0; j < R_NOPTS; j++)
			names[j] = ropts[j].name + 2;
		if (strncmp(arg, "--", 2) == 0)
			near = vb_nearest(arg + 2, n - 2, names, R_NOPTS);
		if (near != NULL)
			vb_msgf(err, errlen, "unknown option '%.*s': did you mean --%s?", (int)n, arg,
				near);
		else
			vb_msgf(err, errlen, "unknown option '%s' (see vbench report --help)", arg);
		return -1;
	}
	if (ra->seen_as[k] != NULL) {
		vb_msgf(err, errlen, "%s: given twice (already as %s)", arg, ra->seen_as[k]);
		return -1;
	}
	ra->seen_as[k] = arg;
	if (ropts[k].takes_value && val == NULL) {
		if (*i + 1 >= argc || vb_arg_is_option(argv[*i + 1])) {
			vb_msgf(err, errlen, "option %s needs a value", arg);
			return -1;
		}
		val = argv[++*i];
	}
	if (val != NULL && *val == '\0') {
		vb_msgf(err, errlen, "%s: the value is empty", ropts[k].name);
		return -1;
	}
	switch ((enum ropt)k) {
	case R_FORMAT:
		if (parse_format(val, &ra->format) < 0) {
			vb_msgf(err, errlen, "unknown format '%s' (text, markdown, csv, json)", val);
			return -1;
		}
		break;
	case R_BASELINE: ra->baseline = val; break;
	case R_SVG: ra->svg = val; break;
	case R_FORCE: ra->force = true; break;
	case R_HELP: ra->help = true; break;
	case R_LABEL: ra->label = val; break;
	case R_NOPTS: break;
	}
	return 0;
}

/* Parses the arguments after "report"; files and options may come in any order. */
static int parse_args(int argc, char *argv[], struct report_args *ra, char *err, size_t errlen)
{
	bool options = true;
	ra->files = calloc((size_t)(argc > 0 ? argc : 1), sizeof *ra->files);
	if (ra->files == NULL) {
		vb_msgf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (options && strcmp(arg, "--") == 0) {
			options = false;
		} else if (options && arg[0] == '-' && arg[1] != '\0') {
			if (parse_option(argc, argv, &i, ra, err, errlen) < 0)
				return -1;
		} else {
			ra->files[ra->n_files++] = argv[i];
		}
	}
	if (!ra->help && ra->n_files == 0) {
		vb_msgf(err, errlen, "no input files: name vbench CSV, JSON or --trace files, or "
			"a saved log (see vbench report --help)");
		return -1;
	}
	if (ra->force && ra->svg == NULL) {
		vb_msgf(err, errlen, "--force applies to --svg, which was not given");
		return -1;
	}
	/* "-" is standard input among the inputs; standard output holds the report */
	if (ra->svg != NULL && strcmp(ra->svg, "-") == 0) {
		vb_msgf(err, errlen, "--svg -: the chart goes to a file (name it, e.g. "
			"--svg ./-); standard output holds the report");
		return -1;
	}
	return 0;
}

int vbr_slurp(FILE *in, size_t limit, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (cap - n < 65536 && cap <= limit) {
			/* room for one byte past the limit, which tells a file over it */
			size_t ncap = cap ? cap * 2 : 65536;
			if (ncap > limit + 1 || ncap < cap)
				ncap = limit + 1;
			char *b = ncap > cap ? realloc(buf, ncap) : NULL;
			if (b == NULL) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
			buf = b;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0 && ferror(in)) {
			int e = errno;
			free(buf);
			errno = e ? e : EIO;
			return -1;
		}
		if (n > limit) {
			free(buf);
			return -2;
		}
		if (got == 0)
			break;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Records the identity of an input; refuses one read already. */
static int note_input(struct input *in, size_t k, FILE *f, const char *name, FILE *err)
{
	char msg[ERR_MAX];

	in[k].name = name;
	in[k].have_id = vb_os_io.fstat(NULL, vb_os_fileno(f), &in[k].id) == 0;
	for (size_t j = 0; j < k; j++) {
		bool same = strcmp(name, "-") == 0 && strcmp(in[j].name, "-") == 0;
		if (in[k].have_id && in[j].have_id && in[k].id.type == VB_FT_REG &&
		    in[k].id.dev == in[j].id.dev && in[k].id.ino == in[j].id.ino)
			same = true;
		if (same) {
			vb_msgf(msg, sizeof msg, "%s: given twice (as %s); each file is read once, "
				"or its runs would count twice", name, in[j].name);
			say(err, msg);
			return -1;
		}
	}
	return 0;
}

/* Reads one named file ("-": standard input) into d, or a --trace file into t; prints
 * why on err if it cannot. */
static int read_one(struct vb_dataset *d, struct vbr_trace *t, struct input *inputs, size_t k,
		    const char *path, FILE *err)
{
	char msg[ERR_MAX];
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "rb");
	if (in == NULL) {
		vb_msgf(msg, sizeof msg, "cannot open %s: %s", path, strerror(errno));
		say(err, msg);
		return -1;
	}
	if (note_input(inputs, k, in, path, err) < 0) {
		if (!is_stdin)
			fclose(in);
		return -1;
	}
	char *buf;
	size_t len;
	errno = 0;
	int rc = vbr_slurp(in, VBR_INPUT_MAX, &buf, &len);
	int e = errno;
	if (!is_stdin)
		fclose(in);
	if (rc == -2) {
		vb_msgf(msg, sizeof msg, "%s: larger than %s, the most vbench report reads from "
			"one input (an endless stream, such as /dev/zero?)", path,
			VBR_INPUT_MAX_TEXT);
		say(err, msg);
		return -1;
	}
	if (rc < 0) {
		vb_msgf(msg, sizeof msg, "cannot read %s: %s", path, strerror(e));
		say(err, msg);
		return -1;
	}
	if (vbr_is_trace(buf, len))
		rc = vbr_read_trace(t, buf, len, path, msg, sizeof msg);
	else
		rc = vb_report_read(d, buf, len, path, msg, sizeof msg);
	free(buf);
	if (rc < 0)
		say(err, msg);
	return rc;
}

/* Whether the existing file name in dirfd was written by vbench report: it starts with
 * the head every chart starts with (VB_SVG_HEAD), mark included. */
static bool ours(int dirfd, const char *name)
{
	char head[256];
	int fd = vb_os_open_read(dirfd, name);

	if (fd < 0)
		return false;
	ssize_t n = vb_os_pread(fd, head, sizeof head - 1, 0);
	vb_os_io.close(NULL, fd);
	if (n <= 0)
		return false;
	head[n] = '\0';
	return (size_t)n >= strlen(VB_SVG_HEAD) &&
	       memcmp(head, VB_SVG_HEAD, strlen(VB_SVG_HEAD)) == 0;
}

/* Whether the chart may go to name in dirfd: never through a link, never over an input,
 * never over another kind of file, and over a file vbench did not write only with
 * --force. 0, or -1 with the reason in why. */
static int may_write(int dirfd, const char *name, const struct report_args *ra,
		     const struct input *in, char *why, size_t n)
{
	struct vb_fileinfo fi;

	if (vb_os_io.statat(NULL, dirfd, name, &fi) != 0) {
		vb_msgf(why, n, "cannot examine it: %s", strerror(errno));
		return -1;
	}
	if (fi.type == VB_FT_MISSING)
		return 0;
	if (fi.type == VB_FT_LINK) {
		vb_msgf(why, n, "is a symbolic link; vbench report does not follow links (give "
			"the path it points to)");
		return -1;
	}
	if (fi.type != VB_FT_REG) {
		vb_msgf(why, n, "exists and is not a regular file");
		return -1;
	}
	for (size_t i = 0; i < ra->n_files; i++)
		if (in[i].have_id && in[i].id.dev == fi.dev && in[i].id.ino == fi.ino) {
			vb_msgf(why, n, "is an input of this report (%s); it is never overwritten",
				in[i].name);
			return -1;
		}
	if (!ra->force && !ours(dirfd, name)) {
		vb_msgf(why, n, "exists and was not written by vbench report; add --force to "
			"replace it");
		return -1;
	}
	return 0;
}

/* Removes the temporary file tmp of a chart that was not put in place: -1, or -2 with
 * a sentence in left naming it when it could not be removed. */
static int remove_temp(int dirfd, const char *dir, const char *tmp, char *left, size_t n)
{
	if (vb_os_io.unlinkat(NULL, dirfd, tmp) == 0)
		return -1;
	vb_msgf(left, n, "%s/%s, the temporary file vbench report created, could not be "
		"removed: %s; it is left behind", dir, tmp, strerror(errno));
	return -2;
}

/* The signal that asked to stop while a chart was written (vb_os_signals_install: the
 * handlers only set it). Static: the handlers keep its address. */
static struct vb_sigflags svg_signals;

/* The chart of a with config as its subtitle, or the lines of t when it is not NULL, in
 * a temporary file beside ra->svg, made durable (fsync) and renamed over it:
 * 0, -1 when it was not written (said on err), -2 when moreover its temporary file is
 * left behind (named). A signal that asks to stop while the temporary file exists is
 * caught: the file is removed, then the process ends as that signal would end it. */
static int write_svg(const struct report_args *ra, const struct vb_comparison *a,
		     const char *config, const struct vbr_trace *t, const struct input *in,
		     FILE *err)
{
	char dir[4096], base[256], tmp[300], why[512], msg[ERR_MAX + 600], left[VB_PATH_MSG_MAX];
	int dirfd = -1, fd = -1, rc = -1;
	FILE *f = NULL;

	why[0] = '\0';
	if (!vb_os_path_split(ra->svg, dir, sizeof dir, base, sizeof base)) {
		vb_msgf(why, sizeof why, "not a file name");
	} else if ((dirfd = vb_os_io.open_dir(NULL, dir, false)) < 0) {
		vb_msgf(why, sizeof why, "cannot open its directory: %s", strerror(errno));
	} else if (may_write(dirfd, base, ra, in, why, sizeof why) == 0) {
		vb_os_signals_install(&svg_signals);
		fd = vb_os_create_temp(dirfd, ".vbench-svg", tmp, sizeof tmp);
		if (fd < 0 || (f = vb_os_stream(fd, "wb")) == NULL) {
			vb_msgf(why, sizeof why, "cannot create a file beside it: %s",
				strerror(errno));
			if (fd >= 0) {
				vb_os_io.close(NULL, fd);
				rc = remove_temp(dirfd, dir, tmp, left, sizeof left);
			}
		} else {
			int prc = t != NULL ? vbr_trace_svg(f, t, ra->label)
					    : vb_report_print_svg(f, a, config);
			int e = errno;
			/* durable before it replaces the old chart: a crash leaves one or the
			 * other, never an empty file under the name */
			if (prc == 0 && (fflush(f) != 0 ||
					 vb_os_io.sync(NULL, fd, VB_CALL_FSYNC) != 0)) {
				e = errno;
				prc = -1;
			}
			if (fclose(f) != 0 && prc == 0) {
				e = errno;
				prc = -1;
			}
			if (atomic_load(&svg_signals.stop) != 0)
				vb_msgf(why, sizeof why, "stopped by signal %d before it was put in "
					"place", atomic_load(&svg_signals.stop));
			else if (prc == -3)
				vb_msgf(why, sizeof why, "the samples' times or rates are too small "
					"or too large to put on an axis");
			else if (prc < 0)
				vb_msgf(why, sizeof why, "cannot write it: %s", strerror(e));
			else if (vb_os_rename(dirfd, tmp, base) != 0)
				vb_msgf(why, sizeof why, "cannot put it in place: %s", strerror(errno));
			else
				rc = 0;
			if (rc != 0)
				rc = remove_temp(dirfd, dir, tmp, left, sizeof left);
		}
	}
	if (dirfd >= 0)
		vb_os_io.close(NULL, dirfd);
	if (rc != 0) {
		vb_msgf(msg, sizeof msg, "--svg %s: %s", ra->svg, why);
		say(err, msg);
	}
	if (rc == -2)
		say(err, left);
	if (atomic_load(&svg_signals.stop) > 0)
		vb_os_die(atomic_load(&svg_signals.stop));
	return rc;
}

/* The report's status st after write_svg returned rc: a chart not written is a usage
 * error, unless a worse one came first; a temporary file left behind is an I/O error. */
static enum vb_status svg_status(enum vb_status st, int rc)
{
	if (rc == -2)
		return VB_E_IO;
	return rc < 0 && st == VB_OK ? VB_E_USAGE : st;
}

/* Reports --trace files: each run's rates and knee, and with --svg one label's lines. */
static enum vb_status run_trace(const struct report_args *ra, const struct vbr_trace *t,
				const struct input *in, FILE *out, FILE *err)
{
	char msg[ERR_MAX];

	if (ra->format != VB_REPORT_TEXT || ra->baseline != NULL) {
		say(err, "a --trace file is reported as text, without --baseline");
		return VB_E_USAGE;
	}
	if (ra->label != NULL) {
		size_t l = 0;
		while (l < t->n_labels && strcmp(t->labels[l], ra->label) != 0)
			l++;
		if (l == t->n_labels) {
			vb_msgf(msg, sizeof msg, "--label %s: no such label in the trace",
				ra->label);
			say(err, msg);
			return VB_E_USAGE;
		}
	}
	enum vb_status st = VB_OK;
	if (vbr_trace_print(out, t) < 0) {
		say(err, "write error on standard output");
		st = VB_E_IO;
	}
	if (ra->svg != NULL)
		st = svg_status(st, write_svg(ra, NULL, NULL, t, in, err));
	return st;
}

/* Says on err that n runs or lines (noun) were left out, and why; nothing when n is 0. */
static void left_out(FILE *err, size_t n, const char *noun, const char *why)
{
	char msg[ERR_MAX];

	if (n == 0)
		return;
	vb_msgf(msg, sizeof msg, "note: left out %zu %s%s %s", n, noun, n == 1 ? "" : "s", why);
	say(err, msg);
}

/* Reads every file (all of them, so that every bad one is named), then reports. */
static enum vb_status run_report(const struct report_args *ra, FILE *out, FILE *err)
{
	struct vb_dataset d;
	struct vb_comparison a;
	char msg[ERR_MAX];
	int bad = 0;
	struct input *inputs = calloc(ra->n_files, sizeof *inputs);

	if (inputs == NULL) {
		say(err, "out of memory");
		return VB_E_USAGE;
	}
	struct vbr_trace t = {0};
	vb_dataset_init(&d);
	for (size_t i = 0; i < ra->n_files; i++)
		bad |= read_one(&d, &t, inputs, i, ra->files[i], err) < 0;
	if (!bad && t.n > 0 && d.n_samples > 0) {
		say(err, "files of vbench --trace (samples within runs) and files of runs cannot "
			 "be reported together");
		bad = 1;
	} else if (!bad && t.n == 0 && ra->label != NULL) {
		say(err, "--label applies to files of vbench --trace");
		bad = 1;
	}
	if (bad || t.n > 0) {
		enum vb_status st = bad ? VB_E_USAGE : run_trace(ra, &t, inputs, out, err);
		vbr_trace_free(&t);
		vb_dataset_free(&d);
		free(inputs);
		return st;
	}
	left_out(err, d.skipped_zero, "run", "that took 0 seconds (no rate)");
	left_out(err, d.skipped_ddlike, "line", "of the logs that read like dd's summary but are "
		 "not in its form");
	left_out(err, d.skipped_dup, "run", "read a second time (the same session, label and run "
		 "number: a copy of a file?); each run counts once");
	if (vb_report_compare(&d, ra->baseline, &a, msg, sizeof msg) < 0) {
		say(err, msg);
		vb_dataset_free(&d);
		free(inputs);
		return VB_E_USAGE;
	}
	for (size_t g = 0; g < a.n_groups; g++) {
		if (vb_report_split_note(&a, g, msg, sizeof msg))
			say(err, msg);
		if (a.groups[g].other_fs != NULL) {
			vb_msgf(msg, sizeof msg, "warning: label \"%s\" names %s, but its runs were "
				"measured on %s", a.groups[g].label, a.groups[g].other_fs,
				a.groups[g].where);
			say(err, msg);
		}
	}
	for (size_t g = 0; g < a.n_groups; g++)
		if (vb_report_session_note(&a, g, msg, sizeof msg))
			say(err, msg);
	char config[256];
	vb_report_config_text(&a, &d, config, sizeof config);
	vb_dataset_free(&d);
	enum vb_status st = VB_OK;
	if (vb_report_print(out, &a, ra->format) < 0) {
		say(err, "write error on standard output");
		st = VB_E_IO;
	}
	if (ra->svg != NULL)
		st = svg_status(st, write_svg(ra, &a, config, NULL, inputs, err));
	vb_comparison_free(&a);
	free(inputs);
	return st;
}

enum vb_status vb_report_main(int argc, char *argv[], FILE *out, FILE *err)
{
	struct report_args ra;
	char msg[ERR_MAX];
	enum vb_status st;

	memset(&ra, 0, sizeof ra);
	ra.format = VB_REPORT_TEXT;
	if (parse_args(argc, argv, &ra, msg, sizeof msg) < 0) {
		say(err, msg);
		st = VB_E_USAGE;
	} else if (ra.help) {
		report_usage(out);
		st = VB_OK;
		if (fflush(out) != 0 || ferror(out)) {
			vb_msgf(msg, sizeof msg, "write error on standard output: %s",
				strerror(errno));
			say(err, msg);
			st = VB_E_IO;
		}
	} else {
		st = run_report(&ra, out, err);
	}
	free(ra.files);
	return st;
}
