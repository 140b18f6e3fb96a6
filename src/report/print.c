#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"
#include "report/report_internal.h"

/* The printers of `vbench report`: text, markdown, CSV and JSON. */

/* Writes a label into a markdown table cell: as vb_text shows it, with the characters
 * markdown would format backslash-escaped. */
static void md_label(FILE *f, const char *s)
{
	char *e = vb_text_dup(s);

	for (const char *p = e != NULL ? e : "?"; *p; p++) {
		if (strchr("\\|*_`<>[]#~", *p))
			putc('\\', f);
		putc(*p, f);
	}
	free(e);
}

/* Rows after the runs: the statistics of each label. */
static const char *const stat_rows[] = {"mean", "mean MB/s", "min", "max", "stddev"};
#define N_STATS 5
#define CELL_MAX 64

/* Name of table row r: "run 1", ... then the statistics. */
static void row_name(const struct vb_comparison *a, size_t r, char *buf, size_t n)
{
	if (r < a->max_runs)
		snprintf(buf, n, "run %zu", r + 1);
	else
		snprintf(buf, n, "%s", r - a->max_runs < N_STATS ? stat_rows[r - a->max_runs] : "");
}

/* bytes_per_sec in MB/s (10^6 bytes/sec), with three significant digits below 100. */
static void fmt_mb(double bytes_per_sec, char *buf, size_t n)
{
	double mb = bytes_per_sec / 1e6;
	snprintf(buf, n, "%.*f", mb >= 100 ? 0 : mb >= 10 ? 1 : mb >= 1 ? 2 : 3, mb);
}

/* Cell of group g in row r, in bytes/sec: runs and extremes rounded as dd prints them, mean
 * (also in MB/s) and stddev with one decimal as vbench's summary; "-" for one run's stddev,
 * "" past a label's last run. */
static void cell(const struct vb_comparison *a, size_t g, size_t r, char *buf, size_t n)
{
	const struct vb_group *gr = &a->groups[g];
	if (r < a->max_runs) {
		if (r < gr->n)
			snprintf(buf, n, "%.0f", gr->samples[r].bytes_per_sec);
		else
			snprintf(buf, n, "%s", "");
		return;
	}
	switch (r - a->max_runs) {
	case 0: snprintf(buf, n, "%.1f", gr->sum.mean); break;
	case 1: fmt_mb(gr->sum.mean, buf, n); break;
	case 2: snprintf(buf, n, "%.0f", gr->sum.min); break;
	case 3: snprintf(buf, n, "%.0f", gr->sum.max); break;
	default:
		if (gr->n < 2)
			snprintf(buf, n, "-");
		else
			snprintf(buf, n, "%.1f", gr->sum.stddev);
	}
}

/* Width of column g of the text table: its label or its widest cell. */
static size_t column_width(const struct vb_comparison *a, size_t g)
{
	size_t w = vb_text_width(a->groups[g].label);
	char buf[CELL_MAX];
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		cell(a, g, r, buf, sizeof buf);
		if (strlen(buf) > w)
			w = strlen(buf);
	}
	return w;
}

static void pad(FILE *f, size_t n)
{
	while (n-- > 0)
		putc(' ', f);
}

/* Whether the test of g ran and its figures are numbers to print. */
static bool tested(const struct vb_group *g)
{
	return g->verdict != VB_VERDICT_BASELINE && g->verdict != VB_VERDICT_NOT_COMPUTABLE &&
	       g->cmp.valid;
}

/* The confidence interval of the ratio: "[1.59, 2.11]", or "from 0.00, no upper bound"
 * when the baseline's mean cannot be told from 0. */
static void fmt_ci(const struct vb_welch *w, char *buf, size_t n, const char *to)
{
	char lo[32], hi[32];

	vbr_fmt_ratio(w->ratio_lo, lo, sizeof lo);
	vbr_fmt_ratio(w->ratio_hi, hi, sizeof hi);
	if (!isfinite(w->ratio_hi))
		snprintf(buf, n, "from %s, no upper bound", lo);
	else if (to != NULL)
		snprintf(buf, n, "%s%s%s", lo, to, hi);
	else
		snprintf(buf, n, "[%s, %s]", lo, hi);
}

/* "95% CI [1.59, 2.11], t=6.12, df=4.0, p=0.0036" when the test ran, else ""; without p
 * when the verdict gives it ("no significant difference (p=0.85)"). */
