/* Windows, XP to 11: FILE_FLAG_NO_BUFFERING (--direct), FILE_FLAG_WRITE_THROUGH (dsync),
 * FlushFileBuffers, QueryPerformanceCounter; files opened relative to the held directory
 * (NtCreateFile); disks as \\.\PhysicalDriveN; the console's Ctrl+C, Ctrl+Break and close
 * as stops; the session as a thread that CancelSynchronousIo interrupts where it exists.
 * Only XP's functions are imported, later ones looked up (kernel32_fn). Descriptors are
 * the C runtime's over Win32 handles; paths UTF-8 inside, UTF-16 at the system. The pure
 * rules are in win_names.c, the threads in win_threads.c. */
#include "os/os_internal.h"

#if VB_OS_WINDOWS

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <initguid.h>   /* so that winioctl.h defines GUID_DEVINTERFACE_DISK */
#include <winioctl.h>
#include <ntsecapi.h>   /* RtlGenRandom */
#include <winternl.h>   /* NtCreateFile */
#include <cfgmgr32.h>
#include <setupapi.h>
#include <shellapi.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
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

/* The values win_names.c uses are the system's. */
_Static_assert(VB_WIN_GENERIC_READ == GENERIC_READ && VB_WIN_GENERIC_WRITE == GENERIC_WRITE &&
	       VB_WIN_DELETE == DELETE && VB_WIN_SHARE_READ == FILE_SHARE_READ &&
	       VB_WIN_SHARE_WRITE == FILE_SHARE_WRITE && VB_WIN_SHARE_DELETE == FILE_SHARE_DELETE &&
	       VB_WIN_CREATE_NEW == CREATE_NEW && VB_WIN_OPEN_EXISTING == OPEN_EXISTING &&
	       VB_WIN_ATTRIBUTE_NORMAL == FILE_ATTRIBUTE_NORMAL &&
	       VB_WIN_ATTRIBUTE_TEMPORARY == FILE_ATTRIBUTE_TEMPORARY &&
	       VB_WIN_FLAG_WRITE_THROUGH == FILE_FLAG_WRITE_THROUGH &&
	       VB_WIN_FLAG_NO_BUFFERING == FILE_FLAG_NO_BUFFERING &&
	       VB_WIN_FLAG_DELETE_ON_CLOSE == FILE_FLAG_DELETE_ON_CLOSE &&
	       VB_WIN_FLAG_OPEN_REPARSE_POINT == FILE_FLAG_OPEN_REPARSE_POINT &&
	       VB_WIN_FLAG_BACKUP_SEMANTICS == FILE_FLAG_BACKUP_SEMANTICS &&
	       VB_WIN_FILE_TYPE_DISK == FILE_TYPE_DISK && VB_WIN_FILE_TYPE_CHAR == FILE_TYPE_CHAR &&
	       VB_WIN_FILE_TYPE_PIPE == FILE_TYPE_PIPE &&
	       VB_WIN_ATTRIBUTE_DIRECTORY == FILE_ATTRIBUTE_DIRECTORY &&
	       VB_WIN_ATTRIBUTE_REPARSE_POINT == FILE_ATTRIBUTE_REPARSE_POINT,
	       "the CreateFileW values of os_internal.h");
_Static_assert(VB_NT_FILE_OPEN == FILE_OPEN && VB_NT_FILE_CREATE == FILE_CREATE &&
	       VB_NT_WRITE_THROUGH == FILE_WRITE_THROUGH &&
	       VB_NT_NO_INTERMEDIATE_BUFFERING == FILE_NO_INTERMEDIATE_BUFFERING &&
	       VB_NT_SYNCHRONOUS_IO_NONALERT == FILE_SYNCHRONOUS_IO_NONALERT &&
	       VB_NT_NON_DIRECTORY_FILE == FILE_NON_DIRECTORY_FILE &&
	       VB_NT_DELETE_ON_CLOSE == FILE_DELETE_ON_CLOSE &&
	       VB_NT_OPEN_FOR_BACKUP_INTENT == FILE_OPEN_FOR_BACKUP_INTENT &&
	       VB_NT_OPEN_REPARSE_POINT == FILE_OPEN_REPARSE_POINT,
	       "the NtCreateFile values of os_internal.h");

static const struct vb_caps caps = {
	.direct_how = "FILE_FLAG_NO_BUFFERING",
	.fdatasync_call = "FlushFileBuffers",
	.chr_disks = false,
	.qd_refused = "Windows serializes the synchronous writes of one file object, so more "
		      "than one write is never in flight here",
	.disks_uncached = true,
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
	out[0] = '\0';
	/* whole first: a conversion into too small a buffer fails, and would show nothing */
	int need = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *all = need > 0 ? malloc((size_t)need) : NULL;
	if (all != NULL && WideCharToMultiByte(CP_UTF8, 0, w, -1, all, need, NULL, NULL) > 0)
		vb_text_cut(out, n, all, false);
	free(all);
}

/* The errno a Win32 error means for vbench; EIO for any other. */
static int map_error(DWORD e)
{
	static const struct {
		DWORD win;
		int err;
	} errors[] = {
		{ERROR_FILE_NOT_FOUND, ENOENT}, {ERROR_PATH_NOT_FOUND, ENOENT},
		{ERROR_INVALID_DRIVE, ENOENT}, {ERROR_BAD_NETPATH, ENOENT},
		{ERROR_ACCESS_DENIED, EACCES}, {ERROR_WRITE_PROTECT, EACCES},
		{ERROR_FILE_EXISTS, EEXIST}, {ERROR_ALREADY_EXISTS, EEXIST},
		{ERROR_DISK_FULL, ENOSPC}, {ERROR_HANDLE_DISK_FULL, ENOSPC},
		{ERROR_SHARING_VIOLATION, EBUSY}, {ERROR_LOCK_VIOLATION, EBUSY}, {ERROR_BUSY, EBUSY},
		{ERROR_DIRECTORY, ENOTDIR},
		{ERROR_INVALID_PARAMETER, EINVAL}, {ERROR_INVALID_FUNCTION, EINVAL},
		{ERROR_NOT_SUPPORTED, EINVAL}, {ERROR_INVALID_NAME, EINVAL},
		{ERROR_OPERATION_ABORTED, EINTR},   /* CancelSynchronousIo: the watchdog or a stop */
		{ERROR_FILENAME_EXCED_RANGE, ENAMETOOLONG},
		{ERROR_NOT_ENOUGH_MEMORY, ENOMEM}, {ERROR_OUTOFMEMORY, ENOMEM},
		{ERROR_BROKEN_PIPE, EPIPE}, {ERROR_NO_DATA, EPIPE},
	};

	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].win == e)
			return errors[i].err;
	return EIO;
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

