#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"
#include "common/vb_units.h"
#include "report/report_internal.h"

/* The SVG chart of `vbench report`, with the XML escaping it needs. */

void vbr_xml_text(FILE *f, const char *raw, size_t max)
{
	char *s = vb_text_dup(raw);
	const unsigned char *u = (const unsigned char *)(s != NULL ? s : "?");
	size_t len = strlen((const char *)u), count = 0;
	for (size_t i = 0; i < len; count++) {
		if (count == max) {
			fputs("...", f);
			break;
		}
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    cp == 0xfffe || cp == 0xffff) {
			fputs("\xef\xbf\xbd", f);  /* U+FFFD: XML 1.0 forbids these characters */
			i += k ? k : 1;
			continue;
		}
		const char *esc = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;" :
				  cp == '"' ? "&quot;" : cp == '\'' ? "&apos;" :
				  cp < 0x20 ? " " : NULL;
		if (esc)
			fputs(esc, f);
		else
			fwrite(u + i, 1, k, f);
		i += k;
	}
	free(s);
}

/* Geometry of the chart, in SVG user units (pixels). */
struct chart {
	double left, top, plot_w, plot_h, width, height, slot;
	double y_top, y_step;      /* MB/s at the top of the axis, between ticks */
	bool slanted;              /* long labels are drawn at an angle */
};

/* Longest label drawn on the x axis; the full label is in the bar's tooltip. */
#define SVG_LABEL_MAX 24

size_t vbr_axis(double max, size_t want, double *step, double *top)
{
	if (!isfinite(max) || max < 0)
		return 0;
	if (max == 0)
		max = 1;   /* nothing drawn above 0: an axis to 1 */
	/* a round step (1, 2 or 5 times a power of ten) near max / want */
	double raw = max / (double)want, p = pow(10, floor(log10(raw))), m = raw / p;
	double s = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
	if (!(s > 0) || !isfinite(s))
		return 0;
	double n = ceil(max / s - 1e-9);
	n = n < 1 ? 1 : n;
	/* A round step near max / want is at most a few times want steps from max; more
	 * would be a step lost in rounding, at the ends of the double range. */
	if (!(n <= 4.0 * (double)want) || !isfinite(n * s))
		return 0;
	*step = s;
	*top = n * s;
	return (size_t)n;
}

/* Room below the axis for the labels: one line, or the height of the longest label
 * drawn at 35 degrees (about 6.6 px per character at font-size 12), then the axis title. */
static double label_band(const struct vb_comparison *a, bool slanted)
{
	double longest = 0;

	if (!slanted)
		return 24;
	for (size_t g = 0; g < a->n_groups; g++)
		longest = fmax(longest, fmin((double)vb_text_width(a->groups[g].label),
					     SVG_LABEL_MAX));
	return 16 + longest * 6.6 * 0.574 + 8;   /* sin 35 degrees */
}

static struct chart chart_layout(const struct vb_comparison *a, size_t subtitle_chars)
{
	struct chart c = {80, 64, 0, 300, 0, 0, 100, 0, 0, false};
	double ymax = 0;
	for (size_t g = 0; g < a->n_groups; g++) {
		ymax = fmax(ymax, fmax(a->groups[g].sum.max, a->groups[g].sum.mean) / 1e6);
		if (vb_text_width(a->groups[g].label) > 12)
			c.slanted = true;
	}
	if (!(ymax > 0) || !isfinite(ymax))
		ymax = 1;
	/* room above the highest whisker for a mean written there */
	vbr_axis(ymax * 1.08, 5, &c.y_step, &c.y_top);
	/* The subtitles are never cut: the chart is widened to the longer of them, and the
	 * plot takes all the width there is, its bars wider (up to a point) when few. */
	double subtitle_px = (double)subtitle_chars * 6.6 + 40;
	c.width = fmax(fmax(c.left + c.slot * (double)a->n_groups + 40, 640), subtitle_px);
	c.plot_w = c.width - c.left - 40;
	c.slot = c.plot_w / (double)(a->n_groups ? a->n_groups : 1);
	/* the labels, the axis title below them, and a margin */
	c.height = c.top + c.plot_h + label_band(a, c.slanted) + 26;
	return c;
}

/* Vertical position of v MB/s. */
static double chart_y(const struct chart *c, double v)
{
	return c->top + c->plot_h - v / c->y_top * c->plot_h;
}

