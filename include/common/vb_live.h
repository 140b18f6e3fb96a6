#ifndef VB_LIVE_H
#define VB_LIVE_H

/* What is shown while the runs go on: the progress line, the status lines a signal asks
 * for, stall warnings. The engine and the guard format none of it: they call these,
 * which main.c wires to the output layer (vb_out_live). A NULL call shows nothing. */

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
	/* The progress line, drawn over the previous one. */
	void (*progress)(void *arg, const struct vb_progress *p);
	/* A drawn progress line erased. */
	void (*erase)(void *arg);
	/* A status line: bytes written in secs of the current run, on a line of its own
	 * (progress_drawn: a progress line is on the terminal, to be replaced). */
	void (*status)(void *arg, uint64_t bytes, double secs, bool progress_drawn);
	/* A stall warning. */
	void (*stall)(void *arg, const struct vb_stall *s, bool progress_drawn);
	void *arg;
};

#endif
