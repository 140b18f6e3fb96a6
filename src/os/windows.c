/* Windows: CreateFileW with FILE_FLAG_NO_BUFFERING for --direct and
 * FILE_FLAG_WRITE_THROUGH for --sync dsync, FlushFileBuffers for the syncs,
 * QueryPerformanceCounter for the clock, files of a directory target created with
 * CREATE_NEW and FILE_FLAG_DELETE_ON_CLOSE, disks as \\.\PhysicalDriveN and volumes as
 * \\.\E:, the console's Ctrl+C, Ctrl+Break and close as the stop signals, and the worker
 * as a thread whose blocked call CancelSynchronousIo interrupts. Descriptors are the C
 * runtime's, over the Win32 handles (_open_osfhandle); paths are UTF-8 inside vbench and
 * UTF-16 at the system. The pure rules are in win_names.c. */
#include "os_internal.h"

#if VB_OS_WINDOWS

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <initguid.h>   /* so that winioctl.h defines GUID_DEVINTERFACE_DISK */
#include <winioctl.h>
#include <bcrypt.h>
#include <cfgmgr32.h>
#include <setupapi.h>
#include <shellapi.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SIGBREAK
#define SIGBREAK 21
#endif

/* The device a character file on Windows stands for when it is the null device. */
#define VB_WIN_NUL 0x4e554cULL
/* Descriptors the directory table covers; the C runtime hands out small numbers. */
#define MAX_FDS 512

#define COPY(dst, src) vb_os_copy((dst), sizeof(dst), (src))

static const struct vb_caps caps = {
	.direct_how = "FILE_FLAG_NO_BUFFERING",
	.fsync_call = "FlushFileBuffers",
	.fdatasync_call = "FlushFileBuffers",
	.dsync_how = "FILE_FLAG_WRITE_THROUGH",
	.chr_disks = false,
	.status_how = NULL,
};

const struct vb_caps *vb_os_caps(void)
{
	return &caps;
}

/* ---- text and errors ------------------------------------------------------------------ */

/* UTF-8 to a new UTF-16 string, or NULL. */
static wchar_t *widen(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;

	if (w != NULL && MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n) <= 0) {
		free(w);
		w = NULL;
	}
	if (w == NULL)
		errno = ENOMEM;
	return w;
}

/* UTF-16 to UTF-8 into out of n bytes. */
static void narrow(const wchar_t *w, char *out, size_t n)
{
	if (n == 0)
		return;
	if (WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)n, NULL, NULL) <= 0)
		out[0] = '\0';
	out[n - 1] = '\0';
}

/* The errno a Win32 error means for vbench. */
static int map_error(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_DRIVE:
	case ERROR_BAD_NETPATH:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_WRITE_PROTECT:
		return EACCES;
	case ERROR_FILE_EXISTS:
	case ERROR_ALREADY_EXISTS:
		return EEXIST;
	case ERROR_DISK_FULL:
	case ERROR_HANDLE_DISK_FULL:
		return ENOSPC;
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
	case ERROR_BUSY:
		return EBUSY;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_INVALID_PARAMETER:
	case ERROR_INVALID_FUNCTION:
	case ERROR_NOT_SUPPORTED:
		return EINVAL;
	case ERROR_OPERATION_ABORTED:
		return EINTR;   /* CancelSynchronousIo: the watchdog or a stop */
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_BROKEN_PIPE:
	case ERROR_NO_DATA:
		return EPIPE;
	default:
		return EIO;
	}
}

static int fail_win(void)
{
	errno = map_error(GetLastError());
	return -1;
}

static HANDLE handle_of(int fd)
{
	return (HANDLE)_get_osfhandle(fd);
}

/* ---- the directory table ----------------------------------------------------------------- */

/* The full path of each directory descriptor: Win32 cannot open relative to a handle, so
 * names are joined to the path of the directory as it was opened. */
static wchar_t *dir_path[MAX_FDS];

/* dir_path[dirfd] + "\" + name, a new string, or NULL. */
static wchar_t *join(int dirfd, const char *name)
{
	wchar_t *w = widen(name);
	const wchar_t *d = dirfd >= 0 && dirfd < MAX_FDS ? dir_path[dirfd] : NULL;

	if (w == NULL || d == NULL) {
		free(w);
		errno = d == NULL ? EBADF : ENOMEM;
		return NULL;
	}
	size_t dl = wcslen(d), nl = wcslen(w);
	wchar_t *p = malloc((dl + nl + 2) * sizeof *p);
	if (p != NULL) {
		memcpy(p, d, dl * sizeof *p);
		size_t k = dl;
		if (k > 0 && d[k - 1] != L'\\' && d[k - 1] != L'/')
			p[k++] = L'\\';
		memcpy(p + k, w, (nl + 1) * sizeof *p);
	}
	free(w);
	return p;
}

/* A descriptor for handle h; the handle is closed when the descriptor cannot be made. */
static int fd_of(HANDLE h, int flags)
{
	int fd = _open_osfhandle((intptr_t)h, flags);

	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

/* ---- the clock, memory, randomness, the terminal ------------------------------------- */

uint64_t vb_now_ns(void)
{
	static LARGE_INTEGER freq;
	LARGE_INTEGER now;

	if (freq.QuadPart == 0)
		QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&now);
	return (uint64_t)(now.QuadPart / freq.QuadPart) * 1000000000ULL +
	       (uint64_t)(now.QuadPart % freq.QuadPart) * 1000000000ULL / (uint64_t)freq.QuadPart;
}

