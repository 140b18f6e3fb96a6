/* vbench: parse, check the target, run the session in a supervised worker, print, and
 * turn what happened into an exit status. Only this file knows the exit codes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vb_analysis.h"
#include "vb_autoruns.h"
#include "vb_csvfile.h"
#include "vb_env.h"
#include "vb_guard.h"
#include "vb_memfit.h"
#include "vb_opts.h"
#include "vb_os.h"
#include "vb_output.h"
#include "vb_plan.h"
#include "vb_report.h"
#include "vb_runner.h"
#include "vb_source.h"
#include "vb_space.h"
#include "vb_supervise.h"
#include "vb_target.h"

/* Exit statuses, as documented in vbench(1). */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_SETUP = 2, EXIT_IO = 3 };

static int exit_code(enum vb_status s)
{
	switch (s) {
	case VB_OK: return EXIT_OK;
	case VB_E_USAGE: return EXIT_USAGE;
	case VB_E_SETUP: return EXIT_SETUP;
	case VB_E_IO: return EXIT_IO;
	}
	return EXIT_IO;
}

/* The state of one invocation, so the per-run callback can reach it. */
struct app {
	struct vb_config cfg;
	struct vb_shared *sh;
	struct vb_target target;
	struct vb_env env;
	struct vb_context ctx;
	struct vb_session session;
	struct vb_csvfile csv;
	bool csv_failed;
	struct vb_csvfile trace;      /* --trace */
	bool trace_failed;
	/* --label is refused when longer than VB_LABEL_MAX, and a sink's "sink-NAME" holds
	 * a node's name (vb_target.name): no label is ever cut */
	char label[VB_LABEL_MAX + sizeof "sink-"];
	char note[4200];
	char written[4400];
	char sync_note[128];
	char data_note[400];
	/* which invocation wrote a row, and when it started (the CSV's session columns) */
	char invocation[17];
	char started[24];
	struct vb_err err;
	/* what standard output and error were when vbench started (the session's are
	 * pipes to the guard) */
	struct vb_fileinfo stdout_id, stderr_id;
};

/* What each --format prints on standard output: before the first run, each run as it
 * ends, and the summary (NULL: nothing then); rows: the CSV rows go there too (they
 * always go to the --csv-append file). */
struct format {
	void (*header)(struct app *a);
	void (*run)(struct app *a, const struct vb_run *r);
	void (*summary)(struct app *a, const struct vb_run_analysis *an,
			const char *const *warnings, size_t n_warnings);
	bool rows;
};

static void human_header(struct app *a)
{
	if (!a->cfg.quiet)
		vb_out_human_header(stdout, &a->ctx);
}

static void human_run(struct app *a, const struct vb_run *r)
{
	vb_out_human_run(stdout, &a->ctx, r);
}

static void human_summary(struct app *a, const struct vb_run_analysis *an,
			  const char *const *warnings, size_t n_warnings)
{
	(void)warnings;
	(void)n_warnings;   /* they follow on stderr */
	vb_out_human_summary(stdout, &a->ctx, an);
}

static void csv_header(struct app *a)
{
	struct vb_buf header;

	if (a->cfg.no_header)
		return;
	vb_buf_init(&header);
	vb_out_csv_header(&header);
	fwrite(header.p, 1, header.len, stdout);
	vb_buf_free(&header);
}

static void json_document(struct app *a, const struct vb_run_analysis *an,
			  const char *const *warnings, size_t n_warnings)
{
	vb_out_json(stdout, &a->ctx, a->session.runs, a->session.n_runs, an, warnings,
		    n_warnings);
}

static const struct format formats[] = {
	[VB_FMT_HUMAN] = {human_header, human_run, human_summary, false},
	[VB_FMT_CSV] = {csv_header, NULL, NULL, true},
	[VB_FMT_JSON] = {NULL, NULL, json_document, false},
};