/* A kernel32 function XP lacks (imported, it would keep vbench from starting there), or
 * NULL where the system has none and the caller does without. */
static FARPROC kernel32_fn(const char *name)
{
#if defined(VB_WIN_AS_XP)
	/* The tests' build (tests/windows/build.sh) that runs the XP fallbacks under Wine. */
	(void)name;
	return NULL;
#endif
	HMODULE k = GetModuleHandleW(L"kernel32.dll");

	return k != NULL ? GetProcAddress(k, name) : NULL;
}

typedef BOOL(WINAPI *cancel_sync_fn)(HANDLE);

/* CancelSynchronousIo (Vista on): t's blocked call returns ERROR_OPERATION_ABORTED. On
 * XP nothing interrupts it: a stuck session thread is abandoned (vb_os_child_abandon). */
static void cancel_sync(HANDLE t)
{
	cancel_sync_fn f = (cancel_sync_fn)(void (*)(void))kernel32_fn("CancelSynchronousIo");

	if (f != NULL && t != NULL)
		f(t);
}

/* Sets the end of the file h to len bytes (SetFileInformationByHandle is Vista's). */
static BOOL set_end(HANDLE h, uint64_t len)
{
	LARGE_INTEGER at;

	at.QuadPart = (LONGLONG)len;
	return SetFilePointerEx(h, at, NULL, FILE_BEGIN) && SetEndOfFile(h);
}

/* ---- paths -------------------------------------------------------------------------- */

/* The normalized path (GetFullPathNameW's, without \\?\) each descriptor was opened at:
 * devices are joined to their directory's path, and XP has no GetFinalPathNameByHandleW
 * to find a file's volume. fd_of forgets what a reused number had. */
static wchar_t *fd_path[MAX_FDS];
static bool fd_dir[MAX_FDS];

static void remember(int fd, const wchar_t *path, bool dir)
{
	if (fd < 0 || fd >= MAX_FDS)
		return;
	free(fd_path[fd]);
	fd_path[fd] = path != NULL ? _wcsdup(path) : NULL;
	fd_dir[fd] = dir;
}

static const wchar_t *path_of(int fd)
{
	return fd >= 0 && fd < MAX_FDS ? fd_path[fd] : NULL;
}

/* w as GetFullPathNameW normalizes it ("." and ".." resolved, "/" made "\", trailing dots
 * and spaces dropped), device paths as they are: a new string, or NULL with errno
 * (EINVAL for a name that turned into a device, as a reserved name does). */
static wchar_t *normalize(const wchar_t *w)
{
	if (wcsncmp(w, L"\\\\.\\", 4) == 0 || wcsncmp(w, L"\\\\?\\", 4) == 0)
		return _wcsdup(w);
	DWORD need = GetFullPathNameW(w, 0, NULL, NULL);
	wchar_t *full = need > 0 ? malloc(need * sizeof *full) : NULL;
	DWORD got = full != NULL ? GetFullPathNameW(w, need, full, NULL) : 0;
	if (got == 0 || got >= need) {
		errno = full == NULL && need > 0 ? ENOMEM : ENAMETOOLONG;
		free(full);
		return NULL;
	}
	if (wcsncmp(full, L"\\\\.\\", 4) == 0) {
		free(full);
		errno = EINVAL;
		return NULL;
	}
	return full;
}

/* The normalized path p with \\?\ in front, so that no MAX_PATH limit applies (XP has
 * no other way): a new string, or NULL. */
static wchar_t *sys_path(const wchar_t *p)
{
	size_t n = wcslen(p) + 8;
	wchar_t *out = malloc(n * sizeof *out);

	if (out == NULL || !vb_os_win_long_path(p, out, n)) {
		free(out);
		errno = ENOMEM;
		return NULL;
	}
	return out;
}

/* CreateFileW of the normalized path p through sys_path: the handle, or
 * INVALID_HANDLE_VALUE with the Win32 error set. */
static HANDLE create_file(const wchar_t *p, DWORD access, DWORD share, DWORD creation,
			  DWORD flags)
{
	wchar_t *sp = sys_path(p);
	HANDLE h = INVALID_HANDLE_VALUE;

	if (sp == NULL)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	else
		h = CreateFileW(sp, access, share, NULL, creation, flags, NULL);
	free(sp);
	return h;
}

/* Whether a normalized path is in the device namespace (\\.\PhysicalDrive1). */
static bool device_path(const wchar_t *p)
{
	return wcsncmp(p, L"\\\\.\\", 4) == 0;
}

/* The normalized path of name in directory dirfd, a new string, or NULL. A reserved name
 * is never joined: NUL is the null device, the rest refused (vb_os_win_name_kind said
 * why before). */