void vb_os_sleep_ms(unsigned ms)
{
	Sleep(ms);
}

unsigned vb_os_std_fds(void)
{
	unsigned closed = 0;

	for (int fd = 0; fd < 3; fd++) {
		if (_get_osfhandle(fd) == -1) {
			closed |= 1u << fd;
			int nul = _open("NUL", fd == 0 ? _O_RDONLY : _O_WRONLY);
			if (nul >= 0 && nul != fd) {
				_dup2(nul, fd);
				_close(nul);
			}
		}
		/* The bytes vbench writes are the bytes that arrive: no "\n" made "\r\n". */
		_setmode(fd, _O_BINARY);
	}
	SetConsoleOutputCP(CP_UTF8);
	return closed;
}

bool vb_os_isatty(int fd)
{
	return _isatty(fd) != 0;
}

uint64_t vb_os_avail_mem(void)
{
	MEMORYSTATUSEX m;

	memset(&m, 0, sizeof m);
	m.dwLength = sizeof m;
	return GlobalMemoryStatusEx(&m) ? m.ullAvailPhys : 0;
}

int vb_os_urandom(void *buf, size_t n)
{
	if (n > ULONG_MAX ||
	    !BCRYPT_SUCCESS(BCryptGenRandom(NULL, buf, (ULONG)n, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) {
		errno = EIO;
		return -1;
	}
	return 0;
}

bool vb_os_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn)
{
	return vb_path_split_at(path, "/\\", dir, dn, base, bn);
}

void *vb_os_aligned_alloc(size_t align, size_t n)
{
	void *p = _aligned_malloc(n, align);

	if (p == NULL)
		errno = ENOMEM;
	return p;
}

void vb_os_aligned_free(void *p)
{
	_aligned_free(p);
}

int vb_os_fileno(FILE *f)
{
	return _fileno(f);
}

FILE *vb_os_stream(int fd, const char *mode)
{
	return _fdopen(fd, mode);
}

int vb_os_write_all(int fd, const void *buf, size_t n)
{
	HANDLE h = handle_of(fd);
	const char *p = buf;

	while (n > 0) {
		DWORD done = 0, chunk = n > 0x40000000 ? 0x40000000 : (DWORD)n;
		if (!WriteFile(h, p, chunk, &done, NULL))
			return fail_win();
		if (done == 0) {
			errno = EIO;
			return -1;
		}
		p += done;
		n -= done;
	}
	return 0;
}

/* The command line as UTF-8, whatever the code page: Windows hands main() the arguments
 * in the ANSI code page, which cannot hold every file name. */
void vb_os_args(int *argc, char ***argv)
{
	int n = 0;
	wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
	char **out;

	if (w == NULL || n <= 0 || (out = calloc((size_t)n + 1, sizeof *out)) == NULL)
		return;
	for (int i = 0; i < n; i++) {
		int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, NULL, 0, NULL, NULL);
		out[i] = len > 0 ? malloc((size_t)len) : NULL;
		if (out[i] == NULL)
			return;
		WideCharToMultiByte(CP_UTF8, 0, w[i], -1, out[i], len, NULL, NULL);
	}
	LocalFree(w);
	*argc = n;
	*argv = out;
}

/* ---- file identities ------------------------------------------------------------------- */

/* The number, type and partition of the disk behind h, or -1. */
static int64_t device_number(HANDLE h)
{
	STORAGE_DEVICE_NUMBER sdn;
	DWORD got;

	if (!DeviceIoControl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &sdn, sizeof sdn, &got,
			     NULL))
		return -1;
	return ((int64_t)sdn.DeviceType << 40) | ((int64_t)sdn.DeviceNumber << 8) |
	       (int64_t)(sdn.PartitionNumber & 0xff);
}

/* Describes what h is open on. */
static void fill_info(HANDLE h, struct vb_fileinfo *fi)
{
	BY_HANDLE_FILE_INFORMATION bi;
	DWORD type = GetFileType(h);

	memset(fi, 0, sizeof *fi);
	if (type == FILE_TYPE_CHAR) {
		fi->type = VB_FT_CHR;
		fi->rdev = VB_WIN_NUL;
		return;
	}
	if (type == FILE_TYPE_PIPE) {
		fi->type = VB_FT_FIFO;
		return;
	}
	if (GetFileInformationByHandle(h, &bi)) {
		fi->type = bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT ? VB_FT_LINK :
			   bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? VB_FT_DIR : VB_FT_REG;
		fi->dev = bi.dwVolumeSerialNumber;
		fi->ino = ((uint64_t)bi.nFileIndexHigh << 32) | bi.nFileIndexLow;
		fi->nlink = bi.nNumberOfLinks;
		fi->size_bytes = ((uint64_t)bi.nFileSizeHigh << 32) | bi.nFileSizeLow;
		return;
	}
	/* A disk or a volume opened as a device has no file information. */
	int64_t num = device_number(h);
	fi->type = num >= 0 ? VB_FT_BLK : VB_FT_OTHER;
	fi->rdev = num >= 0 ? (uint64_t)num : 0;
	fi->nlink = 1;
}

