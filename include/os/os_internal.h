#ifndef VB_OS_INTERNAL_H
#define VB_OS_INTERNAL_H

/* What the platform layer's files share; included first, because the feature macros
 * that show each C library's extensions (O_DIRECT, F_NOCACHE, ...) precede any header. */
#define _GNU_SOURCE
#define _DARWIN_C_SOURCE
#define _NETBSD_SOURCE
#define _BSD_SOURCE
#define _DEFAULT_SOURCE

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/vb_escape.h"
#include "os/vb_os.h"

/* The family compiled for: each file is empty except on its own system. */
#if defined(_WIN32)
#define VB_OS_WINDOWS 1
#else
#define VB_OS_POSIX 1
#if defined(__linux__)
#define VB_OS_LINUX 1
#elif defined(__FreeBSD__) || defined(__DragonFly__) || defined(__NetBSD__)
#define VB_OS_BSD 1
#elif defined(__APPLE__)
#define VB_OS_MACOS 1
#else
#error "vbench is built for Linux, FreeBSD, DragonFly, NetBSD, macOS and Windows only"
#endif
#endif

/* The family calls a family defines itself; the others get defaults.c's. */
#if VB_OS_LINUX
#define VB_FAM_HAS_AVAIL_MEM 1
#define VB_FAM_HAS_OPEN_REGULAR 1
#define VB_FAM_HAS_RESERVE 1
#elif VB_OS_MACOS
#define VB_FAM_HAS_AFTER_OPEN 1
#endif

/* The signal that interrupts a blocked call without asking to stop (POSIX). */
#define VB_WAKE_SIGNAL SIGURG

/* ---- what each POSIX family provides to posix.c (linux.c, bsd.c, macos.c) ---------- */

/* The family's capabilities. */
extern const struct vb_caps vb_os_fam_caps;

/* Open flags for req beyond O_WRONLY (direct I/O, O_DSYNC, anonymous file); -1 with
 * errno when the family cannot do what req asks. */
int vb_os_fam_open_flags(const struct vb_open_req *req, int *flags);

/* What must follow the open (F_NOCACHE on macOS); 0, or -1 with errno. */
int vb_os_fam_after_open(int fd, const struct vb_open_req *req);

/* The end-of-run call. */
int vb_os_fam_sync(int fd, enum vb_sync_call call);

/* Size and sector size when fd is a disk; 0, or -1 when it is not one. */
int vb_os_fam_disk(int fd, struct vb_disk *d);

/* Direct I/O granularity of fd or of the device under it; 0 when unknown. */
uint32_t vb_os_fam_logical_block(int fd);

/* See vb_io_ops.in_use. */
int vb_os_fam_in_use(int fd, const struct vb_fileinfo *fi, char *holder, size_t n);

/* Fills the target part of e (fs, mount, device, driver, block sizes) for fd/path. */
void vb_os_fam_detect(struct vb_env *e, int fd, const char *path);

/* Total memory in bytes, 0 when unknown. */
uint64_t vb_os_fam_ram_bytes(void);

/* Whether this process may use the blocks dirfd's file system reserves for the
 * privileged (f_bfree beyond f_bavail), with in *kept what it withholds even then;
 * false when that cannot be told. */
bool vb_os_fam_reserve_usable(int dirfd, uint64_t *kept);

/* What vb_os_fam_open_regular returns when it opened nothing. */
#define VB_REG_NONE (-1)      /* nothing is at path */
#define VB_REG_OTHER (-2)     /* something other than a regular file is: st says what */
#define VB_REG_FAIL (-3)      /* it cannot be examined or opened: why says why */

/* Opens the existing regular file at path with flags, not following the last component,
 * decided before an open could act on anything else (wake a FIFO's reader, arm a
 * watchdog). The descriptor with st describing it, or a VB_REG_ value. */
struct stat;
int vb_os_fam_open_regular(const char *path, int flags, struct stat *st, char *why, size_t n);

/* common.c (POSIX): what st says of a file, as vb_os_io.fstat gives it. */
void vb_os_fileinfo(const struct stat *st, struct vb_fileinfo *fi);

/* defaults.c: vb_os_fam_open_regular by the name, examined first and checked after. */
int vb_os_open_regular_by_name(const char *path, int flags, struct stat *st, char *why,
			       size_t n);

