#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/vb_escape.h"
#include "os/vb_os.h"
#include "output/vb_output.h"
#include "common/vb_schema.h"

#define MIB 1048576.0
#define MB 1000000.0

void vb_format_status(char *buf, size_t n, uint64_t bytes, double secs)
{
	snprintf(buf, n, "%" PRIu64 " bytes transferred in %.6f secs (%" PRIu64 " bytes/sec)",
		 bytes, secs, vb_rate(bytes, secs));
}

/* Formats a duration of seconds as 1h02m03s, 2m05s or 7s. */
static void fmt_eta(char *buf, size_t n, double secs)
{
	if (!(secs >= 0) || secs > 359999)
		snprintf(buf, n, "?");
	else if (secs >= 3600)
		snprintf(buf, n, "%dh%02dm%02ds", (int)secs / 3600, (int)secs / 60 % 60,
			 (int)secs % 60);
	else if (secs >= 60)
		snprintf(buf, n, "%dm%02ds", (int)secs / 60, (int)secs % 60);
	else
		snprintf(buf, n, "%ds", (int)ceil(secs));
}

void vb_format_progress(char *buf, size_t n, const struct vb_progress *p)
{
	char eta[32];
	double avg = p->elapsed_secs > 0 ? (double)p->bytes_done / p->elapsed_secs : 0;
	double pct = p->bytes_total ? 100.0 * (double)p->bytes_done / (double)p->bytes_total : 0;
	double left = avg > 0 ? (double)(p->bytes_total - p->bytes_done) / avg : -1;

	fmt_eta(eta, sizeof eta, left);
	snprintf(buf, n, "run %" PRIu64 "/%" PRIu64 ": %" PRIu64 " bytes (%.1f%%), now %.1f MB/s, "
		 "avg %.1f MB/s, ETA %s", p->run, p->runs, p->bytes_done, pct,
		 p->current_bytes_per_sec / MB, avg / MB, eta);
}

/* Formats nanoseconds with a unit that keeps three or four significant digits. */
static void fmt_ns(char *buf, size_t n, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, n, "%" PRIu64 " ns", ns);
	else if (ns < 10000000)
		snprintf(buf, n, "%.1f us", (double)ns / 1e3);
	else if (ns < 10000000000ULL)
		snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.2f s", (double)ns / 1e9);
}

static const char *const quantile_names[] = {"p50", "p90", "p99", "p99.9"};

static void latency_line(FILE *f, const char *prefix, const struct vb_latency *l)
{
	const uint64_t v[] = {l->p50_ns, l->p90_ns, l->p99_ns, l->p999_ns};
	char text[32];

	if (l->writes == 0)
		return;
	fprintf(f, "%swrite latency", prefix);
	for (int i = 0; i < 4; i++) {
		fmt_ns(text, sizeof text, v[i]);
		fprintf(f, " %s %s", quantile_names[i], text);
	}
	fmt_ns(text, sizeof text, l->max_ns);
	fprintf(f, " max %s (%" PRIu64 " writes)\n", text, l->writes);
}

static void live_progress(void *arg, const struct vb_progress *p)
{
	char line[256];

	vb_format_progress(line, sizeof line, p);
	fprintf(arg, "\r\033[K%s", line);
	fflush(arg);
}

static void live_erase(void *arg)
{
	fputs("\r\033[K", arg);
	fflush(arg);
}

static void live_status(void *arg, uint64_t bytes, double secs, bool progress_drawn)
{
	char line[160];

	vb_format_status(line, sizeof line, bytes, secs);
	fprintf(arg, "%s%s\n", progress_drawn ? "\r\033[K" : "", line);
	fflush(arg);
}

