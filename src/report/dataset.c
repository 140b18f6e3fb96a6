#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* The dataset the readers fill: labels interned in first-seen order, the runs, and
 * what a reader must undo when a file turns out to be bad. */

void vb_dataset_init(struct vb_dataset *d)
{
	memset(d, 0, sizeof *d);
}

/* Frees the places, and the notes, from index from on. */
static void places_drop(struct vb_dataset *d, size_t from)
{
	for (size_t i = from; i < d->n_places; i++) {
		free(d->places[i].fs);
		free(d->places[i].device);
	}
	if (from < d->n_places)
		d->n_places = from;
}

static void notes_drop(struct vb_dataset *d, size_t from)
{
	for (size_t i = from; i < d->n_notes; i++) {
		free(d->notes[i].label);
		free(d->notes[i].text);
	}
	if (from < d->n_notes)
		d->n_notes = from;
}

void vb_dataset_free(struct vb_dataset *d)
{
	for (size_t i = 0; i < d->n_labels; i++)
		free(d->labels[i]);
	free(d->labels);
	free(d->samples);
	free(d->label_ix.slot);
	notes_drop(d, 0);
	free(d->notes);
	places_drop(d, 0);
	free(d->places);
	free(d->run_ix.slot);
	vb_dataset_init(d);
}

/* FNV-1a: labels are short, and this is not facing an adversary that matters (a file
 * built to collide costs its author the time, nobody else's). */
static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (size_t)h;
}

/* Puts entry i, of hash h, into the index. */
static void slots_put(struct vb_slots *x, size_t h, size_t i)
{
	size_t mask = x->cap - 1, k = h & mask;

	while (x->slot[k] != 0)
		k = (k + 1) & mask;
	x->slot[k] = i + 1;
}

/* Empties the index, at a size that keeps want entries at most half full; -1 without
 * memory (the index is then as it was). */
static int slots_reset(struct vb_slots *x, size_t want)
{
	size_t cap = 16;

	while (cap < 2 * want)
		cap *= 2;
	size_t *slot = calloc(cap, sizeof *slot);
	if (slot == NULL)
		return -1;
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
	return 0;
}