/* Whether a name in the device namespace (\\.\PhysicalDrive1, \\.\E:) is meant. */
static bool device_path(const wchar_t *p)
{
	return wcsncmp(p, L"\\\\.\\", 4) == 0 || wcsncmp(p, L"\\\\?\\GLOBALROOT", 14) == 0;
}

/* ---- the ops table -------------------------------------------------------------------- */

static int w_open_dir(void *ctx, const char *path, bool nofollow)
{
	(void)ctx;
	wchar_t *w = widen(path), full[MAX_PATH * 4];
	if (w == NULL)
		return -1;
	int fd;
	if (wcscmp(w, L"\\\\.") == 0 || wcscmp(w, L"//.") == 0) {
		/* The device namespace: nothing to open, only a prefix to join to. */
		fd = _open("NUL", _O_RDONLY);
		if (fd >= 0 && fd < MAX_FDS) {
			free(dir_path[fd]);
			dir_path[fd] = _wcsdup(L"\\\\.");
		}
		free(w);
		return fd;
	}
	HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES,
			       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING,
			       FILE_FLAG_BACKUP_SEMANTICS | (nofollow ? FILE_FLAG_OPEN_REPARSE_POINT : 0),
			       NULL);
	if (h == INVALID_HANDLE_VALUE) {
		free(w);
		return fail_win();
	}
	BY_HANDLE_FILE_INFORMATION bi;
	if (device_path(w) || !GetFileInformationByHandle(h, &bi) ||
	    !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
		CloseHandle(h);
		free(w);
		errno = ENOTDIR;
		return -1;
	}
	DWORD len = GetFullPathNameW(w, sizeof full / sizeof full[0], full, NULL);
	free(w);
	fd = fd_of(h, _O_RDONLY);
	if (fd < 0)
		return -1;
	if (fd >= MAX_FDS || len == 0 || len >= sizeof full / sizeof full[0]) {
		_close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	free(dir_path[fd]);
	dir_path[fd] = _wcsdup(full);
	return fd;
}

/* A new unique name for an anonymous file ("vbench-XXXXXXXX.tmp"). */
static void temp_name(const char *prefix, char *name, size_t n)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[8];
	char tag[9];

	if (vb_os_urandom(rnd, sizeof rnd) != 0) {
		uint64_t x = vb_now_ns() ^ ((uint64_t)GetCurrentProcessId() << 32);
		memcpy(rnd, &x, sizeof rnd);
	}
	for (int i = 0; i < 8; i++)
		tag[i] = digits[rnd[i] % 36];
	tag[8] = '\0';
	snprintf(name, n, "%s-%s.tmp", prefix, tag);
}

static int w_openat(void *ctx, int dirfd, const char *name, const struct vb_open_req *req)
{
	char anon[64];
	DWORD access = GENERIC_WRITE, share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
	DWORD create = OPEN_EXISTING, flags = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT;

	(void)ctx;
	if (req->kind == VB_OPEN_ANON) {
		/* No name-less files here: a new name, deleted when its last handle closes, so
		 * that nothing is left even when vbench is killed. */
		temp_name("vbench", anon, sizeof anon);
		name = anon;
		create = CREATE_NEW;
		flags |= FILE_FLAG_DELETE_ON_CLOSE | FILE_ATTRIBUTE_TEMPORARY;
		access |= DELETE;
	} else if (req->kind == VB_OPEN_CREATE) {
		create = CREATE_NEW;
	}
	if (req->direct)
		flags |= FILE_FLAG_NO_BUFFERING;
	if (req->dsync)
		flags |= FILE_FLAG_WRITE_THROUGH;
	wchar_t *p = join(dirfd, name);
	if (p == NULL)
		return -1;
	if (device_path(p)) {
		access |= GENERIC_READ;   /* the disk ioctls need it */
		flags &= ~(DWORD)FILE_FLAG_OPEN_REPARSE_POINT;
		share = FILE_SHARE_READ | FILE_SHARE_WRITE;
	}
	HANDLE h = CreateFileW(p, access, share, NULL, create, flags, NULL);
	free(p);
	if (h == INVALID_HANDLE_VALUE)
		return fail_win();
	struct vb_fileinfo fi;
	fill_info(h, &fi);
	if (fi.type == VB_FT_LINK || fi.type == VB_FT_DIR) {
		CloseHandle(h);
		errno = fi.type == VB_FT_LINK ? ELOOP : EISDIR;
		return -1;
	}
	return fd_of(h, 0);
}

static int w_statat(void *ctx, int dirfd, const char *name, struct vb_fileinfo *fi)
{
	(void)ctx;
	memset(fi, 0, sizeof *fi);
	wchar_t *p = join(dirfd, name);
	if (p == NULL)
		return -1;
	bool dev = device_path(p);
	HANDLE h = CreateFileW(p, dev ? 0 : FILE_READ_ATTRIBUTES,
			       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING,
			       dev ? 0 : FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT,
			       NULL);
	if (h == INVALID_HANDLE_VALUE) {
		DWORD e = GetLastError();
		if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) {
			free(p);
			fi->type = VB_FT_MISSING;
			return 0;
		}
		if (e == ERROR_SHARING_VIOLATION && !dev) {
			/* open elsewhere without sharing: it exists, as a file */
			DWORD a = GetFileAttributesW(p);
			free(p);
			fi->type = a == INVALID_FILE_ATTRIBUTES ? VB_FT_OTHER :
				   a & FILE_ATTRIBUTE_DIRECTORY ? VB_FT_DIR : VB_FT_REG;
			fi->nlink = 1;
			return 0;
		}
		free(p);
		errno = map_error(e);
		return -1;
	}
	free(p);
	fill_info(h, fi);
	CloseHandle(h);
	return 0;
}