static void live_stall(void *arg, const struct vb_stall *s, bool progress_drawn)
{
	char who[64] = "", kind[48];

	if (s->writers > 1)
		snprintf(who, sizeof who, " (writer %u of %u)", s->writer, s->writers);
	/* Warm-up number 0 is the fill before the clock (engine.c). */
	if (s->probe)
		snprintf(kind, sizeof kind, "the flush check");
	else if (s->warmup && s->run == 0)
		snprintf(kind, sizeof kind, "the fill before the clock");
	else
		snprintf(kind, sizeof kind, "%s %" PRIu64, s->warmup ? "warm-up" : "run", s->run);
	/* Tenths below 10 s, so that a short --stall-timeout is never printed as 0 s. */
	fprintf(arg, "%svbench: stall: %s%s: %s at offset %" PRIu64 " has not returned after "
		"%.*f s\n", progress_drawn ? "\n" : "", kind, who, s->stage, s->offset,
		s->secs < 10 ? 1 : 0, s->secs);
	fflush(arg);
}

struct vb_live vb_out_live(FILE *f)
{
	struct vb_live l = {live_progress, live_erase, live_status, live_stall, f};
	return l;
}

/* Our words, then text we did not write, escaped. */
static void put_text(FILE *f, const char *before, const char *text)
{
	fputs(before, f);
	vb_text(f, text);
}

void vb_out_error(FILE *f, const char *msg)
{
	put_text(f, "vbench: ", msg);
	fputc('\n', f);
	fflush(f);
}

void vb_out_warning_about(FILE *f, const char *label, const char *msg)
{
	put_text(f, "vbench: warning: ", label);
	put_text(f, ": ", msg);
	fputc('\n', f);
	fflush(f);
}

void vb_out_human_header(FILE *f, const struct vb_context *c)
{
	const struct vb_config *cfg = c->cfg;
	const struct vb_env *e = c->env;

	fprintf(f, "# vbench %s: %" PRIu64 " bytes per run (bs=%" PRIu64 " count=%" PRIu64
		"), ", VB_VERSION, vb_run_bytes(cfg), cfg->bs_bytes, cfg->count_blocks);
	if (cfg->runs_auto)
		fprintf(f, "runs auto (%d to %" PRIu64 "%s, until the mean's 95%% CI is within "
			"+-%g%%)", VB_AUTO_MIN_RUNS, cfg->runs, cfg->max_time_secs > 0 ?
			" within --max-time" : "", cfg->precision * 100);
	else
		fprintf(f, "%" PRIu64 " runs", cfg->runs);
	if (cfg->warmup_runs)
		fprintf(f, " after %" PRIu64 " warm-up", cfg->warmup_runs);
	fprintf(f, ", source %s, sync %s", vb_source_name(cfg->source), vb_sync_name(cfg->sync));
	if (c->sync_note != NULL)
		fprintf(f, " (%s)", c->sync_note);
	fprintf(f, ", %s%s",
		vb_io_mode(e, cfg->direct, cfg->overwrite, cfg->warmup_runs, c->filled),
		cfg->overwrite ? ", overwrite in place" : "");
	if (cfg->qd > 1)
		fprintf(f, ", %" PRIu64 " writes in flight", cfg->qd);
	put_text(f, "\n# target ", c->target);
	if (c->target_note != NULL)
		put_text(f, ": ", c->target_note);
	put_text(f, "\n# label ", c->label);
	if (!c->sink) {
		put_text(f, ": ", e->fs);
		put_text(f, " on ", e->device);
		put_text(f, " (driver ", e->driver);
		put_text(f, "), mounted on ", e->mount);
	}
	put_text(f, "\n# host ", e->host);
	put_text(f, ", ", e->os);
	put_text(f, " ", e->kernel);
	/* GiB (a small guest's with two decimals: "0.44"); block sizes exact, as bs is. */
	double gib = (double)e->ram_bytes / (1024.0 * 1024.0 * 1024.0);
	if (e->ram_bytes == 0)
		fputs(", RAM unknown", f);
	else
		fprintf(f, ", RAM %.*f GiB", gib < 10 ? 2 : 1, gib);
	if (!c->sink && e->logical_block == 0)
		fputs(", block size unknown", f);   /* the system would not say */
	else if (!c->sink)
		fprintf(f, ", block size %u logical / %u physical bytes", e->logical_block,
			e->physical_block);
	fputc('\n', f);
	if (c->data_note != NULL) {
		put_text(f, "# data ", c->data_note);
		fputc('\n', f);
	}
}

