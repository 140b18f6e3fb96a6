#ifndef VB_BSD_H
#define VB_BSD_H

/* The BSD in-use check and the parsers it reads the kernels' answers with (bsd_inuse.c).
 * Pure code over a table of the system calls it needs, compiled on every system: bsd.c
 * hands in the real calls, tests/test_os_bsd.c hands in fakes. */

#include "os/os_internal.h"

/* A mount as getmntinfo(3) reports it. */
struct vb_os_bsd_mount {
	const char *from;        /* f_mntfromname: "/dev/ada0p2", "ROOT", "zroot/usr" */
	const char *on;          /* f_mntonname */
	const char *fstype;      /* f_fstypename */
};

/* A swap area, as the kernel lists it: by device number (FreeBSD and DragonFly
 * xswdev.xsw_dev, a character device), by path (NetBSD swapent.se_path, a device or a
 * file), or by neither (xsw_dev NODEV: a swap file on NFS, whose name is not given). */
struct vb_os_bsd_swap {
	const char *path;        /* NULL when not given */
	uint64_t rdev;
	bool has_rdev;
};

/* A file that a vnode disk (md(4), vnd(4), vn(4)) is made from: its identity where the
 * kernel gives it (vnd_user, vn_user: vnu_dev, vnu_ino), else its path (FreeBSD GEOM). */
struct vb_os_bsd_backing {
	const char *unit;        /* "md0", "vnd0" */
	const char *path;        /* NULL when has_id */
	uint64_t dev, ino;
	bool has_id;
};

/* What the check asks the system. The list calls return how many entries they put in
 * *out (owned by ctx until the check is over), or -1 with why they could not in why. */
struct vb_os_bsd_sys {
	void *ctx;
	/* devname(3) of device rdev as a block (blk) or character device; false: none. */
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
	/* FreeBSD: vb_os_bsd_geom_busy over kern.geom.confxml, -1 (with the reason in holder)
	 * when it cannot be read; NULL elsewhere. GEOM then answers for swap and ZFS. */
	int (*geom_busy)(void *ctx, const char *disk, const char *target, int own_r, int own_w,
			 char *holder, size_t n);
	/* NetBSD and DragonFly: the kernel's list of its disks, names parted by spaces
	 * (hw.disknames, kern.disks), or NULL with why; NULL where GEOM answers instead. */
	const char *(*disknames)(void *ctx, char *why, size_t wn);
	/* What vbench's own descriptor of the target holds open: a read, a write (0 or 1
	 * each; both 0 when the check is made before the open). */
	int own_r, own_w;
};

/* Whether the file or disk fi may be written: 1 with what holds it in holder when it or
 * the disk it lies on is mounted, used as swap, held by GEOM, or (a file) backs a vnode
 * disk or is a swap file; -1 with the check that could not decide and why; else 0. */
int vb_os_bsd_check_in_use(const struct vb_os_bsd_sys *sys, const struct vb_fileinfo *fi,
			char *holder, size_t n);

/* The whole disk device name (under /dev, "rdk1", "serno/X.s1a") lies on, resolved as
 * the in-use check does: a wedge to its parent, a GEOM provider through GEOM, a
 * partition, slice or raw twin by its name, a link through the node it names. */
bool vb_os_bsd_resolve(const struct vb_os_bsd_sys *sys, const char *name, char *disk, size_t n);

/* The first unit in disknames (as vb_os_bsd_sys.disknames gives them) other than disk that
 * is not a plain disk (vb_os_bsd_plain_disk), so may be made of other disks without their
 * mounts showing it: NetBSD's cgd, raid (RAIDframe), ccd and LVM volumes ("vg0-lv0"),
 * DragonFly's device-mapper disks ("mapper/NAME": dm, dmirror) and ccd, and any name
 * vbench does not know; into unit, false when there is none. */
bool vb_os_bsd_stacked_unit(const char *disknames, const char *disk, char *unit, size_t n);