static wchar_t *join_norm(int dirfd, const char *name)
{
	const wchar_t *d = path_of(dirfd);

	if (d == NULL || !fd_dir[dirfd]) {
		errno = EBADF;
		return NULL;
	}
	if (vb_os_win_is_reserved(name)) {
		char why[16];
		if (vb_os_win_name_kind(name, why, sizeof why) == VB_WIN_NAME_NUL)
			return _wcsdup(L"\\\\.\\NUL");
		errno = EINVAL;
		return NULL;
	}
	wchar_t *w = widen(name);
	if (w == NULL)
		return NULL;
	size_t dl = wcslen(d), nl = wcslen(w);
	wchar_t *p = malloc((dl + nl + 2) * sizeof *p);
	if (p != NULL) {
		memcpy(p, d, dl * sizeof *p);
		size_t k = dl;
		if (k > 0 && d[k - 1] != L'\\')
			p[k++] = L'\\';
		memcpy(p + k, w, (nl + 1) * sizeof *p);
	}
	free(w);
	if (p == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	wchar_t *norm = normalize(p);
	free(p);
	return norm;
}

/* Opens name in the directory held as dir, whatever became of its path: NtCreateFile
 * with dir as the root (ntdll's since NT; Win32 has no such call). The handle, or
 * INVALID_HANDLE_VALUE with the Win32 error set. */
static HANDLE nt_open_at(HANDLE dir, const wchar_t *name, const struct vb_os_win_open *o)
{
	struct vb_os_win_nt nt;
	UNICODE_STRING us;
	OBJECT_ATTRIBUTES oa;
	IO_STATUS_BLOCK iosb;
	HANDLE h = NULL;
	size_t n = wcslen(name);

	if (n == 0 || n > 32767) {
		SetLastError(ERROR_INVALID_NAME);
		return INVALID_HANDLE_VALUE;
	}
	vb_os_win_nt_create(o, &nt);
	us.Buffer = (PWSTR)name;
	us.Length = us.MaximumLength = (USHORT)(n * sizeof *name);
	InitializeObjectAttributes(&oa, &us, OBJ_CASE_INSENSITIVE, dir, NULL);
	NTSTATUS st = NtCreateFile(&h, o->access | SYNCHRONIZE, &oa, &iosb, NULL, nt.attributes,
				   o->share, nt.disposition, nt.options, NULL, 0);
	if (st < 0) {
		SetLastError(RtlNtStatusToDosError(st));
		return INVALID_HANDLE_VALUE;
	}
	return h;
}

/* Opens name in directory dirfd as o says: by the directory's handle, or a device by its
 * path. The handle, or INVALID_HANDLE_VALUE with the Win32 error set; *norm is the
 * normalized path, or NULL. */
static HANDLE open_at(int dirfd, const char *name, const struct vb_os_win_open *o, wchar_t **norm)
{
	char comp[1024];
	HANDLE h;

	*norm = join_norm(dirfd, name);
	if (*norm == NULL) {
		SetLastError(errno == EBADF ? ERROR_INVALID_HANDLE : ERROR_INVALID_NAME);
		return INVALID_HANDLE_VALUE;
	}
	if (device_path(*norm))
		return create_file(*norm, o->access, o->share, o->creation, o->flags);
	wchar_t *w = vb_os_win_component(name, comp, sizeof comp) ? widen(comp) : NULL;
	if (w == NULL) {
		SetLastError(ERROR_INVALID_NAME);
		return INVALID_HANDLE_VALUE;
	}
	h = nt_open_at(handle_of(dirfd), w, o);
	free(w);
	return h;
}

/* A descriptor for handle h, remembered as opened at path (a directory if dir); the
 * handle is closed when the descriptor cannot be made. */
static int fd_of(HANDLE h, int flags, const wchar_t *path, bool dir)
{
	int fd = _open_osfhandle((intptr_t)h, flags);

	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	remember(fd, path, dir);
	return fd;
}

/* ---- the clock, memory, randomness, the terminal ------------------------------------- */

uint64_t vb_os_now_ns(void)
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

static UINT console_cp;

static void restore_console_cp(void)
{
	SetConsoleOutputCP(console_cp);
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
	/* UTF-8 for what vbench prints; the console's own code page, which outlives vbench in
	 * its shell, back at exit. */
	console_cp = GetConsoleOutputCP();
	if (console_cp != 0 && console_cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8))
		atexit(restore_console_cp);
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

/* RtlGenRandom (advapi32's SystemFunction036) is XP's; BCrypt is Vista's. */
const char *vb_os_randomness(void)
{
	return "RtlGenRandom";
}

int vb_os_urandom(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		ULONG chunk = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (!RtlGenRandom(p, chunk)) {
			errno = EIO;
			return -1;
		}
		p += chunk;
		n -= chunk;
	}
	return 0;
}

int vb_os_target_name_check(const char *path, char *why, size_t n)
{
	return vb_os_win_name_kind(path, why, n) == VB_WIN_NAME_REFUSED ? -1 : 0;
}

bool vb_os_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn)
{
	return vb_os_path_split_at(path, "/\\", dir, dn, base, bn);
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

/* The command line as UTF-8: main() gets it in the ANSI code page, which cannot hold
 * every file name. */
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

/* Whether normalized path p is the null device. */
static bool is_nul(const wchar_t *p)
{
	return p != NULL && _wcsicmp(p, L"\\\\.\\NUL") == 0;
}

/* Describes what h is open on; p is its normalized path, when known. Only \\.\NUL is
 * the sink: COM1, CON and LPT1 are character devices too. */
static void fill_info(HANDLE h, const wchar_t *p, struct vb_fileinfo *fi)
{
	BY_HANDLE_FILE_INFORMATION bi;
	struct vb_os_win_handle wh = {GetFileType(h), false, 0, false, is_nul(p)};
	int64_t num = -1;
	bool sink;

	memset(fi, 0, sizeof *fi);
	memset(&bi, 0, sizeof bi);
	if (wh.file_type != FILE_TYPE_CHAR && wh.file_type != FILE_TYPE_PIPE) {
		wh.have_info = GetFileInformationByHandle(h, &bi) != 0;
		wh.attributes = bi.dwFileAttributes;
		if (!wh.have_info)
			wh.disk_number = (num = device_number(h)) >= 0;
	}
	fi->type = vb_os_win_handle_kind(&wh, &sink);
	fi->nlink = 1;
	if (sink)
		fi->rdev = VB_WIN_NUL;
	if (wh.have_info) {
		fi->dev = bi.dwVolumeSerialNumber;
		fi->ino = ((uint64_t)bi.nFileIndexHigh << 32) | bi.nFileIndexLow;
		fi->nlink = bi.nNumberOfLinks;
		fi->size_bytes = ((uint64_t)bi.nFileSizeHigh << 32) | bi.nFileSizeLow;
	} else if (fi->type == VB_FT_BLK) {
		fi->rdev = (uint64_t)num;
	}
}

/* ---- the ops table -------------------------------------------------------------------- */

/* Held without delete sharing, the directory cannot be renamed or replaced meanwhile,
 * so the names joined to its path stay in it. */
static int w_open_dir(void *ctx, const char *path, bool nofollow)
{
	char why[512];
	(void)ctx;
	wchar_t *w = widen(path);
	if (w == NULL)
		return -1;
	if (wcscmp(w, L"\\\\.") == 0 || wcscmp(w, L"//.") == 0) {
		/* The device namespace: nothing to open, only a prefix to join to. */
		free(w);
		int fd = _open("NUL", _O_RDONLY);
		remember(fd, L"\\\\.", true);
		return fd;
	}
	enum vb_os_win_name kind = vb_os_win_name_kind(path, why, sizeof why);
	wchar_t *norm = kind == VB_WIN_NAME_PLAIN ? normalize(w) : NULL;
	free(w);
	if (norm == NULL || device_path(norm)) {
		free(norm);
		errno = kind == VB_WIN_NAME_PLAIN && errno != EINVAL ? errno : ENOTDIR;
		return -1;
	}
	HANDLE h = create_file(norm, FILE_READ_ATTRIBUTES | FILE_TRAVERSE,
			       FILE_SHARE_READ | FILE_SHARE_WRITE, OPEN_EXISTING,
			       FILE_FLAG_BACKUP_SEMANTICS | (nofollow ? FILE_FLAG_OPEN_REPARSE_POINT : 0));
	if (h == INVALID_HANDLE_VALUE) {
		free(norm);
		return fail_win();
	}
	BY_HANDLE_FILE_INFORMATION bi;
	if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &bi) ||
	    !(bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
		CloseHandle(h);
		free(norm);
		errno = ENOTDIR;
		return -1;
	}
	int fd = fd_of(h, _O_RDONLY, norm, true);
	if (fd >= MAX_FDS) {
		_close(fd);
		fd = -1;
		errno = EMFILE;
	}
	free(norm);
	return fd;
}

