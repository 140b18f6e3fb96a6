#ifndef VB_BSD_H
#define VB_BSD_H

/* The BSD in-use check and its parsers of the kernels' answers (bsd_inuse.c): pure code
 * over a table of system calls, real in bsd.c, fakes in tests/test_os_bsd.c. */

#include "os/os_internal.h"

/* A mount as getmntinfo(3) reports it. */
struct vb_os_bsd_mount {
	const char *from;        /* f_mntfromname: "/dev/ada0p2", "ROOT", "zroot/usr" */
	const char *on;          /* f_mntonname */
	const char *fstype;      /* f_fstypename */
};

/* A swap area: by device number (FreeBSD and DragonFly xswdev.xsw_dev), by path (NetBSD
 * swapent.se_path), or by neither (xsw_dev NODEV: an NFS swap file, not named). */
struct vb_os_bsd_swap {
	const char *path;        /* NULL when not given */
	uint64_t rdev;
	bool has_rdev;
};

/* The file a vnode disk (md(4), vnd(4), vn(4)) is made from: its identity where the
 * kernel gives it (vnd_user, vn_user: vnu_dev, vnu_ino), else its path (FreeBSD GEOM). */
struct vb_os_bsd_backing {
	const char *unit;        /* "md0", "vnd0" */
	const char *path;        /* NULL when has_id */
	uint64_t dev, ino;
	bool has_id;
};

/* What the check asks the system. The list calls return their count, entries in *out
 * (owned by ctx until the check is over), or -1 with the reason in why. */
struct vb_os_bsd_sys {
	void *ctx;
	/* devname(3) of rdev as a block (blk) or character device; false: none. */
	bool (*devname)(void *ctx, uint64_t rdev, bool blk, char *buf, size_t n);
	/* stat(2), links followed; 0, or -1 with errno. */
	int (*stat)(void *ctx, const char *path, struct vb_fileinfo *fi);
	/* NetBSD: the parent disk of wedge name ("dk1") by DIOCGWEDGEINFO; 1, or -1 with
	 * errno. NULL where there are no wedges. */
	int (*wedge_parent)(void *ctx, const char *name, char *parent, size_t n);
	/* FreeBSD: the disk under GEOM provider name (kern.geom.conftxt); NULL elsewhere. */
	bool (*geom_disk)(void *ctx, const char *name, char *disk, size_t n);
	long (*mounts)(void *ctx, const struct vb_os_bsd_mount **out, char *why, size_t wn);
	long (*swaps)(void *ctx, const struct vb_os_bsd_swap **out, char *why, size_t wn);
	long (*backings)(void *ctx, const struct vb_os_bsd_backing **out, char *why, size_t wn);
	/* FreeBSD: vb_os_bsd_geom_busy over kern.geom.confxml, which then answers for swap
	 * and ZFS; -1 with the reason in holder when unreadable. NULL elsewhere. */
	int (*geom_busy)(void *ctx, const char *disk, const char *target, int own_r, int own_w,
			 char *holder, size_t n);
	/* NetBSD and DragonFly: the kernel's disks parted by spaces (hw.disknames,
	 * kern.disks), or NULL with why; NULL where GEOM answers instead. */
	const char *(*disknames)(void *ctx, char *why, size_t wn);
	/* What vbench's own descriptor of the target holds: a read, a write (0 or 1 each). */
	int own_r, own_w;
};

/* Whether the file or disk fi may be written: 1 with the holder when it or its disk is
 * mounted, swap, held by GEOM, or (a file) backs a vnode disk; -1 with what could not be
 * decided and why; else 0. */
int vb_os_bsd_check_in_use(const struct vb_os_bsd_sys *sys, const struct vb_fileinfo *fi,
			char *holder, size_t n);

/* The whole disk device name ("rdk1", "serno/X.s1a") lies on: a wedge by its parent, a
 * GEOM provider through GEOM, a partition or raw twin by name, a link by its node. */
