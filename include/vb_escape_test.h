#ifndef VB_ESCAPE_TEST_H
#define VB_ESCAPE_TEST_H

/* What only the tests of escape.c call. */

#include <stddef.h>
#include <stdio.h>

/* vb_json_string for the len bytes at s (which may hold NUL bytes). */
void vb_json_string_n(FILE *f, const char *s, size_t len);

#endif