/* Appends rows (made by vb_out_*) to file under its header, once it has failed never again. */
static void append_rows(struct app *a, struct vb_csvfile *file, bool *failed,
			void (*header_of)(struct vb_buf *), const struct vb_buf *rows)
{
	struct vb_buf header;

	if (file->fd < 0 || *failed || rows->len == 0)
		return;
	vb_buf_init(&header);
	header_of(&header);
	vb_guard_enter(&a->sh->guard, VB_PHASE_OUTPUT);
	enum vb_status st = vb_csvfile_append(file, &header, rows, &a->err);
	vb_guard_leave(&a->sh->guard);
	if (st != VB_OK) {
		vb_out_error(stderr, a->err.msg);
		*failed = true;
	}
	vb_buf_free(&header);
}

/* A CSV row to standard output (--format csv) and to the --csv-append file. */
static void emit_row(struct app *a, const struct vb_buf *row)
{
	if (formats[a->cfg.format].rows)
		fwrite(row->p, 1, row->len, stdout);
	append_rows(a, &a->csv, &a->csv_failed, vb_out_csv_header, row);
}

static void on_run(void *arg, const struct vb_run *r)
{
	struct app *a = arg;
	struct vb_buf row;

	if (formats[a->cfg.format].run != NULL)
		formats[a->cfg.format].run(a, r);
	vb_buf_init(&row);
	vb_out_csv_run(&row, &a->ctx, r);
	emit_row(a, &row);
	vb_buf_free(&row);
	vb_buf_init(&row);
	vb_out_trace_run(&row, &a->ctx, r);
	append_rows(a, &a->trace, &a->trace_failed, vb_out_trace_header, &row);
	vb_buf_free(&row);
	fflush(stdout);
}

/* Prints a warning about this configuration, one line per line of text. */
static void warn(const struct app *a, const char *text)
{
	char line[1024];

	while (*text != '\0') {
		size_t n = strcspn(text, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, text);
		vb_out_warning_about(stderr, a->label, line);
		text += n + (text[n] == '\n');
	}
}

/* runs=auto: why the runs stopped, from the runs recorded, into buf; NULL when they
 * did not stop by the rule (an error or a signal ended them). */
static const char *auto_note(const struct app *a, char *buf, size_t n)
{
	uint64_t k = 0;
	double *rates = calloc(a->session.n_runs + 1, sizeof *rates);
	double *secs = calloc(a->session.n_runs + 1, sizeof *secs);
	const char *note = NULL;

	for (uint64_t i = 0; rates && secs && i < a->session.n_runs; i++) {
		const struct vb_run *r = &a->session.runs[i];
		if (r->warmup || r->stop != VB_STOP_DONE)
			continue;
		rates[k] = (double)r->bytes_per_sec;
		secs[k++] = r->secs;
	}
	if (rates && secs && a->session.n_runs > 0 &&
	    a->session.runs[a->session.n_runs - 1].stop == VB_STOP_DONE) {
		struct vb_auto_decision d = vb_auto_decide(&a->cfg, rates, secs, k);
		if (vb_auto_text(&d, &a->cfg, buf, n))
			note = buf;
	}
	free(rates);
	free(secs);
	return note;
}

/* Prints the summary, or the JSON document, then the warnings on stderr; false when
 * there was no memory to compute the summary. */