/* A new unique name for an anonymous file ("vbench-XXXXXXXX.tmp"). */
static void temp_name(const char *prefix, char *name, size_t n)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[8];
	char tag[9];

	if (vb_os_urandom(rnd, sizeof rnd) != 0) {
		uint64_t x = vb_os_now_ns() ^ ((uint64_t)GetCurrentProcessId() << 32);
		memcpy(rnd, &x, sizeof rnd);
	}
	for (int i = 0; i < 8; i++)
		tag[i] = digits[rnd[i] % 36];
	tag[8] = '\0';
	snprintf(name, n, "%s-%s.tmp", prefix, tag);
}

/* open_at as a descriptor that remembers its path, or -1 with errno; a link or a
 * directory is refused. */
static int open_in(int dirfd, const char *name, const struct vb_os_win_open *o, int flags)
{
	wchar_t *p;
	HANDLE h = open_at(dirfd, name, o, &p);
	if (h == INVALID_HANDLE_VALUE) {
		free(p);
		return fail_win();
	}
	struct vb_fileinfo fi;
	fill_info(h, p, &fi);
	if (fi.type == VB_FT_LINK || fi.type == VB_FT_DIR) {
		CloseHandle(h);
		free(p);
		errno = fi.type == VB_FT_LINK ? ELOOP : EISDIR;
		return -1;
	}
	int fd = fd_of(h, flags, p, false);
	free(p);
	return fd;
}

static int w_openat(void *ctx, int dirfd, const char *name, const struct vb_open_req *req)
{
	char anon[64];
	struct vb_os_win_open o;

	(void)ctx;
	if (req->kind == VB_OPEN_ANON) {
		temp_name("vbench", anon, sizeof anon);
		name = anon;
	}
	wchar_t *p = join_norm(dirfd, name);
	if (p == NULL)
		return -1;
	vb_os_win_open_flags(req, device_path(p) && !is_nul(p), &o);
	free(p);
	return open_in(dirfd, name, &o, 0);
}

static int w_statat(void *ctx, int dirfd, const char *name, struct vb_fileinfo *fi)
{
	wchar_t *p;

	(void)ctx;
	memset(fi, 0, sizeof *fi);
	wchar_t *probe = join_norm(dirfd, name);
	bool dev = probe != NULL && device_path(probe);
	free(probe);
	/* No access for a device, which opening must not disturb; attributes only for a file
	 * or directory, whatever shares it. */
	const struct vb_os_win_open o = {
		dev ? 0 : FILE_READ_ATTRIBUTES,
		FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, OPEN_EXISTING,
		dev ? 0 : FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT,
	};
	HANDLE h = open_at(dirfd, name, &o, &p);
	if (h == INVALID_HANDLE_VALUE) {
		DWORD e = GetLastError();
		free(p);
		if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) {
			fi->type = VB_FT_MISSING;
			return 0;
		}
		if (e == ERROR_SHARING_VIOLATION && !dev) {
			/* open elsewhere without sharing: it exists, as a file or directory */
			fi->type = VB_FT_OTHER;
			fi->nlink = 1;
			return 0;
		}
		errno = map_error(e);
		return -1;
	}
	fill_info(h, p, fi);
	free(p);
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
	fill_info(h, path_of(fd), fi);
	return 0;
}

/* Delete on close, opened in the held directory: never a name a changed path leads to. */
static int w_unlinkat(void *ctx, int dirfd, const char *name)
{
	const struct vb_os_win_open o = {
		DELETE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, OPEN_EXISTING,
		FILE_FLAG_DELETE_ON_CLOSE | FILE_FLAG_OPEN_REPARSE_POINT,
	};
	wchar_t *p;

	(void)ctx;
	HANDLE h = open_at(dirfd, name, &o, &p);
	free(p);
	if (h == INVALID_HANDLE_VALUE)
		return fail_win();
	CloseHandle(h);
	return 0;
}

/* One WriteFile (write) or ReadFile of at most 1 GiB at offset; 0 at the end of a read. */
static ssize_t transfer(int fd, bool write, void *buf, size_t n, uint64_t offset)
{
	OVERLAPPED ov;
	DWORD done = 0;
	HANDLE h = handle_of(fd);

	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)offset;
	ov.OffsetHigh = (DWORD)(offset >> 32);
	if (n > 0x40000000)
		n = 0x40000000;
	BOOL ok = write ? WriteFile(h, buf, (DWORD)n, &done, &ov)
			: ReadFile(h, buf, (DWORD)n, &done, &ov);
	if (!ok)
		return !write && GetLastError() == ERROR_HANDLE_EOF ? 0 : fail_win();
	return (ssize_t)done;
}

static ssize_t w_pwrite(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	(void)ctx;
	return transfer(fd, true, (void *)buf, n, offset);
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
	(void)ctx;
	return set_end(handle_of(fd), 0) ? 0 : fail_win();
}

static int w_dup(void *ctx, int fd)
{
	HANDLE h2;

	(void)ctx;
	if (!DuplicateHandle(GetCurrentProcess(), handle_of(fd), GetCurrentProcess(), &h2, 0,
			     FALSE, DUPLICATE_SAME_ACCESS))
		return fail_win();
	return fd_of(h2, 0, path_of(fd), false);
}

static int w_close(void *ctx, int fd)
{
	(void)ctx;
	remember(fd, NULL, false);
	return _close(fd) == 0 ? 0 : -1;
}

/* The logical and physical sector sizes of disk or volume h, 0 when unsaid (XP has no
 * StorageAccessAlignmentProperty, only the logical one). */
static void sector_sizes(HANDLE h, uint32_t *logical, uint32_t *physical)
{
	STORAGE_PROPERTY_QUERY q;
	STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR al;
	DISK_GEOMETRY_EX g;
	DWORD got;

	*logical = *physical = 0;
	if (DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &g, sizeof g, &got, NULL))
		*logical = g.Geometry.BytesPerSector;
	memset(&q, 0, sizeof q);
	memset(&al, 0, sizeof al);
	q.PropertyId = StorageAccessAlignmentProperty;
	q.QueryType = PropertyStandardQuery;
	if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &al, sizeof al, &got,
			    NULL) && got >= sizeof al) {
		*logical = al.BytesPerLogicalSector;
		*physical = al.BytesPerPhysicalSector;
	}
}

/* What FILE_FLAG_NO_BUFFERING transfers must be multiples of on h: the physical sector
 * size where known and larger (Windows asks buffers to align to it), else the logical
 * one, else 0. */
static uint32_t no_buffering_unit(HANDLE h)
{
	uint32_t logical, physical;

	sector_sizes(h, &logical, &physical);
	return physical > logical ? physical : logical;
}

