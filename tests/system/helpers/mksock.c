/* mksock PATH: binds a Unix-domain socket at PATH and exits, leaving the socket file
 * behind: something at a path that is neither a regular file nor a FIFO. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un a;
	int s;

	if (argc != 2 || strlen(argv[1]) >= sizeof a.sun_path)
		return 2;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	strcpy(a.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0)
		return 2;
	close(s);
	return 0;
}