static bool finish_output(struct app *a)
{
	struct vb_run_analysis an;
	char cache[512], drift[512], paused[256], hostmem[512], loop[512], memfs[256];
	char line[512], autobuf[256];
	const char *warnings[6];
	size_t nw = 0;

	if (vb_analyze(&a->cfg, a->session.runs, a->session.n_runs, &a->session.latency,
		       a->env.ram_bytes, &an) != 0) {
		vb_out_error(stderr, "out of memory: the summary of the runs could not be made");
		return false;
	}
	an.flush = a->session.flush;
	/* A row for what the probe measured or failed at, or for --check-flush; a short probe
	 * that was not worth making has none. */
	if (an.flush.verdict != VB_FLUSH_NOT_RUN || an.flush.samples > 0 || a->cfg.check_flush) {
		struct vb_buf row;
		vb_buf_init(&row);
		vb_out_csv_flush(&row, &a->ctx, &an.flush);
		emit_row(a, &row);
		vb_buf_free(&row);
	}
	/* A sink keeps nothing: neither a cache nor stability means anything there; nor is a
	 * cache met by a raw disk. */
	if (!a->ctx.sink && a->env.cache != VB_CACHE_NONE &&
	    vb_analysis_cache_text(&an, &a->cfg, a->env.ram_bytes, cache,
						   sizeof cache))
		warnings[nw++] = cache;
	if (!a->ctx.sink && vb_analysis_stability_text(&an, drift, sizeof drift))
		warnings[nw++] = drift;
	if (vb_analysis_paused_text(&an, paused, sizeof paused))
		warnings[nw++] = paused;
	if (!a->ctx.sink && vb_analysis_host_memory_text(&a->cfg, a->env.frees_to_host, hostmem,
							 sizeof hostmem))
		warnings[nw++] = hostmem;
	if (!a->ctx.sink && vb_analysis_loop_text(a->env.loop_buffered, loop, sizeof loop))
		warnings[nw++] = loop;
	if (!a->ctx.sink && vb_analysis_memory_fs_text(a->env.fs, a->env.fs_in_memory, memfs,
						       sizeof memfs))
		warnings[nw++] = memfs;
	vb_format_result_line(line, sizeof line, a->label, &a->cfg, &an.rate);
	a->ctx.result_line = line;
	a->ctx.auto_note = a->cfg.runs_auto ? auto_note(a, autobuf, sizeof autobuf) : NULL;
	if (formats[a->cfg.format].summary != NULL)
		formats[a->cfg.format].summary(a, &an, warnings, nw);
	fflush(stdout);
	/* After the summary, so that on a terminal the warning is the last thing read. */
	for (size_t i = 0; i < nw; i++)
		warn(a, warnings[i]);
	a->ctx.result_line = a->ctx.auto_note = NULL;   /* they pointed into this frame */
	return true;
}

/* Standard output was closed when vbench started: what goes there is lost. */
static bool stdout_closed;

/* Writes what --help or --version print; a failed write is an error, not a success. */
static int print_info(bool help)
{
	if (help)
		vb_opts_usage(stdout);
	else
		printf("vbench %s\n", VB_VERSION);
	if (stdout_closed) {
		vb_out_error(stderr, "standard output is closed: nothing could be written");
		return EXIT_IO;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "vbench: write error on standard output: %s\n", strerror(errno));
		return EXIT_IO;
	}
	return EXIT_OK;
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(struct app *a, int argc, char *argv[])
{
	enum vb_opts_action act;

	vb_config_defaults(&a->cfg);
	if (vb_opts_parse(argc - 1, argv + 1, &a->cfg, &act, &a->err) != VB_OK) {
		/* One line: the message says what to do (the option meant, or see --help). */
		vb_out_error(stderr, a->err.msg);
		return EXIT_USAGE;
	}
	if (act != VB_ACT_RUN)
		return print_info(act == VB_ACT_HELP);
	if (a->cfg.progress == VB_AUTO)
		a->cfg.progress = vb_os_isatty(2) ? VB_ON : VB_OFF;
	return -1;
}

/* Removes what vbench created and closes the target; false, after naming on stderr
 * what is left behind and why, when not everything could be removed. */
static bool cleanup(struct app *a)
{
	char msg[4400];
	const char *left;

	vb_guard_enter(&a->sh->guard, VB_PHASE_CLEANUP);
	vb_target_cleanup(&a->target);
	vb_guard_leave(&a->sh->guard);
	left = vb_target_cleanup_problem(&a->target, msg, sizeof msg);
	/* What the guard says if this process dies from here on. */
	snprintf(a->sh->guard.leftover, sizeof a->sh->guard.leftover, "%s",
		 left != NULL ? left : "");
	if (left == NULL)
		return true;
	vb_out_error(stderr, msg);
	return false;
}

/* Setup refused, or could not go on, after the target was prepared: nothing was
 * written, so what vbench created goes, even with --keep. */
static bool undo_setup(struct app *a)
{
	a->target.keep = false;
	return cleanup(a);
}

/* Closes the output files, removing each that this session created and wrote nothing
 * to; false when a close failed or such a file could not be removed (said on stderr). */
static bool close_outputs(struct app *a)
{
	struct vb_csvfile *files[2] = {&a->csv, &a->trace};
	bool ok = true;

	for (size_t i = 0; i < 2; i++) {
		if (files[i]->fd < 0)
			continue;
		vb_guard_enter(&a->sh->guard, VB_PHASE_OUTPUT);
		enum vb_status st = vb_csvfile_close(files[i], &a->err);
		vb_guard_leave(&a->sh->guard);
		if (st != VB_OK) {
			vb_out_error(stderr, a->err.msg);
			ok = false;
		}
	}
	return ok;
}

