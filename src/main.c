/* vbench: parse, check the target, run the session in the guard's child, print, and
 * turn what happened into an exit status. Only this file knows the exit codes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/vb_csvfile.h"
#include "bench/vb_guard.h"
#include "cli/vb_opts.h"
#include "output/vb_output.h"
#include "report/vb_report.h"
#include "bench/vb_session.h"
#include "bench/vb_target.h"

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
	struct vb_target *t;           /* in sh: what the guard reports from if it must */
	struct vb_session_desc *d;     /* in sh, as t */
	struct vb_context ctx;
	struct vb_runlog log;         /* the runs recorded */
	struct vb_csvfile csv;
	bool csv_failed;
	struct vb_csvfile trace;      /* --trace */
	bool trace_failed;
	/* which invocation wrote a row, and when it started (the CSV's session columns) */
	char invocation[17];
	char started[24];
	struct vb_err err;
	int chan;                     /* the child's channel to the guard */
	/* the output files, and what standard output and error were when vbench started
	 * (the session's are pipes to the guard) */
	struct vb_outputs outs;
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
	if (a->cfg.format == VB_FMT_CSV)
		fwrite(row->p, 1, row->len, stdout);
	append_rows(a, &a->csv, &a->csv_failed, vb_out_csv_header, row);
}

static void on_run(void *arg, const struct vb_run *r)
{
	struct app *a = arg;
	struct vb_buf row;

	if (a->cfg.format == VB_FMT_HUMAN)
		vb_out_human_run(stdout, &a->ctx, r);
	vb_buf_init(&row);
	vb_out_csv_row(&row, &a->ctx, r, NULL);
	emit_row(a, &row);
	vb_buf_free(&row);   /* and empty again */
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
		vb_out_warning_about(stderr, a->d->label, line);
		text += n + (text[n] == '\n');
	}
}

/* Prints the summary, or the JSON document, then the warnings on stderr; false when
 * there was no memory to compute the summary. */
static bool finish_output(struct app *a)
{
	struct vb_run_analysis an;
	struct vb_session_warnings w;
	char line[512], autobuf[256];

	if (vb_analyze(&a->cfg, a->log.runs, a->log.n_runs, &a->log.latency,
		       a->d->env.ram_bytes, &an) != 0) {
		vb_out_error(stderr, "out of memory: the summary of the runs could not be made");
		return false;
	}
	vb_session_flush(a->d, &a->log, &an.flush);
	/* A row for what the probe measured or failed at, or for --check-flush; a short probe
	 * that was not worth making has none. */
	if (an.flush.verdict != VB_FLUSH_NOT_RUN || an.flush.samples > 0 || a->cfg.check_flush) {
		struct vb_buf row;
		vb_buf_init(&row);
		vb_out_csv_row(&row, &a->ctx, NULL, &an.flush);
		emit_row(a, &row);
		vb_buf_free(&row);
	}
	vb_session_warn(&a->cfg, a->d, &an, &w);
	vb_format_result_line(line, sizeof line, a->d->label, &a->cfg, &an.rate);
	a->ctx.result_line = line;
	a->ctx.auto_note = a->cfg.runs_auto ? vb_session_auto_note(&a->cfg, &a->log, autobuf,
									   sizeof autobuf) : NULL;
	/* From its first byte on, the guard never gives the summary again: one summary, one
	 * JSON document, even when this process dies while printing it. */
	atomic_store(&a->sh->guard.summed_up, 1);
	if (a->cfg.format == VB_FMT_HUMAN)
		vb_out_human_summary(stdout, &a->ctx, &an);   /* the warnings follow on stderr */
	else if (a->cfg.format == VB_FMT_JSON)
		vb_out_json(stdout, &a->ctx, a->log.runs, a->log.n_runs, &an, w.text, w.n);
	fflush(stdout);
	/* After the summary, so that on a terminal the warning is the last thing read. */
	for (size_t i = 0; i < w.n; i++)
		warn(a, w.text[i]);
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
	vb_session_settle(&a->cfg);
	return -1;
}

/* Removes what vbench created and closes the target; false, after naming on stderr
 * what is left behind and why, when not everything could be removed. */
static bool cleanup(struct app *a)
{
	char msg[VB_PATH_MSG_MAX];
	const char *left;

	vb_guard_enter(&a->sh->guard, VB_PHASE_CLEANUP);
	vb_target_cleanup(a->t);
	vb_guard_leave(&a->sh->guard);
	left = vb_target_cleanup_problem(a->t, msg, sizeof msg);
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
	a->t->keep = false;
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
	vb_session_die(signo);
}

