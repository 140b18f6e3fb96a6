#ifndef VB_PATH_H
#define VB_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Splits path into the directory that holds the last component ("." when there is no
 * slash, "/" for a top-level name) and that component; false when path names no file
 * (empty, or ending with '/') or a part does not fit. Pure. */
bool vb_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn);

#endif
