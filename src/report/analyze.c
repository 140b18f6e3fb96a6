#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_env.h"
#include "common/vb_escape.h"
#include "common/vb_stats.h"
#include "common/vb_units.h"
#include "report/report_internal.h"

/* The analysis of `vbench report`: the runs grouped by label, each label compared with
 * the baseline, and the verdicts. */

/* Significance level of the verdicts. */
#define ALPHA 0.05

void vb_comparison_free(struct vb_comparison *a)
{
	for (size_t i = 0; i < a->n_groups; i++) {
		free(a->groups[i].label);
		free(a->groups[i].samples);
		free(a->groups[i].where);
		free(a->groups[i].other_fs);
	}
	free(a->groups);
	for (size_t i = 0; i < a->n_notes; i++) {
		free(a->notes[i].label);
		free(a->notes[i].text);
	}
	free(a->notes);
	memset(a, 0, sizeof *a);
}

/* The bytes a run of c writes (bs times count); 0: not known. Runs of another size are
 * another measurement: a small one may fit in a cache a large one does not. */
static uint64_t run_size(const struct vb_runcfg *c)
{
	if (c->bs == 0 || c->count == 0)
		return 0;
	return c->count > UINT64_MAX / c->bs ? UINT64_MAX : c->bs * c->count;
}

/* Whether two runs were made the same way, as far as their inputs say. */
static bool same_cfg(const struct vb_runcfg *x, const struct vb_runcfg *y)
{
	return x->bs == y->bs && x->qd == y->qd && x->direct == y->direct &&
	       run_size(x) == run_size(y) &&
	       strcmp(x->sync, y->sync) == 0 && strcmp(x->source, y->source) == 0;
}

/* Whether places p and q of d (SIZE_MAX: not recorded) are one file system on one device:
 * runs of two disks are two measurements, whatever their label says. */
static bool same_place(const struct vb_dataset *d, size_t p, size_t q)
{
	if (p == SIZE_MAX || q == SIZE_MAX)
		return p == q;
	return strcmp(d->places[p].fs, d->places[q].fs) == 0 &&
	       strcmp(d->places[p].device, d->places[q].device) == 0;
}

/* The settings in which the groups of one label differ. */
struct differ {
	bool bs, direct, sync, qd, source, count, place;
};

/* Appends to name the settings of cfg that differ within its label ("bs=4k qd8"). */
static void add_settings(char *name, size_t n, const struct vb_runcfg *c, const struct differ *df,
			 const struct vb_place *where)
{
	size_t len = strlen(name);
	char size[32], fs[VBR_QUOTE_MAX], dev[VBR_QUOTE_MAX];

#define ADD(...) do { if (len < n) { int k_ = snprintf(name + len, n - len, __VA_ARGS__); \
	len += k_ > 0 ? (size_t)k_ : 0; } } while (0)
	if (c->bs == 0 && c->direct < 0 && c->sync[0] == '\0' && c->qd == 0 &&
	    c->source[0] == '\0' && c->count == 0 && !df->place) {
		ADD(" (settings unknown)");   /* a dd log says none of them */
		return;
	}
	if (df->bs && c->bs == 0)
		ADD(" bs=?");
	else if (df->bs) {
		vb_size_short(size, sizeof size, c->bs);
		ADD(" bs=%s", size);
	}
	if (df->count && run_size(c) == 0) {
		ADD(" size=?");
	} else if (df->count) {
		vb_size_short(size, sizeof size, run_size(c));
		ADD(" size=%s", size);
	}
	if (df->direct)
		ADD(" %s", c->direct < 0 ? "direct=?" : c->direct ? "direct" : "buffered");
	if (df->sync)
		ADD(" %s", c->sync[0] == '\0' ? "sync=?" : strcmp(c->sync, "none") == 0 ? "nosync" :
		    c->sync);
	if (df->qd && c->qd == 0)
		ADD(" qd=?");
	else if (df->qd)
		ADD(" qd%llu", (unsigned long long)c->qd);
	if (df->source)
		ADD(" %s", c->source[0] ? c->source : "source=?");
	/* (the system's names, cut: the label keeps its place in front) */
	if (df->place && where == NULL)
		ADD(" on an unrecorded disk");
	else if (df->place)
		ADD(" %s on %s", vbr_cut(fs, sizeof fs, where->fs[0] ? where->fs : "?"),
		    vbr_cut(dev, sizeof dev, where->device[0] ? where->device : "?"));
