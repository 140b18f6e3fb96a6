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

/* Analyses the completed measured runs; all_latency (or NULL) is their writes'
 * histogram, ram_bytes may be 0. 0, or -1 without memory (a is then empty). */
int vb_analyze(const struct vb_config *cfg, const struct vb_run *runs, uint64_t n,
	       const struct vb_hist *all_latency, uint64_t ram_bytes, struct vb_run_analysis *a);

/* Each of these writes its sentence into buf and returns 0 when there is none. */

/* Drift or instability ("throughput fell 31% from run 1 to run 5; ..."), with advice. */
int vb_analysis_stability_text(const struct vb_run_analysis *a, char *buf, size_t n);

/* Counted runs that include a pause (SIGSTOP, Ctrl-Z). */
int vb_analysis_paused_text(const struct vb_run_analysis *a, char *buf, size_t n);

/* The page cache. */
int vb_analysis_cache_text(const struct vb_run_analysis *a, const struct vb_config *cfg,
			   uint64_t ram_bytes, char *buf, size_t n);

/* A buffered run in a guest whose freed memory goes back to its host (vbench(1)). */
int vb_analysis_host_memory_text(const struct vb_config *cfg, bool frees_to_host, char *buf,
				 size_t n);

/* A loop device without direct I/O on its backing file (vb_env.loop_buffered). */
int vb_analysis_loop_text(const char *loop, char *buf, size_t n);

/* A file system that keeps its files in memory (vb_env.fs_in_memory). */
int vb_analysis_memory_fs_text(const char *fs, bool in_memory, char *buf, size_t n);

/* A label naming another file system than the target's (vb_label_names_other_fs). */
int vb_analysis_label_fs_text(const char *label, const struct vb_env *e, const char *target,
			      char *buf, size_t n);

#ifdef VB_TEST_SEAMS
/* Test builds only: the allocator vb_analyze uses (NULL restores calloc). */
void vb_analysis_set_calloc(void *(*fn)(size_t, size_t));
#endif

#endif