static void fmt_test(const struct vb_group *g, char *buf, size_t n)
{
	const struct vb_welch *w = &g->cmp;
	char ci[80];

	fmt_ci(w, ci, sizeof ci, NULL);
	if (!tested(g))
		snprintf(buf, n, "%s", "");
	else if (g->verdict == VB_VERDICT_SAME)
		snprintf(buf, n, "95%% CI %s, Welch t=%.2f, df=%.1f", ci, w->t, w->df);
	else
		snprintf(buf, n, "95%% CI %s, Welch t=%.2f, df=%.1f, p=%.3g", ci, w->t, w->df,
			 w->p);
}

/* (flushed so that a full disk shows up as an error here) */
int vbr_finish(FILE *f)
{
	return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}

/* The run table; -1 without memory. */
static int text_table(FILE *f, const struct vb_comparison *a, size_t first)
{
	char buf[CELL_MAX];
	size_t *width = malloc((a->n_groups ? a->n_groups : 1) * sizeof *width);
	if (width == NULL)
		return -1;
	fprintf(f, "%-*s", (int)first, "bytes/sec");
	for (size_t g = 0; g < a->n_groups; g++) {
		width[g] = column_width(a, g);
		fputs("  ", f);
		pad(f, width[g] - vb_text_width(a->groups[g].label));
		vb_text(f, a->groups[g].label);
	}
	putc('\n', f);
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		row_name(a, r, buf, sizeof buf);
		fprintf(f, "%-*s", (int)first, buf);
		for (size_t g = 0; g < a->n_groups; g++) {
			cell(a, g, r, buf, sizeof buf);
			fprintf(f, "  %*s", (int)width[g], buf);
		}
		putc('\n', f);
	}
	free(width);
	return 0;
}

/* Where each label's runs were measured, so that a label naming another file system is
 * seen; nothing when no input says. */
static void print_where(FILE *f, const struct vb_comparison *a, bool markdown)
{
	size_t g = 0;

	while (g < a->n_groups && a->groups[g].where == NULL)
		g++;
	if (g == a->n_groups)
		return;
	void (*text)(FILE *, const char *) = markdown ? md_label : vb_text;
	fputs(markdown ? "\nMeasured on:\n\n" : "\nmeasured on:\n", f);
	for (g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		fputs(markdown ? "- " : "  ", f);
		text(f, gr->label);
		fputs(": ", f);
		text(f, gr->where ? gr->where : "not recorded");
		if (gr->other_fs != NULL) {
			fputs(markdown ? " **(but the label names " : " (but the label names ", f);
			vb_text(f, gr->other_fs);
			fputs(markdown ? ": not what was measured)**" : ": not what was measured)", f);
		}
		fputc('\n', f);
	}
}

/* Prints the notes under a heading ("storage:" as text, a list in markdown); nothing when
 * there are none. */
static void print_notes(FILE *f, const struct vb_comparison *a, bool markdown)
{
	if (a->n_notes == 0)
		return;
	fputs(markdown ? "\nStorage:\n\n" : "\nstorage:\n", f);
	for (size_t i = 0; i < a->n_notes; i++) {
		fputs(markdown ? "- " : "  ", f);
		vb_text(f, a->notes[i].label);
		fputs(": ", f);
		vb_text(f, a->notes[i].text);
		fputc('\n', f);
	}
}

int vb_report_print_text(FILE *f, const struct vb_comparison *a)
{
	/* The first column holds "bytes/sec" and "run N" for the largest N. */
	int run_w = snprintf(NULL, 0, "run %zu", a->max_runs);
	size_t first = run_w > 9 ? (size_t)run_w : 9;
	if (text_table(f, a, first) < 0)
		return -1;
	const struct vb_group *base = &a->groups[a->baseline];
	size_t lw = 0;
	for (size_t g = 0; g < a->n_groups; g++)
		if (g != a->baseline && vb_text_width(a->groups[g].label) > lw)
			lw = vb_text_width(a->groups[g].label);
	if (a->n_groups > 1) {
		fputs("\nagainst ", f);
		vb_text(f, base->label);
		fputs(" (ratio of means):\n", f);
	}
	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		if (g == a->baseline)
			continue;
		char ratio[32], test[160], verdict[96], mb[32];
		vbr_fmt_ratio(gr->cmp.ratio, ratio, sizeof ratio);   /* "1.83x", or "n/a" */
		if (isfinite(gr->cmp.ratio))
			strncat(ratio, "x", sizeof ratio - strlen(ratio) - 1);
		fmt_test(gr, test, sizeof test);
		fmt_mb(gr->sum.mean, mb, sizeof mb);
		vb_report_verdict(gr, verdict, sizeof verdict);
		vb_text(f, gr->label);
		pad(f, lw - vb_text_width(gr->label));
		fprintf(f, "  %s (%s MB/s)%s%s: %s\n", ratio, mb, test[0] ? ", " : "", test, verdict);
	}
	print_where(f, a, false);
	print_notes(f, a, false);
	return vbr_finish(f);
}