/* Makes index x hold every one of the n labels again, at most half full with want. */
static int reindex(char **labels, size_t n, struct vb_slots *x, size_t want)
{
	if (slots_reset(x, want) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		slots_put(x, hash(labels[i]), i);
	return 0;
}

size_t vbr_intern(char ***labels, size_t *n, size_t *cap, struct vb_slots *x,
		  const char *label)
{
	if (x->cap != 0) {
		size_t mask = x->cap - 1;
		for (size_t k = hash(label) & mask; x->slot[k] != 0; k = (k + 1) & mask)
			if (strcmp((*labels)[x->slot[k] - 1], label) == 0)
				return x->slot[k] - 1;
	}
	if (vbr_grow((void **)labels, cap, *n + 1, sizeof **labels) < 0)
		return SIZE_MAX;
	if (2 * (*n + 1) > x->cap && reindex(*labels, *n, x, *n + 1) < 0)
		return SIZE_MAX;
	char *copy = vbr_dup_n(label, strlen(label));
	if (copy == NULL)
		return SIZE_MAX;
	(*labels)[*n] = copy;
	slots_put(x, hash(copy), *n);
	return (*n)++;
}

int vb_dataset_add(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		   double secs, double bytes_per_sec)
{
	if (vbr_grow((void **)&d->samples, &d->cap_samples, d->n_samples + 1,
		     sizeof *d->samples) < 0)
		return -1;
	size_t li = vbr_intern(&d->labels, &d->n_labels, &d->cap_labels, &d->label_ix, label);
	if (li == SIZE_MAX)
		return -1;
	struct vb_sample *s = &d->samples[d->n_samples++];
	s->label = li;
	s->run = run;
	s->bytes = bytes;
	s->secs = secs;
	s->bytes_per_sec = bytes_per_sec;
	s->place = SIZE_MAX;
	memset(&s->cfg, 0, sizeof s->cfg);
	s->cfg.direct = -1;
	return 0;
}

/* (one invocation is one session, of one label, numbering its runs from 1; label and run
 * each reach the low bits the index takes: many labels of one session must not share a
 * slot) */
size_t vbr_run_hash(const struct vb_sample *s)
{
	uint64_t k = s->run * 0x9e3779b97f4a7c15ULL ^ (uint64_t)s->label * 0xc2b2ae3d27d4eb4fULL;

	return hash(s->cfg.session) ^ (size_t)(k ^ k >> 29);
}

/* Makes the index of runs hold every run that names its session, at most half full with
 * want of them; -1 without memory. */
static int runs_rebuild(struct vb_dataset *d, size_t want)
{
	if (slots_reset(&d->run_ix, want) < 0)
		return -1;
	d->n_keyed = 0;
	for (size_t i = 0; i < d->n_samples; i++)
		if (d->samples[i].cfg.session[0] != '\0') {
			slots_put(&d->run_ix, vbr_run_hash(&d->samples[i]), i);
			d->n_keyed++;
		}
	return 0;
}

/* The run read before with the identity of s, or NULL. */
static const struct vb_sample *runs_find(const struct vb_dataset *d, const struct vb_sample *s)
{
	const struct vb_slots *x = &d->run_ix;
	if (x->cap == 0)
		return NULL;
	size_t mask = x->cap - 1;
	for (size_t k = vbr_run_hash(s) & mask; x->slot[k] != 0; k = (k + 1) & mask) {
		const struct vb_sample *y = &d->samples[x->slot[k] - 1];
		if (y->run == s->run && y->label == s->label &&
		    strcmp(y->cfg.session, s->cfg.session) == 0)
			return y;
	}
	return NULL;
}

/* Returns d to what it held at m. */
static void rollback(struct vb_dataset *d, const struct vb_dataset *m)
{
	for (size_t i = m->n_labels; i < d->n_labels; i++)
		free(d->labels[i]);
	d->n_labels = m->n_labels;
	if (d->label_ix.cap != 0)
		/* the dropped labels leave the index too */
		reindex(d->labels, d->n_labels, &d->label_ix, d->n_labels);
	d->n_samples = m->n_samples;
	d->skipped_warmup = m->skipped_warmup;
	d->skipped_zero = m->skipped_zero;
	d->skipped_dup = m->skipped_dup;
	d->skipped_ddlike = m->skipped_ddlike;
	if (d->run_ix.cap != 0)
		runs_rebuild(d, d->run_ix.cap / 2);   /* the dropped runs leave it too */
	notes_drop(d, m->n_notes);
	places_drop(d, m->n_places);
}

int vbr_check_measure(const char *what, double v, bool rate, char *why, size_t n)
{
	/* A clock reads 0 or at least a nanosecond; a subnormal number is nobody's reading,
	 * and divides into an infinite rate. vbench writes rates as 64-bit counts. */
	if (!isfinite(v) || v < 0 || signbit(v))   /* (-0 is no measured figure either) */
		snprintf(why, n, "%s %g is not a finite non-negative number", what, v);
	else if (v > 0 && v < DBL_MIN)
		snprintf(why, n, "%s %g is too small to be measured (a subnormal number)", what, v);
	else if (rate && v >= VBR_RATE_LIMIT)
		snprintf(why, n, "%s %g bytes/sec is beyond any measured rate (2^64 or more)", what,
			 v);
	else
		return 0;
	return -1;
}

double vbr_last_digit(const char *s, size_t n)
{
	size_t i = 0;
	long dec = 0, ex = 0;
	bool point = false;

	for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == '.' || s[i] == ',')
			point = true;
		else if (point)
			dec++;
	}
	bool neg = i + 1 < n && s[i + 1] == '-';
	for (size_t k = i + 1 + (i + 1 < n && (s[i + 1] == '-' || s[i + 1] == '+')); k < n &&
	     vbr_is_digit(s[k]) && ex < 1000; k++)
		ex = ex * 10 + (s[k] - '0');
	return pow(10, (double)((neg ? -ex : ex) - dec));
}

int vbr_check_rate(uint64_t bytes, double secs, double secs_unit, double bps, double bps_unit,
		   char *why, size_t n)
{
	if (!(secs > 0))
		return 0;
	/* the seconds rounded (or cut from a finer count the rate was computed from): half a
	 * unit; the rate rounded or cut: a unit */
	double b = (double)bytes, lo_s = secs - secs_unit / 2, hi_s = secs + secs_unit / 2;
	/* (a relative 1e-9 for the arithmetic of whoever computed the rate) */
	double lo = b / hi_s * (1 - 1e-9) - bps_unit;
	double hi = lo_s > 0 ? b / lo_s * (1 + 1e-9) + bps_unit : INFINITY;
	if (bps >= lo && bps <= hi)
		return 0;
	snprintf(why, n, "bytes_per_sec %.0f disagrees with its bytes and secs (%" PRIu64
		 " bytes in %.9g s is %.0f bytes/sec)", bps, bytes, secs, b / secs);
	return -1;
}