static int w_disk(void *ctx, int fd, struct vb_disk *d)
{
	GET_LENGTH_INFORMATION len;
	DWORD got;
	HANDLE h = handle_of(fd);

	(void)ctx;
	memset(d, 0, sizeof *d);
	if (!DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &len, sizeof len, &got, NULL))
		return fail_win();
	d->size_bytes = (uint64_t)len.Length.QuadPart;
	d->sector_bytes = no_buffering_unit(h);
	return 0;
}

typedef DWORD(WINAPI *final_path_fn)(HANDLE, LPWSTR, DWORD, DWORD);

/* The root of fd's volume ("C:\", "\\?\C:\", a mounted folder), or "": by the handle
 * (GetFinalPathNameByHandleW, Vista's), else by the path fd was opened at. */
static void volume_root(int fd, wchar_t *root, size_t n)
{
	wchar_t path[MAX_PATH * 4];
	final_path_fn f = (final_path_fn)(void (*)(void))kernel32_fn("GetFinalPathNameByHandleW");
	const wchar_t *known = path_of(fd);
	wchar_t *sp = NULL;
	const wchar_t *use = NULL;

	root[0] = L'\0';
	if (f != NULL && f(handle_of(fd), path, sizeof path / sizeof path[0], 0) > 0 &&
	    wcslen(path) < sizeof path / sizeof path[0] - 1)
		use = path;
	else if (known != NULL && !device_path(known) && (sp = sys_path(known)) != NULL)
		use = sp;
	if (use == NULL || !GetVolumePathNameW(use, root, (DWORD)n))
		root[0] = L'\0';
	free(sp);
}

/* The device of the volume at root ("C:\", "C:\mnt\x\"), or INVALID_HANDLE_VALUE: by the
 * volume's name (GetVolumeNameForVolumeMountPointW, XP's), so that a volume mounted in
 * a folder of C: is not taken for C:. */
static HANDLE open_volume_of(const wchar_t *root)
{
	wchar_t name[MAX_PATH], dev[MAX_PATH];
	const wchar_t *shown = wcsncmp(root, L"\\\\?\\", 4) == 0 ? root + 4 : root;

	if (!GetVolumeNameForVolumeMountPointW(shown, name, MAX_PATH) ||
	    !vb_os_win_volume_device(name, dev, MAX_PATH))
		return INVALID_HANDLE_VALUE;
	return CreateFileW(dev, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
}

static uint32_t w_logical_block(void *ctx, int fd)
{
	HANDLE h = handle_of(fd);
	wchar_t root[MAX_PATH];
	DWORD spc, bps, fc, tc;
	uint32_t unit = 0;

	(void)ctx;
	if (device_number(h) >= 0 && (unit = no_buffering_unit(h)) > 0)
		return unit;
	volume_root(fd, root, sizeof root / sizeof root[0]);
	if (root[0] == L'\0')
		return 512;
	HANDLE v = open_volume_of(root);
	if (v != INVALID_HANDLE_VALUE) {
		unit = no_buffering_unit(v);
		CloseHandle(v);
	}
	if (unit == 0 && GetDiskFreeSpaceW(root, &spc, &bps, &fc, &tc))
		unit = bps;
	return unit > 0 ? unit : 512;
}

/* The disk number of a disk or volume handle, or -1. */
static long disk_number_of(HANDLE h)
{
	int64_t num = device_number(h);

	return num < 0 ? -1 : (long)((num >> 8) & 0xffffffff);
}

/* Whether volume v lies on disk number disk: by its extents (it may span disks), else by
 * IOCTL_STORAGE_GET_DEVICE_NUMBER; VB_WIN_VOL_UNKNOWN with the error in *err. */
static enum vb_os_win_where volume_where(HANDLE v, long disk, DWORD *err)
{
	union {
		VOLUME_DISK_EXTENTS x;
		char room[sizeof(VOLUME_DISK_EXTENTS) + 63 * sizeof(DISK_EXTENT)];
	} u;
	STORAGE_DEVICE_NUMBER sdn;
	DWORD got;

	if (DeviceIoControl(v, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0, &u, sizeof u, &got,
			    NULL)) {
		for (DWORD i = 0; i < u.x.NumberOfDiskExtents && i < 64; i++)
			if ((long)u.x.Extents[i].DiskNumber == disk)
				return VB_WIN_VOL_ON_DISK;
		return u.x.NumberOfDiskExtents <= 64 ? VB_WIN_VOL_OFF_DISK : VB_WIN_VOL_UNKNOWN;
	}
	*err = GetLastError();
	if (*err == ERROR_MORE_DATA)
		return VB_WIN_VOL_UNKNOWN;   /* more extents than room: some unseen */
	if (DeviceIoControl(v, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &sdn, sizeof sdn, &got,
			    NULL))
		return sdn.DeviceType == FILE_DEVICE_DISK && (long)sdn.DeviceNumber == disk ?
			       VB_WIN_VOL_ON_DISK : VB_WIN_VOL_OFF_DISK;
	return VB_WIN_VOL_UNKNOWN;
}

/* One volume as the in-use decision sees it, with room for its texts. */
struct volume_seen {
	struct vb_os_win_volume v;
	char name[80], mount[MAX_PATH], fs[32], why[96];
};

/* Examines volume vname ("\\?\Volume{...}\") for disk number disk; one that cannot be
 * opened (format and chkdsk lock it) or placed is VB_WIN_VOL_UNKNOWN. Opened with no
 * access rights, which no lock or sharing bars. */
static void examine_volume(wchar_t *vname, long disk, struct volume_seen *vs)
{
	size_t len = wcslen(vname);
	wchar_t fsname[MAX_PATH + 1] = L"", paths[MAX_PATH] = L"";
	DWORD got = 0, err = 0;

	memset(vs, 0, sizeof *vs);
	narrow(vname, vs->name, sizeof vs->name);
	vs->v = (struct vb_os_win_volume){vs->name, vs->mount, vs->fs, VB_WIN_VOL_UNKNOWN, vs->why};
	if (GetVolumePathNamesForVolumeNameW(vname, paths, MAX_PATH, &got))
		narrow(paths, vs->mount, sizeof vs->mount);
	/* A CD or DVD, or a network share, lies on no disk. */
	UINT type = GetDriveTypeW(vname);
	if (type == DRIVE_CDROM || type == DRIVE_REMOTE) {
		vs->v.where = VB_WIN_VOL_OFF_DISK;
		return;
	}
	if (GetVolumeInformationW(vname, NULL, 0, NULL, NULL, NULL, fsname, MAX_PATH + 1))
		narrow(fsname, vs->fs, sizeof vs->fs);
	/* The device is the name without its trailing backslash. */
	vname[len - 1] = L'\0';
	HANDLE v = CreateFileW(vname, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
			       NULL);
	vname[len - 1] = L'\\';
	if (v == INVALID_HANDLE_VALUE) {
		snprintf(vs->why, sizeof vs->why, "it cannot be opened: %s",
			 strerror(map_error(GetLastError())));
		return;
	}
	vs->v.where = volume_where(v, disk, &err);
	CloseHandle(v);
	if (vs->v.where == VB_WIN_VOL_UNKNOWN)
		snprintf(vs->why, sizeof vs->why, "it does not say which disks it lies on (Windows "
			 "error %lu)", (unsigned long)err);
}

static int w_in_use(void *ctx, int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	enum { MAX_VOLS = 256 };
	wchar_t vname[MAX_PATH];
	size_t k = 0;
	bool complete = true;

	(void)ctx;
	(void)fd;
	holder[0] = '\0';
	if (fi->type != VB_FT_BLK)
		return 0;
	if ((fi->rdev & 0xff) != 0) {
		snprintf(holder, n, "it is a partition, whose volume holds a file system");
		return 1;
	}
	long disk = (long)((fi->rdev >> 8) & 0xffffffff);
	struct volume_seen *seen = calloc(MAX_VOLS, sizeof *seen);
	struct vb_os_win_volume *vols = calloc(MAX_VOLS, sizeof *vols);
	HANDLE find = seen != NULL && vols != NULL ? FindFirstVolumeW(vname, MAX_PATH)
						  : INVALID_HANDLE_VALUE;
	if (find == INVALID_HANDLE_VALUE) {
		free(seen);
		free(vols);
		snprintf(holder, n, "cannot tell whether it is in use: the volumes cannot be listed");
		return -1;
	}
	do {
		if (k == MAX_VOLS || wcslen(vname) < 2) {
			complete = false;
			break;
		}
		examine_volume(vname, disk, &seen[k]);
		vols[k] = seen[k].v;
		k++;
	} while (FindNextVolumeW(find, vname, MAX_PATH));
	if (complete && GetLastError() != ERROR_NO_MORE_FILES)
		complete = false;
	FindVolumeClose(find);
	int rc = vb_os_win_in_use(vols, k, complete, holder, n);
	free(seen);
	free(vols);
	return rc;
}

static bool w_is_sink(void *ctx, const struct vb_fileinfo *fi)
{
	(void)ctx;
	return fi->type == VB_FT_CHR && fi->rdev == VB_WIN_NUL;
}

static uint64_t w_now(void *ctx)
{
	(void)ctx;
	return vb_os_now_ns();
}

const struct vb_io_ops vb_os_io = {
	w_open_dir, w_openat, w_statat, w_fstat, w_unlinkat, w_pwrite, w_sync, w_truncate,
	w_dup, w_close, w_disk, w_logical_block, w_in_use, w_is_sink, w_now,
	NULL /* grow: realloc */, NULL,
};

/* ---- detection ------------------------------------------------------------------------ */

/* The service of the parent of disk number disk's device, its storage driver
 * ("viostor"), or "". */
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
	sector_sizes(v, &e->logical_block, &e->physical_block);
	storage_service(disk, svc, sizeof svc);
	if (bus != 0 || svc[0] != '\0')
		vb_os_win_driver_label(bus, svc, e->driver, sizeof e->driver);
}