static void run_title(FILE *f, const struct vb_context *c, const struct vb_run *r)
{
	if (r->fill)
		fprintf(f, "# the fill before the clock (not counted)");
	else if (r->warmup)
		fprintf(f, "# warm-up %" PRIu64 " of %" PRIu64 " (not counted)", r->run,
			c->cfg->warmup_runs);
	else
		fprintf(f, "# run %" PRIu64 " of %s%" PRIu64, r->run,
			c->cfg->runs_auto ? "at most " : "", c->cfg->runs);
	if (r->allocating)
		fprintf(f, " (allocating: the file was new)");
	if (r->paused)
		fprintf(f, " (paused: vbench was stopped during this run, and the pause counts "
			"in its time)");
	switch (r->stop) {
	case VB_STOP_DONE:
		break;
	case VB_STOP_SIGNAL:
		fprintf(f, ": partial, stopped by signal %d", r->signo);
		break;
	case VB_STOP_TIMEOUT:
		fprintf(f, ": partial, aborted by --timeout during %s at offset %" PRIu64,
			vb_stage_name(r->stage), r->err_offset_bytes);
		break;
	case VB_STOP_NOPROGRESS:
		fprintf(f, ": partial, write stopped making progress at offset %" PRIu64,
			r->err_offset_bytes);
		break;
	case VB_STOP_ERROR:
		fprintf(f, ": partial, %s failed at offset %" PRIu64 ": %s", vb_stage_name(r->stage),
			r->err_offset_bytes, strerror(r->err));
		break;
	}
	fputc('\n', f);
}

void vb_out_human_run(FILE *f, const struct vb_context *c, const struct vb_run *r)
{
	char line[160];

	if (c->cfg->quiet)
		return;
	run_title(f, c, r);
	/* Only measured, complete runs print bare dd lines: what greps them sees the runs
	 * the summary is made of. */
	const char *mark = r->warmup || r->stop != VB_STOP_DONE ? "# " : "";
	fprintf(f, "%s%" PRIu64 "+%" PRIu64 " records in\n", mark, r->full_blocks,
		r->partial_blocks);
	fprintf(f, "%s%" PRIu64 "+%" PRIu64 " records out\n", mark, r->full_blocks,
		r->partial_blocks);
	vb_format_status(line, sizeof line, r->bytes, r->secs);
	fprintf(f, "%s%s\n", mark, line);
	fprintf(f, "# %.2f MiB/s = %.2f MB/s; write %.6f secs, sync and close %.6f secs\n",
		(double)r->bytes_per_sec / MIB, (double)r->bytes_per_sec / MB, r->write_secs,
		r->sync_secs);
	latency_line(f, "# ", &r->latency);
	if (r->data_note)
		fprintf(f, "# the data source held this run back %.1f%% (writer%s waited %.0f ms%s)\n",
			r->data_held_back * 100.0, c->cfg->qd > 1 ? "s" : "",
			r->data_wait_secs * 1e3, c->cfg->qd > 1 ? " in all" : "");
	/* Samples taken only for the knee are not printed. */
	for (uint64_t i = 0; c->cfg->interval_secs > 0 && i < r->n_intervals; i++) {
		const struct vb_interval *iv = &r->intervals[i];
		fprintf(f, "# interval %.3f-%.3f s: %" PRIu64 " bytes, %.0f bytes/sec\n",
			iv->start_secs, iv->start_secs + iv->secs, iv->bytes,
			iv->secs > 0 ? (double)iv->bytes / iv->secs : 0.0);
	}
}

