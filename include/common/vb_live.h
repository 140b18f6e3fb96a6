#ifndef VB_LIVE_H
#define VB_LIVE_H

/* What is shown while the runs go on, wired by main.c to vb_out_live: the engine and the
 * guard format none of it. A NULL call shows nothing. */

#include <stdbool.h>
#include <stdint.h>

/* A live progress reading. */
struct vb_progress {
	uint64_t run, runs;
	uint64_t bytes_done, bytes_total;
	double elapsed_secs;
	double current_bytes_per_sec;  /* over the last refresh; 0 when not yet known */
};

/* A call that has not returned for a while. */
struct vb_stall {
	bool probe;                    /* in the flush check after the runs */
	bool warmup;                   /* in a warm-up run */
	uint64_t run;
	const char *stage;             /* "write", "sync", ... (vb_stage_name) */
	unsigned writer, writers;      /* which writer of how many (1 of 1 at qd 1) */
	uint64_t offset;
	double secs;                   /* how long it has not returned */
};

struct vb_live {
	void (*progress)(void *arg, const struct vb_progress *p);
	void (*erase)(void *arg);
	/* progress_drawn: a progress line is on the terminal, to be replaced. */
	void (*status)(void *arg, uint64_t bytes, double secs, bool progress_drawn);
	void (*stall)(void *arg, const struct vb_stall *s, bool progress_drawn);
	void *arg;
};

#endif
