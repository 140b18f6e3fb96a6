#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vb_analysis.h"
#include "common/vb_env.h"
#include "common/vb_escape.h"
#include "common/vb_units.h"

/* calloc, which test builds may replace with one that fails. */
#ifdef VB_TEST_SEAMS
static void *(*alloc_zeroed)(size_t, size_t) = calloc;

void vb_analysis_set_calloc(void *(*fn)(size_t, size_t))
{
	alloc_zeroed = fn != NULL ? fn : calloc;
}
#else
#define alloc_zeroed calloc
#endif

static int counted(const struct vb_run *r)
{
	return !r->warmup && r->stop == VB_STOP_DONE;
}

static void note_intervals(struct vb_run_analysis *a, const struct vb_run *r)
{
	for (uint64_t i = 0; i < r->n_intervals; i++) {
		const struct vb_interval *iv = &r->intervals[i];
		if (!(iv->secs > 0))
			continue;
		double rate = (double)iv->bytes / iv->secs;
		if (!a->have_intervals || rate < a->slowest_iv_bytes_per_sec) {
			a->slowest_iv_bytes_per_sec = rate;
			a->slowest_iv_run = r->run;
			a->slowest_iv_start_secs = iv->start_secs;
		}
		if (!a->have_intervals || rate > a->fastest_iv_bytes_per_sec) {
			a->fastest_iv_bytes_per_sec = rate;
			a->fastest_iv_run = r->run;
			a->fastest_iv_start_secs = iv->start_secs;
		}
		a->have_intervals = 1;
	}
}

int vb_analyze(const struct vb_config *cfg, const struct vb_run *runs, uint64_t n,
	       const struct vb_hist *all_latency, uint64_t ram_bytes, struct vb_run_analysis *a)
{
	double *rates = alloc_zeroed(n ? (size_t)n : 1, sizeof *rates);
	struct vb_knee_acc *knees = alloc_zeroed(1, sizeof *knees);

	memset(a, 0, sizeof *a);
	if (rates == NULL || knees == NULL) {
		free(rates);
		free(knees);
		return -1;
	}
	if (all_latency != NULL)
		a->latency = vb_hist_summary(all_latency);
	for (uint64_t i = 0; i < n; i++) {
		if (!counted(&runs[i]))
			continue;
		vb_knee_add(knees, &runs[i].knee);
		/* The rounded rates the dd lines print: a reader can recompute the summary. */
		rates[a->completed++] = (double)runs[i].bytes_per_sec;
		if (runs[i].paused && a->paused_runs++ == 0)
			a->first_paused_run = runs[i].run;
		if (runs[i].sync_secs > a->sync_max_secs)
			a->sync_max_secs = runs[i].sync_secs;
		note_intervals(a, &runs[i]);
	}
	a->rate = vb_summarize(rates, a->completed);
	vb_knee_summary_end(knees);
	a->knee = knees->s;
	free(knees);
	if (a->completed >= 3) {
		a->trend = vb_trend_fit(rates, a->completed);
		double first = a->rate.mean - a->trend.slope * ((double)a->completed - 1) / 2;
		double last = a->rate.mean + a->trend.slope * ((double)a->completed - 1) / 2;
		/* (a line fitted from below zero: the change against the mean instead) */
		a->change_pct = (last - first) / (first > 0 ? first : a->rate.mean) * 100.0;
		/* A trend printed as 0% is no drift, however significant. */
		a->drifting = a->trend.significant && fabs(a->change_pct) >= 0.5;
	}
	a->unstable = a->rate.n >= 2 && a->rate.cv > VB_UNSTABLE_CV;
	a->runs_auto = cfg->runs_auto;
	a->run_bytes = vb_run_bytes(cfg);
	free(rates);
	a->page_cache_risk = cfg->sync == VB_SYNC_NONE && !cfg->direct;
	a->smaller_than_ram = a->page_cache_risk && ram_bytes > 0 &&
			      vb_run_bytes(cfg) < 2 * ram_bytes;
	return 0;
}