#undef ADD
}

/* Most places listed for one group: more are runs of many sessions, said in a word. */
#define WHERE_MAX 4

/* Sets g->where from its runs' places (each once, at most WHERE_MAX), and g->other_fs when
 * its label names a file system type one of them is not; -1 without memory. */
static int fill_where(const struct vb_dataset *d, struct vb_group *g)
{
	const struct vb_place *seen[WHERE_MAX];
	size_t n_seen = 0;
	bool unknown = false, more = false;
	char word[64] = "", text[WHERE_MAX * 600 + 64];
	size_t len = 0;

	for (size_t i = 0; i < g->n; i++) {
		if (g->samples[i].place == SIZE_MAX) {
			unknown = true;
			continue;
		}
		const struct vb_place *p = &d->places[g->samples[i].place];
		size_t k = 0;
		while (k < n_seen && !(strcmp(seen[k]->fs, p->fs) == 0 &&
				       strcmp(seen[k]->device, p->device) == 0))
			k++;
		if (k < n_seen)
			continue;
		if (n_seen == WHERE_MAX) {
			more = true;
			continue;
		}
		seen[n_seen++] = p;
		if (word[0] == '\0' &&
		    !vb_label_names_other_fs(d->labels[g->origin], p->fs, word, sizeof word))
			word[0] = '\0';
	}
	if (n_seen == 0)
		return 0;
	text[0] = '\0';
	for (size_t k = 0; k < n_seen && len < sizeof text; k++) {
		const char *fs = seen[k]->fs[0] ? seen[k]->fs : "unknown file system";
		const char *dev = seen[k]->device;
		bool has_dev = dev[0] != '\0' && strcmp(dev, "unknown") != 0;
		/* (each field is cut at 256 bytes: these are the system's names, not labels) */
		char fs_cut[265], dev_cut[265];
		int w = snprintf(text + len, sizeof text - len, "%s%s%s%s", k ? "; " : "",
				 vbr_cut(fs_cut, sizeof fs_cut, fs), has_dev ? " on " : "",
				 has_dev ? vbr_cut(dev_cut, sizeof dev_cut, dev) : "");
		len += w > 0 ? (size_t)w : 0;
	}
	if (len < sizeof text && (more || unknown))
		snprintf(text + len, sizeof text - len, "%s%s", more ? "; and others" : "",
			 unknown ? "; some runs not recorded" : "");
	g->where = vbr_dup_n(text, strlen(text));
	if (word[0] != '\0')
		g->other_fs = vbr_dup_n(word, strlen(word));
	return g->where == NULL || (word[0] != '\0' && g->other_fs == NULL) ? -1 : 0;
}

/* Orders pointers to groups by name, then by place in the array. */
static int by_name(const void *x, const void *y)
{
	const struct vb_group *g = *(const struct vb_group *const *)x;
	const struct vb_group *h = *(const struct vb_group *const *)y;
	int c = strcmp(g->label, h->label);
	return c != 0 ? c : (g > h) - (g < h);
}

/* Gives every group a unique name: groups that share one (a label that is another's label
 * and settings, "a bs=64k"; labels that differ only in bytes no output shows raw) get
 * " #1", " #2", ..., until no two are alike (a suffix can meet a label that has it).
 * Sorting: n log n. 0, or -1 without memory. */
