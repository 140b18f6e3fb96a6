/* holdlock KIND PATH: opens PATH (read-write, else read-only) and takes a lock of KIND on
 * it, as QEMU does on the disks and images it uses: "ofd" a shared open-file-description
 * lock on one byte (QEMU's permission bytes), "posix" a whole-file POSIX write lock,
 * "flock" a shared flock. Prints "locked" and waits to be killed. Exits 2 when the lock
 * cannot be taken. Linux only: used by the system tests. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct flock fl;
	int fd, rc;

	if (argc != 3)
		return 2;
	fd = open(argv[2], O_RDWR);
	if (fd < 0)
		fd = open(argv[2], O_RDONLY);
	if (fd < 0)
		return 2;
	memset(&fl, 0, sizeof fl);
	fl.l_whence = SEEK_SET;
	if (strcmp(argv[1], "ofd") == 0) {
		fl.l_type = F_RDLCK;
		fl.l_start = 100;
		fl.l_len = 1;
		rc = fcntl(fd, F_OFD_SETLK, &fl);
	} else if (strcmp(argv[1], "posix") == 0) {
		fl.l_type = F_WRLCK;
		rc = fcntl(fd, F_SETLK, &fl);
	} else {
		rc = flock(fd, LOCK_SH | LOCK_NB);
	}
	if (rc != 0)
		return 2;
	printf("locked\n");
	fflush(stdout);
	for (;;)
		pause();
}
