/* The floor of figure (a) in compare.sh: the least CPU time a writer of count blocks of
 * bs bytes to /dev/null can take, with nothing else in the loop ("bare"), and with what
 * exact per-write latency needs at the least ("clock"): one clock read per write and a
 * histogram bucket. vbench cannot go below the second; its distance from it is what its
 * own bookkeeping costs.
 *
 *   cc -O2 -o floor bench/floor.c && ./floor bare 4096 1048576
 *
 * The clock is the one vbench reads on this machine when it can: the x86 time-stamp
 * counter (vbench uses it where Linux's clocksource is the TSC), else CLOCK_MONOTONIC. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TICKS() __rdtsc()
#else
static uint64_t mono_ticks(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#define TICKS() mono_ticks()
#endif

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "bare") != 0 && strcmp(argv[1], "clock") != 0)) {
		fprintf(stderr, "usage: floor bare|clock BS COUNT\n");
		return 2;
	}
	int with_clock = strcmp(argv[1], "clock") == 0;
	size_t bs = strtoul(argv[2], NULL, 10);
	unsigned long long count = strtoull(argv[3], NULL, 10);
	unsigned char *buf = calloc(1, bs ? bs : 1);
	int fd = open("/dev/null", O_WRONLY);
	static uint64_t buckets[64];
	uint64_t last = TICKS();

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
			uint64_t now = TICKS(), d = (now - last) | 1;
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