static int w_fstat(void *ctx, int fd, struct vb_fileinfo *fi)
{
	(void)ctx;
	HANDLE h = handle_of(fd);
	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	fill_info(h, fi);
	return 0;
}

static int w_unlinkat(void *ctx, int dirfd, const char *name)
{
	(void)ctx;
	wchar_t *p = join(dirfd, name);
	if (p == NULL)
		return -1;
	BOOL ok = DeleteFileW(p);
	free(p);
	return ok ? 0 : fail_win();
}

static ssize_t w_pwrite(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	OVERLAPPED ov;
	DWORD done = 0;

	(void)ctx;
	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)offset;
	ov.OffsetHigh = (DWORD)(offset >> 32);
	if (n > 0x40000000)
		n = 0x40000000;
	if (!WriteFile(handle_of(fd), buf, (DWORD)n, &done, &ov))
		return fail_win();
	return (ssize_t)done;
}

static int w_sync(void *ctx, int fd, enum vb_sync_call call)
{
	(void)ctx;
	if (call == VB_CALL_NONE)
		return 0;
	if (GetFileType(handle_of(fd)) == FILE_TYPE_CHAR) {
		errno = EINVAL;   /* the null device: nothing to flush, as fsync on /dev/null */
		return -1;
	}
	return FlushFileBuffers(handle_of(fd)) ? 0 : fail_win();
}

static int w_truncate(void *ctx, int fd)
{
	FILE_END_OF_FILE_INFO eof;

	(void)ctx;
	eof.EndOfFile.QuadPart = 0;
	return SetFileInformationByHandle(handle_of(fd), FileEndOfFileInfo, &eof, sizeof eof) ? 0
											  : fail_win();
}

static int w_dup(void *ctx, int fd)
{
	HANDLE h2;

	(void)ctx;
	if (!DuplicateHandle(GetCurrentProcess(), handle_of(fd), GetCurrentProcess(), &h2, 0,
			     FALSE, DUPLICATE_SAME_ACCESS))
		return fail_win();
	return fd_of(h2, 0);
}

static int w_close(void *ctx, int fd)
{
	(void)ctx;
	if (fd >= 0 && fd < MAX_FDS && dir_path[fd] != NULL) {
		free(dir_path[fd]);
		dir_path[fd] = NULL;
	}
	return _close(fd) == 0 ? 0 : -1;
}

/* Size and sector size of a disk or volume. */
static int geometry(HANDLE h, uint64_t *bytes, uint32_t *sector)
{
	GET_LENGTH_INFORMATION len;
	DISK_GEOMETRY_EX g;
	DWORD got;

	if (!DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &len, sizeof len, &got, NULL))
		return fail_win();
	*bytes = (uint64_t)len.Length.QuadPart;
	*sector = DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &g, sizeof g, &got,
				  NULL) ? g.Geometry.BytesPerSector : 0;
	return 0;
}

static int w_disk(void *ctx, int fd, struct vb_disk *d)
{
	(void)ctx;
	memset(d, 0, sizeof *d);
	return geometry(handle_of(fd), &d->size_bytes, &d->sector_bytes);
}

/* The root of the volume holding h ("C:\"), or "". */
static void volume_root(HANDLE h, wchar_t *root, size_t n)
{
	wchar_t path[MAX_PATH * 4];

	root[0] = L'\0';
	if (GetFinalPathNameByHandleW(h, path, sizeof path / sizeof path[0], VOLUME_NAME_DOS) == 0 ||
	    !GetVolumePathNameW(path, root, (DWORD)n))
		root[0] = L'\0';
}

static uint32_t w_logical_block(void *ctx, int fd)
{
	HANDLE h = handle_of(fd);
	uint64_t bytes;
	uint32_t sector = 0;
	wchar_t root[MAX_PATH];
	DWORD spc, bps, fc, tc;

	(void)ctx;
	if (geometry(h, &bytes, &sector) == 0 && sector > 0)
		return sector;
	volume_root(h, root, sizeof root / sizeof root[0]);
	if (root[0] != L'\0' && GetDiskFreeSpaceW(root, &spc, &bps, &fc, &tc))
		return bps;
	return 512;
}

/* The disk number of a disk or volume handle, or -1. */
static long disk_number_of(HANDLE h)
{
	int64_t num = device_number(h);

	return num < 0 ? -1 : (long)((num >> 8) & 0xffffffff);
}

/* Whether the volume at name (\\?\Volume{...}, no trailing backslash) lies on disk. */
static bool volume_on_disk(HANDLE v, long disk)
{
	union {
		VOLUME_DISK_EXTENTS x;
		char room[sizeof(VOLUME_DISK_EXTENTS) + 32 * sizeof(DISK_EXTENT)];
	} u;
	DWORD got;

	if (!DeviceIoControl(v, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0, &u, sizeof u, &got,
			     NULL))
		return false;
	for (DWORD i = 0; i < u.x.NumberOfDiskExtents && i < 33; i++)
		if ((long)u.x.Extents[i].DiskNumber == disk)
			return true;
	return false;
}