int vb_analysis_stability_text(const struct vb_run_analysis *a, char *buf, size_t n)
{
	int len = 0;

	if (!a->drifting && !a->unstable)
		return 0;
	buf[0] = '\0';
	if (a->drifting)
		len = snprintf(buf, n, "throughput %s %.0f%% from run 1 to run %llu",
			       a->change_pct < 0 ? "fell" : "rose",
			       a->change_pct < 0 ? -a->change_pct : a->change_pct,
			       (unsigned long long)a->completed);
	if (a->unstable && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, "%sruns vary by %.1f%% (coefficient "
				"of variation above %.0f%%)", len ? "; " : "", a->rate.cv * 100.0,
				VB_UNSTABLE_CV * 100.0);
	if (len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, "; results are not stable");
	/* More runs narrow the mean's interval; longer ones average out what comes and goes. */
	if (a->unstable && len >= 0 && (size_t)len < n) {
		char bigger[32];
		vb_size_short(bigger, sizeof bigger, a->run_bytes <= UINT64_MAX / 4 ?
			      4 * a->run_bytes : a->run_bytes);
		snprintf(buf + len, n - (size_t)len, "; for a mean to rely on, %sa larger run "
			 "(--size %s)", a->runs_auto ? "" : "use runs=auto, or ", bigger);
	}
	return 1;
}

int vb_analysis_paused_text(const struct vb_run_analysis *a, char *buf, size_t n)
{
	if (a->paused_runs == 0)
		return 0;
	if (a->paused_runs == 1)
		snprintf(buf, n, "run %llu was paused (vbench was stopped) during its measurement; "
			 "its time includes the pause", (unsigned long long)a->first_paused_run);
	else
		snprintf(buf, n, "%llu runs, the first run %llu, were paused (vbench was stopped) "
			 "during their measurement; their times include the pauses",
			 (unsigned long long)a->paused_runs,
			 (unsigned long long)a->first_paused_run);
	return 1;
}

int vb_analysis_cache_text(const struct vb_run_analysis *a, const struct vb_config *cfg,
			   uint64_t ram_bytes, char *buf, size_t n)
{
	if (!a->page_cache_risk)
		return 0;
	if (a->smaller_than_ram)
		snprintf(buf, n, "--sync none without --direct: the figures may measure memory, "
			 "not the disk; %llu bytes per run is less than twice the %llu bytes of RAM, "
			 "so the page cache can hold it all",
			 (unsigned long long)vb_run_bytes(cfg),
			 (unsigned long long)ram_bytes);
	else
		snprintf(buf, n, "--sync none without --direct: the figures may measure memory "
			 "(the page cache), not the disk");
	return 1;
}

int vb_analysis_host_memory_text(const struct vb_config *cfg, bool frees_to_host, char *buf,
				 size_t n)
{
	if (!frees_to_host || cfg->direct)
		return 0;
	snprintf(buf, n, "free page reporting is on: this guest hands the memory it frees back "
		 "to its host, so a buffered run can be slowed waiting for memory; use --direct "
		 "(see vbench(1), DIAGNOSTICS)");
	return 1;
}

int vb_analysis_memory_fs_text(const char *fs, bool in_memory, char *buf, size_t n)
{
	if (!in_memory)
		return 0;
	snprintf(buf, n, "%s keeps its files in memory: these figures are of RAM, not of a disk, "
		 "with --direct too", fs);
	return 1;
}

int vb_analysis_loop_text(const char *loop, char *buf, size_t n)
{
	if (loop[0] == '\0')
		return 0;
	snprintf(buf, n, "%s has no direct I/O on its backing file: its writes land in the page "
		 "cache of the file under it, so the figures may measure memory, not the disk; "
		 "set it up with losetup --direct-io=on", loop);
	return 1;
}

int vb_analysis_label_fs_text(const char *label, const struct vb_env *e, const char *target,
			      char *buf, size_t n)
{
	char word[64], tgt[1024], fs[256], dev[1024], mnt[4096];

	if (!vb_label_names_other_fs(label, e->fs, word, sizeof word))
		return 0;
	/* escaped here: a path or a device name may hold a line break */
	vb_text_to(tgt, sizeof tgt, target);
	vb_text_to(fs, sizeof fs, e->fs);
	vb_text_to(dev, sizeof dev, e->device);
	vb_text_to(mnt, sizeof mnt, e->mount);
	if (strcmp(e->fs, "unknown") == 0 || e->fs[0] == '\0')
		snprintf(buf, n, "the label names %s, but the file system of %s cannot be told: "
			 "nothing confirms these runs measure %s", word, tgt, word);
	else
		snprintf(buf, n, "the label names %s, but %s is on %s (%s, mounted on %s): these "
			 "runs measure that, not %s (a mount that failed leaves an empty directory "
			 "on the disk under it)", word, tgt, fs, dev, mnt, word);
	return 1;
}
