#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vb_analysis.h"
#include "vb_env.h"
#include "vb_opts.h"
#include "vb_output.h"
#include "vb_platform.h"
#include "vb_report.h"
#include "vb_runner.h"
#include "vb_source.h"
#include "vb_target.h"

/* Exit statuses, as documented in vbench(1). */
enum { EXIT_USAGE = 1, EXIT_SETUP = 2, EXIT_IO = 3 };

/* The state of one invocation, so the per-run callbacks can reach it. */
struct app {
	struct vb_config cfg;
	struct vb_target target;
	struct vb_env env;
	struct vb_context ctx;
	struct vb_session session;
	FILE *csv_append;
	char label[256];
	char note[4200];
};

static void on_run(void *arg, const struct vb_run *r)
{
	struct app *a = arg;
	if (a->cfg.format == VB_FMT_HUMAN)
		vb_out_human_run(stdout, &a->ctx, r);
	else if (a->cfg.format == VB_FMT_CSV)
		vb_out_csv_run(stdout, &a->ctx, r);
	if (a->csv_append != NULL) {
		vb_out_csv_run(a->csv_append, &a->ctx, r);
		fflush(a->csv_append);
	}
	fflush(stdout);
}

/* Prints the summary, or the JSON document, then the warnings on stderr. */
static void finish_output(struct app *a)
{
	struct vb_run_analysis an;
	char cache[512], drift[512];
	const char *warnings[2];
	size_t nw = 0;

	vb_analyze(&a->cfg, a->session.runs, a->session.n_runs, &a->session.latency,
		   a->env.ram_bytes, &an);
	if (vb_analysis_cache_text(&an, &a->cfg, a->env.ram_bytes, cache, sizeof cache))
		warnings[nw++] = cache;
	if (vb_analysis_stability_text(&an, drift, sizeof drift))
		warnings[nw++] = drift;
	if (a->cfg.format == VB_FMT_HUMAN)
		vb_out_human_summary(stdout, &a->ctx, &an);
	else if (a->cfg.format == VB_FMT_JSON)
		vb_out_json(stdout, &a->ctx, a->session.runs, a->session.n_runs, &an, warnings, nw);
	fflush(stdout);
	/* After the summary, so that on a terminal the warning is the last thing read. */
	for (size_t i = 0; i < nw; i++)
		fprintf(stderr, "vbench: warning: %s\n", warnings[i]);
}