/* ---- helpers every platform file shares (common.c) ---------------------------------- */

/* Copies src into dst of size n, truncating, always terminated when n > 0. */
void vb_os_copy(char *dst, size_t n, const char *src);

/* Copies text read from the system that vbench shows (a vb_env field) into the array
 * dst; one too long is cut at a character and marked (vb_text_cut), never silently. */
#define VB_OS_SHOW(dst, src) ((void)vb_text_cut((dst), sizeof(dst), (src), false))

/* The last component of path. */
const char *vb_os_base_name(const char *path);

/* "unknown", the value of every environment field that cannot be found. */
extern const char vb_os_unknown[];

/* Sets every text field of e to "unknown" and every number to 0. */
void vb_os_env_reset(struct vb_env *e);

/* vb_os_path_split with the separators in seps ("/" on POSIX, "/\\" on Windows). */
bool vb_os_path_split_at(const char *path, const char *seps, char *dir, size_t dn, char *base,
			 size_t bn);

#if VB_OS_LINUX
/* linux.c, with a root prefix ("" for the real system) so that tests can hand in a fake
 * /proc and /sys: the bytes of a /proc/meminfo line ("MemTotal"), 0 when absent. */
uint64_t vb_os_linux_meminfo(const char *root, const char *key);

/* linux.c: whether a virtio balloon reports free pages to the host (feature 5), and
 * page_reporting_order is below the orders of /proc/buddyinfo (else it is paused). */
bool vb_os_linux_frees_to_host(const char *root);

/* linux.c: names by its statfs f_type the file system vb_os_linux_detect left unknown
 * (its mount unlisted: a chroot); "ext2/3/4" share one. */
void vb_os_linux_fs_unlisted(struct vb_env *e, uint64_t magic);

/* linux.c: the filesystem, mount, device, driver and block sizes of the target at the
 * absolute path, whose identity is fi (its st_dev, or for a block device its rdev). */
void vb_os_linux_detect(struct vb_env *e, const char *root, const char *path,
			const struct vb_fileinfo *fi);

/* linux.c: vb_io_ops.in_use for fi, a regular file's absolute path being path (NULL:
 * unknown). own_locks: the OFD and flock locks on fi's inode are vbench's own. */
int vb_os_linux_in_use(const char *root, const struct vb_fileinfo *fi, const char *path,
		       bool own_locks, char *holder, size_t n);

/* linux.c: whether other is part of the storage of fi (a file at path, or a disk): 1
 * with why filled, 0, or -1 when it cannot be told. */
int vb_os_linux_shared(const char *root, const struct vb_fileinfo *fi, const char *path,
		       const struct vb_fileinfo *other, char *why, size_t n);

/* linux.c: vb_os_fam_reserve_usable for the file system on device dev. */
bool vb_os_linux_reserve_usable(const char *root, uint64_t dev, uint64_t *kept);
#endif

/* common.c: the inode vb_os_hold locked (one per process: the target), so that the
 * in-use check knows those locks. */
extern struct vb_os_held {
	bool set;
	uint64_t dev, ino;
} vb_os_held;

/* ---- pure parts, compiled on every system so that they are tested everywhere -------- */

/* bsd_names.c: the driver a BSD disk name means ("vtbd0" -> "virtio_blk"), or "unknown";
 * a leading "r" (raw twin) is tried without it. */
const char *vb_os_bsd_driver_for_name(const char *name);

/* bsd_names.c: whether name is a unit of a driver whose disks are made of no other disk
 * ("wd1", "vnd0"). */
bool vb_os_bsd_plain_disk(const char *name);

/* bsd_names.c: the whole disk of a partition, slice or label name ("ada0s1a" -> "ada0",
 * "rwd1d" -> "wd1"); false when name is no disk name. */
bool vb_os_bsd_disk_of(const char *name, char *disk, size_t n);

/* bsd_names.c: the label a BSD filesystem type name is shown with. */
const char *vb_os_bsd_fs_name(const char *fstypename);

/* bsd_names.c: whether the BSD file system fstypename keeps its files in memory. */
bool vb_os_bsd_fs_in_memory(const char *fstypename);