static int w_in_use(void *ctx, int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	struct vb_win_volume vols[64];
	char names[64][80], mounts[64][MAX_PATH], fss[64][32];
	wchar_t vname[MAX_PATH];
	size_t k = 0;

	(void)ctx;
	holder[0] = '\0';
	if (fi->type != VB_FT_BLK)
		return 0;
	long disk = (long)((fi->rdev >> 8) & 0xffffffff);
	(void)fd;
	HANDLE find = FindFirstVolumeW(vname, MAX_PATH);
	if (find == INVALID_HANDLE_VALUE) {
		snprintf(holder, n, "cannot tell whether it is in use: the volumes cannot be listed");
		return -1;
	}
	do {
		size_t len = wcslen(vname);
		wchar_t fsname[MAX_PATH + 1] = L"", paths[MAX_PATH] = L"";
		DWORD got = 0;
		if (len == 0 || k >= 64)
			continue;
		/* With the trailing backslash for the filesystem, without it for the device. */
		GetVolumeInformationW(vname, NULL, 0, NULL, NULL, NULL, fsname, MAX_PATH + 1);
		GetVolumePathNamesForVolumeNameW(vname, paths, MAX_PATH, &got);
		vname[len - 1] = L'\0';
		HANDLE v = CreateFileW(vname, GENERIC_READ | GENERIC_WRITE,
				       FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
		bool on = false, locked = false;
		if (v != INVALID_HANDLE_VALUE) {
			on = volume_on_disk(v, disk);
			if (on && DeviceIoControl(v, FSCTL_LOCK_VOLUME, NULL, 0, NULL, 0, &got, NULL))
				DeviceIoControl(v, FSCTL_UNLOCK_VOLUME, NULL, 0, NULL, 0, &got, NULL);
			else if (on)
				locked = true;
			CloseHandle(v);
		}
		vname[len - 1] = L'\\';
		narrow(vname, names[k], sizeof names[k]);
		narrow(paths, mounts[k], sizeof mounts[k]);
		narrow(fsname, fss[k], sizeof fss[k]);
		vols[k] = (struct vb_win_volume){names[k], mounts[k], fss[k], on, locked};
		k++;
	} while (FindNextVolumeW(find, vname, MAX_PATH));
	FindVolumeClose(find);
	return vb_win_in_use(vols, k, holder, n);
}

static bool w_is_sink(void *ctx, const struct vb_fileinfo *fi)
{
	(void)ctx;
	return fi->type == VB_FT_CHR && fi->rdev == VB_WIN_NUL;
}

static uint64_t w_now(void *ctx)
{
	(void)ctx;
	return vb_now_ns();
}

const struct vb_io_ops vb_os_io = {
	w_open_dir, w_openat, w_statat, w_fstat, w_unlinkat, w_pwrite, w_sync, w_truncate,
	w_dup, w_close, w_disk, w_logical_block, w_in_use, w_is_sink, w_now, NULL,
};

/* ---- detection ------------------------------------------------------------------------ */

/* The service name of the storage driver of disk number disk ("viostor"), found as the
 * service of the disk device's parent; "" when it cannot be had. */
static void storage_service(long disk, char *out, size_t n)
{
	HDEVINFO set = SetupDiGetClassDevsW(&GUID_DEVINTERFACE_DISK, NULL, NULL,
					    DIGCF_PRESENT | DIGCF_DEVICEINTERFACE);
	SP_DEVICE_INTERFACE_DATA ifd;

	memset(&ifd, 0, sizeof ifd);
	ifd.cbSize = sizeof ifd;
	out[0] = '\0';
	if (set == INVALID_HANDLE_VALUE)
		return;
	for (DWORD i = 0; out[0] == '\0' &&
	     SetupDiEnumDeviceInterfaces(set, NULL, &GUID_DEVINTERFACE_DISK, i, &ifd); i++) {
		union {
			SP_DEVICE_INTERFACE_DETAIL_DATA_W d;
			char room[sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_W) + 1024];
		} u;
		SP_DEVINFO_DATA dev;
		memset(&dev, 0, sizeof dev);
		dev.cbSize = sizeof dev;
		u.d.cbSize = sizeof u.d;
		if (!SetupDiGetDeviceInterfaceDetailW(set, &ifd, &u.d, sizeof u, NULL, &dev))
			continue;
		HANDLE h = CreateFileW(u.d.DevicePath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
				       OPEN_EXISTING, 0, NULL);
		if (h == INVALID_HANDLE_VALUE)
			continue;
		long num = disk_number_of(h);
		CloseHandle(h);
		DEVINST parent;
		wchar_t svc[128];
		ULONG len = sizeof svc;
		if (num == disk && CM_Get_Parent(&parent, dev.DevInst, 0) == CR_SUCCESS &&
		    CM_Get_DevNode_Registry_PropertyW(parent, CM_DRP_SERVICE, NULL, svc, &len, 0) ==
			    CR_SUCCESS)
			narrow(svc, out, n);
	}
	SetupDiDestroyDeviceInfoList(set);
}