/* What the header and the rows say of the described session. */
static void set_context(struct app *a)
{
	const struct vb_session_desc *d = a->d;

	a->ctx = (struct vb_context){&a->cfg, &d->env, d->label, a->cfg.target_path,
				     d->target_note, d->pool_bytes, d->data_note, d->sink,
				     d->sync_note, NULL, NULL, a->t->fill_first, a->invocation,
				     a->started, d->room_bytes, d->written};
}

/* Says a refusal about where the outputs lie, where it can be read. */
static int refuse(struct app *a, enum vb_say say)
{
	if (say != VB_SAY_NOWHERE)
		vb_out_error(say == VB_SAY_STDERR ? stderr : stdout, a->err.msg);
	return EXIT_SETUP;
}

/* What may be left behind if the session is given up while it opens the output files:
 * the file vbench created as the target, and the output files, if it was creating them. */
static void outputs_leftover(struct app *a)
{
	struct vb_guard_watch *g = &a->sh->guard;
	char target[VB_PATH_MSG_MAX];

	snprintf(g->leftover, sizeof g->leftover, "nothing was written; %s%s%s%s%s%s%s, if "
		 "vbench was creating it, may be left behind, empty",
		 a->t->created ? vb_target_leftover(a->t, NULL, target, sizeof target)
				   : "",
		 a->t->created ? "; " : "",
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
	     vb_csvfile_open(&a->csv, "--csv-append", a->cfg.csv_append_path, &a->err) != VB_OK) ||
	    (a->cfg.trace_path != NULL &&
	     vb_csvfile_open(&a->trace, "--trace", a->cfg.trace_path, &a->err) != VB_OK)) {
		vb_out_error(stderr, a->err.msg);
		return EXIT_SETUP;
	}
	enum vb_say say;
	a->outs.fd[0] = a->csv.fd;
	a->outs.fd[1] = a->trace.fd;
	if (vb_session_check_outputs(&a->outs, &a->err, &say) != VB_OK)
		return refuse(a, say);
	return -1;
}

/* Checks the target, opens the output files and learns the environment; -1 or a status.
 * The output files are opened only once the target has passed its own checks, so that
 * a refused target leaves no empty output file behind. Every call here may block on a
 * filesystem: the guard watches them. */
static int setup_watched(struct app *a)
{
	struct vb_guard_watch *g = &a->sh->guard;
	enum vb_say say;
	int rc = -1;

	a->csv.fd = a->outs.fd[0] = -1;
	a->trace.fd = a->outs.fd[1] = -1;
	snprintf(g->leftover, sizeof g->leftover, "nothing was written; a file vbench was "
		 "creating in the target's directory, if any, may be left behind");
	stop_if_signalled(a);
	if (vb_session_check_memory(&a->cfg, &a->err) != VB_OK) {
		vb_out_error(stderr, a->err.msg);
		return EXIT_SETUP;
	}
	vb_guard_enter(g, VB_PHASE_SETUP);
	if (vb_session_prepare(a->t, &a->cfg, &a->err) != VB_OK) {
		char left[VB_PATH_MSG_MAX];
		stop_if_signalled(a);
		vb_out_error(stderr, a->err.msg);
		if (vb_target_cleanup_problem(a->t, left, sizeof left) != NULL)
			vb_out_error(stderr, left);
		return exit_code(a->err.status);
	}
	if (vb_session_lock(&a->cfg, a->t, &a->err) != VB_OK) {
		vb_out_error(stderr, a->err.msg);
		rc = EXIT_SETUP;
	}
	if (rc < 0) {
		stop_if_signalled(a);
		rc = open_outputs(a);
	}
	if (rc < 0) {
		vb_guard_enter(g, VB_PHASE_SETUP);
		if (vb_session_check_target(&a->cfg, a->t, &a->outs, &a->err, &say) != VB_OK)
			rc = refuse(a, say);
	}
	if (rc >= 0) {
		undo_setup(a);
		return rc;
	}
	stop_if_signalled(a);
	vb_target_leftover(a->t, NULL, g->leftover, sizeof g->leftover);
	vb_guard_enter(g, VB_PHASE_SETUP);
	vb_session_describe(&a->cfg, a->t, a->d);
	set_context(a);
	/* Before the first run, so that a session measuring another disk than its label
	 * says can be stopped. */
	struct vb_session_warnings w;
	vb_session_warn_target(&a->cfg, a->d, &w);
	for (size_t i = 0; i < w.n; i++)
		warn(a, w.text[i]);
	return -1;
}

