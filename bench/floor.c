/* The floors of compare.sh, measured with nothing of vbench's in the loop.
 *
 * (a) CPU: the least CPU time a writer of count blocks of bs bytes to /dev/null can take,
 * with nothing else in the loop ("bare"), and with what exact per-write latency needs at
 * the least ("clock"): one clock read per write and a histogram bucket. vbench cannot go
 * below the second; its distance from it is what its own bookkeeping costs.
 *
 * (b2) Data: "write zero|data BS COUNT POOL TARGET" writes COUNT blocks of BS bytes with
 * O_DIRECT, taken in turn from a pool of POOL bytes made before the clock starts (zeros,
 * or bytes from a generator), then fsyncs and closes, and prints the rate as vbench's
 * dd-style line does. With no generator running, zeros against other bytes tell how
 * much the storage rewards zeros, and a pool of one block against one of vbench's ring
 * size what the number of distinct pages written from costs. TARGET is a new file
 * (removed at the end) or a block device, written over from its start.
 *
 *   cc -O2 -o floor bench/floor.c && ./floor bare 4096 1048576
 *
 * The clock is the one vbench reads: CLOCK_MONOTONIC. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#ifndef O_DIRECT
#define O_DIRECT 0
#endif

static double mono_secs(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* floor write zero|data BS COUNT POOL TARGET */
static int write_target(int zeros, size_t bs, unsigned long long count, size_t pool,
			const char *path)
{
	void *mem = NULL;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	struct stat st;

	if (bs == 0 || bs % 4096 != 0 || pool < bs || pool % bs != 0 ||
	    posix_memalign(&mem, 4096, pool) != 0) {
		fprintf(stderr, "floor: bs must be a multiple of 4096, the pool of bs\n");
		return 1;
	}
	unsigned char *buf = mem;
	memset(buf, 0, pool);
	for (size_t i = 0; !zeros && i < pool; i += 8) {
		x ^= x << 13;   /* xorshift64: incompressible enough here */
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
	int dev = stat(path, &st) == 0 && S_ISBLK(st.st_mode);
	int fd = open(path, dev ? O_WRONLY | O_DIRECT : O_WRONLY | O_CREAT | O_EXCL | O_DIRECT,
		      0600);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	double t0 = mono_secs();
	for (unsigned long long b = 0; b < count; b++) {
		const unsigned char *p = buf + (size_t)(b % (pool / bs)) * bs;
		if (pwrite(fd, p, bs, (off_t)(b * bs)) != (ssize_t)bs) {
			perror("floor: pwrite");
			if (!dev)
				unlink(path);
			return 1;
		}
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		perror("floor: fsync");
		if (!dev)
			unlink(path);
		return 1;
	}
	double secs = mono_secs() - t0;
	if (!dev)
		unlink(path);
	printf("%llu bytes transferred in %.6f secs (%.0f bytes/sec)\n",
	       count * (unsigned long long)bs, secs, (double)(count * bs) / secs);
	free(mem);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "write") == 0 &&
	    (strcmp(argv[2], "zero") == 0 || strcmp(argv[2], "data") == 0))
		return write_target(strcmp(argv[2], "zero") == 0, strtoul(argv[3], NULL, 10),
				    strtoull(argv[4], NULL, 10), strtoul(argv[5], NULL, 10),
				    argv[6]);
	if (argc != 4 || (strcmp(argv[1], "bare") != 0 && strcmp(argv[1], "clock") != 0)) {
		fprintf(stderr, "usage: floor bare|clock BS COUNT\n"
			"       floor write zero|data BS COUNT POOL TARGET\n");
		return 2;
	}
	int with_clock = strcmp(argv[1], "clock") == 0;
	size_t bs = strtoul(argv[2], NULL, 10);
	unsigned long long count = strtoull(argv[3], NULL, 10);
	unsigned char *buf = calloc(1, bs ? bs : 1);
	int fd = open("/dev/null", O_WRONLY);
	static uint64_t buckets[64];
	uint64_t last = mono_ns();

	if (buf == NULL || fd < 0 || bs == 0) {
		perror("floor");
		return 1;
	}
	for (unsigned long long b = 0; b < count; b++) {
		if (pwrite(fd, buf, bs, (off_t)(b * bs)) != (ssize_t)bs) {
			perror("floor: pwrite");
			return 1;
		}
		if (with_clock) {
			uint64_t now = mono_ns(), d = (now - last) | 1;
			buckets[63 - __builtin_clzll(d)]++;
			last = now;
		}
	}
	/* The histogram is used, so that the compiler keeps the work. */
	uint64_t n = 0;
	for (int i = 0; i < 64; i++)
		n += buckets[i];
	return with_clock && n != count;
}
