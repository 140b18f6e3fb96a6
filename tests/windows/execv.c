/* execv PROGRAM [ARG...]: runs PROGRAM with execv(2) and nothing else. The shells and
 * execvp(3) run a file the kernel refuses (ENOEXEC) as a shell script instead, so they
 * cannot tell whether this kernel runs a program of PROGRAM's kind. Exit status: that
 * of PROGRAM; 126 when the kernel refuses its format, 127 when it cannot be run at all. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		fputs("usage: execv PROGRAM [ARG...]\n", stderr);
		return 2;
	}
	execv(argv[1], argv + 1);
	err = errno;
	fprintf(stderr, "%s: %s\n", argv[1], strerror(err));
	return err == ENOEXEC ? 126 : 127;
}