void vb_out_human_summary(FILE *f, const struct vb_context *c, const struct vb_run_analysis *a)
{
	const struct vb_summary *s = &a->rate;

	if (!c->cfg->quiet) {
		fprintf(f, "# summary of %" PRIu64 " completed run%s\n", a->completed,
			a->completed == 1 ? "" : "s");
		latency_line(f, "# all runs: ", &a->latency);
		if (a->have_intervals && c->cfg->interval_secs > 0)
			fprintf(f, "# slowest interval %.0f bytes/sec (run %" PRIu64 " at %.1f s), "
				"fastest %.0f bytes/sec (run %" PRIu64 " at %.1f s)\n",
				a->slowest_iv_bytes_per_sec, a->slowest_iv_run,
				a->slowest_iv_start_secs, a->fastest_iv_bytes_per_sec,
				a->fastest_iv_run, a->fastest_iv_start_secs);
		vb_out_human_verdicts(f, c, a);
	}
	if (s->n == 0) {
		fputs("mean    n/a (no completed run)\nmin     n/a\nmax     n/a\nstddev  n/a\n", f);
		return;
	}
	fprintf(f, "mean    %.1f bytes/sec\n", s->mean);
	fprintf(f, "min     %.0f bytes/sec\n", s->min);
	fprintf(f, "max     %.0f bytes/sec\n", s->max);
	if (s->n < 2)
		fputs("stddev  n/a (one run)\n", f);
	else
		fprintf(f, "stddev  %.1f bytes/sec (%.1f%%)\n", s->stddev, s->cv * 100.0);
	if (c->auto_note != NULL) {
		put_text(f, "runs    ", c->auto_note);
		fputc('\n', f);
	}
	if (c->result_line != NULL) {
		vb_text(f, c->result_line);
		fputc('\n', f);
	}
}

void vb_out_run_problem(FILE *f, const struct vb_context *c, const struct vb_run *r)
{
	const struct vb_config *cfg = c->cfg;
	const char *what = vb_stage_name(r->stage);
	unsigned long long off = r->err_offset_bytes;
	char tgt[1024], detail[sizeof r->detail * 4], kind[48];

	if (r->fill)
		snprintf(kind, sizeof kind, "the fill before the clock");
	else
		snprintf(kind, sizeof kind, "%s %" PRIu64, r->warmup ? "warm-up" : "run", r->run);
	/* A named file inside the target directory by its name. */
	vb_text_to(tgt, sizeof tgt, c->written != NULL ? c->written : c->target);
	vb_text_to(detail, sizeof detail, r->detail);
	if (r->stop == VB_STOP_SIGNAL)
		fprintf(f, "vbench: %s stopped by signal %d after %llu bytes; it is left out "
			"of the summary\n", kind, r->signo, (unsigned long long)r->bytes);
	else if (r->stop == VB_STOP_TIMEOUT)
		fprintf(f, "vbench: %s aborted: a %s of %s did not return within --timeout "
			"%g s (at offset %llu)\n", kind, what, tgt, cfg->timeout_secs, off);
	else if (r->direct_refused)
		fprintf(f, "vbench: %s: the first %s write of %llu bytes was refused "
			"(EINVAL): bs must be a multiple of the device's logical block size\n",
			tgt, vb_os_caps()->direct_how ? vb_os_caps()->direct_how : "direct",
			(unsigned long long)cfg->bs_bytes);
	else if (r->stop == VB_STOP_ERROR && r->stage == VB_STAGE_OPEN && detail[0] != '\0')
		fprintf(f, "vbench: %s: %s: %s; nothing was written to it\n", kind, tgt,
			detail);
	else if (r->stop != VB_STOP_DONE)
		fprintf(f, "vbench: %s: %s of %s failed at offset %llu: %s%s\n", kind,
			what, tgt, off, r->stop == VB_STOP_NOPROGRESS ?
			"write() stopped making progress" : strerror(r->err),
			r->stage == VB_STAGE_SYNC ? " (the data of this run is not durable)" : "");
	fflush(f);
}

void vb_out_csv_header(struct vb_buf *b)
{
	for (int i = 0; i < VB_N_COLS; i++) {
		if (i > 0)
			vb_buf_putc(b, ',');
		vb_buf_puts(b, vb_csv_names[i]);
	}
	vb_buf_puts(b, "\r\n");
}

/* The status column and key, by enum vb_stop. */
static const char *const status_words[] = {
	[VB_STOP_DONE] = "ok", [VB_STOP_SIGNAL] = "interrupted", [VB_STOP_TIMEOUT] = "timeout",
	[VB_STOP_NOPROGRESS] = "noprogress", [VB_STOP_ERROR] = "error",
};