/* A stop signal during setup: undo what was done and die of it. */
static void stop_if_signalled(struct app *a)
{
	int signo = atomic_load(&a->sh->flags.stop);

	if (signo <= 0)
		return;
	undo_setup(a);
	close_outputs(a);
	vb_os_die(signo);
}

/* What is written where: the environment, the label, the notes for the header. */
static void describe(struct app *a)
{
	const struct vb_caps *caps = vb_os_caps();
	struct vb_target *t = &a->target;

	vb_os_detect(&a->env, t->held_fd >= 0 ? t->held_fd : t->dirfd, a->cfg.target_path);
	if (t->kind == VB_TGT_SINK) {
		/* No disk, no filesystem: nothing about them means anything here. */
		snprintf(a->env.fs, sizeof a->env.fs, "none");
		snprintf(a->env.mount, sizeof a->env.mount, "none");
		snprintf(a->env.device, sizeof a->env.device, "%s", t->name);
		snprintf(a->env.driver, sizeof a->env.driver, "none");
		a->env.logical_block = a->env.physical_block = 0;
		a->env.cache = VB_CACHE_AS_ASKED;
	}
	/* Where the file system buffers a direct write that extends the file, the file is
	 * written before the clock and the runs write in place, directly. */
	t->fill_first = vb_plan_fill_first(&a->cfg, t, a->env.cache);
	if (a->cfg.label != NULL)
		snprintf(a->label, sizeof a->label, "%s", a->cfg.label);
	else if (t->kind == VB_TGT_SINK)
		snprintf(a->label, sizeof a->label, "sink-%s", t->name);
	else
		vb_env_label(&a->env, a->label, sizeof a->label);
	if (a->cfg.sync == VB_SYNC_FDATASYNC && strcmp(caps->fdatasync_call, "fdatasync") != 0)
		snprintf(a->sync_note, sizeof a->sync_note, "done with %s: fdatasync is not "
			 "available here", caps->fdatasync_call);
	uint64_t run_bytes = vb_run_bytes(&a->cfg);
	uint64_t buffers = vb_source_buffer_bytes(a->cfg.source, (size_t)a->cfg.bs_bytes,
						  a->cfg.qd, run_bytes);
	a->ctx = (struct vb_context){&a->cfg, &a->env, a->label, a->cfg.target_path,
				     vb_target_note(t, a->note, sizeof a->note), buffers,
				     vb_source_describe(a->cfg.source, run_bytes, buffers,
							a->data_note, sizeof a->data_note),
				     t->kind == VB_TGT_SINK,
				     a->sync_note[0] ? a->sync_note : NULL, NULL, NULL,
				     t->fill_first, a->invocation, a->started, 0,
				     vb_target_written(t, a->written, sizeof a->written)};
	/* What a suggested --size must fit in. */
	uint64_t avail;
	if (t->kind == VB_TGT_DISK)
		a->ctx.room_bytes = t->device_bytes;
	else if ((t->kind == VB_TGT_DIR || t->kind == VB_TGT_NEWFILE) &&
		 vb_os_free_bytes(t->dirfd, &avail) == 0)
		a->ctx.room_bytes = avail;
}

/* Whether n bytes can be allocated now: the process's own limit (ulimit -v) and the
 * kernel's overcommit rule answer; nothing is touched, so nothing is used. */
static bool can_allocate(uint64_t n, void *arg)
{
	(void)arg;
	if (n > SIZE_MAX)
		return false;
	void *p = vb_os_aligned_alloc(4096, (size_t)n);
	vb_os_aligned_free(p);
	return p != NULL;
}

/* The data buffers must fit in memory, decided before the target is touched. */
static enum vb_status check_memory(struct app *a)
{
	char why[512];

	if (!vb_memory_short(&a->cfg, vb_os_avail_mem(), can_allocate, NULL, why, sizeof why))
		return VB_OK;
	return vb_fail(&a->err, VB_E_SETUP, "%s; nothing was written", why);
}

/* A new file in a directory: one run must fit in the file system's free space. */
static enum vb_status check_space(struct app *a)
{
	uint64_t avail;
	char why[512];