/* Device, driver and sector sizes of the disk or volume handle v. */
static void describe_disk(struct vb_env *e, HANDLE v)
{
	STORAGE_PROPERTY_QUERY q;
	union {
		STORAGE_DEVICE_DESCRIPTOR d;
		char room[1024];
	} u;
	STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR al;
	DWORD got;
	char svc[128];
	long disk = disk_number_of(v);
	int bus = 0;

	if (disk >= 0)
		snprintf(e->device, sizeof e->device, "PhysicalDrive%ld", disk);
	memset(&q, 0, sizeof q);
	q.PropertyId = StorageDeviceProperty;
	q.QueryType = PropertyStandardQuery;
	if (DeviceIoControl(v, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &u, sizeof u, &got, NULL))
		bus = (int)u.d.BusType;
	q.PropertyId = StorageAccessAlignmentProperty;
	if (DeviceIoControl(v, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &al, sizeof al, &got,
			    NULL)) {
		e->logical_block = al.BytesPerLogicalSector;
		e->physical_block = al.BytesPerPhysicalSector;
	}
	storage_service(disk, svc, sizeof svc);
	if (bus != 0 || svc[0] != '\0')
		vb_win_driver_label(bus, svc, e->driver, sizeof e->driver);
}

void vb_os_detect(struct vb_env *e, int fd, const char *path)
{
	wchar_t host[256], root[MAX_PATH], fsname[MAX_PATH + 1];
	DWORD hn = sizeof host / sizeof host[0];
	MEMORYSTATUSEX m;
	HANDLE h = handle_of(fd);
	struct vb_fileinfo fi;

	(void)path;
	memset(&m, 0, sizeof m);
	m.dwLength = sizeof m;
	vb_os_env_reset(e);
	if (GetComputerNameExW(ComputerNameDnsHostname, host, &hn))
		narrow(host, e->host, sizeof e->host);
	COPY(e->os, "Windows");
	{
		typedef LONG(WINAPI * get_version_fn)(OSVERSIONINFOW *);
		get_version_fn gv = (get_version_fn)(void (*)(void))GetProcAddress(
			GetModuleHandleW(L"ntdll.dll"), "RtlGetVersion");
		OSVERSIONINFOW v;
		memset(&v, 0, sizeof v);
		v.dwOSVersionInfoSize = sizeof v;
		if (gv != NULL && gv(&v) == 0)
			snprintf(e->kernel, sizeof e->kernel, "%lu.%lu.%lu", v.dwMajorVersion,
				 v.dwMinorVersion, v.dwBuildNumber);
	}
	if (GlobalMemoryStatusEx(&m))
		e->ram_bytes = m.ullTotalPhys;
	if (h == INVALID_HANDLE_VALUE)
		return;
	fill_info(h, &fi);
	if (fi.type == VB_FT_BLK) {
		COPY(e->fs, "none");
		COPY(e->mount, "none");
		describe_disk(e, h);
		return;
	}
	if (GetVolumeInformationByHandleW(h, NULL, 0, NULL, NULL, NULL, fsname, MAX_PATH + 1))
		vb_win_fs_label((narrow(fsname, e->fs, sizeof e->fs), e->fs), e->fs, sizeof e->fs);
	volume_root(h, root, sizeof root / sizeof root[0]);
	if (root[0] == L'\0')
		return;
	const wchar_t *shown = wcsncmp(root, L"\\\\?\\", 4) == 0 ? root + 4 : root;
	narrow(shown, e->mount, sizeof e->mount);
	/* The volume as a device: \\.\C: for C:\ */
	wchar_t vol[MAX_PATH + 8];
	size_t len = wcslen(shown);
	if (len >= 2 && shown[1] == L':') {
		swprintf(vol, sizeof vol / sizeof vol[0], L"\\\\.\\%lc:", shown[0]);
		HANDLE v = CreateFileW(vol, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
				       OPEN_EXISTING, 0, NULL);
		if (v != INVALID_HANDLE_VALUE) {
			describe_disk(e, v);
			CloseHandle(v);
		}
	}
}

/* ---- stop requests: the console's Ctrl+C, Ctrl+Break and close ---------------------- */

static struct vb_sigflags *flags;
static HANDLE worker_thread_handle;
static volatile LONG finished;

static BOOL WINAPI on_console(DWORD event)
{
	int signo = event == CTRL_C_EVENT ? SIGINT : event == CTRL_BREAK_EVENT ? SIGBREAK : SIGTERM;
	int zero = 0;

	if (flags == NULL)
		return FALSE;
	atomic_compare_exchange_strong(&flags->stop, &zero, signo);
	if (worker_thread_handle != NULL)
		CancelSynchronousIo(worker_thread_handle);
	if (event == CTRL_CLOSE_EVENT || event == CTRL_LOGOFF_EVENT || event == CTRL_SHUTDOWN_EVENT) {
		/* Windows ends the process when this returns: give the main thread the few
		 * seconds it has to report and remove its file. */
		for (int i = 0; i < 45 && !finished; i++)
			Sleep(100);
	}
	return TRUE;
}

static void note_finished(void)
{
	finished = 1;
}

void vb_os_signals_install(struct vb_sigflags *f)
{
	flags = f;
	SetConsoleCtrlHandler(on_console, TRUE);
	atexit(note_finished);
}

