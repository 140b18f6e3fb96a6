#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "vb_path.h"

bool vb_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn)
{
	size_t len = strlen(path);
	const char *slash = strrchr(path, '/');
	int w;

	if (len == 0 || path[len - 1] == '/')
		return false;
	if (slash == NULL)
		w = snprintf(dir, dn, ".");
	else if (slash == path)
		w = snprintf(dir, dn, "/");
	else
		w = snprintf(dir, dn, "%.*s", (int)(slash - path), path);
	if (w < 0 || (size_t)w >= dn)
		return false;
	w = snprintf(base, bn, "%s", slash ? slash + 1 : path);
	return w > 0 && (size_t)w < bn;
}