/* The run table as markdown. */
static void md_runs(FILE *f, const struct vb_comparison *a)
{
	char buf[CELL_MAX];
	fputs("| bytes/sec |", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		putc(' ', f);
		md_label(f, a->groups[g].label);
		fputs(" |", f);
	}
	fputs("\n|:---|", f);
	for (size_t g = 0; g < a->n_groups; g++)
		fputs("---:|", f);
	putc('\n', f);
	for (size_t r = 0; r < a->max_runs + N_STATS; r++) {
		row_name(a, r, buf, sizeof buf);
		fprintf(f, "| %s |", buf);
		for (size_t g = 0; g < a->n_groups; g++) {
			cell(a, g, r, buf, sizeof buf);
			fprintf(f, " %s |", buf);
		}
		putc('\n', f);
	}
}

/* One row of the markdown comparison table. */
static void md_compare_row(FILE *f, const struct vb_group *g)
{
	const struct vb_welch *w = &g->cmp;
	char verdict[96], mb[32];
	if (g->verdict == VB_VERDICT_SAME)   /* p has a column of its own */
		snprintf(verdict, sizeof verdict, "no significant difference");
	else
		vb_report_verdict(g, verdict, sizeof verdict);
	fmt_mb(g->sum.mean, mb, sizeof mb);
	fputs("| ", f);
	md_label(f, g->label);
	fprintf(f, " | %.1f | %s | ", g->sum.mean, mb);
	char ratio[32], ci[80];
	vbr_fmt_ratio(w->ratio, ratio, sizeof ratio);
	if (isfinite(w->ratio))
		fputs(ratio, f);
	fmt_ci(w, ci, sizeof ci, " to ");
	if (tested(g))
		fprintf(f, " | %s | %.2f | %.1f | %.3g", ci, w->t, w->df, w->p);
	else
		fputs(" |  |  |  | ", f);
	fprintf(f, " | %s |\n", verdict);
}

int vb_report_print_markdown(FILE *f, const struct vb_comparison *a)
{
	md_runs(f, a);
	fputs("\n| label | mean (bytes/sec) | MB/s | ratio | 95% CI | t | df | p | verdict |\n"
	      "|:---|---:|---:|---:|:---|---:|---:|---:|:---|\n", f);
	for (size_t g = 0; g < a->n_groups; g++)
		md_compare_row(f, &a->groups[g]);
	print_where(f, a, true);
	print_notes(f, a, true);
	return vbr_finish(f);
}

/* Writes x for CSV or JSON: full precision when finite, else the text for "none". */
static void num_or(FILE *f, double x, const char *none)
{
	if (isfinite(x))
		fprintf(f, "%.15g", x);
	else
		fputs(none, f);
}

/* One CSV field, written as vbench's own CSV files are (vb_csv_field escapes it as
 * vb_text shows it): a terminal reading the CSV gets no escape sequence, CR or LF. */
static void csv_text(FILE *f, const char *s)
{
	struct vb_buf b;

	vb_buf_init(&b);
	vb_csv_field(&b, s);
	fputs(b.oom ? "?" : b.p != NULL ? b.p : "", f);
	vb_buf_free(&b);
}

/* s as a JSON string, of the text as vb_text shows it (so that two labels that differ in
 * their stray bytes still differ). */
static void json_text(FILE *f, const char *s)
{
	char *e = vb_text_dup(s);

	vb_json_string(f, e != NULL ? e : "?");
	free(e);
}

int vb_report_print_csv(FILE *f, const struct vb_comparison *a)
{
	fputs("label,runs,mean,min,max,stddev,cv,baseline,ratio,ratio_lo,ratio_hi,t,df,p,"
	      "significant,verdict,measured_on,label_names_other_fs\r\n", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		bool test = tested(gr);
		char verdict[96];
		vb_report_verdict(gr, verdict, sizeof verdict);
		csv_text(f, gr->label);
		fprintf(f, ",%zu,%.15g,%.15g,%.15g,", gr->n, gr->sum.mean, gr->sum.min, gr->sum.max);
		num_or(f, gr->n >= 2 ? gr->sum.stddev : NAN, "");
		putc(',', f);
		num_or(f, gr->n >= 2 ? gr->sum.cv : NAN, "");
		fprintf(f, ",%d,", g == a->baseline);
		num_or(f, gr->cmp.ratio, "");
		double v[5] = {gr->cmp.ratio_lo, gr->cmp.ratio_hi, gr->cmp.t, gr->cmp.df, gr->cmp.p};
		for (size_t i = 0; i < 5; i++) {
			putc(',', f);
			num_or(f, test ? v[i] : NAN, "");
		}
		fprintf(f, ",%d,", gr->verdict == VB_VERDICT_FASTER || gr->verdict == VB_VERDICT_SLOWER);
		csv_text(f, verdict);
		putc(',', f);
		csv_text(f, gr->where ? gr->where : "");
		putc(',', f);
		csv_text(f, gr->other_fs ? gr->other_fs : "");
		fputs("\r\n", f);
	}
	return vbr_finish(f);
}

