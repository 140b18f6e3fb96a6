/* The notes of `vbench report` on the storage under each label: what the flush probe
 * concluded, and where a run's rate fell for good (see "Flushes that do no work" and
 * "Burst and sustained" in vbench(1)). Read from vbench's CSV, printed after the
 * comparison. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "common/vb_flushverdict.h"

static int add(struct vb_dataset *d, const char *label, const char *text)
{
	if (vbr_grow((void **)&d->notes, &d->cap_notes, d->n_notes + 1, sizeof *d->notes) < 0)
		return -1;
	char *l = vbr_dup_n(label, strlen(label)), *t = vbr_dup_n(text, strlen(text));
	if (l == NULL || t == NULL) {
		free(l);
		free(t);
		return -1;
	}
	d->notes[d->n_notes].label = l;
	d->notes[d->n_notes].text = t;
	d->n_notes++;
	return 0;
}

int vbr_note_flush(struct vb_dataset *d, const char *label, const char *verdict,
		   uint64_t flush_p50_ns, uint64_t write_p50_ns)
{
	char text[256], figures[96] = "";
	const char *what;

	if (strcmp(verdict, "no-work") == 0)
		what = "flushes do no work: the host ignores them, or the storage persists every "
		       "write as it takes it; synced figures are not proven durable";
	else if (strcmp(verdict, "works") == 0)
		what = "flushes take time: something is persisted on a flush (not proven durable)";
	else if (strcmp(verdict, "undecided") == 0)
		what = "the flush probe could not tell";
	else
		return 0;   /* not run, or a word this version does not know: nothing to say */
	/* A row from before the yardstick rule (vb_flushverdict.h) is judged by it again. */
	if (strcmp(verdict, "no-work") == 0 && flush_p50_ns > 0 &&
	    !vb_flush_yardstick(flush_p50_ns, flush_p50_ns, write_p50_ns))
		what = "the flush probe could not tell: a small write costs far more than a "
		       "flush, so it is no yardstick";
	if (flush_p50_ns > 0 && write_p50_ns > 0)
		snprintf(figures, sizeof figures, " (flush %.0f us p50, a small write %.0f us)",
			 (double)flush_p50_ns / 1e3, (double)write_p50_ns / 1e3);
	snprintf(text, sizeof text, "%s%s", what, figures);
	return add(d, label, text);
}

int vbr_check_flush(const char *verdict, const char *const num[4], char *why, size_t n)
{
	static const char *const words[] = {"not-run", "undecided", "no-work", "works"};
	static const char *const names[] = {"flush_p50_ns", "flush_write_p50_ns",
					    "flush_diff_lo_ns", "flush_diff_hi_ns"};
	int64_t v[4] = {0, 0, 0, 0};
	size_t i = 0;
	char q[VBR_QUOTE_MAX];

	while (i < 4 && strcmp(verdict, words[i]) != 0)
		i++;
	if (i == 4) {
		snprintf(why, n, "column flush_verdict: \"%s\" is none of the words vbench "
			 "writes (not-run, undecided, no-work, works)", vbr_cut(q, sizeof q, verdict));
		return -1;
	}
	for (i = 0; i < 4; i++) {
		/* the medians are counts, the interval's ends signed */
		const char *s = num[i];
		bool neg = i >= 2 && s != NULL && s[0] == '-';
		uint64_t u;
		if (s == NULL)
			continue;
		if (!vbr_parse_u64(s + neg, strlen(s + neg), &u) || u > INT64_MAX) {
			snprintf(why, n, "column %s: \"%s\" is not a count of nanoseconds",
				 names[i], vbr_cut(q, sizeof q, s));
			return -1;
		}
		v[i] = neg ? -(int64_t)u : (int64_t)u;
	}
	if (num[2] != NULL && num[3] != NULL && v[2] > v[3]) {
		snprintf(why, n, "the flush interval runs backwards (flush_diff_lo_ns %lld above "
			 "flush_diff_hi_ns %lld)", (long long)v[2], (long long)v[3]);
		return -1;
	}
	return 0;
}

int vbr_note_knee(struct vb_dataset *d, const char *label, uint64_t run, double burst,
		  double sustained, double at_bytes)
{
	char text[256];

	snprintf(text, sizeof text, "run %llu: burst %.1f MB/s for the first %.1f MB, then %.1f "
		 "MB/s sustained (a cache or burst allowance ran out)", (unsigned long long)run, burst / 1e6,
		 at_bytes / 1e6, sustained / 1e6);
	return add(d, label, text);
}

