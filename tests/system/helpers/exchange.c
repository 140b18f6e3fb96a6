/* exchange A B SECS: swaps the names A and B atomically (renameat2 RENAME_EXCHANGE) as
 * fast as it can for SECS seconds, as a hostile user racing vbench would. Exits 2 when
 * the system cannot exchange names. Linux only: used by the system tests. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	time_t end = time(NULL) + atoi(argv[3]);
	long n = 0;
	while (time(NULL) < end) {
		if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
			    RENAME_EXCHANGE) != 0) {
			perror("renameat2");
			return 2;
		}
		n++;
	}
	/* Leave the names as they were found, whatever the count. */
	if (n % 2 == 1)
		syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE);
	printf("%ld exchanges\n", n);
	return 0;
}
