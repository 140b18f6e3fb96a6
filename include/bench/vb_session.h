#ifndef VB_SESSION_H
#define VB_SESSION_H

/* The session's policy: what the process is given when it starts, the checks made
 * before anything is written (memory, space, vbench's lock, where the outputs lie), what
 * the target and its environment are called, and the warnings on the results. It
 * prints nothing: main.c says what these return and maps their statuses to exit codes. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bench/vb_analysis.h"
#include "common/vb_config.h"
#include "common/vb_env.h"
#include "common/vb_io.h"
#include "bench/vb_engine.h"
#include "common/vb_status.h"
#include "bench/vb_target.h"

struct vb_shared;

/* Makes the standard descriptors safe to use (a closed one is opened on the null
 * device, so that no file vbench opens becomes it) and the arguments the system's
 * (UTF-8 on Windows); returns true when standard output was closed. Called first. */
bool vb_session_begin(int *argc, char ***argv);

/* What the auto settings of cfg come to here (--progress: on when stderr is a
 * terminal). */
void vb_session_settle(struct vb_config *cfg);

/* Names this invocation: 64 random bits in hex (16 digits) and its start in UTC
 * ("2026-12-02T10:40:12Z", empty when the clock cannot say), so that the runs several
 * invocations append to one file can be told apart. */
void vb_session_name(char invocation[17], char started[24]);

/* What the kernel's randomness is read from, for messages ("/dev/urandom"). */
const char *vb_session_randomness(void);

/* The shared block of vb_guard.h with the signal handlers installed to write into
 * it; NULL with errno. */
struct vb_shared *vb_session_shared(void);

/* In a new process of the session: its own handlers, into the same shared flags. */
void vb_session_catch_signals(struct vb_shared *sh);

/* Ends the process by signo, so that a calling shell loop sees it and stops too. */
void vb_session_die(int signo);

/* The outputs vbench writes its results to: the --csv-append and --trace files (fd -1
 * when not open) and the standard output and error it was started with. */
struct vb_outputs {
	int fd[2];                   /* --csv-append, --trace */
	const char *path[2];
	struct vb_fileinfo std[2];   /* standard output, standard error */
};

/* What standard output and error are now, into o->std. */
void vb_session_std_ids(struct vb_outputs *o);

/* Where a refusal about the outputs can be said: not on the storage refused. */
enum vb_say { VB_SAY_STDERR, VB_SAY_STDOUT, VB_SAY_NOWHERE };

/* The data buffers of cfg must fit in memory, decided before the target is touched;
 * VB_E_SETUP with err when they do not. */
enum vb_status vb_session_check_memory(const struct vb_config *cfg, struct vb_err *err);

/* vb_target_prepare with the system's calls. */
enum vb_status vb_session_prepare(struct vb_target *t, const struct vb_config *cfg,
				  struct vb_err *err);

/* Takes vbench's own lock on the prepared target for the session, then checks that
 * one run fits in a new file's free space; VB_E_SETUP with err when either refuses. */
enum vb_status vb_session_lock(const struct vb_config *cfg, const struct vb_target *t,
			       struct vb_err *err);

/* No output file is (the storage of) another output, since rows of one would land
 * among the rows of the other (standard output and error may share, as 2>&1 makes
 * them); VB_E_SETUP with err and where to say it when one is. */
enum vb_status vb_session_check_outputs(const struct vb_outputs *o, struct vb_err *err,
					enum vb_say *say);

/* The target is not (the storage of) an output, nor the reverse; VB_E_SETUP with err
 * and where to say it when it is, or when that cannot be checked. */
enum vb_status vb_session_check_target(const struct vb_config *cfg, const struct vb_target *t,
				       const struct vb_outputs *o, struct vb_err *err,
				       enum vb_say *say);

/* What is written where, for the header and the rows. */
struct vb_session_desc {
	struct vb_env env;
	/* --label is refused when longer than VB_LABEL_MAX, and a sink's "sink-NAME" holds
	 * a node's name (vb_target.name): no label is ever cut */
	char label[VB_LABEL_MAX + sizeof "sink-"];
	bool sink;                   /* no disk, no filesystem */
	const char *target_note;     /* vb_target_note, or NULL */
	const char *data_note;       /* vb_source_describe */
	const char *sync_note;       /* how the sync mode is done here when not as named, or NULL */
	const char *written;         /* vb_target_written, or NULL */
	uint64_t pool_bytes;         /* bytes of data buffers */
	uint64_t room_bytes;         /* what a suggested --size must fit in; 0: not known */
	char note_buf[VB_PATH_MSG_MAX], written_buf[VB_PATH_MSG_MAX], sync_buf[128], data_buf[400];
};

/* Learns the environment of the prepared target and names it into d; decides whether
 * the file is written once before the clock (t->fill_first). */
void vb_session_describe(const struct vb_config *cfg, struct vb_target *t,
			 struct vb_session_desc *d);

/* Warnings, each text in its own buffer. */
struct vb_session_warnings {
	const char *text[6];
	size_t n;
	char cache[512], drift[512], paused[256], hostmem[512], loop[512], memfs[256];
	char fs[8192];
};

/* Which warnings the described target calls for (its file system against the label,
 * --direct on a file system that caches anyway), into w. */
void vb_session_warn_target(const struct vb_config *cfg, const struct vb_session_desc *d,
			    struct vb_session_warnings *w);

/* Which warnings the analysis of the runs calls for, into w. */
void vb_session_warn(const struct vb_config *cfg, const struct vb_session_desc *d,
		     const struct vb_run_analysis *an, struct vb_session_warnings *w);

/* The flush probe's result as the runs recorded it, judged against the described
 * target's file system (vb_flush_own_metadata), into r. */
void vb_session_flush(const struct vb_session_desc *d, const struct vb_runlog *log,
		      struct vb_flush_result *r);

/* runs=auto: why the runs stopped, from the runs recorded, into buf; NULL when they
 * did not stop by the rule (an error or a signal ended them). */
const char *vb_session_auto_note(const struct vb_config *cfg, const struct vb_runlog *log,
				 char *buf, size_t n);

#endif
