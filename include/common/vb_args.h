#ifndef VB_ARGS_H
#define VB_ARGS_H

/* What the two command-line parsers (vbench's and vbench report's) share. */

#include <stdbool.h>
#include <stddef.h>

/* Whether argument a looks like an option ("-q", "--quiet"): where a value should be,
 * one means the value was forgotten. "-1" and "-" are values. */
bool vb_arg_is_option(const char *a);

/* The name among names[0..n) that the mistyped word (its first len bytes) most likely
 * meant: the one unique closest by edit distance (a letter left out, added, changed, or
 * two swapped), at most 1 edit for words of 2 to 4 letters and 2 for longer ones, or
 * else the one name the word begins. NULL when no name is that close, or two are. */
const char *vb_nearest(const char *word, size_t len, const char *const *names, size_t n);

#endif
