#ifndef VB_IO_H
#define VB_IO_H

/* The system calls of the target checks and the writer, as a table so that tests can
 * hand in fakes. Names are always relative to a directory descriptor opened once, so that
 * a directory swapped for a link between two calls changes nothing. */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* "The file is not the one identified": ESTALE where the C library has it. */
#if !defined(ESTALE)
#define ESTALE 116
#endif

/* What a name or descriptor refers to. */
enum vb_ftype {
	VB_FT_MISSING,   /* no such name */
	VB_FT_REG, VB_FT_DIR, VB_FT_LINK, VB_FT_BLK, VB_FT_CHR, VB_FT_FIFO, VB_FT_OTHER
};

/* The identity and shape of a file: the same (dev, ino) is the same file. */
struct vb_fileinfo {
	enum vb_ftype type;
	uint64_t dev, ino;
	uint64_t rdev;          /* the device a device node stands for */
	uint64_t nlink;
	uint64_t size_bytes;
	uint64_t alloc_bytes;   /* what its blocks take on the file system; 0 where unknown */
};

static inline bool vb_same_file(const struct vb_fileinfo *a, const struct vb_fileinfo *b)
{
	return a->type == b->type && a->dev == b->dev && a->ino == b->ino;
}

/* How a target is opened for writing (or examined). Links are never followed. */
enum vb_open_kind {
	VB_OPEN_EXISTING,       /* a file or device that exists; never created or emptied */
	VB_OPEN_CREATE,         /* a new file, created exclusively with mode 0600 */
	VB_OPEN_ANON            /* a file with no name in the directory, freed when closed */
};

struct vb_open_req {
	enum vb_open_kind kind;
	bool direct;            /* bypass the page cache, the platform's way */
	bool dsync;             /* every write durable before it returns */
	bool exclusive;         /* a device: the kernel refuses other claims while open */
	bool read_only;         /* to examine: an overlay copies up a file opened to write */
};

/* The end-of-run call of a sync mode. */
enum vb_sync_call { VB_CALL_NONE, VB_CALL_FSYNC, VB_CALL_FDATASYNC };

/* What a disk answers about itself. */
struct vb_disk {
	uint64_t size_bytes;
	uint32_t sector_bytes;  /* 0 when it does not say */
	bool read_only;         /* it refuses writes (a read-only loop device) */
};

struct vb_io_ops {
	/* Opens the directory at path (nofollow: not a link); the descriptor, or -1. */
	int (*open_dir)(void *ctx, const char *path, bool nofollow);
	/* Opens name (ignored for VB_OPEN_ANON) as req says; the descriptor or -1. */
	int (*openat)(void *ctx, int dirfd, const char *name, const struct vb_open_req *req);
	/* Describes name without following a link (VB_FT_MISSING when absent); 0 or -1. */
	int (*statat)(void *ctx, int dirfd, const char *name, struct vb_fileinfo *fi);
	int (*fstat)(void *ctx, int fd, struct vb_fileinfo *fi);
	int (*unlinkat)(void *ctx, int dirfd, const char *name);
	/* Writes at offset; a short count or -1 with errno, as pwrite(2). */
	ssize_t (*pwrite)(void *ctx, int fd, const void *buf, size_t n, uint64_t offset);
	int (*sync)(void *ctx, int fd, enum vb_sync_call call);
	int (*truncate)(void *ctx, int fd);   /* to zero bytes */
	int (*dup)(void *ctx, int fd);
	int (*close)(void *ctx, int fd);
	/* Fills d and returns 0 when fd is a disk that reports its size; -1 otherwise. */
	int (*disk)(void *ctx, int fd, struct vb_disk *d);
	/* Bytes that direct I/O sizes must be multiples of on what fd is or is on; never 0. */
	uint32_t (*logical_block)(void *ctx, int fd);
	/* Whether anything is layered on fd: 1 with what in holder ("loop device loop1 is
	 * backed by it"), 0 when nothing is, -1 with why in holder when it cannot be told. */
	int (*in_use)(void *ctx, int fd, const struct vb_fileinfo *fi, char *holder, size_t n);
	/* Whether fi is a data sink (/dev/null, /dev/zero, /dev/full): nothing at risk. */
	bool (*is_sink)(void *ctx, const struct vb_fileinfo *fi);
	/* The monotonic clock, in nanoseconds. */
	uint64_t (*now_ns)(void *ctx);
	/* realloc(3) for a run's interval samples (NULL: realloc; tests make it fail). */
	void *(*grow)(void *ctx, void *p, size_t n);
	void *ctx;
};

/* The platform's real calls. */
extern const struct vb_io_ops vb_os_io;

#endif
