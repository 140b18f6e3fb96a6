/* The pure rules of the Windows backend, compiled everywhere for the unit tests: labels,
 * the in-use decision, what a name names, open flags, long paths, the version's name. */
#include "os/os_internal.h"

#include <stdio.h>
#include <string.h>

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Lower-case ASCII copy of s into out, with anything outside [a-z0-9._-] as '_'. */
static void label_copy(const char *s, char *out, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return;
	for (; s[i] != '\0' && i + 1 < n; i++) {
		char c = lower(s[i]);
		out[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			 c == '-' ? c : '_';
	}
	out[i] = '\0';
}

/* STORAGE_BUS_TYPE, as winioctl.h numbers it. */
static const char *const buses[] = {
	"unknown", "scsi", "atapi", "ata", "1394", "ssa", "fibre", "usb", "raid", "iscsi",
	"sas", "sata", "sd", "mmc", "virtual", "filebackedvirtual", "spaces", "nvme", "scm",
	"ufs",
};

void vb_os_win_driver_label(int bus, const char *service, char *out, size_t n)
{
	/* The storage driver names the disk best (viostor, storahci, stornvme); "disk" is
	 * the class driver every disk has. */
	if (service != NULL && service[0] != '\0' && strcmp(service, "disk") != 0) {
		label_copy(service, out, n);
		return;
	}
	if (bus > 0 && (size_t)bus < sizeof buses / sizeof buses[0])
		snprintf(out, n, "%s", buses[bus]);
	else
		snprintf(out, n, "unknown");
}

void vb_os_win_fs_label(const char *name, char *out, size_t n)
{
	if (name == NULL || name[0] == '\0')
		snprintf(out, n, "unknown");
	else if (strcmp(name, "RAW") == 0)
		snprintf(out, n, "none");
	else
		label_copy(name, out, n);
}

int vb_os_win_in_use(const struct vb_os_win_volume *v, size_t n_vols, bool complete, char *holder,
		     size_t n)
{
	const struct vb_os_win_volume *unknown = NULL;

	for (size_t i = 0; i < n_vols; i++) {
		const char *where = v[i].mount[0] ? v[i].mount : v[i].name;
		if (v[i].where == VB_WIN_VOL_UNKNOWN && unknown == NULL)
			unknown = &v[i];
		if (v[i].where != VB_WIN_VOL_ON_DISK)
			continue;
		/* Any volume holds data, RAW ones too (foreign, BitLocker-locked, damaged). */
		if (v[i].fs[0] != '\0' && strcmp(v[i].fs, "RAW") != 0)
			vb_msgf(holder, n, "volume %s on it holds a %s file system", where, v[i].fs);
		else
			vb_msgf(holder, n, "volume %s on it holds a file system Windows cannot read "
				"(foreign, encrypted or damaged), which is still data", where);
		return 1;
	}
	if (unknown != NULL) {
		vb_msgf(holder, n, "volume %s cannot be examined (%s), so it may lie on it",
			unknown->mount[0] ? unknown->mount : unknown->name,
			unknown->why != NULL ? unknown->why : "no reason given");
		return 1;
	}
	if (!complete) {
		snprintf(holder, n, "cannot tell whether it is in use: the volumes cannot all be "
			 "listed");
		return -1;
	}
	return 0;
}

/* ---- names ------------------------------------------------------------------------------ */

/* Whether the n bytes at s are word, ignoring ASCII case. */
static bool same_word(const char *s, size_t n, const char *word)
{
	size_t i = 0;

	for (; i < n && word[i] != '\0'; i++)
		if (lower(s[i]) != lower(word[i]))
			return false;
	return i == n && word[i] == '\0';
}

/* The device a component is reserved for, or NULL: Windows takes the name before the
 * first dot or colon, without trailing spaces (COM1, com1.dat, "NUL .txt", "aux:");
 * Windows 11 no longer does with an extension, but refusing costs nothing. */
static const char *reserved_device(const char *c, size_t len)
{
	static const char *const names[] = {
		"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$",
	};
	static const char *const ports[] = {"COM", "LPT"};
	/* the digits 0-9 and the superscripts 1, 2 and 3 in UTF-8 */
	static const char *const digits[] = {
		"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3",
	};
	static char found[16];
	size_t n = 0;

	while (n < len && c[n] != '.' && c[n] != ':')
		n++;
	while (n > 0 && c[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (same_word(c, n, names[i]))
			return names[i];
	for (size_t p = 0; p < 2; p++) {
		if (n < 4 || !same_word(c, 3, ports[p]))
			continue;
		for (size_t d = 0; d < sizeof digits / sizeof digits[0]; d++)
			if (n - 3 == strlen(digits[d]) && memcmp(c + 3, digits[d], n - 3) == 0) {
				snprintf(found, sizeof found, "%s%s", ports[p], digits[d]);
				return found;
			}
	}
	return NULL;
}

static bool is_sep(char c)
{
	return c == '\\' || c == '/';
}

/* Whether p starts with the four characters \\.\ or \\?\ (either slash). */
static bool prefixed(const char *p, char mark)
{
	return is_sep(p[0]) && is_sep(p[1]) && p[2] == mark && is_sep(p[3]);
}

bool vb_os_win_is_reserved(const char *name)
{
	return reserved_device(name, strlen(name)) != NULL;
}

/* Whether p is "PhysicalDrive" and a number. */
static bool physical_drive(const char *p)
{
	if (strlen(p) < 14 || !same_word(p, 13, "PhysicalDrive"))
		return false;
	for (p += 13; *p >= '0' && *p <= '9'; p++)
		;
	return *p == '\0';
}

enum vb_os_win_name vb_os_win_name_kind(const char *path, char *why, size_t n)
{
	const char *rest = path;

	why[0] = '\0';
	if (same_word(path, strlen(path), "NUL") || same_word(path, strlen(path), "NUL:"))
		return VB_WIN_NAME_NUL;
	if (prefixed(path, '.')) {
		const char *dev = path + 4;
		if (same_word(dev, strlen(dev), "NUL"))
			return VB_WIN_NAME_NUL;
		if (physical_drive(dev))
			return VB_WIN_NAME_DISK;
		if (((dev[0] | 0x20) >= 'a' && (dev[0] | 0x20) <= 'z') && dev[1] == ':' &&
		    (dev[2] == '\0' || (is_sep(dev[2]) && dev[3] == '\0'))) {
			snprintf(why, n, "is a volume; vbench does not write to volumes: their "
				 "sectors hold a file system (Windows refuses writes to a mounted "
				 "one), so give the whole disk, \\\\.\\PhysicalDriveN, with no "
				 "volume on it, or a directory on the volume");
			return VB_WIN_NAME_REFUSED;
		}
		snprintf(why, n, "is a device vbench does not write to; the devices it writes are "
			 "whole disks, \\\\.\\PhysicalDriveN, and the null device, NUL");
		return VB_WIN_NAME_REFUSED;
	}
	if (prefixed(path, '?')) {
		rest = path + 4;
		if (same_word(rest, strlen(rest) < 7 ? strlen(rest) : 7, "Volume{")) {
			snprintf(why, n, "is a volume; vbench does not write to volumes (give a "
				 "directory on it, or the whole disk, \\\\.\\PhysicalDriveN, with no "
				 "volume on it)");
			return VB_WIN_NAME_REFUSED;
		}
		if (!((rest[0] | 0x20) >= 'a' && (rest[0] | 0x20) <= 'z' && rest[1] == ':') &&
		    !(strlen(rest) >= 4 && same_word(rest, 3, "UNC") && is_sep(rest[3]))) {
			snprintf(why, n, "is in a namespace vbench does not write to; give a drive "
				 "letter path, a UNC path, or \\\\.\\PhysicalDriveN");
			return VB_WIN_NAME_REFUSED;
		}
	}
	/* Every component: a reserved name opens the device, whatever the directory. */
	for (const char *c = rest; *c != '\0';) {
		size_t len = 0;
		while (c[len] != '\0' && !is_sep(c[len]))
			len++;
		const char *dev = reserved_device(c, len);
		if (dev != NULL) {
			vb_msgf(why, n, "names the device %s: \"%.*s\" is a reserved device name on "
				"Windows in any directory, and opening a device (a serial port may "
				"be the console) already acts on it; only NUL alone is written, as "
				"the null device", dev, (int)len, c);
			return VB_WIN_NAME_REFUSED;
		}
		c += len;
		while (is_sep(*c))
			c++;
	}
	return VB_WIN_NAME_PLAIN;
}

/* ---- how files are opened ---------------------------------------------------------------- */

void vb_os_win_open_flags(const struct vb_open_req *req, bool device, struct vb_os_win_open *o)
{
	o->access = req->read_only ? VB_WIN_GENERIC_READ : VB_WIN_GENERIC_WRITE;
	o->share = VB_WIN_SHARE_READ | VB_WIN_SHARE_WRITE | VB_WIN_SHARE_DELETE;
	o->creation = VB_WIN_OPEN_EXISTING;
	/* Never FILE_ATTRIBUTE_TEMPORARY: Windows may then keep the data in memory only. */
	o->flags = VB_WIN_ATTRIBUTE_NORMAL | VB_WIN_FLAG_OPEN_REPARSE_POINT;
	if (req->kind == VB_OPEN_ANON) {
		/* A new name deleted with its last handle: nothing left even if killed. */
		o->creation = VB_WIN_CREATE_NEW;
		o->flags |= VB_WIN_FLAG_DELETE_ON_CLOSE;
		o->access |= VB_WIN_DELETE;
	} else if (req->kind == VB_OPEN_CREATE) {
		o->creation = VB_WIN_CREATE_NEW;
	}
	if (req->direct)
		o->flags |= VB_WIN_FLAG_NO_BUFFERING;
	if (req->dsync)
		o->flags |= VB_WIN_FLAG_WRITE_THROUGH;
	if (device) {
		/* A disk: its ioctls need read access, and Windows opens it only with read and
		 * write sharing. */
		o->access |= VB_WIN_GENERIC_READ;
		o->flags &= ~(uint32_t)VB_WIN_FLAG_OPEN_REPARSE_POINT;
		o->share = VB_WIN_SHARE_READ | VB_WIN_SHARE_WRITE;
	}
}

/* ---- long paths ---------------------------------------------------------------------- */

/* The length of w (wchar.h is not on every system these rules are compiled on). */
static size_t wlen(const wchar_t *w)
{
	size_t n = 0;

	while (w[n] != L'\0')
		n++;
	return n;
}

/* Whether w starts with the four characters of p. */
static bool wstarts4(const wchar_t *w, const wchar_t *p)
{
	for (int i = 0; i < 4; i++)
		if (w[i] != p[i])
			return false;
	return true;
}

bool vb_os_win_long_path(const wchar_t *full, wchar_t *out, size_t n)
{
	const wchar_t *pre = L"";
	const wchar_t *from = full;

	if (wstarts4(full, L"\\\\?\\") || wstarts4(full, L"\\\\.\\") ||
	    wstarts4(full, L"\\??\\"))
		pre = L"";
	else if (((full[0] >= L'A' && full[0] <= L'Z') || (full[0] >= L'a' && full[0] <= L'z')) &&
		 full[1] == L':' && full[2] == L'\\')
		pre = L"\\\\?\\";
	else if (full[0] == L'\\' && full[1] == L'\\' && full[2] != L'\0' && full[2] != L'\\') {
		pre = L"\\\\?\\UNC\\";
		from = full + 2;
	}
	size_t pl = wlen(pre), fl = wlen(from);
	if (pl + fl + 1 > n)
		return false;
	memcpy(out, pre, pl * sizeof *out);
	memcpy(out + pl, from, (fl + 1) * sizeof *out);
	return true;
}

bool vb_os_win_volume_device(const wchar_t *name, wchar_t *out, size_t n)
{
	static const wchar_t pre[] = L"\\\\?\\Volume{";
	size_t len = wlen(name), pl = sizeof pre / sizeof pre[0] - 1;

	/* "\\?\Volume{" 36 characters of GUID "}\" */
	if (len != pl + 38 || n < len || name[len - 2] != L'}' || name[len - 1] != L'\\')
		return false;
	for (size_t i = 0; i < pl; i++)
		if (name[i] != pre[i])
			return false;
	for (size_t i = pl; i < len - 2; i++) {
		wchar_t c = name[i];
		bool dash = i - pl == 8 || i - pl == 13 || i - pl == 18 || i - pl == 23;
		if (dash ? c != L'-' : !((c >= L'0' && c <= L'9') || (c >= L'a' && c <= L'f') ||
					 (c >= L'A' && c <= L'F')))
			return false;
	}
	memcpy(out, name, (len - 1) * sizeof *out);
	out[len - 1] = L'\0';
	return true;
}

/* ---- the version of Windows ---------------------------------------------------------- */

void vb_os_win_version_name(unsigned major, unsigned minor, unsigned build, bool server,
			    bool x64, char *out, size_t n)
{
	const char *name = NULL;
	unsigned v = major * 100 + minor;

	if (v == 500)
		name = "2000";
	else if (v == 501)
		name = "XP";
	else if (v == 502)
		name = server ? "Server 2003" : x64 ? "XP x64" : "Server 2003";
	else if (v == 600)
		name = server ? "Server 2008" : "Vista";
	else if (v == 601)
		name = server ? "Server 2008 R2" : "7";
	else if (v == 602)
		name = server ? "Server 2012" : "8";
	else if (v == 603)
		name = server ? "Server 2012 R2" : "8.1";
	else if (v == 1000 && !server)
		name = build >= 22000 ? "11" : "10";
	else if (v == 1000)
		name = build >= 26100 ? "Server 2025" : build >= 20348 ? "Server 2022" :
		       build >= 17763 ? "Server 2019" : "Server 2016";
	if (name != NULL)
		snprintf(out, n, "%s (%u.%u.%u)", name, major, minor, build);
	else
		snprintf(out, n, "%u.%u.%u", major, minor, build);
}

/* ---- names relative to a held directory ------------------------------------------------ */

bool vb_os_win_component(const char *name, char *out, size_t n)
{
	size_t len = strlen(name);

	/* Trailing dots and spaces dropped, as Win32 does and an open by handle does not. */
	while (len > 0 && (name[len - 1] == '.' || name[len - 1] == ' '))
		len--;
	if (len == 0 || len >= n)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20 || c == '\\' || c == '/' || c == ':' || c == '*' || c == '?' ||
		    c == '"' || c == '<' || c == '>' || c == '|')
			return false;
	}
	memcpy(out, name, len);
	out[len] = '\0';
	return true;
}

void vb_os_win_nt_create(const struct vb_os_win_open *o, struct vb_os_win_nt *nt)
{
	nt->disposition = o->creation == VB_WIN_CREATE_NEW ? VB_NT_FILE_CREATE : VB_NT_FILE_OPEN;
	/* The attribute bits are the low ones of the flags; TEMPORARY never among them. */
	nt->attributes = o->flags & 0xffffu & ~(uint32_t)VB_WIN_ATTRIBUTE_TEMPORARY;
	nt->options = VB_NT_SYNCHRONOUS_IO_NONALERT;
	if (o->flags & VB_WIN_FLAG_NO_BUFFERING)
		nt->options |= VB_NT_NO_INTERMEDIATE_BUFFERING;
	if (o->flags & VB_WIN_FLAG_WRITE_THROUGH)
		nt->options |= VB_NT_WRITE_THROUGH;
	if (o->flags & VB_WIN_FLAG_DELETE_ON_CLOSE)
		nt->options |= VB_NT_DELETE_ON_CLOSE;
	if (o->flags & VB_WIN_FLAG_OPEN_REPARSE_POINT)
		nt->options |= VB_NT_OPEN_REPARSE_POINT;
	if (o->flags & VB_WIN_FLAG_BACKUP_SEMANTICS)
		nt->options |= VB_NT_OPEN_FOR_BACKUP_INTENT;
	else
		nt->options |= VB_NT_NON_DIRECTORY_FILE;
}

/* ---- what a handle is open on --------------------------------------------------------- */

enum vb_ftype vb_os_win_handle_kind(const struct vb_os_win_handle *h, bool *sink)
{
	*sink = false;
	switch (h->file_type) {
	case VB_WIN_FILE_TYPE_CHAR:
		/* CON, COM1 and LPT1 too: only one opened as NUL is the sink. */
		*sink = h->opened_as_nul;
		return VB_FT_CHR;
	case VB_WIN_FILE_TYPE_PIPE:
		return VB_FT_FIFO;
	default:
		break;
	}
	if (h->have_info)
		return h->attributes & VB_WIN_ATTRIBUTE_REPARSE_POINT ? VB_FT_LINK :
		       h->attributes & VB_WIN_ATTRIBUTE_DIRECTORY ? VB_FT_DIR : VB_FT_REG;
	/* No file information: a disk opened as a device, if it says which disk it is. */
	return h->file_type == VB_WIN_FILE_TYPE_DISK && h->disk_number ? VB_FT_BLK : VB_FT_OTHER;
}