static void svg_axes(FILE *f, const struct chart *c)
{
	double x0 = c->left, y0 = c->top + c->plot_h;
	int ticks = (int)lround(c->y_top / c->y_step);
	fputs("<g class=\"y-axis\" stroke=\"#000\">\n", f);
	for (int i = 0; i <= ticks; i++) {
		double y = chart_y(c, i * c->y_step);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			x0, y, x0 + c->plot_w, y);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0 - 5, y, x0, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" stroke=\"none\">%g</text>\n",
			x0 - 8, y + 4, i * c->y_step);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, c->top, x0, y0);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, y0,
		x0 + c->plot_w, y0);
	fputs("</g>\n", f);
	fprintf(f, "<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 20 %.1f)\">"
		"MB/s</text>\n", c->top + c->plot_h / 2, c->top + c->plot_h / 2);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">label</text>\n",
		x0 + c->plot_w / 2, c->height - 10);
}

/* One bar with its whisker, its mean written on it, its star and its tooltip. */
static void svg_bar(FILE *f, const struct chart *c, const struct vb_group *g, size_t i,
		    bool base)
{
	double mean = g->sum.mean / 1e6, lo = g->sum.min / 1e6, hi = g->sum.max / 1e6;
	double cx = c->left + c->slot * ((double)i + 0.5), bw = fmin(c->slot * 0.6, 140);
	double y0 = c->top + c->plot_h, ym = chart_y(c, mean);
	char verdict[160];
	vb_report_verdict(g, verdict, sizeof verdict);
	fputs("<g class=\"bar\">\n<title>", f);
	vbr_xml_text(f, g->label, SIZE_MAX);
	fprintf(f, ": mean %.2f MB/s, min %.2f, max %.2f, %zu run%s; ", mean, lo, hi, g->n,
		g->n == 1 ? "" : "s");
	vbr_xml_text(f, verdict, SIZE_MAX);
	if (g->where != NULL) {
		fputs("; measured on ", f);
		vbr_xml_text(f, g->where, SIZE_MAX);
	}
	fputs("</title>\n", f);
	/* A bar whose label names another file system than the one measured says so on it,
	 * at the top of its slot, where no other text is. */
	if (g->other_fs != NULL) {
		fprintf(f, "<text class=\"other-fs\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"fill=\"#c00\" font-size=\"11\">not ", cx, c->top + 12);
		vbr_xml_text(f, g->other_fs, SVG_LABEL_MAX);
		fputs(": on ", f);
		vbr_xml_text(f, g->where, SVG_LABEL_MAX);
		fputs("</text>\n", f);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		cx - bw / 2, ym, bw, y0 - ym, base ? "#9e9e9e" : "#4e79a7");
	if (g->n >= 2) {
		double ylo = chart_y(c, lo), yhi = chart_y(c, hi);
		fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
			"stroke=\"#000\" fill=\"none\"/>\n", cx, ylo, yhi, cx - bw / 6, ylo,
			cx + bw / 6, cx - bw / 6, yhi, cx + bw / 6);
	}
	/* The mean inside the bar below the whisker where it fits, else above the whisker:
	 * never crossed by it, nor between it and the bar's top (it would read as the max).
	 * Three significant digits at most sizes, so small means do not show as 0.0. */
	double below = g->n >= 2 ? fmax(ym, chart_y(c, lo)) : ym;
	double above = g->n >= 2 ? fmin(ym, chart_y(c, hi)) : ym;
	bool inside = below + 15 <= y0 - 4;
	fprintf(f, "<text class=\"mean\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		"fill=\"%s\" stroke=\"%s\" stroke-width=\"3\" paint-order=\"stroke\">%.*f</text>\n",
		cx, inside ? below + 15 : above - 4, inside ? "#fff" : "#000",
		inside ? (base ? "#9e9e9e" : "#4e79a7") : "#fff",
		mean >= 100 ? 0 : mean >= 1 ? 1 : 3, mean);
	if (g->verdict == VB_VERDICT_FASTER || g->verdict == VB_VERDICT_SLOWER)
		fprintf(f, "<text class=\"significant\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">*</text>\n",
			cx + bw / 2 + 7, ym + 12);
	if (c->slanted)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"transform=\"rotate(-35 %.1f %.1f)\">", cx, y0 + 16, cx, y0 + 16);
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cx, y0 + 18);
	vbr_xml_text(f, g->label, SVG_LABEL_MAX);
	fputs("</text>\n</g>\n", f);
}

/* Appends ", "-separated text to buf at *len. */
static void add_part(char *buf, size_t n, size_t *len, const char *fmt, ...)
	VB_PRINTF(4, 5);