	if ((a->target.kind != VB_TGT_DIR && a->target.kind != VB_TGT_NEWFILE) ||
	    vb_os_free_bytes(a->target.dirfd, &avail) != 0 ||
	    !vb_space_short(&a->cfg, a->cfg.target_path, avail, true, why, sizeof why))
		return VB_OK;
	return vb_fail(&a->err, VB_E_SETUP, "%s; nothing was written", why);
}

/* The outputs vbench writes its results to: the --csv-append and --trace files, when
 * open, and the standard output and error this process was started with. */
static const char *const out_names[] = {"the --csv-append file", "the --trace file",
					"standard output", "standard error"};

static void outputs(const struct app *a, struct vb_fileinfo outs[4])
{
	memset(outs, 0, 4 * sizeof outs[0]);
	if (a->csv.fd >= 0)
		vb_os_io.fstat(vb_os_io.ctx, a->csv.fd, &outs[0]);
	if (a->trace.fd >= 0)
		vb_os_io.fstat(vb_os_io.ctx, a->trace.fd, &outs[1]);
	outs[2] = a->stdout_id;
	outs[3] = a->stderr_id;
}

/* A refusal because of where the outputs lie goes to standard error, unless that is
 * known to be the storage refused (on[3]): then to standard output, unless that is too
 * (on[2]). */
static void refuse(const char *msg, const bool on[4])
{
	if (!on[3])
		vb_out_error(stderr, msg);
	else if (!on[2])
		vb_out_error(stdout, msg);
}

/* No output file is (the storage of) another output: rows of one would land among the
 * rows of the other. Standard output and error may share, as 2>&1 makes them. */
static int check_outputs(struct app *a)
{
	struct vb_fileinfo outs[4];
	const int fds[2] = {a->csv.fd, a->trace.fd};
	const char *paths[2] = {a->cfg.csv_append_path, a->cfg.trace_path};
	char why[600], other[300];
	bool on[4] = {false, false, false, false};
	int rc;

	outputs(a, outs);
	for (size_t i = 0; i < 2; i++)
		for (size_t j = i + 1; fds[i] >= 0 && j < 4; j++) {
			if (j < 2 && fds[j] < 0)
				continue;
			if ((rc = vb_os_same_storage(fds[i], &outs[j], why, sizeof why)) == 0)
				continue;
			on[j] = rc > 0;
			snprintf(other, sizeof other, j == 1 ? "--trace %s" : "%s",
				 j == 1 ? paths[1] : out_names[j]);
			snprintf(a->err.msg, sizeof a->err.msg, rc > 0 ? "%s %s and %s are one "
				 "storage (%s); each output needs a place of its own" : "%s %s and "
				 "%s: %s; vbench does not write to what it cannot check",
				 i == 0 ? "--csv-append" : "--trace", paths[i], other, why);
			refuse(a->err.msg, on);
			return EXIT_SETUP;
		}
	return -1;
}

/* Takes vbench's own lock on the target for the session; -1 or a status. */
static int lock_target(struct app *a)
{
	char why[600];
	int fd = a->target.held_fd, rc;

	if (fd >= 0 && (rc = vb_os_hold(fd, why, sizeof why)) != 0) {
		snprintf(a->err.msg, sizeof a->err.msg, rc > 0 ? "%s is in use: %s; vbench never "
			 "writes to a disk or file in use, even with --force" : "%s: %s; vbench "
			 "does not write to what it cannot lock", a->cfg.target_path, why);
		vb_out_error(stderr, a->err.msg);
		return EXIT_SETUP;
	}
	return -1;
}

/* Refuses a target that is (the storage of) a file vbench writes its results to, or
 * the reverse; -1 or a status. */