/* bsd_names.c: the whole disk under GEOM provider name ("gpt/rootfs") in FreeBSD's
 * kern.geom.conftxt ("DEPTH CLASS NAME ..." lines); false when it is not there. */
bool vb_os_bsd_geom_disk(const char *conftxt, const char *name, char *disk, size_t n);

/* bsd_names.c: whether FreeBSD's kern.geom.confxml shows disk in use by another than
 * vbench, whose open of provider target (NULL: none) holds own_r and own_w: 1 with the
 * holder in holder, 0 when none, -1 when it cannot tell. */
int vb_os_bsd_geom_busy(const char *confxml, const char *disk, const char *target, int own_r,
			int own_w, char *holder, size_t n);

/* bsd_wcache.c: the sysctl of a FreeBSD virtio disk's write cache mode ("vtbd0" ->
 * "dev.vtblk.0.writecache_mode"); false for any other disk. */
bool vb_os_bsd_vtblk_sysctl(const char *disk, char *name, size_t n);

/* bsd_wcache.c: that sysctl's value as "write through" (0), "write back" (1), or NULL. */
const char *vb_os_bsd_vtblk_cache_mode(int mode);

/* win_names.c: a disk's driver label: its known service name ("stornvme"), else its
 * STORAGE_BUS_TYPE (17 "nvme", 11 "sata", ...), else "unknown". */
void vb_os_win_driver_label(int bus, const char *service, char *out, size_t n);

/* win_names.c: the label for GetVolumeInformation's file system name ("NTFS" -> "ntfs",
 * "RAW" -> "none", "" -> "unknown"). */
void vb_os_win_fs_label(const char *name, char *out, size_t n);

/* Where a volume lies, as Windows answers (IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS). */
enum vb_os_win_where { VB_WIN_VOL_OFF_DISK, VB_WIN_VOL_ON_DISK, VB_WIN_VOL_UNKNOWN };

/* What Windows says of one volume, for the in-use decision. */
struct vb_os_win_volume {
	const char *name;        /* "\\?\Volume{...}\" */
	const char *mount;       /* "E:\", or "" when it has no drive letter or folder */
	const char *fs;          /* its file system ("NTFS"), "RAW", or "" when not known */
	enum vb_os_win_where where; /* on the disk in question, on another, or not known */
	const char *why;         /* VB_WIN_VOL_UNKNOWN: what could not be done */
};

/* win_names.c: a disk's in-use decision from the system's volumes (complete: all of
 * them): 1 with the reason in holder when a volume lies on it (RAW included) or cannot
 * be examined; -1 when the list is incomplete; else 0. */
int vb_os_win_in_use(const struct vb_os_win_volume *v, size_t n_vols, bool complete, char *holder,
		     size_t n);

/* What a target path names on Windows, decided on the name alone. */
enum vb_os_win_name {
	VB_WIN_NAME_PLAIN,       /* a file or directory path */
	VB_WIN_NAME_NUL,         /* the null device: NUL alone, or \\.\NUL */
	VB_WIN_NAME_DISK,        /* a whole disk, \\.\PhysicalDriveN */
	VB_WIN_NAME_REFUSED      /* a reserved device name in a component (COM1, com1.dat,
				  * aux), a volume (\\.\E:), any other device */
};

/* win_names.c: the kind of path, with the reason in why when it is refused. */
enum vb_os_win_name vb_os_win_name_kind(const char *path, char *why, size_t n);

/* win_names.c: whether one path component is a reserved device name (CON, NUL, COM1,
 * LPT1, com1.dat, "aux ", ...). */
bool vb_os_win_is_reserved(const char *name);

/* The CreateFileW arguments vb_os_win_open_flags uses (winnt.h, winbase.h), here so
 * that it compiles everywhere; windows.c checks them. */
#define VB_WIN_GENERIC_READ 0x80000000u
#define VB_WIN_GENERIC_WRITE 0x40000000u
#define VB_WIN_DELETE 0x00010000u
#define VB_WIN_SHARE_READ 0x1u
#define VB_WIN_SHARE_WRITE 0x2u
#define VB_WIN_SHARE_DELETE 0x4u
#define VB_WIN_CREATE_NEW 1u
#define VB_WIN_OPEN_EXISTING 3u
#define VB_WIN_ATTRIBUTE_NORMAL 0x80u
#define VB_WIN_ATTRIBUTE_TEMPORARY 0x100u
#define VB_WIN_FLAG_WRITE_THROUGH 0x80000000u
#define VB_WIN_FLAG_NO_BUFFERING 0x20000000u
#define VB_WIN_FLAG_DELETE_ON_CLOSE 0x04000000u
#define VB_WIN_FLAG_OPEN_REPARSE_POINT 0x00200000u
#define VB_WIN_FLAG_BACKUP_SEMANTICS 0x02000000u

