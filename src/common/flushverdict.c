#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "vb_flush.h"

void vb_flush_decide(struct vb_flush_result *r)
{
	if (r->why[0] != '\0')
		return;
	if (r->samples < VB_FLUSH_MIN_SAMPLES || r->write_p50_ns == 0) {
		r->verdict = VB_FLUSH_UNDECIDED;
		snprintf(r->why, sizeof r->why, "too few samples (%llu)",
			 (unsigned long long)r->samples);
		return;
	}
	/* The fastest tenth: what a flush and a write cost when nothing else intervenes. */
	double write = (double)(r->write_p10_ns ? r->write_p10_ns : r->write_p50_ns);
	double flush = (double)(r->flush_p10_ns ? r->flush_p10_ns : r->flush_p50_ns);
	/* The dirty flush is held against an ordinary flush as well as a write: a flush that
	 * must persist megabytes takes longer than one that persists a block. */
	double base = (double)(r->flush_p50_ns > r->write_p50_ns ? r->flush_p50_ns
								 : r->write_p50_ns);
	double dirty = (double)r->dirty_flush_ns;
	double share = VB_FLUSH_DIRTY_SHARE * (double)r->dirty_write_ns;
	bool dirty_known = r->dirty_bytes > 0;
	bool dirty_small = dirty <= VB_FLUSH_SAME * base || dirty < share ||
			   dirty - base < VB_FLUSH_NOISE_NS;
	bool dirty_large = dirty >= VB_FLUSH_MORE * base && dirty >= share &&
			   dirty - base >= VB_FLUSH_NOISE_NS;
	bool flush_small = flush <= VB_FLUSH_SAME * write || flush - write < VB_FLUSH_NOISE_NS;
	bool flush_large = flush >= VB_FLUSH_MORE * write && flush - write >= VB_FLUSH_NOISE_NS;

	if (flush_large || (dirty_known && dirty_large)) {
		r->verdict = VB_FLUSH_WORKS;
		return;
	}
	if (flush_small && (!dirty_known || dirty_small)) {
		r->verdict = VB_FLUSH_NO_WORK;
		return;
	}
	r->verdict = VB_FLUSH_UNDECIDED;
	snprintf(r->why, sizeof r->why, "a flush, or the one after dirty data, costs between "
		 "%.0f and %.0f times what it is held against", VB_FLUSH_SAME, VB_FLUSH_MORE);
}

const char *vb_flush_verdict_name(int verdict)
{
	switch (verdict) {
	case VB_FLUSH_UNDECIDED: return "undecided";
	case VB_FLUSH_NO_WORK: return "no-work";
	case VB_FLUSH_WORKS: return "works";
	default: return "not-run";
	}
}

/* A time in the unit that keeps it readable: "38 us", "5.2 ms", "1.30 s". */
static void span(char *buf, size_t n, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, n, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, n, "%.0f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.2f s", (double)ns / 1e9);
}

int vb_flush_text(const struct vb_flush_result *r, char *buf, size_t n)
{
	char p50[32], p99[32], wr[32], dirty[96] = "", rate[48] = "";
	const char *call = r->call == VB_CALL_FDATASYNC ? "fdatasync" : "fsync";

	if (r->verdict == VB_FLUSH_NOT_RUN) {
		if (!r->why[0])
			return 0;
		snprintf(buf, n, "flush: not checked: %s", r->why);
		return 1;
	}
	if (r->samples == 0) {
		snprintf(buf, n, "flush: cannot tell: %s; durable-write figures are not proven "
			 "durable", r->why);
		return 1;
	}
	span(p50, sizeof p50, r->flush_p50_ns);
	span(p99, sizeof p99, r->flush_p99_ns);
	span(wr, sizeof wr, r->write_p50_ns);
	if (r->dirty_bytes > 0) {
		char d[32];
		span(d, sizeof d, r->dirty_flush_ns);
		snprintf(dirty, sizeof dirty, "; after %llu KiB dirty: %s",
			 (unsigned long long)(r->dirty_bytes / 1024), d);
	}
	if (r->flush_p50_ns > 0)
		snprintf(rate, sizeof rate, ", %.0f flushes/s", 1e9 / (double)r->flush_p50_ns);
	int len = snprintf(buf, n, "flush (%s): %s p50, %s p99%s (a %u KiB write: %s)%s, "
			   "%llu samples: ", call, p50, p99, rate, r->write_bytes / 1024, wr, dirty,
			   (unsigned long long)r->samples);
	if (len < 0 || (size_t)len >= n)
		return 1;
	buf += len;
	n -= (size_t)len;
	switch (r->verdict) {
	case VB_FLUSH_NO_WORK:
		snprintf(buf, n, "flushes do no work here - the host ignores them, or the storage "
			 "has a power-loss-protected cache or writes through; durable-write figures "
			 "are not proven durable and are not comparable with a disk that persists");
		break;
	case VB_FLUSH_WORKS:
		snprintf(buf, n, "flushes take time here, so something is persisted on a flush; "
			 "that is consistent with durable writes but does not prove them (not "
			 "proven durable)");
		break;
	default:
		snprintf(buf, n, "cannot tell (%s); durable-write figures are not proven durable",
			 r->why);
		break;
	}
	return 1;
}

int vb_write_cache_text(const char *write_cache, const char *where, char *buf, size_t n)
{
	if (write_cache == NULL || write_cache[0] == '\0')
		return 0;
	if (strcmp(write_cache, "write through") == 0)
		snprintf(buf, n, "guest: the kernel believes the disk has no volatile write cache "
			 "(%s: write through), so it sends the disk no flushes at all: a sync here "
			 "costs nothing whatever the storage does", where);
	else if (strcmp(write_cache, "write back") == 0)
		snprintf(buf, n, "guest: the kernel believes the disk has a volatile write cache "
			 "(%s: write back) and sends it flushes", where);
	else
		return 0;
	return 1;
}
