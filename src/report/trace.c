/* A --trace file in `vbench report`: the rate within each run, summed up as text (with
 * the knee, see vb_knee.h) and drawn as lines for one label. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "common/vb_escape.h"
#include "common/vb_knee.h"
#include "common/vb_result.h"

void vbr_trace_free(struct vbr_trace *t)
{
	for (size_t i = 0; i < t->n_labels; i++)
		free(t->labels[i]);
	free(t->labels);
	free(t->label_ix.slot);
	free(t->s);
	memset(t, 0, sizeof *t);
}

int vbr_trace_add(struct vbr_trace *t, const char *label, const struct vbr_tsample *s)
{
	size_t li = vbr_intern(&t->labels, &t->n_labels, &t->cap_labels, &t->label_ix, label);

	if (li == SIZE_MAX || vbr_grow((void **)&t->s, &t->cap, t->n + 1, sizeof *t->s) < 0)
		return -1;
	t->s[t->n] = *s;
	t->s[t->n].label = li;
	t->n++;
	return 0;
}

/* A measured sample: its label and run, where that run is first seen, its place. */
struct key {
	size_t label;
	uint64_t run;
	size_t first, i;
};

static int cmp_size(size_t a, size_t b)
{
	return a < b ? -1 : a > b;
}

/* By label, run, then place: the samples of a run together, in file order. */
static int by_run(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->label != b->label)
		return cmp_size(a->label, b->label);
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return cmp_size(a->i, b->i);
}

/* By label, where the run is first seen, then place: the runs in first-seen order. */
static int by_first(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->label != b->label)
		return cmp_size(a->label, b->label);
	if (a->first != b->first)
		return cmp_size(a->first, b->first);
	return cmp_size(a->i, b->i);
}

/* Calls fn for each measured run (not warm-up) of label (SIZE_MAX: of every label, in
 * first-seen order), in first-seen order, with its samples as intervals and their rates
 * as recorded (one made again from seconds rounded to 6 decimals is off for short
 * samples). Sorted, not searched, so that many runs or labels cost n log n. 0, or -1
 * without memory. */
static int each_run(const struct vbr_trace *t, size_t label,
		    void (*fn)(void *arg, size_t label, uint64_t run,
			       const struct vb_interval *iv, const double *rate, size_t n),
		    void *arg)
{
	size_t cap = t->n ? t->n : 1, m = 0;
	struct key *k = malloc(cap * sizeof *k);
	struct vb_interval *iv = malloc(cap * sizeof *iv);
	double *rate = malloc(cap * sizeof *rate);
	int rc = k != NULL && iv != NULL && rate != NULL ? 0 : -1;

	for (size_t i = 0; i < t->n && rc == 0; i++)
		if (!t->s[i].warmup && (label == SIZE_MAX || t->s[i].label == label))
			k[m++] = (struct key){t->s[i].label, t->s[i].run, i, i};
	if (m > 0) {
		qsort(k, m, sizeof *k, by_run);
		for (size_t p = 1; p < m; p++)
			if (k[p].label == k[p - 1].label && k[p].run == k[p - 1].run)
				k[p].first = k[p - 1].first;
		qsort(k, m, sizeof *k, by_first);
	}
	for (size_t p = 0, n = 0; p < m; p++) {
		const struct vbr_tsample *x = &t->s[k[p].i];
		iv[n] = (struct vb_interval){x->start_secs, x->secs, x->bytes};
		rate[n++] = x->bytes_per_sec;
		if (p + 1 == m || k[p + 1].first != k[p].first || k[p + 1].label != k[p].label) {
			fn(arg, k[p].label, k[p].run, iv, rate, n);
			n = 0;
		}
	}
	free(k);
	free(iv);
	free(rate);
	return rc;
}

struct print_ctx {
	FILE *f;
	const struct vbr_trace *t;
};

static void print_run(void *arg, size_t label, uint64_t run, const struct vb_interval *iv,
		      const double *rate, size_t n)
{
	struct print_ctx *p = arg;
	double lo = INFINITY, hi = 0, bytes = 0, secs = 0, exact = 0;
	struct vb_knee k;

	for (size_t i = 0; i < n; i++) {
		if (!(iv[i].secs > 0))
			continue;
		double r = rate[i];
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		bytes += (double)iv[i].bytes;
		secs += iv[i].secs;
		/* the sample's seconds before they were rounded, from its recorded rate */
		exact += r > 0 ? (double)iv[i].bytes / r : iv[i].secs;
	}
	vb_text(p->f, p->t->labels[label]);
	fprintf(p->f, " run %llu: %zu samples over %.1f s", (unsigned long long)run, n, secs);
	if (secs > 0)
		fprintf(p->f, ", %.1f to %.1f MB/s, %.1f MB/s in all", lo / 1e6, hi / 1e6,
			(exact > 0 ? bytes / exact : bytes / secs) / 1e6);
	vb_knee_find(iv, n, &k);
	if (k.found)
		fprintf(p->f, "; knee at %.1f s: burst %.1f MB/s for the first %.1f MB, then %.1f "
			"MB/s", k.at_secs, k.burst_bytes_per_sec / 1e6, (double)k.at_bytes / 1e6,
			k.sustained_bytes_per_sec / 1e6);
	else if (k.checked)
		fputs("; no knee", p->f);
	fputc('\n', p->f);
}

