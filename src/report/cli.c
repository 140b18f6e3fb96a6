#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vb_report.h"

/* Big enough for a file name, a line number and a sentence. */
#define ERR_MAX 1024

/* What the command line of `vbench report` asked for. */
struct report_args {
	enum vb_report_format format;
	const char *baseline;      /* NULL: the first label */
	const char *svg;           /* NULL: no chart */
	char **files;              /* points into argv */
	size_t n_files;
	bool help;
};

void vb_report_usage(FILE *f)
{
	fputs("usage: vbench report [--format text|markdown|csv|json] [--baseline LABEL]\n"
	      "                     [--svg FILE] FILE...\n"
	      "\n"
	      "Compares runs read from vbench CSV and JSON files and from text logs holding dd\n"
	      "summary lines (BSD \"... bytes transferred in ... secs (... bytes/sec)\", GNU\n"
	      "\"... bytes (...) copied, ... s, ...\"). A text log is one label, named after the\n"
	      "file without its extension; \"-\" reads standard input.\n"
	      "\n"
	      "  -f, --format FMT   text (default), markdown, csv or json\n"
	      "      --baseline L   compare every label with L (default: the first label read)\n"
	      "      --svg FILE     also write a bar chart of the means in MB/s to FILE\n"
	      "  -h, --help         print this help\n"
	      "\n"
	      "Warm-up and partial runs, and runs that took 0 seconds, are left out. Ratios are of\n"
	      "mean bytes/sec with a 95% confidence interval; significance is Welch's t-test at\n"
	      "p<0.05.\n", f);
}

/* Matches argv[*i] against option name (long or short, "--name VALUE" or
 * "--name=VALUE"); 1 with *val set, 0 if it is another argument, -1 if the value is
 * missing. */
static int opt_value(int argc, char *argv[], int *i, const char *name, const char *shrt,
		     const char **val)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);
	if (strncmp(arg, name, n) == 0 && arg[n] == '=') {
		*val = arg + n + 1;
		return 1;
	}
	if (strcmp(arg, name) != 0 && (shrt == NULL || strcmp(arg, shrt) != 0))
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

/* Handles option argv[*i]; 0, or -1 with a message in err. */
static int parse_option(int argc, char *argv[], int *i, struct report_args *ra, char *err,
			size_t errlen)
{
	const char *arg = argv[*i], *val = NULL;
	int fmt, base = 0, svg = 0;
	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
		ra->help = true;
		return 0;
	}
	if ((fmt = opt_value(argc, argv, i, "--format", "-f", &val)) == 0 &&
	    (base = opt_value(argc, argv, i, "--baseline", NULL, &val)) == 0 &&
	    (svg = opt_value(argc, argv, i, "--svg", NULL, &val)) == 0) {
		snprintf(err, errlen, "unknown option '%s'", arg);
		return -1;
	}
	if (fmt < 0 || base < 0 || svg < 0) {
		snprintf(err, errlen, "option %s needs a value", arg);
		return -1;
	}
	if (fmt > 0 && vb_report_parse_format(val, &ra->format) < 0) {
		snprintf(err, errlen, "unknown format '%s' (text, markdown, csv, json)", val);
		return -1;
	}
	if (base > 0)
		ra->baseline = val;
	if (svg > 0)
		ra->svg = val;
	return 0;
}

/* Parses the arguments after "report"; files and options may come in any order. */
static int parse_args(int argc, char *argv[], struct report_args *ra, char *err, size_t errlen)
{
	bool options = true;
	err[0] = '\0';
	ra->files = calloc((size_t)(argc > 0 ? argc : 1), sizeof *ra->files);
	if (ra->files == NULL) {
		snprintf(err, errlen, "out of memory");
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
		snprintf(err, errlen, "no input files");
		return -1;
	}
	return 0;
}

/* Reads all of in into a new buffer; 0, or -1 with errno set. */
static int slurp(FILE *in, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (cap - n < 65536) {
			size_t ncap = cap ? cap * 2 : 65536;
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
		if (got == 0)
			break;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Reads one named file ("-": standard input) into d; prints why on err if it cannot. */
static int read_one(struct vb_dataset *d, const char *path, FILE *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "rb");
	if (in == NULL) {
		fprintf(err, "vbench report: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *buf;
	size_t len;
	errno = 0;
	int rc = slurp(in, &buf, &len);
	int e = errno;
	if (!is_stdin)
		fclose(in);
	if (rc < 0) {
		fprintf(err, "vbench report: cannot read %s: %s\n", path, strerror(e));
		return -1;
	}
	char msg[ERR_MAX];
	rc = vb_report_read(d, buf, len, path, msg, sizeof msg);
	free(buf);
	if (rc < 0)
		fprintf(err, "vbench report: %s\n", msg);
	return rc;
}

/* Writes the chart to path; prints why on err if it cannot. */
static int write_svg(const char *path, const struct vb_analysis *a, FILE *err)
{
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		fprintf(err, "vbench report: cannot create %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = vb_report_print_svg(f, a);
	int e = errno;
	if (fclose(f) != 0 && rc == 0) {
		e = errno;
		rc = -1;
	}
	if (rc < 0)
		fprintf(err, "vbench report: cannot write %s: %s\n", path, strerror(e));
	return rc;
}

/* Reads every file (all of them, so that every bad one is named), then reports. */
static int run_report(const struct report_args *ra, FILE *out, FILE *err)
{
	struct vb_dataset d;
	struct vb_analysis a;
	char msg[ERR_MAX];
	int bad = 0;
	vb_dataset_init(&d);
	for (size_t i = 0; i < ra->n_files; i++)
		bad |= read_one(&d, ra->files[i], err) < 0;
	if (bad) {
		vb_dataset_free(&d);
		return 1;
	}
	if (d.skipped_zero > 0)
		fprintf(err, "vbench report: note: left out %zu run%s that took 0 seconds (no rate)\n",
			d.skipped_zero, d.skipped_zero == 1 ? "" : "s");
	if (vb_report_analyze(&d, ra->baseline, &a, msg, sizeof msg) < 0) {
		fprintf(err, "vbench report: %s\n", msg);
		vb_dataset_free(&d);
		return 1;
	}
	vb_dataset_free(&d);
	int rc = 0;
	if (vb_report_print(out, &a, ra->format) < 0) {
		fprintf(err, "vbench report: write error on standard output\n");
		rc = 1;
	}
	if (ra->svg != NULL && write_svg(ra->svg, &a, err) < 0)
		rc = 1;
	vb_analysis_free(&a);
	return rc;
}

enum vb_status vb_report_main(int argc, char *argv[], FILE *out, FILE *err)
{
	struct report_args ra = {VB_REPORT_TEXT, NULL, NULL, NULL, 0, false};
	char msg[ERR_MAX];
	int rc;
	if (parse_args(argc, argv, &ra, msg, sizeof msg) < 0) {
		fprintf(err, "vbench report: %s\nTry 'vbench report --help'.\n", msg);
		rc = 1;
	} else if (ra.help) {
		vb_report_usage(out);
		rc = fflush(out) == 0 ? 0 : 1;
	} else {
		rc = run_report(&ra, out, err);
	}
	free(ra.files);
	return rc == 0 ? VB_OK : VB_E_USAGE;
}