/* --timeout while a call never returns: report what completed and leave at once. */
static void on_abort(void *arg)
{
	struct app *a = arg;
	fprintf(stderr, "vbench: a call is still stuck 2 s after --timeout %.0f expired and "
		"cannot be interrupted; reporting what completed and exiting\n",
		a->cfg.timeout_secs);
	finish_output(a);
	vb_target_cleanup(&a->target);
	_exit(EXIT_IO);
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(struct app *a, int argc, char *argv[])
{
	enum vb_opts_action act;
	char err[512];

	vb_config_defaults(&a->cfg);
	if (vb_opts_parse(argc - 1, argv + 1, &a->cfg, &act, err, sizeof err) != 0) {
		fprintf(stderr, "vbench: %s\nTry 'vbench --help'.\n", err);
		return EXIT_USAGE;
	}
	if (act == VB_ACT_HELP) {
		vb_opts_usage(stdout);
		return 0;
	}
	if (act == VB_ACT_VERSION) {
		printf("vbench %s\n", VB_VERSION);
		return 0;
	}
	uint64_t avail = vb_platform_avail_mem();
	if (avail > 0 && a->cfg.bs_bytes > avail) {
		fprintf(stderr, "vbench: bs=%llu is more than the %llu bytes of memory available\n",
			(unsigned long long)a->cfg.bs_bytes, (unsigned long long)avail);
		return EXIT_USAGE;
	}
	if (a->cfg.progress == VB_AUTO)
		a->cfg.progress = isatty(STDERR_FILENO) ? VB_ON : VB_OFF;
	return -1;
}

/* Checks the target, detects the environment and opens the CSV file; -1 or a status. */
static int setup(struct app *a)
{
	char err[1024];
	struct stat st;

	if (vb_target_prepare(&a->target, &a->cfg, err, sizeof err) != 0) {
		fprintf(stderr, "vbench: %s\n", err);
		return EXIT_SETUP;
	}
	vb_env_detect(&a->env, a->target.kind == VB_TGT_DIR ? a->target.dir : a->target.path, "");
	if (a->cfg.label != NULL)
		snprintf(a->label, sizeof a->label, "%s", a->cfg.label);
	else
		vb_env_label(&a->env, a->label, sizeof a->label);
	if (a->cfg.csv_append_path != NULL) {
		a->csv_append = fopen(a->cfg.csv_append_path, "a");
		if (a->csv_append == NULL) {
			fprintf(stderr, "vbench: --csv-append %s: %s\n", a->cfg.csv_append_path,
				strerror(errno));
			vb_target_cleanup(&a->target);
			return EXIT_SETUP;
		}
		if (fstat(fileno(a->csv_append), &st) == 0 && st.st_size == 0)
			vb_out_csv_header(a->csv_append);
	}
	a->ctx = (struct vb_context){&a->cfg, &a->env, a->label, a->cfg.target_path,
				     vb_target_note(&a->target, a->note, sizeof a->note),
				     vb_source_pool_bytes(a->cfg.source, (size_t)a->cfg.bs_bytes)};
	return -1;
}

static int run(struct app *a)
{
	struct vb_runner_io io = {&vb_posix_ops, stderr, a->cfg.progress == VB_ON, on_run, a,
				  on_abort};

	if (a->cfg.format == VB_FMT_HUMAN && !a->cfg.quiet)
		vb_out_human_header(stdout, &a->ctx);
	if (a->cfg.format == VB_FMT_CSV && !a->cfg.no_header)
		vb_out_csv_header(stdout);
	fflush(stdout);
	int rc = vb_runner_run(&a->cfg, &a->target, &io, &a->session);
	if (rc == -2) {
		fprintf(stderr, "vbench: cannot prepare %llu bytes of %s data: %s\n",
			(unsigned long long)a->cfg.bs_bytes, vb_source_name(a->cfg.source),
			strerror(errno));
		vb_target_cleanup(&a->target);
		return EXIT_SETUP;
	}
	const struct vb_run *last = a->session.n_runs ? &a->session.runs[a->session.n_runs - 1]
						      : NULL;
	if (last != NULL)
		vb_out_run_problem(stderr, &a->ctx, last);
	if (a->session.out_of_memory)
		fprintf(stderr, "vbench: out of memory recording the runs; stopping\n");
	finish_output(a);
	vb_target_cleanup(&a->target);
	int status = rc == 0 ? 0 : last != NULL && vb_direct_refused(&a->cfg, last) ? EXIT_SETUP
											: EXIT_IO;
	if (a->csv_append != NULL && (ferror(a->csv_append) | fclose(a->csv_append))) {
		fprintf(stderr, "vbench: --csv-append %s: the rows could not all be written\n",
			a->cfg.csv_append_path);
		status = EXIT_IO;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "vbench: the results could not all be written to stdout\n");
		status = EXIT_IO;
	}
	int signo = a->session.stop_signal;
	vb_session_free(&a->session);
	if (signo != 0) {
		/* Die of the same signal, so a calling shell loop sees it and stops too. */
		signal(signo, SIG_DFL);
		raise(signo);
	}
	return status;
}

int main(int argc, char *argv[])
{
	static struct app a;

	if (argc >= 2 && strcmp(argv[1], "report") == 0)
		return vb_report_main(argc - 1, argv + 1, stdout, stderr);
	int rc = parse(&a, argc, argv);
	if (rc >= 0)
		return rc;
	/* Before anything is created, so that a signal at any later moment still leads to
	 * the cleanup; a signal that arrives before the first run stops it from starting. */
	vb_runner_install_signals();
	rc = setup(&a);
	if (rc >= 0)
		return rc;
	return run(&a);
}