/* A run that could not be recorded is left out of the summary: said so. */
static void say_unrecorded(const struct app *a)
{
	if (a->log.out_of_memory)
		vb_out_error(stderr, "out of memory: a run could not be recorded, and the "
			     "summary leaves it out");
}

/* Says what happened to the runs, besides the runs themselves; returns the exit
 * status. */
static int report_runs(struct app *a, enum vb_status st, const struct vb_engine_result *res)
{
	const struct vb_run *last = a->log.n_runs ? &a->log.runs[a->log.n_runs - 1]
						      : NULL;
	char msg[1024];

	if (res->pool_errno != 0) {
		if (res->pool_errno != ENOMEM && a->cfg.source == VB_SRC_URANDOM)
			snprintf(msg, sizeof msg, "cannot read %s for the urandom data: %s; nothing "
				 "was written", vb_session_randomness(), strerror(res->pool_errno));
		else
			snprintf(msg, sizeof msg, "cannot prepare %" PRIu64 " bytes of %s data: %s",
				 a->ctx.pool_bytes, vb_source_name(a->cfg.source),
				 strerror(res->pool_errno));
		vb_out_error(stderr, msg);
		return EXIT_SETUP;
	}
	if (last != NULL)
		vb_out_run_problem(stderr, &a->ctx, last);
	say_unrecorded(a);
	if (a->log.flush.stop == VB_STOPFLAG_TIMEOUT) {
		snprintf(msg, sizeof msg, "a call of the flush probe outlasted --timeout %g; the "
			 "probe was stopped", a->cfg.timeout_secs);
		vb_out_error(stderr, msg);
	}
	if (st == VB_OK)
		return EXIT_OK;
	return last != NULL && last->direct_refused ? EXIT_SETUP : EXIT_IO;
}

/* The header names the file --keep keeps in a directory; without it, this line. */
static void say_kept(struct app *a)
{
	char msg[VB_PATH_MSG_MAX];

	if (a->t->keep && a->ctx.written != NULL &&
	    (a->cfg.quiet || a->cfg.format != VB_FMT_HUMAN)) {
		snprintf(msg, sizeof msg, "kept %s (--keep)", a->ctx.written);
		vb_out_error(stderr, msg);
	}
}

/* Standard output took everything; false after saying so. */
static bool stdout_whole(bool rows_kept)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		vb_out_error(stderr, "the results could not all be written to standard output");
		return false;
	}
	if (stdout_closed && !rows_kept) {
		vb_out_error(stderr, "standard output was closed: the results were not written");
		return false;
	}
	return true;
}

/* In the session's child: the runs, what they say, the cleanup. */
static int run(struct app *a)
{
	struct vb_runs_io io = {NULL, vb_out_live(stderr), a->cfg.progress == VB_ON, on_run, a};
	struct vb_engine_result res;

	if (a->cfg.format == VB_FMT_HUMAN && !a->cfg.quiet)
		vb_out_human_header(stdout, &a->ctx);
	if (a->cfg.format == VB_FMT_CSV && !a->cfg.no_header) {
		struct vb_buf header;
		vb_buf_init(&header);
		vb_out_csv_header(&header);
		fwrite(header.p, 1, header.len, stdout);
		vb_buf_free(&header);
	}
	fflush(stdout);
	vb_runlog_init(&a->log);
	enum vb_status st = vb_guard_runs(&a->cfg, a->t, a->sh, &io, a->chan, &a->log, &res);
	int status = report_runs(a, st, &res);
	if (res.pool_errno != 0)
		a->t->keep = false;   /* no run was made: nothing to keep */
	if (res.pool_errno == 0 && !finish_output(a))
		status = EXIT_IO;
	if (!cleanup(a))
		status = EXIT_IO;   /* the run did not end clean */
	say_kept(a);
	if (a->log.flush.leftover[0] != '\0') {
		char msg[VB_PATH_MSG_MAX];
		vb_out_error(stderr, vb_target_probe_leftover(a->t, a->log.flush.leftover,
							      a->log.flush.leftover_err, msg,
							      sizeof msg));
		status = EXIT_IO;
	}
	bool rows_kept = a->csv.fd >= 0 && !a->csv_failed;   /* before the close */
	if (!close_outputs(a) || a->csv_failed || a->trace_failed)
		status = EXIT_IO;
	if (!stdout_whole(rows_kept))
		status = EXIT_IO;
	vb_runlog_free(&a->log);
	/* Die of the same signal, so a calling shell loop sees it and stops too. */
	if (res.stop_signal > 0)
		vb_session_die(res.stop_signal);
	return status;
}

