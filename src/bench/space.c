#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "bench/vb_space.h"

/* On a file system, all but the spare its own blocks need. */
static uint64_t usable(uint64_t avail, bool on_fs)
{
	return on_fs ? avail - (uint64_t)((double)avail * VB_SPACE_SPARE) : avail;
}

uint64_t vb_count_that_fits(uint64_t avail, uint64_t bs, bool on_fs)
{
	return bs == 0 ? 0 : usable(avail, on_fs) / bs;
}

/* Ends the refusal in buf (len bytes, unless cut) with the count that fits. */
static void fits_tail(char *buf, size_t n, int len, uint64_t fits, uint64_t bs)
{
	if (len < 0 || (size_t)len >= n)
		return;
	if (fits == 0)
		snprintf(buf + len, n - (size_t)len, "not one block of bs=%llu fits",
			 (unsigned long long)bs);
	else
		snprintf(buf + len, n - (size_t)len, "count=%llu fits", (unsigned long long)fits);
}

int vb_fsize_short(const struct vb_config *cfg, uint64_t limit, char *buf, size_t n)
{
	uint64_t need = vb_run_bytes(cfg), fits = vb_count_that_fits(limit, cfg->bs_bytes, false);

	if (need <= limit)
		return 0;
	int len = snprintf(buf, n, "one run writes %llu bytes (bs=%llu count=%llu), more than "
			   "the %llu bytes this process may put in a file (ulimit -f); ",
			   (unsigned long long)need, (unsigned long long)cfg->bs_bytes,
			   (unsigned long long)cfg->count_blocks, (unsigned long long)limit);
	fits_tail(buf, n, len, fits, cfg->bs_bytes);
	return 1;
}

int vb_space_short(const struct vb_config *cfg, const char *where, uint64_t avail, bool on_fs,
		   char *buf, size_t n)
{
	uint64_t need = vb_run_bytes(cfg);
	uint64_t fits = vb_count_that_fits(avail, cfg->bs_bytes, on_fs);
	int len;

	/* Decided on what the suggestion counts on: whatever count is named fits, and
	 * any larger is refused. */
	if (need <= usable(avail, on_fs))
		return 0;
	unsigned long long got = avail, run = need, bs = cfg->bs_bytes, count = cfg->count_blocks;
	if (on_fs && need <= avail)
		len = snprintf(buf, n, "only %llu bytes are free under %s, too few for the %llu "
			       "bytes of one run (bs=%llu count=%llu) and the %g%% the file system "
			       "needs for its own blocks; ", got, where, run, bs, count,
			       VB_SPACE_SPARE * 100);
	else if (on_fs)
		len = snprintf(buf, n, "only %llu bytes are free under %s, less than the %llu "
			       "bytes of one run (bs=%llu count=%llu); ", got, where, run, bs, count);
	else
		len = snprintf(buf, n, "%s holds %llu bytes, less than the %llu bytes of one run "
			       "(bs=%llu count=%llu); ", where, got, run, bs, count);
	fits_tail(buf, n, len, fits, cfg->bs_bytes);
	return 1;
}
