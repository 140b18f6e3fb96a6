#ifndef VB_ARGS_H
#define VB_ARGS_H

/* What the two command-line parsers (vbench's and vbench report's) share. */

#include <stdbool.h>

/* Whether argument a looks like an option ("-q", "--quiet"): where a value should be,
 * one means the value was forgotten. "-1" and "-" are values. */
bool vb_arg_is_option(const char *a);

#endif