static int hold_target(struct app *a)
{
	struct vb_fileinfo outs[4];
	bool on[4] = {false, false, false, false};
	char why[600], first[600];
	int fd = a->target.held_fd, rc, first_rc = 0;
	size_t found = 0;

	/* A new file each run (or a sink) lies where its directory does. */
	if (fd < 0 && (fd = a->target.dirfd) < 0)
		return -1;
	outputs(a, outs);
	for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		if ((rc = vb_os_same_storage(fd, &outs[i], why, sizeof why)) == 0)
			continue;
		on[i] = rc > 0;
		if (first_rc == 0) {
			first_rc = rc;
			found = i;
			memcpy(first, why, sizeof first);
		}
	}
	if (first_rc == 0)
		return -1;
	if (first_rc > 0)
		snprintf(a->err.msg, sizeof a->err.msg, "%s is where vbench writes its results "
			 "(%s: %s); choose another target or another place for the results",
			 a->cfg.target_path, out_names[found], first);
	else
		snprintf(a->err.msg, sizeof a->err.msg, "%s and %s: %s; vbench does not write to "
			 "what it cannot check", a->cfg.target_path, out_names[found], first);
	refuse(a->err.msg, on);
	return EXIT_SETUP;
}

/* What may be left behind if the session is given up while it opens the output files:
 * the file vbench created as the target, and the output files, if it was creating them. */
static void outputs_leftover(struct app *a)
{
	struct vb_guard_watch *g = &a->sh->guard;
	char target[4500];

	snprintf(g->leftover, sizeof g->leftover, "nothing was written; %s%s%s%s%s%s%s, if "
		 "vbench was creating it, may be left behind, empty",
		 a->target.created ? vb_target_leftover(&a->target, NULL, target, sizeof target)
				   : "",
		 a->target.created ? "; " : "",
		 a->cfg.csv_append_path != NULL ? "--csv-append " : "",
		 a->cfg.csv_append_path != NULL ? a->cfg.csv_append_path : "",
		 a->cfg.csv_append_path != NULL && a->cfg.trace_path != NULL ? " or " : "",
		 a->cfg.trace_path != NULL ? "--trace " : "",
		 a->cfg.trace_path != NULL ? a->cfg.trace_path : "");
}

/* Opens the output files (--csv-append, --trace) and checks them against each other;
 * -1 or a status. */
static int open_outputs(struct app *a)
{
	if (a->cfg.csv_append_path == NULL && a->cfg.trace_path == NULL)
		return -1;
	outputs_leftover(a);
	vb_guard_enter(&a->sh->guard, VB_PHASE_SETUP_OUTPUT);
	if ((a->cfg.csv_append_path != NULL &&
	     vb_csvfile_open(&a->csv, a->cfg.csv_append_path, &a->err) != VB_OK) ||
	    (a->cfg.trace_path != NULL &&
	     vb_csvfile_open_as(&a->trace, "--trace", a->cfg.trace_path, &a->err) != VB_OK)) {
		vb_out_error(stderr, a->err.msg);
		return EXIT_SETUP;
	}
	return check_outputs(a);
}

/* Checks the target, opens the output files and learns the environment; -1 or a status.
 * The output files are opened only once the target has passed its own checks, so that
 * a refused target leaves no empty output file behind. Every call here may block on a
 * filesystem: the guard watches them. */
static int setup_watched(struct app *a)
{
	struct vb_guard_watch *g = &a->sh->guard;
	int rc;

	a->csv.fd = -1;
	a->trace.fd = -1;
	snprintf(g->leftover, sizeof g->leftover, "nothing was written; a file vbench was "
		 "creating in the target's directory, if any, may be left behind");
	stop_if_signalled(a);
	if (check_memory(a) != VB_OK) {
		vb_out_error(stderr, a->err.msg);
		return EXIT_SETUP;
	}
	vb_guard_enter(g, VB_PHASE_SETUP);
	if (vb_target_prepare(&a->target, &a->cfg, &vb_os_io, &a->err) != VB_OK) {
		char left[4400];
		stop_if_signalled(a);
		vb_out_error(stderr, a->err.msg);
		if (vb_target_cleanup_problem(&a->target, left, sizeof left) != NULL)
			vb_out_error(stderr, left);
		return exit_code(a->err.status);
	}
	rc = lock_target(a);
	if (rc < 0 && check_space(a) != VB_OK) {
		vb_out_error(stderr, a->err.msg);
		rc = EXIT_SETUP;
	}
	if (rc < 0) {
		stop_if_signalled(a);
		rc = open_outputs(a);
	}
	if (rc < 0) {
		vb_guard_enter(g, VB_PHASE_SETUP);
		rc = hold_target(a);
	}
	if (rc >= 0) {
		undo_setup(a);
		return rc;
	}
	stop_if_signalled(a);
	vb_target_leftover(&a->target, NULL, g->leftover, sizeof g->leftover);
	vb_guard_enter(g, VB_PHASE_SETUP);
	describe(a);
	char fsnote[8192];
	/* Before the first run, so that a session measuring another disk than its label
	 * says can be stopped. */
	if (!a->ctx.sink && vb_analysis_label_fs_text(a->label, &a->env, a->cfg.target_path,
						       fsnote, sizeof fsnote))
		warn(a, fsnote);
	if (vb_fs_direct_may_cache(a->env.fs) && a->cfg.direct)
		warn(a, "--direct on ZFS: ZFS may still cache the data (its ARC), so the figures "
		     "may measure memory, not the disk");
	return -1;
}