/* DragonFly's struct xswdev (sys/vm/vm_param.h of DragonFly; not among the compile
 * check's headers, and unlike FreeBSD's): an array of them is what sysctl
 * vm.swap_info_array returns, one per swap slot (vm_swap.c, sysctl_vm_swap_info). */
struct vb_os_dfly_xswdev {
	size_t xsw_size;         /* sizeof the kernel's struct: the stride of the array */
	int xsw_version;         /* XSWDEV_VERSION, 1 */
	int xsw_flags;           /* SW_FREED (sys/conf.h, 0x01): the slot is live */
	uint32_t xsw_dev;        /* dev_t (32 bits on DragonFly); NODEV for an NFS file */
	size_t xsw_blksize;
	size_t xsw_nblks;
	size_t xsw_used;
};

/* Parses the bytes of vm.swap_info_array (len of them) into at most max swaps (their
 * rdev, or none for NODEV); the count, or -1 when the bytes are not such an array. */
long vb_os_dfly_swap_parse(const void *buf, size_t len, struct vb_os_bsd_swap *out, size_t max);

/* FreeBSD kern.geom.conftxt: the files md(4) disks are made from ("0 MD md0 ... t
 * vnode file /path"), into out (at most max, paths pointing into the copy held in
 * store, of size sn); the count, or -1 when a line cannot be read. */
long vb_os_fbsd_md_files(const char *conftxt, struct vb_os_bsd_backing *out, size_t max,
			 char *store, size_t sn);

/* NetBSD vnd(4) (drv "vnd") and DragonFly vn(4) (drv "vn", listed_idle: a unit is
 * listed whether configured or not): the units made from a file. Each unit named in
 * disknames (hw.disknames: "wd0 dk0 vnd1"; kern.disks) is asked by get (VNDIOCGET or
 * VNIOCGET on unit: 0 with the file's dev and ino, both 0 for a unit not configured or
 * not made from a file; -1 with errno), into out (at most max) named in names; the
 * count, or -1 with why (a listed vnd unit that names no file too). */
long vb_os_bsd_vnd_walk(const char *disknames, const char *drv, bool listed_idle,
			int (*get)(void *ctx, int unit, uint64_t *dev, uint64_t *ino), void *ctx,
			struct vb_os_bsd_backing *out, char (*names)[16], size_t max, char *why,
			size_t wn);

/* Reads a value whose size can change between the call that sizes it and the call that
 * reads it (a sysctl): get(ctx, NULL, &len) asks the size, get(ctx, buf, &len) reads,
 * both 0 or -1 with errno (ENOMEM: it grew). Retries with more room a few times; the
 * bytes (NUL-terminated one past *len, freed by the caller), or NULL with errno. */
char *vb_os_bsd_read_grown(int (*get)(void *ctx, void *buf, size_t *len), void *ctx,
			size_t *len);

/* NetBSD: the size in bytes of the partition or wedge a disk node names. media is the
 * whole disk (DIOCGMEDIASIZE); part_bytes the partition's own (DIOCGPARTINFO, or the
 * wedge's dkw_size in sectors), 0 when not known; raw whether the node is the raw
 * partition (getrawpartition(3)), which covers the whole disk. 0 when it cannot say. */
uint64_t vb_os_bsd_part_bytes(uint64_t media, uint64_t part_bytes, bool raw);

/* NetBSD: whether name ("rwd0d", "wd0e", "sd1c") is partition letter raw_letter of its
 * disk, i.e. the whole disk. */
bool vb_os_bsd_is_raw_part(const char *name, char raw_letter);

/* What caching writes meet (vb_env.cache) on system sys ("FreeBSD", "NetBSD",
 * "DragonFly") in file system fs (as vb_os_detect names it), or on a raw disk (chr_disk:
 * a character device that answers as a disk). */
enum vb_cache vb_os_bsd_cache_truth(const char *sys, const char *fs, bool chr_disk);

#endif