bool vb_os_bsd_resolve(const struct vb_os_bsd_sys *sys, const char *name, char *disk, size_t n);

/* The first unit in disknames other than disk that is not a plain disk, so may be made
 * of others without a mount showing it (NetBSD's cgd, raid, ccd, LVM "vg0-lv0";
 * DragonFly's "mapper/NAME" and ccd; any unknown name); false when there is none. */
bool vb_os_bsd_stacked_unit(const char *disknames, const char *disk, char *unit, size_t n);

/* DragonFly's struct xswdev (sys/vm/vm_param.h of DragonFly, not among the compile
 * check's headers): vm.swap_info_array is an array of them, one per swap slot (vm_swap.c,
 * sysctl_vm_swap_info). */
struct vb_os_dfly_xswdev {
	size_t xsw_size;         /* sizeof the kernel's struct: the stride of the array */
	int xsw_version;         /* XSWDEV_VERSION, 1 */
	int xsw_flags;           /* SW_FREED (sys/conf.h, 0x01): the slot is live */
	uint32_t xsw_dev;        /* dev_t (32 bits on DragonFly); NODEV for an NFS file */
	size_t xsw_blksize;
	size_t xsw_nblks;
	size_t xsw_used;
};

/* Parses len bytes of vm.swap_info_array into at most max swaps; the count, or -1 when
 * the bytes are not such an array. */
long vb_os_dfly_swap_parse(const void *buf, size_t len, struct vb_os_bsd_swap *out, size_t max);

/* FreeBSD kern.geom.conftxt: the files md(4) disks are made from ("0 MD md0 ... t vnode
 * file /path"), at most max, their texts kept in store (sn bytes); the count, or -1 when
 * a line cannot be read. */
long vb_os_fbsd_md_files(const char *conftxt, struct vb_os_bsd_backing *out, size_t max,
			 char *store, size_t sn);

/* NetBSD vnd(4) (drv "vnd") and DragonFly vn(4) (drv "vn", listed_idle: listed even when
 * not configured): each unit disknames names is asked by get (VNDIOCGET, VNIOCGET: 0 with
 * the file's dev and ino, both 0 when it has none; -1 with errno), into out (at most max)
 * named in names; the count, or -1 with why. */
long vb_os_bsd_vnd_walk(const char *disknames, const char *drv, bool listed_idle,
			int (*get)(void *ctx, int unit, uint64_t *dev, uint64_t *ino), void *ctx,
			struct vb_os_bsd_backing *out, char (*names)[16], size_t max, char *why,
			size_t wn);

/* Reads a value that may grow between sizing and reading (a sysctl): get(ctx, NULL, &len)
 * sizes, get(ctx, buf, &len) reads, each 0 or -1 with errno (ENOMEM: it grew). The bytes,
 * NUL-terminated, for the caller to free; or NULL with errno. */
char *vb_os_bsd_read_grown(int (*get)(void *ctx, void *buf, size_t *len), void *ctx,
			size_t *len);

/* NetBSD: the bytes of the partition or wedge a disk node names, from the whole disk's
 * media size (DIOCGMEDIASIZE), the partition's own (DIOCGPARTINFO or dkw_size; 0 when
 * not known), and whether it is the raw partition (getrawpartition(3)); 0: unknown. */
uint64_t vb_os_bsd_part_bytes(uint64_t media, uint64_t part_bytes, bool raw);

/* NetBSD: whether name ("rwd0d", "sd1c") is partition raw_letter of its disk. */
bool vb_os_bsd_is_raw_part(const char *name, char raw_letter);

/* What caching writes meet (vb_env.cache) on sys ("FreeBSD", "NetBSD", "DragonFly") in
 * file system fs, or on a raw disk (chr_disk). */
enum vb_cache vb_os_bsd_cache_truth(const char *sys, const char *fs, bool chr_disk);

#endif