static int unique_names(struct vb_comparison *a)
{
	struct vb_group **ix = malloc((a->n_groups ? a->n_groups : 1) * sizeof *ix);
	bool again = true;

	if (ix == NULL)
		return -1;
	while (again) {
		again = false;
		for (size_t i = 0; i < a->n_groups; i++)
			ix[i] = &a->groups[i];
		qsort(ix, a->n_groups, sizeof *ix, by_name);
		for (size_t i = 0; i < a->n_groups;) {
			size_t j = i + 1;
			while (j < a->n_groups && strcmp(ix[i]->label, ix[j]->label) == 0)
				j++;
			for (size_t k = i; j - i > 1 && k < j; k++) {
				struct vb_group *g = ix[k];
				size_t len = strlen(g->label);
				char *name = malloc(len + 24);
				if (name == NULL) {
					free(ix);
					return -1;
				}
				snprintf(name, len + 24, "%s #%zu", g->label, k - i + 1);
				if (g->shared_len == 0)
					g->shared_len = len;
				free(g->label);
				g->label = name;
				again = true;
			}
			i = j;
		}
	}
	free(ix);
	return 0;
}

/* Splits the runs of d into groups, one per label and configuration, in first-seen
 * order; the samples are copied in input order. -1 without memory. */
static int fill_groups(const struct vb_dataset *d, struct vb_comparison *a)
{
	size_t *gid = malloc((d->n_samples ? d->n_samples : 1) * sizeof *gid);
	size_t *first = malloc((d->n_labels ? d->n_labels : 1) * sizeof *first);
	size_t *next = malloc((d->n_samples ? d->n_samples : 1) * sizeof *next);
	struct differ *df = calloc(d->n_labels ? d->n_labels : 1, sizeof *df);
	size_t cap = 0;
	int rc = -1;

	if (gid == NULL || first == NULL || next == NULL || df == NULL)
		goto out;
	for (size_t l = 0; l < d->n_labels; l++)
		first[l] = SIZE_MAX;
	/* Each sample joins the group of its label with its settings, searched among that
	 * label's groups only (linked through next). */
	for (size_t s = 0; s < d->n_samples; s++) {
		const struct vb_sample *sm = &d->samples[s];
		size_t g = first[sm->label];
		while (g != SIZE_MAX && !(same_cfg(&a->groups[g].cfg, &sm->cfg) &&
					  same_place(d, a->groups[g].place, sm->place)))
			g = next[g];
		if (g == SIZE_MAX) {
			if (vbr_grow((void **)&a->groups, &cap, a->n_groups + 1, sizeof *a->groups) < 0)
				goto out;
			g = a->n_groups++;
			memset(&a->groups[g], 0, sizeof a->groups[g]);
			a->groups[g].origin = sm->label;
			a->groups[g].cfg = sm->cfg;
			a->groups[g].place = sm->place;
			next[g] = SIZE_MAX;
			if (first[sm->label] == SIZE_MAX) {
				first[sm->label] = g;
			} else {
				size_t k = first[sm->label];
				const struct vb_runcfg *c0 = &a->groups[k].cfg, *c = &sm->cfg;
				struct differ *f = &df[sm->label];
				f->bs |= c0->bs != c->bs;
				f->direct |= c0->direct != c->direct;
				f->sync |= strcmp(c0->sync, c->sync) != 0;
				f->qd |= c0->qd != c->qd;
				f->source |= strcmp(c0->source, c->source) != 0;
				f->count |= run_size(c0) != run_size(c);
				f->place |= !same_place(d, a->groups[k].place, sm->place);
				while (next[k] != SIZE_MAX)
					k = next[k];
				next[k] = g;
			}
		}
		gid[s] = g;
		a->groups[g].n++;
	}
	for (size_t g = 0; g < a->n_groups; g++) {
		struct vb_group *gr = &a->groups[g];
		const char *label = d->labels[gr->origin];
		gr->split = first[gr->origin] != g || next[g] != SIZE_MAX;
		gr->first_of_label = first[gr->origin] == g;
		gr->next_of_label = next[g];
		/* The label whole, however long: groups are told apart by what is printed. */
		char settings[256] = "";
		if (gr->split)
			add_settings(settings, sizeof settings, &gr->cfg, &df[gr->origin],
				     gr->place == SIZE_MAX ? NULL : &d->places[gr->place]);
		char *shown = vb_text_dup(label), *shown_set = vb_text_dup(settings);
		if (shown != NULL && shown_set != NULL) {
			gr->label_len = strlen(shown);
			gr->label = malloc(gr->label_len + strlen(shown_set) + 1);
		}
		if (gr->label != NULL) {
			memcpy(gr->label, shown, gr->label_len);
			strcpy(gr->label + gr->label_len, shown_set);
		}
		free(shown);
		free(shown_set);
		gr->samples = malloc((gr->n ? gr->n : 1) * sizeof *gr->samples);
		if (gr->label == NULL || gr->samples == NULL)
			goto out;
		if (gr->n > a->max_runs)
			a->max_runs = gr->n;
		gr->n = 0;
	}
	for (size_t s = 0; s < d->n_samples; s++) {
		struct vb_group *gr = &a->groups[gid[s]];
		gr->samples[gr->n++] = d->samples[s];
	}
	for (size_t g = 0; g < a->n_groups; g++)
		if (fill_where(d, &a->groups[g]) < 0)
			goto out;
	rc = unique_names(a);
out:
	free(gid);
	free(first);
	free(next);
	free(df);
	return rc;
}

