#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "common/vb_env.h"

/* "none" and "unknown" say nothing about the setup, so they are left out of a label. */
static int telling(const char *s)
{
	return s[0] != '\0' && strcmp(s, "none") != 0 && strcmp(s, "unknown") != 0;
}

/* Labels end up in file names and shell loops: only safe characters are kept. */
static void sanitize(char *s)
{
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			*s = '_';
	}
}

const char *vb_io_mode(const struct vb_env *e, bool direct, bool overwrite, uint64_t warmups,
		       bool filled)
{
	switch (e->cache) {
	case VB_CACHE_NONE:
		return direct ? "direct I/O (a raw disk: never cached)"
			      : "raw disk I/O (never cached)";
	case VB_CACHE_FS_BUFFERS:
		if (direct)
			return "direct requested; this file system buffers it";
		break;
	case VB_CACHE_FS_BUFFERS_EXTENDING:
		if (!direct)
			break;
		if (filled)
			return "direct I/O (in place: the file was written once before the clock, "
			       "as this file system buffers direct writes that extend a file)";
		if (overwrite && warmups > 0)
			return "direct I/O (in place: the warm-up wrote the file)";
		if (overwrite)
			return "direct I/O in place, but the first run extends the file: this file "
			       "system buffers it";
		return "direct requested; this file system buffers it (each run extends the "
		       "file; --overwrite --warmup 1 writes in place, directly)";
	case VB_CACHE_FS_MAY_BUFFER:
		if (direct)
			return "direct requested; this file system may buffer it";
		break;
	case VB_CACHE_AS_ASKED:
		break;
	}
	return direct ? "direct I/O" : "buffered I/O";
}

void vb_env_label(const struct vb_env *e, char *buf, size_t n)
{
	const char *fs = strcmp(e->fs, "none") == 0 ? "raw" : e->fs;

	if (n == 0)
		return;
	if (telling(e->driver))
		snprintf(buf, n, "%s-%s", fs[0] ? fs : "unknown", e->driver);
	else
		snprintf(buf, n, "%s", fs[0] ? fs : "unknown");
	sanitize(buf);
}
