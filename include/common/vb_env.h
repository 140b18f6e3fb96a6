#ifndef VB_ENV_H
#define VB_ENV_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* How the system caches writes to the target, whatever --direct asked (vb_io_mode). */
enum vb_cache {
	VB_CACHE_AS_ASKED = 0,        /* buffered, or direct when --direct asks */
	VB_CACHE_NONE,                /* a raw disk (a BSD character device): never cached */
	VB_CACHE_FS_BUFFERS,          /* the file system buffers writes even with --direct */
	VB_CACHE_FS_BUFFERS_EXTENDING,/* it buffers a direct write that extends the file */
	VB_CACHE_FS_MAY_BUFFER        /* its source does not show it honours direct writes */
};

/* Where a benchmark ran; every text field is "unknown" when it cannot be found. */
struct vb_env {
	char host[256];
	char os[64];              /* uname sysname, e.g. "Linux", "FreeBSD" */
	char kernel[128];         /* uname release */
	char fs[64];              /* filesystem type of the target: ext4, tmpfs, ufs, ... */
	char mount[1024];         /* mount point holding the target */
	char device[256];         /* block device under it: "vda", "loop0", "ada0" */
	char driver[64];          /* its driver: virtio_blk, ata_piix, ahci, nvme, sd, loop */
	uint32_t logical_block;   /* bytes, 0 when unknown */
	uint32_t physical_block;  /* bytes, 0 when unknown */
	uint64_t ram_bytes;       /* total RAM, 0 when unknown */
	char write_cache[16];     /* what the kernel believes of the disk's write cache:
				   * "write back", "write through", or "" not known */
	char write_cache_where[96]; /* where that was read ("/sys/block/vda/queue/write_cache",
				   * "dev.vtblk.0.writecache_mode") */
	enum vb_cache cache;      /* what caching the writes meet, from the platform */
	bool frees_to_host;       /* a guest whose freed memory goes back to its host (free
				   * page reporting): whoever allocates it next waits for the
				   * host to supply it again */
	bool fs_in_memory;        /* the file system keeps its files in memory (tmpfs, ramfs):
				   * no disk is written, with --direct or without */
	char loop_buffered[32];   /* the loop device under the target when it has no direct
				   * I/O on its backing file (its writes land in a page cache):
				   * "loop0"; "" otherwise */
};

/* The platform layer (vb_os_detect) fills a vb_env; this module only names it. */

/* Writes the default label, "<fs>-<driver>" (e.g. "ext4-virtio_blk"), into buf: "none"
 * and "unknown" say nothing and are left out, a raw disk's fs is "raw", and only
 * [A-Za-z0-9._-] is kept, since labels end up in file names and shell loops. */
void vb_env_label(const struct vb_env *e, char *buf, size_t n);

/* Whether label names a file system type (a word of it, between characters other than
 * letters and digits, is one: ext4, xfs, btrfs, zfs, ufs, hammer, ntfs, ...) and none it
 * names is of the family of fs, the target's as vb_os_detect names it ("ext2fs" and
 * "ext4" are one family, "ffs" and "ufs", "vfat" and "msdosfs"): a label of another
 * file system than the one measured, as when a mount failed and left its empty
 * directory. True with the first such word of label, as written there, in word. */
bool vb_label_names_other_fs(const char *label, const char *fs, char *word, size_t n);

/* Whether direct I/O on filesystem fs (as vb_os_detect names it) may still go through
 * a cache (ZFS keeps O_DIRECT data in its ARC), so that a warning is due. */
bool vb_fs_direct_may_cache(const char *fs);

/* Whether filesystem fs (as vb_os_detect names it) writes metadata of its own at every
 * sync of a file (copy on write): a sync there costs work whatever the storage does. */
bool vb_fs_copy_on_write(const char *fs);

/* How the writes of a run are cached, for the header and the CSV: "buffered I/O" or
 * "direct I/O" as asked, unless the platform says otherwise (vb_env.cache): a raw disk is
 * never cached, and some file systems buffer what --direct asks to write directly.
 * overwrite and warmups tell whether the counted runs rewrite a file already written;
 * filled, that vbench wrote it before the clock for that reason (vb_plan_fill_first). */
const char *vb_io_mode(const struct vb_env *e, bool direct, bool overwrite, uint64_t warmups,
		       bool filled);

#endif