void vb_out_csv_row(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r,
		    const struct vb_flush_result *fr)
{
	const struct vb_config *cfg = c->cfg;
	const struct vb_env *e = c->env;
	struct vb_run probe = {0};

	if (fr != NULL) {
		probe = (struct vb_run){.bytes = fr->bytes, .secs = fr->secs};
		r = &probe;
	}
	vb_csv_field(b, c->label);
	vb_buf_printf(b, ",%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%d,%s,",
		      r->run, r->bytes, r->secs, r->bytes_per_sec, cfg->bs_bytes, cfg->count_blocks,
		      vb_source_name(cfg->source), cfg->direct ? 1 : 0, vb_sync_name(cfg->sync));
	const char *texts[] = {e->fs, e->device, e->driver, e->host, e->os, e->kernel, e->mount};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		vb_csv_field(b, texts[i]);
		vb_buf_putc(b, ',');
	}
	vb_buf_printf(b, "%u,%u,%" PRIu64 ",%d,%d,%s,%.6f,%.6f", e->logical_block,
		      e->physical_block, e->ram_bytes, r->warmup ? 1 : 0,
		      fr != NULL || r->stop != VB_STOP_DONE, fr != NULL ? "flush" : status_words[r->stop],
		      r->write_secs, r->sync_secs);
	vb_buf_printf(b, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		      r->latency.p50_ns, r->latency.p90_ns, r->latency.p99_ns, r->latency.p999_ns,
		      r->latency.max_ns);
	for (uint64_t i = 0; cfg->interval_secs > 0 && i < r->n_intervals; i++)
		vb_buf_printf(b, "%s%.0f", i ? " " : "", r->intervals[i].secs > 0 ?
			      (double)r->intervals[i].bytes / r->intervals[i].secs : 0.0);
	vb_buf_printf(b, ",%" PRIu64 ",%.6f,%d", cfg->qd, r->data_wait_secs, VB_SCHEMA_VERSION);
	vb_out_csv_verdicts(b, c, r, fr);
	vb_buf_putc(b, ',');
	vb_csv_field(b, vb_io_mode(e, cfg->direct, cfg->overwrite, cfg->warmup_runs, c->filled));
	vb_buf_putc(b, ',');
	vb_csv_field(b, c->session != NULL ? c->session : "");
	vb_buf_putc(b, ',');
	vb_csv_field(b, c->session_start != NULL ? c->session_start : "");
	vb_buf_puts(b, "\r\n");
}

static void json_latency(FILE *f, const struct vb_latency *l)
{
	fprintf(f, "{\"p50_ns\": %" PRIu64 ", \"p90_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64
		", \"p99_9_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 ", \"writes\": %" PRIu64 "}",
		l->p50_ns, l->p90_ns, l->p99_ns, l->p999_ns, l->max_ns, l->writes);
}

