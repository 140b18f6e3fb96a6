#ifndef VB_ESCAPE_H
#define VB_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length (1 to 4) of the valid UTF-8 sequence at s, of which n bytes are readable, with
 * its code point in *cp; 0 for overlong forms, surrogates, past U+10FFFF or cut short. */
size_t vb_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Writes s as one RFC 4180 field, quoted when it holds a comma, quote, CR or LF. */
void vb_csv_field(FILE *f, const char *s);

/* Writes the len bytes at s as a JSON string with quotes; bytes that are not UTF-8
 * become U+FFFD, since JSON text must be UTF-8. */
void vb_json_string_n(FILE *f, const char *s, size_t len);

/* vb_json_string_n for a NUL-terminated s (NULL writes ""). */
void vb_json_string(FILE *f, const char *s);

#endif
