/* shutdown DIR: shuts down the ext4 filesystem mounted on DIR as a failing disk would
 * (EXT4_IOC_SHUTDOWN, without flushing the log): every later call on it fails with EIO.
 * Exits 2 when the filesystem cannot be shut down. Linux only: used by the system tests. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SHUTDOWN _IOR('X', 125, uint32_t)
#define NOLOGFLUSH 2u

int main(int argc, char **argv)
{
	uint32_t how = NOLOGFLUSH;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0)
		return 2;
	return ioctl(fd, SHUTDOWN, &how) == 0 ? 0 : 2;
}