/* Writes "key": s with s escaped. */
static void json_key_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\": ", key);
	json_text(f, s);
}

/* Writes s as a JSON string, or null. */
static void json_or_null(FILE *f, const char *s)
{
	if (s != NULL)
		json_text(f, s);
	else
		fputs("null", f);
}

static void json_runs(FILE *f, const struct vb_group *g)
{
	fputs("      \"runs\": [", f);
	for (size_t i = 0; i < g->n; i++) {
		const struct vb_sample *s = &g->samples[i];
		fprintf(f, "%s\n        {\"run\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"secs\": ",
			i ? "," : "", s->run, s->bytes);
		num_or(f, s->secs, "null");
		fputs(", \"bytes_per_sec\": ", f);
		num_or(f, s->bytes_per_sec, "null");
		putc('}', f);
	}
	fputs(g->n ? "\n      ],\n" : "],\n", f);
}

static void json_summary(FILE *f, const struct vb_group *g)
{
	static const char *const keys[] = {"mean", "min", "max", "stddev", "cv"};
	double v[5] = {g->sum.mean, g->sum.min, g->sum.max, g->n >= 2 ? g->sum.stddev : NAN,
		       g->n >= 2 ? g->sum.cv : NAN};

	fprintf(f, "      \"summary\": {\"n\": %zu", g->n);
	for (size_t i = 0; i < 5; i++) {
		fprintf(f, ", \"%s\": ", keys[i]);
		num_or(f, v[i], "null");
	}
	fputs("},\n", f);
}

static void json_comparison(FILE *f, const struct vb_group *g)
{
	static const char *const keys[] = {"ratio_lo", "ratio_hi", "t", "df", "p"};
	const struct vb_welch *w = &g->cmp;
	double v[5] = {w->ratio_lo, w->ratio_hi, w->t, w->df, w->p};
	bool test = tested(g);
	char verdict[96];
	vb_report_verdict(g, verdict, sizeof verdict);
	fputs("      \"comparison\": {\"ratio\": ", f);
	num_or(f, w->ratio, "null");
	for (size_t i = 0; i < 5; i++) {
		fprintf(f, ", \"%s\": ", keys[i]);
		num_or(f, test ? v[i] : NAN, "null");
	}
	fprintf(f, ", \"significant\": %s, ", (g->verdict == VB_VERDICT_FASTER ||
					       g->verdict == VB_VERDICT_SLOWER) ? "true" : "false");
	json_key_str(f, "verdict", verdict);
	fputs("}\n", f);
}

int vb_report_print_json(FILE *f, const struct vb_comparison *a)
{
	fputs("{\n  ", f);
	json_key_str(f, "baseline", a->groups[a->baseline].label);
	fputs(",\n  \"unit\": \"bytes/sec\",\n  \"labels\": [", f);
	for (size_t g = 0; g < a->n_groups; g++) {
		fputs(g ? ",\n    {\n      " : "\n    {\n      ", f);
		json_key_str(f, "label", a->groups[g].label);
		fputs(",\n      \"measured_on\": ", f);
		json_or_null(f, a->groups[g].where);
		fputs(", \"label_names_other_fs\": ", f);
		json_or_null(f, a->groups[g].other_fs);
		fputs(",\n", f);
		json_runs(f, &a->groups[g]);
		json_summary(f, &a->groups[g]);
		json_comparison(f, &a->groups[g]);
		fputs("    }", f);
	}
	fputs("\n  ],\n  \"storage_notes\": [", f);
	for (size_t i = 0; i < a->n_notes; i++) {
		fputs(i ? ",\n    {" : "\n    {", f);
		json_key_str(f, "label", a->notes[i].label);
		fputs(", ", f);
		json_key_str(f, "text", a->notes[i].text);
		fputs("}", f);
	}
	fputs(a->n_notes ? "\n  ]\n}\n" : "]\n}\n", f);
	return vbr_finish(f);
}

int vb_report_print(FILE *f, const struct vb_comparison *a, enum vb_report_format fmt)
{
	switch (fmt) {
	case VB_REPORT_MARKDOWN: return vb_report_print_markdown(f, a);
	case VB_REPORT_CSV: return vb_report_print_csv(f, a);
	case VB_REPORT_JSON: return vb_report_print_json(f, a);
	default: return vb_report_print_text(f, a);
	}
}