/* Compares g with the baseline b and decides the verdict. */
static void compare(struct vb_group *g, const struct vb_group *b, bool is_base)
{
	g->cmp = vb_welch_test(&g->sum, &b->sum);
	if (is_base)
		g->verdict = VB_VERDICT_BASELINE;
	else if (g->n < 2)
		g->verdict = VB_VERDICT_ONE_RUN;
	else if (b->n < 2)
		g->verdict = VB_VERDICT_BASE_ONE_RUN;
	else if (!(g->sum.mean > 0) || !(b->sum.mean > 0))
		g->verdict = VB_VERDICT_ZERO_MEAN;
	else if (!g->cmp.valid)
		g->verdict = VB_VERDICT_NO_TEST;
	else if (!isfinite(g->cmp.ratio) || !isfinite(g->cmp.ratio_lo) || !isfinite(g->cmp.t) ||
		 !isfinite(g->cmp.df) || !isfinite(g->cmp.p))
		g->verdict = VB_VERDICT_NOT_COMPUTABLE;   /* (no upper bound is an answer) */
	else if (!(g->cmp.p < ALPHA))
		g->verdict = VB_VERDICT_SAME;
	else
		g->verdict = g->cmp.ratio >= 1 ? VB_VERDICT_FASTER : VB_VERDICT_SLOWER;
}

/* Index of the group named label, or SIZE_MAX. */
static size_t group_index(const struct vb_comparison *a, const char *label)
{
	for (size_t g = 0; g < a->n_groups; g++)
		if (strcmp(a->groups[g].label, label) == 0)
			return g;
	return SIZE_MAX;
}

/* The error for --baseline naming several groups, listing them: a label that was split
 * (by_shared false), or a name groups shared before " #N" told them apart (by_shared
 * true). 0 when label names none of either. */
static int name_groups(const struct vb_comparison *a, const char *label, bool by_shared,
		       const char *why, char *err, size_t errlen)
{
	size_t used = 0, len = strlen(label);
	bool found = false;

	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_group *gr = &a->groups[g];
		bool named = by_shared ? gr->shared_len == len : gr->split && gr->label_len == len;
		if (!named || strncmp(gr->label, label, len) != 0)
			continue;
		if (!found && err != NULL && errlen > 0)
			used = (size_t)snprintf(err, errlen, "--baseline \"%s\" %s; name one of",
						label, why);
		else if (err != NULL && used < errlen)
			used += (size_t)snprintf(err + used, errlen - used, ",");
		if (err != NULL && used < errlen)
			used += (size_t)snprintf(err + used, errlen - used, " \"%s\"", gr->label);
		found = true;
	}
	return found;
}

int vb_report_split_note(const struct vb_comparison *a, size_t g, char *buf, size_t n)
{
	const struct vb_group *gr = &a->groups[g];
	size_t used;

	if (!gr->split || !gr->first_of_label)
		return 0;
	size_t base = gr->label_len;
	used = (size_t)snprintf(buf, n, "note: label \"%.*s\" holds runs made with different "
				"settings, which are never averaged together: reported as", (int)base,
				gr->label);
	for (size_t k = g; k != SIZE_MAX && used < n; k = a->groups[k].next_of_label)
		used += (size_t)snprintf(buf + used, n - used, "%s \"%s\"", k == g ? "" : ",",
					 a->groups[k].label);
	return 1;
}

