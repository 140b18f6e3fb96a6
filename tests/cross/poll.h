/* A stand-in for <poll.h> in the compile check of make cross-bsd only. The sysroots of
 * ../shared lack the header, although FreeBSD, DragonFly and NetBSD all install it
 * (their sys/sys/poll.h, which poll.h names); here are the declarations POSIX requires
 * of it, written from the standard, so that vbench's use of poll() is still checked
 * against what every POSIX system provides. bsd.sh copies it in only where a sysroot
 * has no poll.h of its own. */
#ifndef VB_CROSS_POLL_H
#define VB_CROSS_POLL_H

typedef unsigned int nfds_t;

struct pollfd {
	int fd;
	short events;
	short revents;
};

#define POLLIN   0x0001
#define POLLPRI  0x0002
#define POLLOUT  0x0004
#define POLLERR  0x0008
#define POLLHUP  0x0010
#define POLLNVAL 0x0020

int poll(struct pollfd *fds, nfds_t nfds, int timeout);

#endif
