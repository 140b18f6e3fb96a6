#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "bench/vb_memfit.h"
#include "os/vb_os.h"
#include "bench/vb_source.h"

/* The smallest block size offered as one that fits. */
#define MIN_BS 512

/* The address space of one writer thread's stack, with a guard of up to 64 KiB. */
#define WRITER_STACK ((uint64_t)VB_THREAD_STACK_BYTES + 65536)

static uint64_t buffers(const struct vb_config *cfg, uint64_t bs, uint64_t qd)
{
	return vb_source_buffer_bytes(cfg->source, (size_t)bs, qd, bs * cfg->count_blocks);
}

/* The writers of a depth above 1 are threads of their own (writer.c). */
static uint64_t stacks(uint64_t qd)
{
	return qd > 1 ? qd * WRITER_STACK : 0;
}

static bool fits(const struct vb_config *cfg, uint64_t bs, uint64_t qd, uint64_t avail,
		 vb_mem_probe probe, void *arg)
{
	uint64_t need = buffers(cfg, bs, qd);

	return (avail == 0 || need <= avail) && need <= UINT64_MAX / 2 &&
	       probe(need + stacks(qd) + VB_MEM_MARGIN, arg);
}

int vb_memory_short(const struct vb_config *cfg, uint64_t avail, vb_mem_probe probe,
		    void *arg, char *buf, size_t n)
{
	uint64_t need = buffers(cfg, cfg->bs_bytes, cfg->qd);
	bool over = avail > 0 && need > avail;
	int len;

	if (!over && fits(cfg, cfg->bs_bytes, cfg->qd, avail, probe, arg))
		return 0;
	unsigned long long bs = cfg->bs_bytes, qd = cfg->qd;
	len = snprintf(buf, n, "bs=%llu", bs);
	if (len >= 0 && (size_t)len < n && qd > 1)
		len += snprintf(buf + len, n - (size_t)len, " --qd %llu", qd);
	if (len >= 0 && (size_t)len < n && cfg->source != VB_SRC_ZERO)
		len += snprintf(buf + len, n - (size_t)len, " --source %s",
				vb_source_name(cfg->source));
	if (len >= 0 && (size_t)len < n && over)
		len += snprintf(buf + len, n - (size_t)len, " needs %llu bytes of buffers, more "
				"than the %llu bytes of memory available", (unsigned long long)need,
				(unsigned long long)avail);
	else if (len >= 0 && (size_t)len < n && qd > 1)
		len += snprintf(buf + len, n - (size_t)len, " needs %llu bytes of buffers and "
				"%llu of its writers' stacks, more than this process may allocate "
				"(a limit on its memory, such as ulimit -v)", (unsigned long long)need,
				(unsigned long long)stacks(qd));
	else if (len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, " needs %llu bytes of buffers, more "
				"than this process may allocate (a limit on its memory, such as "
				"ulimit -v)", (unsigned long long)need);
	if (len < 0 || (size_t)len >= n)
		return 1;
	/* The largest block size, halving, and the deepest queue that fit. */
	uint64_t fit_bs = 0, fit_qd = 0;
	for (uint64_t b = cfg->bs_bytes / 2; b >= MIN_BS && fit_bs == 0; b /= 2)
		if (fits(cfg, b, cfg->qd, avail, probe, arg))
			fit_bs = b;
	for (uint64_t lo = 1, hi = cfg->qd - 1; cfg->qd > 1 && lo <= hi;) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (fits(cfg, cfg->bs_bytes, mid, avail, probe, arg)) {
			fit_qd = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (fit_bs == 0 && fit_qd == 0)
		snprintf(buf + len, n - (size_t)len, "; not even bs=%d fits", MIN_BS);
	else if (fit_qd == 0)
		snprintf(buf + len, n - (size_t)len, "; bs=%llu fits", (unsigned long long)fit_bs);
	else if (fit_bs == 0)
		snprintf(buf + len, n - (size_t)len, "; --qd %llu fits", (unsigned long long)fit_qd);
	else
		snprintf(buf + len, n - (size_t)len, "; bs=%llu fits, or --qd %llu",
			 (unsigned long long)fit_bs, (unsigned long long)fit_qd);
	return 1;
}
