#ifndef VB_ANALYSIS_H
#define VB_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_env.h"
#include "common/vb_hist.h"
#include "common/vb_result.h"

/* Coefficient of variation above which results are called unstable. */
#define VB_UNSTABLE_CV 0.10

/* Analyses the runs (warm-ups and unfinished runs are left out); all_latency is the
 * histogram of those runs' writes (or NULL), ram_bytes may be 0. Returns 0, or -1 when
 * there was no memory for it (a is then empty): no figure is ever left out silently. */
int vb_analyze(const struct vb_config *cfg, const struct vb_run *runs, uint64_t n,
	       const struct vb_hist *all_latency, uint64_t ram_bytes, struct vb_run_analysis *a);


/* Writes the drift/instability sentence ("throughput fell 31% from run 1 to run 5;
 * results are not stable") into buf, with what to do when the runs vary (runs=auto, or
 * larger runs); returns 0 when there is nothing to say. */
int vb_analysis_stability_text(const struct vb_run_analysis *a, char *buf, size_t n);

/* Writes the warning about runs that include a pause (SIGSTOP, Ctrl-Z) into buf;
 * returns 0 when no counted run was paused. */
int vb_analysis_paused_text(const struct vb_run_analysis *a, char *buf, size_t n);

/* Writes the page-cache warning into buf; returns 0 when there is none. */
int vb_analysis_cache_text(const struct vb_run_analysis *a, const struct vb_config *cfg,
			   uint64_t ram_bytes, char *buf, size_t n);

/* Writes the warning for a buffered run in a guest whose freed memory goes back to its
 * host (vb_env.frees_to_host) into buf, one plain sentence (the detail is in vbench(1));
 * returns 0 when there is none (--direct: the page cache is not used). */
int vb_analysis_host_memory_text(const struct vb_config *cfg, bool frees_to_host, char *buf,
				 size_t n);

/* Writes the warning for a target on loop device loop (vb_env.loop_buffered) that has no
 * direct I/O on its backing file into buf; returns 0 when loop is "" (none). */
int vb_analysis_loop_text(const char *loop, char *buf, size_t n);

/* Writes the note for a target whose file system fs keeps its files in memory
 * (vb_env.fs_in_memory: tmpfs, ramfs) into buf, with --direct or without; returns 0 when
 * in_memory is false. */
int vb_analysis_memory_fs_text(const char *fs, bool in_memory, char *buf, size_t n);

/* Writes the warning for a label that names another file system than the target's
 * (vb_label_names_other_fs: a mount that failed leaves an empty directory on the disk
 * under it), naming both, into buf; returns 0 when there is none. */
int vb_analysis_label_fs_text(const char *label, const struct vb_env *e, const char *target,
			      char *buf, size_t n);

#ifdef VB_TEST_SEAMS
/* Test builds only: the allocator vb_analyze uses (NULL restores calloc). */
void vb_analysis_set_calloc(void *(*fn)(size_t, size_t));
#endif

#endif
