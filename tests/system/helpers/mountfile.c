/* mountfile TYPE FILE DIR: mounts the file system in the regular file FILE on DIR, read
 * only, by mount(2) itself: mount(8) would put a loop device between them, and the
 * point is a file system mounted from a file without one (erofs can, in kernels built
 * with EROFS_FS_BACKED_BY_FILE). Exits 2 when the kernel refuses. Linux only: used by
 * the system tests. */
#include <stdio.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	if (mount(argv[2], argv[3], argv[1], MS_RDONLY, NULL) != 0) {
		perror("mount");
		return 2;
	}
	return 0;
}