typedef LONG(WINAPI *get_version_fn)(OSVERSIONINFOEXW *);

/* The version by RtlGetVersion (ntdll, since 2000): GetVersionEx says 6.2 on 8.1 and
 * later to a program whose manifest does not name them. */
static void windows_version(char *out, size_t n)
{
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");
	get_version_fn gv = nt != NULL ? (get_version_fn)(void (*)(void))GetProcAddress(
						 nt, "RtlGetVersion") : NULL;
	OSVERSIONINFOEXW v;
	SYSTEM_INFO si;

	memset(&v, 0, sizeof v);
	v.dwOSVersionInfoSize = sizeof v;
	if (gv == NULL || gv(&v) != 0)
		return;
	GetNativeSystemInfo(&si);
	vb_os_win_version_name(v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber,
			       v.wProductType != VER_NT_WORKSTATION,
			       si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64, out, n);
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
	VB_OS_SHOW(e->os, "Windows");
	windows_version(e->kernel, sizeof e->kernel);
	if (GlobalMemoryStatusEx(&m))
		e->ram_bytes = m.ullTotalPhys;
	if (h == INVALID_HANDLE_VALUE)
		return;
	fill_info(h, path_of(fd), &fi);
	if (fi.type == VB_FT_BLK) {
		VB_OS_SHOW(e->fs, "none");
		VB_OS_SHOW(e->mount, "none");
		describe_disk(e, h);
		return;
	}
	volume_root(fd, root, sizeof root / sizeof root[0]);
	if (root[0] == L'\0')
		return;
	/* The file system by the root path: GetVolumeInformationByHandleW is Vista's. */
	if (GetVolumeInformationW(root, NULL, 0, NULL, NULL, NULL, fsname, MAX_PATH + 1))
		vb_os_win_fs_label((narrow(fsname, e->fs, sizeof e->fs), e->fs), e->fs, sizeof e->fs);
	const wchar_t *shown = wcsncmp(root, L"\\\\?\\", 4) == 0 ? root + 4 : root;
	narrow(shown, e->mount, sizeof e->mount);
	HANDLE v = open_volume_of(root);
	if (v != INVALID_HANDLE_VALUE) {
		describe_disk(e, v);
		CloseHandle(v);
	}
}

/* ---- stop requests: the console's Ctrl+C, Ctrl+Break and close ---------------------- */

static struct vb_sigflags *flags;
static HANDLE session_thread;   /* changed and used only under handle_busy */
static volatile LONG handle_busy;
static volatile LONG finished;

/* The console handler runs on a thread of its own: the session thread's handle is not
 * closed while it cancels that thread's call. */
static void handle_lock(void)
{
	while (InterlockedCompareExchange(&handle_busy, 1, 0) != 0)
		Sleep(0);
}

static void handle_unlock(void)
{
	InterlockedExchange(&handle_busy, 0);
}

static BOOL WINAPI on_console(DWORD event)
{
	int signo = event == CTRL_C_EVENT ? SIGINT : event == CTRL_BREAK_EVENT ? SIGBREAK : SIGTERM;

	if (flags == NULL)
		return FALSE;
	/* As on POSIX: the first stop is kept, and it replaces --timeout's flag. */
	int cur = atomic_load(&flags->stop);
	while (cur <= 0 && !atomic_compare_exchange_weak(&flags->stop, &cur, signo))
		;
	handle_lock();
	cancel_sync(session_thread);
	handle_unlock();
	if (event == CTRL_CLOSE_EVENT || event == CTRL_LOGOFF_EVENT || event == CTRL_SHUTDOWN_EVENT) {
		/* Windows ends the process when this returns: the main thread has a few seconds
		 * to report and remove its file. */
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

/* ---- threads and the session's ------------------------------------------------------- */

int vb_os_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, bool wakeable)
{
	pthread_attr_t attr;

	(void)wakeable;   /* CancelSynchronousIo reaches any thread (where there is one) */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, VB_THREAD_STACK_BYTES);
	int rc = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc;
}