static int by_session(const void *x, const void *y)
{
	return strcmp((*(const struct vb_runcfg *const *)x)->session,
		      (*(const struct vb_runcfg *const *)y)->session);
}

int vb_report_session_note(const struct vb_comparison *a, size_t g, char *buf, size_t n)
{
	const struct vb_group *gr = &a->groups[g];
	const char *first = NULL, *last = NULL;
	size_t runs = 0, known = 0, sessions = 0;

	/* (the groups of a label are linked: each note costs its label's runs, no more) */
	if (!gr->first_of_label)
		return 0;
	for (size_t k = g; k != SIZE_MAX; k = a->groups[k].next_of_label)
		runs += a->groups[k].n;
	/* The label's runs sorted by session, counted once each; the dates span the
	 * earliest to the latest start (the ISO form sorts as text). */
	const struct vb_runcfg **c = calloc(runs ? runs : 1, sizeof *c);
	if (c == NULL)
		return 0;
	for (size_t k = g; k != SIZE_MAX; k = a->groups[k].next_of_label)
		for (size_t s = 0; s < a->groups[k].n; s++)
			if (a->groups[k].samples[s].cfg.session[0] != '\0')
				c[known++] = &a->groups[k].samples[s].cfg;
	qsort(c, known, sizeof *c, by_session);
	for (size_t i = 0; i < known; i++) {
		if (i > 0 && strcmp(c[i]->session, c[i - 1]->session) == 0)
			continue;
		sessions++;
		if (c[i]->started[0] != '\0' && (first == NULL || strcmp(c[i]->started, first) < 0))
			first = c[i]->started;
		if (c[i]->started[0] != '\0' && (last == NULL || strcmp(c[i]->started, last) > 0))
			last = c[i]->started;
	}
	bool unknown = known < runs;
	int len = -1;
	if (sessions >= 2 || (sessions == 1 && unknown)) {
		len = snprintf(buf, n, "note: label \"%.*s\" holds runs of %zu session%s%s",
			       (int)gr->label_len, gr->label, sessions, sessions > 1 ? "s" : "",
			       unknown ? " and runs that do not say theirs" : "");
		bool one_date = first != NULL && strcmp(first, last) == 0;
		if (len >= 0 && (size_t)len < n && first != NULL)
			len += snprintf(buf + len, n - (size_t)len, ", %sstarted %s%s%s",
					one_date && sessions > 1 ? "all " : "", first,
					one_date ? "" : sessions == 2 ? " and " : " to ",
					one_date ? "" : last);
		if (len >= 0 && (size_t)len < n)
			snprintf(buf + len, n - (size_t)len, ": runs appended to one file at "
				 "different times are mixed in; remove the file before a new series "
				 "(rm -f) to keep them apart");
	}
	free(c);
	return len >= 0;
}

/* Copies the notes of d into a, which owns them from then on; -1 without memory. */
static int copy_notes(const struct vb_dataset *d, struct vb_comparison *a)
{
	if (d->n_notes == 0)
		return 0;
	a->notes = calloc(d->n_notes, sizeof *a->notes);
	if (a->notes == NULL)
		return -1;
	for (size_t i = 0; i < d->n_notes; i++, a->n_notes++) {
		const struct vb_storage_note *n = &d->notes[i];
		a->notes[i].label = vbr_dup_n(n->label, strlen(n->label));
		a->notes[i].text = vbr_dup_n(n->text, strlen(n->text));
		if (a->notes[i].label == NULL || a->notes[i].text == NULL) {
			a->n_notes++;   /* so that the free takes what was copied */
			return -1;
		}
	}
	return 0;
}

