#ifndef VB_PLATFORM_H
#define VB_PLATFORM_H

#include <stdint.h>
#include <sys/types.h>

/* How this platform bypasses the page cache: an open flag, an fcntl, or not at all. */
enum vb_direct_kind { VB_DIRECT_NONE, VB_DIRECT_OFLAG, VB_DIRECT_FCNTL };

/* Capabilities found at compile time, described once so the rest never tests OS names. */
struct vb_caps {
	enum vb_direct_kind direct;
	int direct_oflag;     /* O_DIRECT, or 0 */
	int dsync_oflag;      /* O_DSYNC, or O_SYNC where O_DSYNC is missing */
	int tmpfile_oflag;    /* O_TMPFILE, or 0 */
	int nofollow_oflag;   /* O_NOFOLLOW */
	int have_fdatasync;   /* else fdatasync falls back to fsync */
	int have_siginfo;     /* SIGINFO exists */
	int excl_blockdev;    /* O_EXCL on a block device fails with EBUSY while it is in use;
			       * without it, block devices are refused (fail closed) */
};

/* Returns the capabilities of the platform vbench was built for. */
const struct vb_caps *vb_caps(void);

/* Turns off the page cache for fd where that is done by fcntl (F_NOCACHE); 0 or -1/errno. */
int vb_platform_nocache(int fd);

/* fsync that reaches stable storage: F_FULLFSYNC where it exists, else fsync. */
int vb_platform_fsync(int fd);

/* fdatasync where it exists, fsync elsewhere. */
int vb_platform_fdatasync(int fd);

/* Logical block size of the device holding fd (or of fd itself if it is a device),
 * which O_DIRECT sizes and offsets must be multiples of; 512 when it cannot be found. */
uint32_t vb_platform_logical_block(int fd);

/* Size in bytes of the block or disk device open as fd; -1 with errno when unknown. */
int vb_platform_device_bytes(int fd, uint64_t *out_bytes);

/* Bytes of memory currently available to allocate, or 0 when unknown. */
uint64_t vb_platform_avail_mem(void);

/* Total physical memory in bytes, or 0 when unknown. */
uint64_t vb_platform_total_mem(void);

/* Reads n bytes of kernel randomness into buf; 0, or -1 with errno. */
int vb_platform_urandom(void *buf, size_t n);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t vb_now_ns(void);

#endif