vb_os_thread_t vb_os_thread_self(void)
{
	/* The handle it was started with, closed when it is joined: nothing to leak. */
	return (vb_os_thread_t)vb_os_win_thread_handle();
}

void vb_os_thread_wake(vb_os_thread_t t)
{
	cancel_sync((HANDLE)t);
}

struct vb_child {
	int chan;
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

bool vb_os_child_is_process(void)
{
	return false;
}

bool vb_os_child_orphaned(void)
{
	return false;
}

/* Started with _beginthreadex, as a thread that uses the C runtime must be. */
static unsigned __stdcall session_main(void *p)
{
	struct vb_child *w = p;

	w->status = w->fn(w->arg, w->wchan);
	_close(w->wchan);   /* the end of the channel: the guard reads EOF */
	InterlockedExchange(&w->done, 1);
	return 0;
}

/* The session runs in a thread of this process: its output is this process's own. */
struct vb_child *vb_os_child_start(int (*fn)(void *arg, int channel), void *arg)
{
	struct vb_child *w = calloc(1, sizeof *w);
	HANDLE r, wr;

	if (w == NULL)
		return NULL;
	if (!CreatePipe(&r, &wr, NULL, 1 << 20)) {
		free(w);
		fail_win();
		return NULL;
	}
	w->chan = fd_of(r, _O_RDONLY, NULL, false);
	w->wchan = fd_of(wr, 0, NULL, false);
	w->fn = fn;
	w->arg = arg;
	if (w->chan < 0 || w->wchan < 0) {
		/* fd_of closed the handle it could not make a descriptor of; the other goes */
		if (w->chan >= 0)
			_close(w->chan);
		if (w->wchan >= 0)
			_close(w->wchan);
		free(w);
		errno = EMFILE;
		return NULL;
	}
	/* It fails with errno set, not the last error (MSDN, _beginthreadex). Started
	 * suspended, so that a Ctrl+C from its first line on finds the handle to cancel. */
	w->thread = (HANDLE)_beginthreadex(NULL, 1 << 20, session_main, w, CREATE_SUSPENDED,
					   NULL);
	int e = errno;
	if (w->thread != NULL) {
		handle_lock();
		session_thread = w->thread;
		handle_unlock();
		if (ResumeThread(w->thread) != (DWORD)-1)
			return w;
		e = EAGAIN;
		handle_lock();
		session_thread = NULL;
		handle_unlock();
		TerminateThread(w->thread, 0);   /* it never ran a line of its own */
		CloseHandle(w->thread);
	}
	_close(w->chan);
	_close(w->wchan);
	free(w);
	errno = e;
	return NULL;
}

ssize_t vb_os_child_read(struct vb_child *w, void *buf, size_t n, unsigned ms)
{
	uint64_t until = vb_os_now_ns() + (uint64_t)ms * 1000000ULL;
	HANDLE h = handle_of(w->chan);

	for (;;) {
		DWORD avail = 0, got = 0;
		if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
			return GetLastError() == ERROR_BROKEN_PIPE ? 0 : fail_win();
		if (avail > 0) {
			if (!ReadFile(h, buf, avail < n ? avail : (DWORD)n, &got, NULL))
				return GetLastError() == ERROR_BROKEN_PIPE ? 0 : fail_win();
			return (ssize_t)got;
		}
		if (vb_os_now_ns() >= until) {
			errno = EAGAIN;
			return -1;
		}
		Sleep(5);
	}
}

void vb_os_child_signal(struct vb_child *w, int signo)
{
	(void)w;
	(void)signo;   /* the flags the console handler set are the session's too */
}

void vb_os_child_wake(struct vb_child *w)
{
	if (!w->done)
		cancel_sync(w->thread);
}

bool vb_os_child_wait(struct vb_child *w, unsigned ms, int *status, int *signo)
{
	if (WaitForSingleObject(w->thread, ms) != WAIT_OBJECT_0)
		return false;
	*status = w->status;
	*signo = 0;
	return true;
}

bool vb_os_child_stopped(const struct vb_child *w)
{
	(void)w;   /* a thread of this process: stopped only with the guard */
	return false;
}

void vb_os_child_abandon(struct vb_child *w)
{
	(void)w;   /* a thread stuck in the kernel ends with the process */
}

/* Waits for the session thread's channel to hold something (nothing to relay here). */
bool vb_os_guard_pump(struct vb_child *w, unsigned ms, bool drop)
{
	uint64_t until = vb_os_now_ns() + (uint64_t)ms * 1000000ULL;
	DWORD avail = 0;

	(void)drop;
	while (!w->done && PeekNamedPipe(handle_of(w->chan), NULL, 0, NULL, &avail, NULL) &&
	       avail == 0 && vb_os_now_ns() < until)
		Sleep(5);
	return false;
}

bool vb_os_guard_pending(const struct vb_child *w)
{
	(void)w;
	return false;
}

void vb_os_guard_lost(const struct vb_child *w, int *out, int *err)
{
	(void)w;
	*out = *err = 0;   /* no guard here: the session writes its output itself */
}

void vb_os_child_free(struct vb_child *w)
{
	if (w == NULL)
		return;
	_close(w->chan);
	handle_lock();
	if (session_thread == w->thread)
		session_thread = NULL;
	CloseHandle(w->thread);   /* a thread runs on without its handle */
	handle_unlock();
	if (w->done)
		free(w);   /* else the thread still writes to w: the process ends first */
}

/* ---- output files ----------------------------------------------------------------------- */

int vb_os_append_open(const char *path, bool *created, char *why, size_t n)
{
	BY_HANDLE_FILE_INFORMATION bi;

	/* Without FILE_SHARE_DELETE the file cannot be removed while open: a new one is not
	 * taken back (vb_csvfile_close). */
	*created = false;
	if (vb_os_win_name_kind(path, why, n) != VB_WIN_NAME_PLAIN) {
		if (why[0] == '\0')
			snprintf(why, n, "is a device; vbench appends only to a regular file");
		return -1;
	}
	wchar_t *w = widen(path);
	wchar_t *norm = w != NULL ? normalize(w) : NULL;
	free(w);
	if (norm == NULL) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	HANDLE h = create_file(norm, GENERIC_READ | FILE_APPEND_DATA,
			       FILE_SHARE_READ | FILE_SHARE_WRITE, OPEN_ALWAYS,
			       FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT);
	if (h == INVALID_HANDLE_VALUE) {
		free(norm);
		snprintf(why, n, "%s", strerror(map_error(GetLastError())));
		return -1;
	}
	DWORD type = GetFileType(h);
	bool info = type == FILE_TYPE_DISK && GetFileInformationByHandle(h, &bi) != 0;
	if (type != FILE_TYPE_DISK || !info ||
	    bi.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT) ||
	    bi.nNumberOfLinks > 1) {
		if (type == FILE_TYPE_PIPE)
			snprintf(why, n, "is a pipe; vbench appends only to a regular file");
		else if (info && bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
			snprintf(why, n, "is a symbolic link; vbench does not follow links to files "
				 "it writes (give the path it points to)");
		else if (info && bi.nNumberOfLinks > 1)
			snprintf(why, n, "has %lu hard links; vbench appends only to a file with one "
				 "name", (unsigned long)bi.nNumberOfLinks);
		else
			snprintf(why, n, "is not a regular file; vbench appends only to a regular file");
		CloseHandle(h);
		free(norm);
		return -1;
	}
	int fd = fd_of(h, _O_APPEND, norm, false);
	if (fd < 0)
		snprintf(why, n, "%s", strerror(errno));
	free(norm);
	return fd;
}

/* Windows byte-range locks are mandatory and would refuse the runs' own writes: the
 * share modes of the opens decide what shares the target instead. */
int vb_os_hold(int fd, char *why, size_t n)
{
	(void)fd;
	(void)why;
	(void)n;
	return 0;
}

/* Whether handles a and b are open on the same file. */
static bool same_file(HANDLE a, HANDLE b)
{
	BY_HANDLE_FILE_INFORMATION x, y;

	return GetFileInformationByHandle(a, &x) && GetFileInformationByHandle(b, &y) &&
	       x.dwVolumeSerialNumber == y.dwVolumeSerialNumber &&
	       x.nFileIndexHigh == y.nFileIndexHigh && x.nFileIndexLow == y.nFileIndexLow;
}

int vb_os_same_storage(int fd, const struct vb_fileinfo *other, char *why, size_t n)
{
	struct vb_fileinfo a;

	if (w_fstat(NULL, fd, &a) != 0 || a.type != VB_FT_REG || other->type != VB_FT_REG ||
	    a.dev != other->dev || a.ino != other->ino)
		return 0;
	snprintf(why, n, "it is the same file");
	return 1;
}

int vb_os_lock(int fd, unsigned ms)
{
	uint64_t until = vb_os_now_ns() + (uint64_t)ms * 1000000ULL;
	OVERLAPPED ov;

	for (;;) {
		memset(&ov, 0, sizeof ov);
		if (LockFileEx(handle_of(fd), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0,
			       MAXDWORD, MAXDWORD, &ov))
			return 0;
		if (GetLastError() != ERROR_LOCK_VIOLATION)
			return fail_win();
		if (vb_os_now_ns() >= until) {
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

typedef HANDLE(WINAPI *reopen_fn)(HANDLE, DWORD, DWORD, DWORD);

int vb_os_truncate_to(int fd, uint64_t len)
{
	/* The append descriptor may only append: cut through a second handle (ReOpenFile,
	 * Vista's), else opened at the same path and checked to be the same file. */
	reopen_fn reopen = (reopen_fn)(void (*)(void))kernel32_fn("ReOpenFile");
	HANDLE h = INVALID_HANDLE_VALUE;
	const wchar_t *known = path_of(fd);

	if (reopen != NULL) {
		h = reopen(handle_of(fd), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, 0);
	} else if (known != NULL) {
		h = create_file(known, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
				OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT);
		if (h != INVALID_HANDLE_VALUE && !same_file(h, handle_of(fd))) {
			CloseHandle(h);
			errno = ESTALE;
			return -1;
		}
	} else {
		errno = EBADF;
		return -1;
	}
	if (h == INVALID_HANDLE_VALUE)
		return fail_win();
	int rc = set_end(h, len) ? 0 : fail_win();
	CloseHandle(h);
	return rc;
}

ssize_t vb_os_pread(int fd, void *buf, size_t n, uint64_t offset)
{
	return transfer(fd, false, buf, n, offset);
}

int vb_os_create_temp(int dirfd, const char *prefix, char *name, size_t n)
{
	for (int tries = 0; tries < 100; tries++) {
		const struct vb_os_win_open o = {
			GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, CREATE_NEW,
			FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
		};
		temp_name(prefix, name, n);
		int fd = open_in(dirfd, name, &o, 0);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int vb_os_open_read(int dirfd, const char *name)
{
	struct vb_fileinfo fi;
	const struct vb_os_win_open o = {
		GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, OPEN_EXISTING,
		FILE_FLAG_OPEN_REPARSE_POINT,
	};
	int fd = open_in(dirfd, name, &o, _O_RDONLY);

	if (fd < 0)
		return -1;
	fill_info(handle_of(fd), NULL, &fi);
	if (fi.type != VB_FT_REG) {
		_close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* By handle within the held directory: FILE_RENAME_INFORMATION with it as RootDirectory. */
int vb_os_rename(int dirfd, const char *from, const char *to)
{
	const struct vb_os_win_open o = {
		DELETE | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
		OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT,
	};
	char comp[1024];
	wchar_t *p;
	IO_STATUS_BLOCK iosb;

	wchar_t *w = vb_os_win_component(to, comp, sizeof comp) && !vb_os_win_is_reserved(comp)
			     ? widen(comp) : NULL;
	if (w == NULL) {
		errno = EINVAL;
		return -1;
	}
	HANDLE h = open_at(dirfd, from, &o, &p);
	free(p);
	if (h == INVALID_HANDLE_VALUE) {
		free(w);
		return fail_win();
	}
	size_t len = wcslen(w) * sizeof *w;
	FILE_RENAME_INFORMATION *ri = calloc(1, sizeof *ri + len);
	bool room = ri != NULL;
	NTSTATUS st = -1;
	if (room) {
		ri->ReplaceIfExists = TRUE;
		ri->RootDirectory = handle_of(dirfd);
		ri->FileNameLength = (ULONG)len;
		memcpy(ri->FileName, w, len);
		st = NtSetInformationFile(h, &iosb, ri, (ULONG)(sizeof *ri + len),
					  FileRenameInformation);
	}
	free(ri);
	free(w);
	CloseHandle(h);
	if (st < 0) {
		errno = !room ? ENOMEM : map_error(RtlNtStatusToDosError(st));
		return -1;
	}
	return 0;
}

/* GetDiskFreeSpaceEx asks by path, which a held directory does not give on every
 * version: not said, so nothing is refused. */
int vb_os_free_bytes(int dirfd, uint64_t *bytes)
{
	(void)dirfd;
	(void)bytes;
	return -1;
}

int vb_os_file_size_limit(uint64_t *bytes)
{
	(void)bytes;
	return -1;
}

#else
typedef int vb_os_windows_unused;
#endif
