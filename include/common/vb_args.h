#ifndef VB_ARGS_H
#define VB_ARGS_H

/* What the two command-line parsers (vbench's and vbench report's) share. */

#include <stdbool.h>
#include <stddef.h>

/* Whether a looks like an option ("-q", "--quiet"; "-1" and "-" are values). */
bool vb_arg_is_option(const char *a);

/* The name the mistyped word (len bytes) most likely meant: the unique closest by edit
 * distance (at most 1 for 2 to 4 letters, 2 beyond), else the one it begins; or NULL. */
const char *vb_nearest(const char *word, size_t len, const char *const *names, size_t n);

#endif