void vb_os_on_resume(atomic_int *flag)
{
	(void)flag;   /* no SIGSTOP here */
}

_Noreturn void vb_os_die(int signo)
{
	fflush(stdout);
	fflush(stderr);
	exit(128 + signo);
}

/* ---- threads and the worker ------------------------------------------------------------ */

int vb_os_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, bool wakeable)
{
	pthread_attr_t attr;

	(void)wakeable;   /* CancelSynchronousIo reaches any thread */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256u << 10);
	int rc = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc;
}

vb_os_thread_t vb_os_thread_self(void)
{
	return (vb_os_thread_t)OpenThread(THREAD_TERMINATE | SYNCHRONIZE, FALSE,
					  GetCurrentThreadId());
}

void vb_os_thread_wake(vb_os_thread_t t)
{
	if (t != NULL)
		CancelSynchronousIo((HANDLE)t);
}

struct vb_worker {
	int chan;
	HANDLE read_end;
	HANDLE thread;
	int (*fn)(void *arg, int channel);
	void *arg;
	int wchan;
	volatile LONG done;
	int status;
};

void *vb_os_shared(size_t n)
{
	return calloc(1, n);
}

bool vb_os_worker_is_process(void)
{
	return false;
}

bool vb_os_worker_orphaned(void)
{
	return false;
}

static DWORD WINAPI worker_main(void *p)
{
	struct vb_worker *w = p;

	w->status = w->fn(w->arg, w->wchan);
	_close(w->wchan);   /* the end of the channel: the supervisor reads EOF */
	InterlockedExchange(&w->done, 1);
	return 0;
}

struct vb_worker *vb_os_worker_start(int (*fn)(void *arg, int channel), void *arg)
{
	struct vb_worker *w = calloc(1, sizeof *w);
	HANDLE r, wr;

	if (w == NULL)
		return NULL;
	if (!CreatePipe(&r, &wr, NULL, 1 << 20)) {
		free(w);
		fail_win();
		return NULL;
	}
	w->read_end = r;
	w->chan = fd_of(r, _O_RDONLY);
	w->wchan = fd_of(wr, 0);
	w->fn = fn;
	w->arg = arg;
	if (w->chan < 0 || w->wchan < 0) {
		free(w);
		return NULL;
	}
	w->thread = CreateThread(NULL, 1 << 20, worker_main, w, 0, NULL);
	if (w->thread == NULL) {
		_close(w->chan);
		_close(w->wchan);
		free(w);
		fail_win();
		return NULL;
	}
	worker_thread_handle = w->thread;
	return w;
}

ssize_t vb_os_worker_read(struct vb_worker *w, void *buf, size_t n, unsigned ms)
{
	uint64_t until = vb_now_ns() + (uint64_t)ms * 1000000ULL;

	for (;;) {
		DWORD avail = 0, got = 0;
		if (!PeekNamedPipe(w->read_end, NULL, 0, NULL, &avail, NULL))
			return GetLastError() == ERROR_BROKEN_PIPE ? 0 : fail_win();
		if (avail > 0) {
			if (!ReadFile(w->read_end, buf, avail < n ? avail : (DWORD)n, &got, NULL))
				return GetLastError() == ERROR_BROKEN_PIPE ? 0 : fail_win();
			return (ssize_t)got;
		}
		if (vb_now_ns() >= until) {
			errno = EAGAIN;
			return -1;
		}
		Sleep(5);
	}
}

void vb_os_worker_signal(struct vb_worker *w, int signo)
{
	(void)w;
	(void)signo;   /* the flags the console handler set are the worker's too */
}

void vb_os_worker_wake(struct vb_worker *w)
{
	if (!w->done)
		CancelSynchronousIo(w->thread);
}

bool vb_os_worker_wait(struct vb_worker *w, unsigned ms, int *status, int *signo)
{
	if (WaitForSingleObject(w->thread, ms) != WAIT_OBJECT_0)
		return false;
	*status = w->status;
	*signo = 0;
	return true;
}

void vb_os_worker_abandon(struct vb_worker *w)
{
	(void)w;   /* a thread stuck in the kernel ends with the process */
}

void vb_os_worker_free(struct vb_worker *w)
{
	if (w == NULL)
		return;
	_close(w->chan);
	if (w->done) {
		worker_thread_handle = NULL;
		CloseHandle(w->thread);
		free(w);
	}
}

/* ---- output files ----------------------------------------------------------------------- */

int vb_os_append_open(const char *path, char *why, size_t n)
{
	wchar_t *w = widen(path);
	BY_HANDLE_FILE_INFORMATION bi;

	if (w == NULL) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	HANDLE h = CreateFileW(w, GENERIC_READ | FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE,
			       NULL, OPEN_ALWAYS,
			       FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		snprintf(why, n, "%s", strerror(map_error(GetLastError())));
		return -1;
	}
	if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &bi) ||
	    bi.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT) ||
	    bi.nNumberOfLinks > 1) {
		if (GetFileType(h) == FILE_TYPE_PIPE)
			snprintf(why, n, "is a pipe; --csv-append needs a regular file");
		else if (GetFileInformationByHandle(h, &bi) &&
			 bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
			snprintf(why, n, "is a symbolic link; vbench does not follow links to files "
				 "it writes (give the path it points to)");
		else if (GetFileInformationByHandle(h, &bi) && bi.nNumberOfLinks > 1)
			snprintf(why, n, "has %lu hard links; vbench appends only to a file with one "
				 "name", (unsigned long)bi.nNumberOfLinks);
		else
			snprintf(why, n, "is not a regular file; --csv-append needs one");
		CloseHandle(h);
		return -1;
	}
	int fd = fd_of(h, _O_APPEND);
	if (fd < 0)
		snprintf(why, n, "%s", strerror(errno));
	return fd;
}