int vb_report_compare(const struct vb_dataset *d, const char *baseline, struct vb_comparison *a,
		      char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	if (d->n_samples == 0) {
		if (err && errlen)
			snprintf(err, errlen, "no runs to report");
		return -1;
	}
	/* --baseline is matched as every output shows the names */
	char *base = baseline != NULL ? vb_text_dup(baseline) : NULL;
	double *rates = NULL;
	if (fill_groups(d, a) < 0 || (baseline != NULL && base == NULL))
		goto no_memory;
	a->baseline = base ? group_index(a, base) : 0;
	if (a->baseline == SIZE_MAX) {
		if (!name_groups(a, base, true, "is ambiguous: two groups or more have that name",
				 err, errlen) &&
		    !name_groups(a, base, false, "holds runs with different settings", err, errlen) &&
		    err != NULL && errlen > 0) {
			/* no group of that name: the labels there are */
			size_t used = (size_t)snprintf(err, errlen, "unknown baseline label \"%s\"; "
						       "the labels are:", base);
			for (size_t g = 0; g < a->n_groups && used < errlen; g++)
				used += (size_t)snprintf(err + used, errlen - used, "%s \"%s\"",
							 g ? "," : "", a->groups[g].label);
		}
		goto fail;
	}
	rates = malloc((a->max_runs ? a->max_runs : 1) * sizeof *rates);
	if (copy_notes(d, a) < 0 || rates == NULL)
		goto no_memory;
	for (size_t g = 0; g < a->n_groups; g++) {
		const struct vb_summary *s = &a->groups[g].sum;
		for (size_t i = 0; i < a->groups[g].n; i++)
			rates[i] = a->groups[g].samples[i].bytes_per_sec;
		a->groups[g].sum = vb_summarize(rates, a->groups[g].n);
		if (isfinite(s->mean) && isfinite(s->stddev) && isfinite(s->cv))
			continue;
		if (err && errlen)
			snprintf(err, errlen, "\"%s\": the mean or the spread of its rates is no "
				 "finite number (rates up to %g bytes/sec): they cannot be compared",
				 a->groups[g].label, s->max);
		goto fail;
	}
	for (size_t g = 0; g < a->n_groups; g++)
		compare(&a->groups[g], &a->groups[a->baseline], g == a->baseline);
	free(base);
	free(rates);
	return 0;
no_memory:
	if (err && errlen)
		snprintf(err, errlen, "out of memory");
fail:
	free(base);
	free(rates);
	vb_comparison_free(a);
	return -1;
}

void vbr_fmt_ratio(double r, char *buf, size_t n)
{
	/* Two decimals; two significant digits below 0.01, so that a tiny ratio does not
	 * read as 0.00, and three above 10^6, so that a huge one is not a row of digits. */
	if (!isfinite(r))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, r != 0 && fabs(r) < 0.01 ? "%.2g" : fabs(r) >= 1e6 ? "%.3g" :
			 "%.2f", r);
}

void vb_report_verdict(const struct vb_group *g, char *buf, size_t n)
{
	char r[32], inv[32];

	vbr_fmt_ratio(g->cmp.ratio, r, sizeof r);
	vbr_fmt_ratio(1 / g->cmp.ratio, inv, sizeof inv);
	switch (g->verdict) {
	case VB_VERDICT_BASELINE:
		snprintf(buf, n, "baseline");
		break;
	case VB_VERDICT_FASTER:
		snprintf(buf, n, "%sx faster, significant at p<0.05", r);
		break;
	case VB_VERDICT_SLOWER:
		snprintf(buf, n, "%sx (%sx slower), significant at p<0.05", r, inv);
		break;
	case VB_VERDICT_NOT_COMPUTABLE:
		snprintf(buf, n, "cannot be compared: the ratio or the t-test is no finite number");
		break;
	case VB_VERDICT_SAME:
		snprintf(buf, n, "no significant difference (p=%.2g)", g->cmp.p);
		break;
	case VB_VERDICT_ONE_RUN:
		snprintf(buf, n, "one run: no stddev, no t-test");
		break;
	case VB_VERDICT_BASE_ONE_RUN:
		snprintf(buf, n, "baseline has one run: no t-test");
		break;
	case VB_VERDICT_ZERO_MEAN:
		snprintf(buf, n, "a mean of 0 bytes/sec: no t-test");
		break;
	default:
		snprintf(buf, n, "no variance in either label: no t-test");
		break;
	}
}