static int setup(struct app *a)
{
	int rc = setup_watched(a);

	vb_guard_leave(&a->sh->guard);
	return rc;
}

/* Says what happened to the session, besides the runs; returns the exit status. */
static int report_session(struct app *a, enum vb_status st, const struct vb_supervise_result *res)
{
	const struct vb_run *last = a->session.n_runs ? &a->session.runs[a->session.n_runs - 1]
						      : NULL;
	char msg[1024];

	if (res->pool_errno != 0) {
		snprintf(msg, sizeof msg, "cannot prepare %" PRIu64 " bytes of %s data: %s",
			 a->ctx.pool_bytes, vb_source_name(a->cfg.source), strerror(res->pool_errno));
		vb_out_error(stderr, msg);
		return EXIT_SETUP;
	}
	if (last != NULL && !res->aborted)
		vb_out_run_problem(stderr, &a->ctx, last);
	if (a->session.out_of_memory)
		vb_out_error(stderr, "out of memory: a run could not be recorded, and the "
			     "summary leaves it out");
	if (res->worker_signal != 0) {
		snprintf(msg, sizeof msg, "the benchmark process died of signal %d", res->worker_signal);
		vb_out_error(stderr, msg);
	} else if (res->worker_lost) {
		vb_out_error(stderr, "the benchmark process ended without reporting");
	}
	if (res->aborted) {
		char left[4500];
		const char *what = vb_target_leftover(&a->target, res->name_live ?
						      res->leftover_name : NULL, left, sizeof left);
		if (res->stop_signal == 0)
			snprintf(msg, sizeof msg, "a call is still stuck 2 s after --timeout %g "
				 "expired and cannot be interrupted; reporting what completed and "
				 "exiting without touching the target again", a->cfg.timeout_secs);
		else
			snprintf(msg, sizeof msg, "the benchmark process did not stop within 10 s of "
				 "the signal (stuck in a call, or hung); reporting what completed and "
				 "exiting without touching the target again");
		vb_out_error(stderr, msg);
		vb_out_error(stderr, what);
	}
	if (a->session.flush.stop == VB_STOPFLAG_TIMEOUT && !res->aborted) {
		snprintf(msg, sizeof msg, "a call of the flush probe outlasted --timeout %g; the "
			 "probe was stopped", a->cfg.timeout_secs);
		vb_out_error(stderr, msg);
	}
	if (st == VB_OK)
		return EXIT_OK;
	return last != NULL && last->direct_refused ? EXIT_SETUP : EXIT_IO;
}