/* Windows byte-range locks are mandatory: one held here would refuse the writes of the
 * runs, which go through handles of their own. What shares the target is decided by the
 * share modes of its opens instead. */
int vb_os_hold(int fd, char *why, size_t n)
{
	(void)fd;
	(void)why;
	(void)n;
	return 0;
}

int vb_os_same_storage(int fd, int other_fd, char *why, size_t n)
{
	BY_HANDLE_FILE_INFORMATION a, b;

	if (!GetFileInformationByHandle(handle_of(fd), &a) ||
	    !GetFileInformationByHandle(handle_of(other_fd), &b))
		return 0;
	if (a.dwVolumeSerialNumber != b.dwVolumeSerialNumber || a.nFileIndexHigh !=
	    b.nFileIndexHigh || a.nFileIndexLow != b.nFileIndexLow)
		return 0;
	snprintf(why, n, "it is the same file");
	return 1;
}

int vb_os_lock(int fd, unsigned ms)
{
	uint64_t until = vb_now_ns() + (uint64_t)ms * 1000000ULL;
	OVERLAPPED ov;

	for (;;) {
		memset(&ov, 0, sizeof ov);
		if (LockFileEx(handle_of(fd), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0,
			       MAXDWORD, MAXDWORD, &ov))
			return 0;
		if (GetLastError() != ERROR_LOCK_VIOLATION)
			return fail_win();
		if (vb_now_ns() >= until) {
			errno = ETIMEDOUT;
			return -1;
		}
		Sleep(10);
	}
}

void vb_os_unlock(int fd)
{
	OVERLAPPED ov;

	memset(&ov, 0, sizeof ov);
	UnlockFileEx(handle_of(fd), 0, MAXDWORD, MAXDWORD, &ov);
}

int vb_os_truncate_to(int fd, uint64_t len)
{
	FILE_END_OF_FILE_INFO eof;
	/* The append descriptor may only append: cut through a second handle. */
	HANDLE h = ReOpenFile(handle_of(fd), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, 0);

	if (h == INVALID_HANDLE_VALUE)
		return fail_win();
	eof.EndOfFile.QuadPart = (LONGLONG)len;
	BOOL ok = SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof);
	CloseHandle(h);
	return ok ? 0 : fail_win();
}

ssize_t vb_os_pread(int fd, void *buf, size_t n, uint64_t offset)
{
	OVERLAPPED ov;
	DWORD got = 0;

	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)offset;
	ov.OffsetHigh = (DWORD)(offset >> 32);
	if (n > 0x40000000)
		n = 0x40000000;
	if (!ReadFile(handle_of(fd), buf, (DWORD)n, &got, &ov))
		return GetLastError() == ERROR_HANDLE_EOF ? 0 : fail_win();
	return (ssize_t)got;
}

int vb_os_create_temp(int dirfd, const char *prefix, char *name, size_t n)
{
	for (int tries = 0; tries < 100; tries++) {
		temp_name(prefix, name, n);
		wchar_t *p = join(dirfd, name);
		if (p == NULL)
			return -1;
		HANDLE h = CreateFileW(p, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL,
				       CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
		free(p);
		if (h != INVALID_HANDLE_VALUE)
			return fd_of(h, 0);
		if (GetLastError() != ERROR_FILE_EXISTS)
			return fail_win();
	}
	errno = EEXIST;
	return -1;
}

int vb_os_open_read(int dirfd, const char *name)
{
	struct vb_fileinfo fi;
	wchar_t *p = join(dirfd, name);

	if (p == NULL)
		return -1;
	HANDLE h = CreateFileW(p, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			       NULL, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	free(p);
	if (h == INVALID_HANDLE_VALUE)
		return fail_win();
	fill_info(h, &fi);
	if (fi.type != VB_FT_REG) {
		CloseHandle(h);
		errno = fi.type == VB_FT_LINK ? ELOOP : EINVAL;
		return -1;
	}
	return fd_of(h, _O_RDONLY);
}

int vb_os_rename(int dirfd, const char *from, const char *to)
{
	wchar_t *a = join(dirfd, from), *b = join(dirfd, to);
	BOOL ok = a != NULL && b != NULL && MoveFileExW(a, b, MOVEFILE_REPLACE_EXISTING);
	DWORD e = GetLastError();

	free(a);
	free(b);
	if (!ok) {
		errno = map_error(e);
		return -1;
	}
	return 0;
}

/* The free space of a volume is asked for by path (GetDiskFreeSpaceEx), which a held
 * directory handle does not give on every version: not said, so nothing is refused. */
int vb_os_free_bytes(int dirfd, uint64_t *bytes)
{
	(void)dirfd;
	(void)bytes;
	return -1;
}

#else
typedef int vb_os_windows_unused;
#endif
