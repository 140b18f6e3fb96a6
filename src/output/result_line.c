#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "output/vb_output.h"
#include "common/vb_units.h"

void vb_format_result_line(char *buf, size_t n, const char *label, const struct vb_config *cfg,
			   const struct vb_summary *s)
{
	char bs[32];

	vb_size_short(bs, sizeof bs, cfg->bs_bytes);
	int len = snprintf(buf, n, "%s  bs=%s x%llu %s %s qd%llu%s%s: ", label, bs,
			   (unsigned long long)cfg->count_blocks, cfg->direct ? "direct" : "buffered",
			   cfg->sync == VB_SYNC_NONE ? "nosync" : vb_sync_name(cfg->sync),
			   (unsigned long long)cfg->qd, cfg->source == VB_SRC_ZERO ? "" : " ",
			   cfg->source == VB_SRC_ZERO ? "" : vb_source_name(cfg->source));
	if (len < 0 || (size_t)len >= n)
		return;
	buf += len;
	n -= (size_t)len;
	if (s->n == 0) {
		snprintf(buf, n, "no completed run");
		return;
	}
	double mean = s->mean / 1e6, lo = s->min / 1e6, hi = s->max / 1e6;
	/* Three significant digits at least, none from 100 MB/s up. */
	int d = mean >= 100 ? 0 : mean >= 10 ? 1 : mean >= 1 ? 2 : 3;
	if (s->n < 2)
		snprintf(buf, n, "%.*f MB/s (n=1)", d, mean);
	else
		snprintf(buf, n, "%.*f MB/s (%.*f-%.*f, CV %.1f%%, n=%llu)", d, mean, d, lo, d, hi,
			 s->cv * 100, (unsigned long long)s->n);
}
