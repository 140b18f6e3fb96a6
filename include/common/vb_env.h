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
	char write_cache[16];     /* the kernel's belief: "write back", "write through", "" */
	char write_cache_where[96]; /* where read: "/sys/block/vda/queue/write_cache" */
	enum vb_cache cache;      /* what caching the writes meet, from the platform */
	bool frees_to_host;       /* free page reporting: allocating waits for the host */
	bool fs_in_memory;        /* tmpfs, ramfs: no disk is written */
	char loop_buffered[32];   /* a loop device without direct I/O underneath, or "" */
};

/* The default label, "<fs>-<driver>" ("ext4-virtio_blk"): "none" and "unknown" left
 * out, only [A-Za-z0-9._-] kept, since labels end up in file names and shell loops. */
void vb_env_label(const struct vb_env *e, char *buf, size_t n);

/* Whether a word of label names a file system type of another family than fs ("ext2fs"
 * and "ext4" are one), as when a mount failed and left its empty directory; true with
 * that word in word. */
bool vb_label_names_other_fs(const char *label, const char *fs, char *word, size_t n);

/* Whether direct I/O on fs may still be cached (ZFS keeps O_DIRECT data in its ARC). */
bool vb_fs_direct_may_cache(const char *fs);

/* Whether fs writes its own metadata at every sync (copy on write). */
bool vb_fs_copy_on_write(const char *fs);

/* How a run's writes are cached, for the header and the CSV: "buffered I/O" or "direct
 * I/O" unless e->cache says otherwise; overwrite, warmups and filled tell whether the
 * counted runs rewrite a file already written. */
const char *vb_io_mode(const struct vb_env *e, bool direct, bool overwrite, uint64_t warmups,
		       bool filled);

#endif