/* In the guard, which gave the child up during the runs, or saw it die: what completed,
 * from the runs the child sent (received), touching nothing on the target or the output
 * files again (the child may be stuck on their filesystem). The state is a copy of the
 * session's, which a child thread still owns. */
static int report_left(const struct app *session, struct vb_runlog *received,
		       const struct vb_guard_end *end)
{
	static struct app copy;
	struct app *a = &copy;
	char msg[1024], left[VB_PATH_MSG_MAX];

	copy = *session;
	copy.log = *received;
	copy.csv.fd = copy.trace.fd = -1;   /* the child's: not written from here */
	set_context(a);
	if (!end->said) {
		const char *what = end->probing ? "a call of the flush check" : "a call";
		const char *done = end->probing ? "the runs (they completed)" : "what completed";
		if (end->timed_out)
			snprintf(msg, sizeof msg, "%s is still stuck 2 s after --timeout %g expired "
				 "and cannot be interrupted; reporting %s and exiting without touching "
				 "the target again", what, a->cfg.timeout_secs, done);
		else
			snprintf(msg, sizeof msg, "the benchmark process did not stop within 10 s of "
				 "the signal (stuck in %s, or hung); reporting %s and exiting without "
				 "touching the target again", what, done);
		vb_out_error(stderr, msg);
		if (!end->probing)
			vb_out_error(stderr, vb_target_leftover(a->t, end->name_live
								? end->leftover_name : NULL,
								left, sizeof left));
		if (end->probing && end->name_live)
			vb_out_error(stderr, vb_target_probe_leftover(a->t, end->leftover_name, 0,
								      left, sizeof left));
		if (end->probing && a->t->created && !a->t->keep)
			vb_out_error(stderr, vb_target_leftover(a->t, NULL, left, sizeof left));
	}
	say_unrecorded(a);
	finish_output(a);
	if (end->said || end->probing)
		say_kept(a);   /* (else the line above says what became of the kept file) */
	stdout_whole(false);
	vb_runlog_free(&a->log);
	if (end->stop_signal > 0)
		vb_session_die(end->stop_signal);
	return EXIT_IO;
}

/* The guard's messages (vb_guard_run), on stderr. */
static void say_error(const char *msg)
{
	vb_out_error(stderr, msg);
}

/* Everything after parsing, in the guard's child. */
static int session(void *arg, int chan)
{
	struct app *a = arg;

	a->chan = chan;
	vb_session_catch_signals(a->sh);
	int rc = setup_watched(a);
	vb_guard_leave(&a->sh->guard);
	if (rc >= 0) {
		close_outputs(a);
		return rc;
	}
	return run(a);
}

int main(int argc, char *argv[])
{
	static struct app a;

	stdout_closed = vb_session_begin(&argc, &argv);
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
	vb_session_name(a.invocation, a.started);
	/* The handlers go in before anything is created, so that a signal at any later
	 * moment still leads to the cleanup; they write into memory the session's child
	 * shares (the guard's and the child's into the same flags). */
	a.sh = vb_session_shared();
	if (a.sh == NULL) {
		char msg[160];
		snprintf(msg, sizeof msg, "cannot allocate the memory shared with the benchmark "
			 "process: %s", strerror(errno));
		vb_out_error(stderr, msg);
		return EXIT_SETUP;
	}
	vb_session_std_ids(&a.outs);
	a.outs.path[0] = a.cfg.csv_append_path;
	a.outs.path[1] = a.cfg.trace_path;
	a.t = &a.sh->target;
	a.d = &a.sh->desc;
	struct vb_guard_end end;
	static struct vb_runlog received;   /* the guard's copy of the runs */
	vb_runlog_init(&received);
	enum vb_status st = vb_guard_run(&a.cfg, a.sh, a.cfg.target_path, session, &a, say_error,
					 vb_out_live(stderr), &received, &end);
	if (end.runs_left)
		return report_left(&a, &received, &end);
	vb_runlog_free(&received);
	return st == VB_OK ? end.exit_status : exit_code(st);
}
