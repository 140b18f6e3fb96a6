/* An nbdkit plugin for the VM test (tests/vm/run.sh): a RAM disk whose behaviour is known
 * because it is made so, to check vbench's verdicts against. Run by nbdkit's cc plugin:
 *   nbdkit cc tests/vm/lies-disk.c size=BYTES [flush_ms=N] [flush_us=N] [fast_bytes=B
 *          fast_rate=R slow_rate=R]
 * flush_ms, flush_us: every flush takes this long, the two added (a disk whose flushes
 * do work).
 * fast_bytes, fast_rate, slow_rate: writes below offset fast_bytes go at most fast_rate
 * bytes/s, writes above it at most slow_rate (a cache that runs out after fast_bytes).
 * Rates of 0 mean no limit. Data is kept, so that what is read is what was written. */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define THREAD_MODEL NBDKIT_THREAD_MODEL_SERIALIZE_ALL_REQUESTS

static uint64_t size;
static uint64_t flush_ms, flush_us;
static uint64_t fast_bytes, fast_rate, slow_rate;
static unsigned char *disk;

static int number(const char *value, uint64_t *out)
{
	int64_t v = nbdkit_parse_size(value);

	if (v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int ld_config(const char *key, const char *value)
{
	if (strcmp(key, "size") == 0)
		return number(value, &size);
	if (strcmp(key, "flush_ms") == 0)
		return number(value, &flush_ms);
	if (strcmp(key, "flush_us") == 0)
		return number(value, &flush_us);
	if (strcmp(key, "fast_bytes") == 0)
		return number(value, &fast_bytes);
	if (strcmp(key, "fast_rate") == 0)
		return number(value, &fast_rate);
	if (strcmp(key, "slow_rate") == 0)
		return number(value, &slow_rate);
	nbdkit_error("unknown parameter %s", key);
	return -1;
}

static int ld_get_ready(void)
{
	if (size == 0) {
		nbdkit_error("size= is required");
		return -1;
	}
	disk = calloc(1, (size_t)size);
	if (disk == NULL) {
		nbdkit_error("calloc: %m");
		return -1;
	}
	return 0;
}

static void *ld_open(int readonly)
{
	(void)readonly;
	return disk;
}

static int64_t ld_get_size(void *h)
{
	(void)h;
	return (int64_t)size;
}

static int ld_can_flush(void *h)
{
	(void)h;
	return 1;
}

static void nap_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int ld_pread(void *h, void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	(void)h;
	(void)flags;
	memcpy(buf, disk + offset, count);
	return 0;
}

static int ld_pwrite(void *h, const void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	uint64_t rate = offset < fast_bytes ? fast_rate : slow_rate;

	(void)h;
	(void)flags;
	memcpy(disk + offset, buf, count);
	if (rate > 0)
		nap_ns((uint64_t)count * 1000000000u / rate);
	return 0;
}

static int ld_flush(void *h, uint32_t flags)
{
	(void)h;
	(void)flags;
	nap_ns(flush_ms * 1000000u + flush_us * 1000u);
	return 0;
}

static struct nbdkit_plugin plugin = {
	.name = "lies-disk",
	.config = ld_config,
	.get_ready = ld_get_ready,
	.open = ld_open,
	.get_size = ld_get_size,
	.can_flush = ld_can_flush,
	.pread = ld_pread,
	.pwrite = ld_pwrite,
	.flush = ld_flush,
};

NBDKIT_REGISTER_PLUGIN(plugin)