static void json_run(FILE *f, const struct vb_context *c, const struct vb_run *r)
{
	fprintf(f, "    {\"" VB_JK_RUN "\": %" PRIu64 ", \"" VB_JK_WARMUP "\": %s, \"" VB_JK_PARTIAL
		"\": %s, \"" VB_JK_STATUS "\": \"%s\", \"" VB_JK_BYTES "\": %" PRIu64 ", \""
		VB_JK_SECS "\": %.6f, \"" VB_JK_BPS "\": %" PRIu64 ", "
		"\"write_secs\": %.6f, \"sync_secs\": %.6f, \"records_out_full\": %" PRIu64
		", \"records_out_partial\": %" PRIu64 ", \"latency\": ",
		r->run, r->warmup ? "true" : "false", r->stop != VB_STOP_DONE ? "true" : "false",
		status_words[r->stop], r->bytes, r->secs, r->bytes_per_sec, r->write_secs, r->sync_secs,
		r->full_blocks, r->partial_blocks);
	json_latency(f, &r->latency);
	if (r->stop == VB_STOP_ERROR || r->stop == VB_STOP_NOPROGRESS ||
	    r->stop == VB_STOP_TIMEOUT) {
		fprintf(f, ", \"error\": {\"stage\": \"%s\", \"offset_bytes\": %" PRIu64
			", \"message\": ", vb_stage_name(r->stage), r->err_offset_bytes);
		vb_json_string(f, strerror(r->err));
		if (r->detail[0] != '\0') {
			fputs(", \"detail\": ", f);
			vb_json_string(f, r->detail);
		}
		fputs("}", f);
	}
	if (r->stop == VB_STOP_SIGNAL)
		fprintf(f, ", \"signal\": %d", r->signo);
	fprintf(f, ", \"paused\": %s, \"data_wait_secs\": %.6f", r->paused ? "true" : "false",
		r->data_wait_secs);
	if (r->knee.found)
		fprintf(f, ", \"knee\": {\"burst_bytes_per_sec\": %.0f, \"sustained_bytes_per_sec\": "
			"%.0f, \"at_bytes\": %" PRIu64 ", \"at_secs\": %.3f}",
			r->knee.burst_bytes_per_sec, r->knee.sustained_bytes_per_sec,
			r->knee.at_bytes, r->knee.at_secs);
	fputs(", \"intervals\": [", f);
	for (uint64_t i = 0; c->cfg->interval_secs > 0 && i < r->n_intervals; i++) {
		const struct vb_interval *iv = &r->intervals[i];
		fprintf(f, "%s{\"start_secs\": %.6f, \"secs\": %.6f, \"bytes\": %" PRIu64
			", \"bytes_per_sec\": %.0f}", i ? ", " : "", iv->start_secs, iv->secs, iv->bytes,
			iv->secs > 0 ? (double)iv->bytes / iv->secs : 0.0);
	}
	fputs("]}", f);
}

static void json_config(FILE *f, const struct vb_context *c)
{
	const struct vb_config *cfg = c->cfg;

	fprintf(f, "  \"" VB_JK_CONFIG "\": {\"bs\": %" PRIu64 ", \"count\": %" PRIu64
		", \"bytes_per_run\": %" PRIu64 ", \"source\": \"%s\", \"direct\": %s, \"sync\": "
		"\"%s\", \"" VB_JK_QD "\": %" PRIu64 ", \"runs\": %" PRIu64 ", \"warmup_runs\": %"
		PRIu64 ", \"overwrite\": %s, \"pool_bytes\": %" PRIu64 ", \"target\": ",
		cfg->bs_bytes, cfg->count_blocks, vb_run_bytes(cfg), vb_source_name(cfg->source),
		cfg->direct ? "true" : "false", vb_sync_name(cfg->sync), cfg->qd, cfg->runs,
		cfg->warmup_runs, cfg->overwrite ? "true" : "false", c->pool_bytes);
	vb_json_string(f, c->target);
	fputs(", \"io\": ", f);
	vb_json_string(f, vb_io_mode(c->env, cfg->direct, cfg->overwrite, cfg->warmup_runs,
				   c->filled));
	fprintf(f, ", \"runs_auto\": %s", cfg->runs_auto ? "true" : "false");
	if (cfg->runs_auto)
		fprintf(f, ", \"precision\": %g, \"max_runs\": %" PRIu64 ", \"max_time_secs\": %g",
			cfg->precision, cfg->runs, cfg->max_time_secs);
	fputs("},\n", f);
}

static void json_env(FILE *f, const struct vb_env *e)
{
	const char *keys[] = {VB_JK_FS, "device", VB_JK_DRIVER, "host", "os", "kernel", "mount",
			      "write_cache"};
	const char *vals[] = {e->fs, e->device, e->driver, e->host, e->os, e->kernel, e->mount,
			      e->write_cache};

	fputs("  \"" VB_JK_ENV "\": {", f);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		fprintf(f, "\"%s\": ", keys[i]);
		vb_json_string(f, vals[i]);
		fputs(", ", f);
	}
	fprintf(f, "\"logical_block_bytes\": %u, \"physical_block_bytes\": %u, \"ram_bytes\": %"
		PRIu64 "},\n", e->logical_block, e->physical_block, e->ram_bytes);
}