static void add_part(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*len >= n)
		return;
	if (*len > 0) {
		k = snprintf(buf + *len, n - *len, ", ");
		*len += k > 0 ? (size_t)k : 0;
		if (*len >= n)
			return;
	}
	va_start(ap, fmt);
	k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	*len += k > 0 ? (size_t)k : 0;
}

char *vb_report_config_text(const struct vb_comparison *a, const struct vb_dataset *d,
			    char *buf, size_t n)
{
	size_t len = 0;
	bool bs_same = true, qd_same = true, direct_same = true, sync_same = true;
	bool source_same = true;
	char size[32];
	const struct vb_runcfg *first = d->n_samples > 0 ? &d->samples[0].cfg : NULL;

	buf[0] = '\0';
	for (size_t i = 1; first != NULL && i < d->n_samples; i++) {
		const struct vb_runcfg *c = &d->samples[i].cfg;
		bs_same &= c->bs == first->bs;
		qd_same &= c->qd == first->qd;
		direct_same &= c->direct == first->direct;
		sync_same &= strcmp(c->sync, first->sync) == 0;
		source_same &= strcmp(c->source, first->source) == 0;
	}
	if (first != NULL) {
		if (!bs_same)
			add_part(buf, n, &len, "bs differs");
		else if (first->bs != 0 && (vb_size_short(size, sizeof size, first->bs), 1))
			add_part(buf, n, &len, "bs=%s", size);
		if (!direct_same)
			add_part(buf, n, &len, "direct differs");
		else if (first->direct >= 0)
			add_part(buf, n, &len, "%s", first->direct ? "direct" : "buffered");
		if (!sync_same)
			add_part(buf, n, &len, "sync differs");
		else if (first->sync[0] != '\0')
			add_part(buf, n, &len, "sync %s", first->sync);
		if (!qd_same)
			add_part(buf, n, &len, "qd differs");
		else if (first->qd != 0)
			add_part(buf, n, &len, "qd %" PRIu64, first->qd);
		if (!source_same)
			add_part(buf, n, &len, "source differs");
		else if (first->source[0] != '\0')
			add_part(buf, n, &len, "source %s", first->source);
		else
			add_part(buf, n, &len, "source unknown");
	}
	size_t lo = SIZE_MAX, hi = 0;
	for (size_t g = 0; g < a->n_groups; g++) {
		lo = a->groups[g].n < lo ? a->groups[g].n : lo;
		hi = a->groups[g].n > hi ? a->groups[g].n : hi;
	}
	if (a->n_groups > 0 && lo == hi)
		add_part(buf, n, &len, "%zu run%s per label", lo, lo == 1 ? "" : "s");
	else if (a->n_groups > 0)
		add_part(buf, n, &len, "%zu to %zu runs per label", lo, hi);
	return buf;
}

int vb_report_print_svg(FILE *f, const struct vb_comparison *a, const char *config)
{
	size_t base_chars = (size_t)fmin((double)vb_text_width(a->groups[a->baseline].label),
					 SVG_LABEL_MAX);
	size_t sub2 = 76 + base_chars, sub1 = vb_text_width(config);
	struct chart c = chart_layout(a, sub1 > sub2 ? sub1 : sub2);
	fputs(VB_SVG_HEAD, f);
	fprintf(f, "xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		c.width, c.height, c.width, c.height);
	fputs("<title>vbench report: mean write throughput per label</title>\n", f);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fprintf(f, "<text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" font-size=\"16\" "
		"font-weight=\"bold\">Mean write throughput (MB/s)</text>\n", c.width / 2);
	fprintf(f, "<text class=\"config\" x=\"%.1f\" y=\"39\" text-anchor=\"middle\" "
		"fill=\"#333\">", c.width / 2);
	vbr_xml_text(f, config, SIZE_MAX);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%.1f\" y=\"54\" text-anchor=\"middle\" fill=\"#555\">whiskers: "
		"min to max; grey: baseline ", c.width / 2);
	vbr_xml_text(f, a->groups[a->baseline].label, SVG_LABEL_MAX);
	fputs("; * differs from it (p&lt;0.05); 1 MB = 10^6 bytes</text>\n", f);
	svg_axes(f, &c);
	for (size_t g = 0; g < a->n_groups; g++)
		svg_bar(f, &c, &a->groups[g], g, g == a->baseline);
	fputs("</svg>\n", f);
	return vbr_finish(f);
}