static int run(struct app *a)
{
	struct vb_supervise_io io = {&vb_os_io, vb_out_live(stderr), a->cfg.progress == VB_ON,
				     on_run, a, a->csv.fd, a->trace.fd};
	struct vb_supervise_result res;

	if (formats[a->cfg.format].header != NULL)
		formats[a->cfg.format].header(a);
	fflush(stdout);
	vb_session_init(&a->session);
	enum vb_status st = vb_supervise(&a->cfg, &a->target, a->sh, &io, &a->session, &res,
					 &a->err);
	if (st == VB_E_SETUP) {
		vb_out_error(stderr, a->err.msg);
		undo_setup(a);
		close_outputs(a);
		return EXIT_SETUP;
	}
	int status = report_session(a, st, &res);
	if (res.pool_errno != 0)
		a->target.keep = false;   /* no run was made: nothing to keep */
	if (res.pool_errno == 0 && !finish_output(a))
		status = EXIT_IO;
	/* After an abort the worker may be stuck in the filesystem: any call there could
	 * hang too, so the target is left exactly as it is. */
	if (!res.aborted && !cleanup(a))
		status = EXIT_IO;   /* the run did not end clean */
	if (a->session.flush.leftover[0] != '\0') {
		char msg[4500];
		vb_out_error(stderr, vb_target_probe_leftover(&a->target, a->session.flush.leftover,
							      a->session.flush.leftover_err, msg,
							      sizeof msg));
		status = EXIT_IO;
	}
	bool rows_kept = a->csv.fd >= 0 && !a->csv_failed;   /* before the close */
	if (!close_outputs(a) || a->csv_failed || a->trace_failed)
		status = EXIT_IO;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		vb_out_error(stderr, "the results could not all be written to standard output");
		status = EXIT_IO;
	} else if (stdout_closed && !rows_kept) {
		vb_out_error(stderr, "standard output was closed: the results were not written");
		status = EXIT_IO;
	}
	vb_session_free(&a->session);
	/* Die of the same signal, so a calling shell loop sees it and stops too. */
	if (res.stop_signal > 0)
		vb_os_die(res.stop_signal);
	return status;
}

/* Everything after parsing: in the guard's child where there are processes. */
/* The guard's messages (vb_guard_run), on stderr. */
static void say_error(const char *msg)
{
	vb_out_error(stderr, msg);
}

static int session(void *arg)
{
	struct app *a = arg;

	vb_os_signals_install(&a->sh->flags);
	int rc = setup(a);
	if (rc >= 0) {
		close_outputs(a);
		return rc;
	}
	return run(a);
}

/* Names this invocation: 64 random bits, and its start in UTC, so that the runs several
 * invocations append to one file can be told apart (vbench report says so). */
static void name_invocation(struct app *a)
{
	unsigned char r[8];
	time_t now = time(NULL);
	const struct tm *utc = now == (time_t)-1 ? NULL : gmtime(&now);

	if (vb_os_urandom(r, sizeof r) != 0) {
		/* no randomness: the start time and a clock reading still differ per run */
		uint64_t v = vb_now_ns() ^ ((uint64_t)now << 20);
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)(v >> (8 * i));
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(a->invocation + 2 * i, 3, "%02x", r[i]);
	if (utc == NULL || strftime(a->started, sizeof a->started, "%Y-%m-%dT%H:%M:%SZ", utc) == 0)
		a->started[0] = '\0';
}

int main(int argc, char *argv[])
{
	static struct app a;

	/* Before anything is opened: a closed stdout must not become the CSV file. */
	stdout_closed = (vb_os_std_fds() & 2u) != 0;
	vb_os_args(&argc, &argv);
	if (argc >= 2 && strcmp(argv[1], "report") == 0) {
		enum vb_status st = vb_report_main(argc - 1, argv + 1, stdout, stderr);
		if (st == VB_OK && stdout_closed) {
			fputs("vbench report: standard output is closed: the report was not "
			      "written\n", stderr);
			st = VB_E_IO;
		}
		return exit_code(st);
	}
	int rc = parse(&a, argc, argv);
	if (rc >= 0)
		return rc;
	name_invocation(&a);
	/* The handlers go in before anything is created, so that a signal at any later
	 * moment still leads to the cleanup; they write into memory the worker shares. */
	a.sh = vb_shared_new();
	if (a.sh == NULL) {
		char msg[160];
		snprintf(msg, sizeof msg, "cannot allocate the memory shared with the benchmark "
			 "process: %s", strerror(errno));
		vb_out_error(stderr, msg);
		return EXIT_SETUP;
	}
	vb_os_io.fstat(vb_os_io.ctx, 1, &a.stdout_id);
	vb_os_io.fstat(vb_os_io.ctx, 2, &a.stderr_id);
	/* The guard's handlers write into the same shared flags as the session's. */
	vb_os_signals_install(&a.sh->flags);
	switch (vb_guard_run(&a.cfg, a.sh, a.cfg.target_path, session, &a, say_error, &rc)) {
	case VB_OK: return rc;
	case VB_E_SETUP: return EXIT_SETUP;
	default: return EXIT_IO;
	}
}