static void json_summary(FILE *f, const struct vb_run_analysis *a)
{
	const struct vb_summary *s = &a->rate;

	if (s->n == 0) {
		fputs("  \"" VB_JK_SUMMARY "\": {\"runs\": 0, \"mean\": null, \"min\": null, \"max\": null, "
		      "\"stddev\": null},\n", f);
		return;
	}
	fprintf(f, "  \"" VB_JK_SUMMARY "\": {\"unit\": \"bytes_per_sec\", \"runs\": %" PRIu64 ", \"mean\": "
		"%.1f, \"min\": %.0f, \"max\": %.0f, \"stddev\": ", s->n, s->mean, s->min, s->max);
	if (s->n < 2)
		fputs("null, \"cv\": null", f);
	else
		fprintf(f, "%.1f, \"cv\": %.6f", s->stddev, s->cv);
	fputs(", \"latency\": ", f);
	json_latency(f, &a->latency);
	fprintf(f, ", \"sync_max_secs\": %.6f", a->sync_max_secs);
	if (a->have_intervals)
		fprintf(f, ", \"slowest_interval_bytes_per_sec\": %.0f, \"slowest_interval_run\": %"
			PRIu64 ", \"fastest_interval_bytes_per_sec\": %.0f, \"fastest_interval_run\": %"
			PRIu64, a->slowest_iv_bytes_per_sec, a->slowest_iv_run,
			a->fastest_iv_bytes_per_sec, a->fastest_iv_run);
	fprintf(f, ", \"trend_bytes_per_sec_per_run\": %.1f, \"drifting\": %s, \"unstable\": %s"
		", \"change_pct\": %.1f", a->trend.slope, a->drifting ? "true" : "false",
		a->unstable ? "true" : "false", a->change_pct);
	vb_out_json_verdicts(f, a);
	fputs("},\n", f);
}

void vb_out_json(FILE *f, const struct vb_context *c, const struct vb_run *runs, uint64_t n,
		 const struct vb_run_analysis *a, const char *const *warnings, size_t n_warnings)
{
	fprintf(f, "{\n  \"" VB_JK_SCHEMA "\": %d,\n  \"" VB_JK_VERSION "\": \"%s\",\n  \""
		VB_JK_LABEL "\": ", VB_SCHEMA_VERSION, VB_VERSION);
	vb_json_string(f, c->label);
	fputs(",\n  \"" VB_JK_SESSION "\": ", f);
	vb_json_string(f, c->session != NULL ? c->session : "");
	fputs(",\n  \"" VB_JK_SESSION_START "\": ", f);
	vb_json_string(f, c->session_start != NULL ? c->session_start : "");
	fputs(",\n", f);
	json_config(f, c);
	json_env(f, c->env);
	fputs("  \"" VB_JK_RUNS "\": [\n", f);
	for (uint64_t i = 0; i < n; i++) {
		json_run(f, c, &runs[i]);
		fputs(i + 1 < n ? ",\n" : "\n", f);
	}
	fputs("  ],\n", f);
	json_summary(f, a);
	if (c->result_line != NULL) {
		fputs("  \"result_line\": ", f);
		vb_json_string(f, c->result_line);
		fputs(",\n", f);
	}
	if (c->auto_note != NULL) {
		fputs("  \"runs_stopped\": ", f);
		vb_json_string(f, c->auto_note);
		fputs(",\n", f);
	}
	fputs("  \"" VB_JK_WARNINGS "\": [", f);
	for (size_t i = 0; i < n_warnings; i++) {
		/* one sentence each: a warning printed in two lines is joined again */
		char one[2048];
		snprintf(one, sizeof one, "%s", warnings[i]);
		for (char *nl = strchr(one, '\n'); nl != NULL; nl = strchr(nl, '\n'))
			*nl = ' ';
		fputs(i ? ", " : "", f);
		vb_json_string(f, one);
	}
	fputs("]\n}\n", f);
}