int vbr_trace_print(FILE *f, const struct vbr_trace *t)
{
	struct print_ctx p = {f, t};

	if (each_run(t, SIZE_MAX, print_run, &p) < 0)
		return -1;
	return vbr_finish(f);
}

/* ---- the chart ---------------------------------------------------------------------- */

#define W 760.0
#define H 420.0
#define LEFT 70.0
#define TOP 50.0
#define PW (W - LEFT - 150.0)
#define PH (H - TOP - 60.0)

struct svg_ctx {
	FILE *f;
	double x_max, y_max;     /* seconds, bytes/sec at the plot's edges */
	size_t drawn;
};

static void extent(void *arg, size_t label, uint64_t run, const struct vb_interval *iv,
		   const double *rate, size_t n)
{
	struct svg_ctx *c = arg;

	(void)label;
	(void)run;
	for (size_t i = 0; i < n; i++) {
		double end = iv[i].start_secs + iv[i].secs;
		double r = iv[i].secs > 0 ? rate[i] : 0;
		c->x_max = end > c->x_max ? end : c->x_max;
		c->y_max = r > c->y_max ? r : c->y_max;
	}
}

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				     "#8c564b", "#e377c2", "#7f7f7f"};
#define N_COLORS (sizeof colors / sizeof colors[0])

static void line(void *arg, size_t label, uint64_t run, const struct vb_interval *iv,
		 const double *rate, size_t n)
{
	struct svg_ctx *c = arg;
	const char *color = colors[c->drawn % N_COLORS];
	struct vb_knee k;

	(void)label;
	fprintf(c->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
	for (size_t i = 0; i < n; i++) {
		if (!(iv[i].secs > 0))
			continue;
		double x = LEFT + (iv[i].start_secs + iv[i].secs / 2) / c->x_max * PW;
		double y = TOP + PH - rate[i] / c->y_max * PH;
		fprintf(c->f, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>\n", c->f);
	vb_knee_find(iv, n, &k);
	if (k.found) {
		double x = LEFT + k.at_secs / c->x_max * PW;
		fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"4 3\"/>\n", x, TOP, x, TOP + PH, color);
	}
	double ly = TOP + 14.0 * (double)c->drawn;
	fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\">run %llu%s</text>\n",
		LEFT + PW + 15, ly, LEFT + PW + 35, ly, color, LEFT + PW + 40, ly + 4,
		(unsigned long long)run, k.found ? " (knee dashed)" : "");
	c->drawn++;
}

int vbr_trace_svg(FILE *f, const struct vbr_trace *t, const char *label)
{
	size_t l = 0;
	struct svg_ctx c = {f, 0, 0, 0};

	if (label != NULL)
		while (l < t->n_labels && strcmp(t->labels[l], label) != 0)
			l++;
	if (l >= t->n_labels)
		return -2;
	if (each_run(t, l, extent, &c) < 0)
		return -1;
	double ystep, xstep, ytop, xtop;
	size_t yticks = vbr_axis(c.y_max / 1e6, 5, &ystep, &ytop);
	size_t xticks = vbr_axis(c.x_max, 8, &xstep, &xtop);
	if (yticks == 0 || xticks == 0)
		return -3;
	c.y_max = ytop * 1e6;
	c.x_max = xtop;
	fprintf(f, "%sxmlns=\"http://www.w3.org/"
		"2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n<text x=\"%.1f\" y=\"22\" font-size=\"15\">", VB_SVG_HEAD, W, H, W,
		H, LEFT);
	vbr_xml_text(f, t->labels[l], SIZE_MAX);
	fputs(": write rate within each run</text>\n", f);
	/* Counted ticks: a loop that adds a step until it passes the top would never end
	 * where the step is lost in the sum. */
	for (size_t i = 0; i <= yticks; i++) {
		double y = (double)i * ystep;
		double py = TOP + PH - y * 1e6 / c.y_max * PH;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", LEFT, py,
			LEFT + PW, py, LEFT - 6, py + 4, y);
	}
	for (size_t i = 0; i <= xticks; i++) {
		double x = (double)i * xstep;
		double px = LEFT + x / c.x_max * PW;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", px,
			TOP + PH + 18, x);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">seconds into the run</text>\n"
		"<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">"
		"MB/s (10^6 bytes/s)</text>\n", LEFT, TOP + PH, LEFT + PW, TOP + PH, LEFT, TOP,
		LEFT, TOP + PH, LEFT + PW / 2, TOP + PH + 40, TOP + PH / 2, TOP + PH / 2);
	if (each_run(t, l, line, &c) < 0)
		return -1;
	fputs("</svg>\n", f);
	return vbr_finish(f);
}