/* Copies s into out (size n) when every byte of it is in allowed; else out is "". */
static void copy_if(char *out, size_t n, const char *s, const char *allowed)
{
	size_t len = s != NULL ? strlen(s) : 0;

	out[0] = '\0';
	if (len == 0 || len >= n || strspn(s, allowed) != len)
		return;
	memcpy(out, s, len + 1);
}

void vbr_cfg_names(struct vb_runcfg *c, const char *sync, const char *source, const char *id,
		   const char *start)
{
	copy_if(c->sync, sizeof c->sync, sync, "abcdefghijklmnopqrstuvwxyz");
	copy_if(c->source, sizeof c->source, source, "abcdefghijklmnopqrstuvwxyz");
	copy_if(c->session, sizeof c->session, id, "0123456789abcdef");
	copy_if(c->started, sizeof c->started, start, "0123456789-:TZ");
}

/* Records that the run added last was measured on fs and device (both "": not recorded);
 * 0, or -1 without memory. */
static int set_place(struct vb_dataset *d, const char *fs, const char *device)
{
	size_t p = d->n_places - 1;

	if (fs[0] == '\0' && device[0] == '\0')
		return 0;
	/* The runs of a session share one place: the last one is looked at, no other, so
	 * that a file of many places costs no search (printers list each place once). */
	if (d->n_places == 0 || strcmp(d->places[p].fs, fs) != 0 ||
	    strcmp(d->places[p].device, device) != 0) {
		p = d->n_places;
		if (vbr_grow((void **)&d->places, &d->cap_places, d->n_places + 1,
			     sizeof *d->places) < 0)
			return -1;
		char *f = vbr_dup_n(fs, strlen(fs)), *v = vbr_dup_n(device, strlen(device));
		if (f == NULL || v == NULL) {
			free(f);
			free(v);
			return -1;
		}
		d->places[p].fs = f;
		d->places[p].device = v;
		d->n_places++;
	}
	d->samples[d->n_samples - 1].place = p;
	return 0;
}

int vbr_add_run_cfg(struct vb_dataset *d, const char *label, uint64_t run, uint64_t bytes,
		    double secs, double bps, const struct vb_runcfg *cfg, const char *fs,
		    const char *device)
{
	if (!(secs > 0) || !isfinite(bps)) {
		d->skipped_zero++;
		return 0;
	}
	if (vb_dataset_add(d, label, run, bytes, secs, bps) < 0)
		return -1;
	if (cfg == NULL)
		return 1;
	struct vb_sample *s = &d->samples[d->n_samples - 1];
	s->cfg = *cfg;
	/* older files and dd logs say no identity: taken as they are */
	if (cfg->session[0] != '\0') {
		const struct vb_sample *old = runs_find(d, s);
		if (old != NULL) {
			bool same = old->bytes == s->bytes &&
				    old->secs == s->secs && old->bytes_per_sec == s->bytes_per_sec;
			d->n_samples--;
			if (!same)
				return -2;
			d->skipped_dup++;
			return 0;
		}
		if (2 * (d->n_keyed + 1) <= d->run_ix.cap) {
			slots_put(&d->run_ix, vbr_run_hash(s), d->n_samples - 1);
			d->n_keyed++;
		} else if (runs_rebuild(d, d->n_keyed + 1) < 0) {   /* (which takes s in) */
			d->n_samples--;
			return -1;
		}
	}
	return set_place(d, fs, device) < 0 ? -1 : 1;
}

int vbr_status_is_run(const char *s)
{
	static const char *const stopped[] = {"interrupted", "timeout", "noprogress", "error"};

	if (s[0] == '\0' || strcmp(s, "ok") == 0)
		return 1;
	for (size_t i = 0; i < sizeof stopped / sizeof stopped[0]; i++)
		if (strcmp(s, stopped[i]) == 0)
			return 0;
	return -1;
}

int vbr_read_end(struct vb_dataset *d, const struct vb_dataset *m, int rc,
		 const struct vbr_err *e, const char *what)
{
	size_t skipped = (d->skipped_warmup - m->skipped_warmup) +
			 (d->skipped_zero - m->skipped_zero);
	bool none = rc == 0 && d->n_samples == m->n_samples && d->skipped_dup == m->skipped_dup;

	if (none && skipped > 0)
		rc = vbr_fail(e, 0, "no measured runs (%zu warm-up, partial or "
			      "zero-second runs skipped)", skipped);
	else if (none)
		rc = vbr_fail(e, 0, "%s", what);
	if (rc < 0)
		rollback(d, m);
	return rc;
}

