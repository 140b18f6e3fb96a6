#ifndef VB_ESCAPE_H
#define VB_ESCAPE_H

/* Every way vbench escapes text it did not write itself (paths, labels, mount sources,
 * file contents) for where it goes: a terminal, a CSV field, a JSON string. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/vb_buf.h"

/* Length (1 to 4) of the valid UTF-8 sequence at s, of which n bytes are readable, with
 * its code point in *cp; 0 for overlong forms, surrogates, past U+10FFFF or cut short. */
size_t vb_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Writes s for a terminal or a log: valid UTF-8 as it is, but every control character
 * (C0, DEL, C1) and every byte that is not UTF-8 as \xNN, so that no text can start a
 * line of its own, move the cursor or send an escape sequence. */
void vb_text(FILE *f, const char *s);

/* vb_text into buf of n bytes (always terminated, cut when it does not fit). */
void vb_text_to(char *buf, size_t n, const char *s);

/* A new string holding what vb_text writes of s, or NULL without memory. The one rule by
 * which every output of `vbench report` (text, markdown, CSV, JSON, SVG) shows text it
 * read: no control character, C1 control or byte that is not UTF-8 goes out raw. */
char *vb_text_dup(const char *s);

/* Columns vb_text's output of s takes on a terminal (one per character, four per
 * escaped byte). */
size_t vb_text_width(const char *s);

/* Appends s as one RFC 4180 field: quoted when it holds a comma, quote, CR or LF. A
 * field that a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * CR, after any apostrophes) gets one more apostrophe in front, which vb_csv_plain
 * takes off again. */
void vb_csv_field(struct vb_buf *b, const char *s);

/* The text of a CSV field as vb_csv_field was given it: s without the apostrophe that
 * vb_csv_field put in front of a formula-like field. */
const char *vb_csv_plain(const char *s);

/* Writes s as a JSON string with quotes (NULL writes ""); bytes that are not UTF-8
 * become U+FFFD, since JSON text must be UTF-8. */
void vb_json_string(FILE *f, const char *s);

/* What only the tests of escape.c call. */

/* vb_json_string for the len bytes at s (which may hold NUL bytes). */
void vb_json_string_n(FILE *f, const char *s, size_t len);

#endif