/* CreateFileW's access, share mode, creation disposition and flags. */
struct vb_os_win_open {
	uint32_t access, share, creation, flags;
};

/* win_names.c: how to open a target for req; device: a disk (\\.\PhysicalDriveN). */
void vb_os_win_open_flags(const struct vb_open_req *req, bool device, struct vb_os_win_open *o);

/* win_names.c: name as the component Windows would look up, trailing dots and spaces
 * dropped; false when nothing is left, or it holds a separator, a colon (a stream), a
 * wildcard or a control character. */
bool vb_os_win_component(const char *name, char *out, size_t n);

/* NtCreateFile's disposition and options (wdm.h), for opens relative to a held
 * directory, and the values of vb_os_win_nt_create. */
#define VB_NT_FILE_OPEN 0x1u
#define VB_NT_FILE_CREATE 0x2u
#define VB_NT_WRITE_THROUGH 0x2u
#define VB_NT_NO_INTERMEDIATE_BUFFERING 0x8u
#define VB_NT_SYNCHRONOUS_IO_NONALERT 0x20u
#define VB_NT_NON_DIRECTORY_FILE 0x40u
#define VB_NT_DELETE_ON_CLOSE 0x1000u
#define VB_NT_OPEN_FOR_BACKUP_INTENT 0x4000u
#define VB_NT_OPEN_REPARSE_POINT 0x200000u

struct vb_os_win_nt {
	uint32_t disposition, options, attributes;
};

/* win_names.c: NtCreateFile's disposition, options and attributes for what
 * CreateFileW would be given as o (access and sharing are the same for both). */
void vb_os_win_nt_create(const struct vb_os_win_open *o, struct vb_os_win_nt *nt);

/* GetFileType's answers and the attribute bits vb_os_win_handle_kind looks at. */
#define VB_WIN_FILE_TYPE_DISK 1u
#define VB_WIN_FILE_TYPE_CHAR 2u
#define VB_WIN_FILE_TYPE_PIPE 3u
#define VB_WIN_ATTRIBUTE_DIRECTORY 0x10u
#define VB_WIN_ATTRIBUTE_REPARSE_POINT 0x400u

/* What Windows says of an open handle. */
struct vb_os_win_handle {
	uint32_t file_type;      /* GetFileType */
	bool have_info;          /* GetFileInformationByHandle answered */
	uint32_t attributes;     /* its dwFileAttributes */
	bool disk_number;        /* IOCTL_STORAGE_GET_DEVICE_NUMBER answered */
	bool opened_as_nul;      /* it was opened as \\.\NUL */
};

/* win_names.c: the kind of file h is open on, and in *sink whether it is the null
 * device opened as NUL (every character device is FILE_TYPE_CHAR). */
enum vb_ftype vb_os_win_handle_kind(const struct vb_os_win_handle *h, bool *sink);

/* win_names.c: the absolute path full with the prefix that lifts MAX_PATH ("C:\x" ->
 * "\\?\C:\x", "\\srv\share\x" -> "\\?\UNC\srv\share\x"); false when out (n
 * characters) is too small. */
bool vb_os_win_long_path(const wchar_t *full, wchar_t *out, size_t n);

/* win_names.c: the volume device of a GetVolumeNameForVolumeMountPointW name
 * ("\\?\Volume{GUID}\") without its last backslash; false when name is none or out (n
 * characters) is too small. */
bool vb_os_win_volume_device(const wchar_t *name, wchar_t *out, size_t n);

/* win_names.c: a Windows version's name for the header ("11 (10.0.22631)"); server: a
 * server edition, x64: a 64-bit system. */
void vb_os_win_version_name(unsigned major, unsigned minor, unsigned build, bool server,
			    bool x64, char *out, size_t n);

#endif
