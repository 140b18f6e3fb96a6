#ifndef VB_ESCAPE_H
#define VB_ESCAPE_H

/* Escaping text vbench did not write (paths, labels) for a terminal, CSV or JSON. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/vb_buf.h"

/* Length (1 to 4) of the valid UTF-8 sequence at s (n bytes readable), its code point in
 * *cp; 0 for overlong forms, surrogates, past U+10FFFF or cut short. */
size_t vb_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Writes s with control characters (C0, DEL, C1) and bytes not UTF-8 as \xNN, so that
 * no text can start a line, move the cursor or send an escape sequence. */
void vb_text(FILE *f, const char *s);

/* vb_text into buf of n bytes, always terminated; when it does not fit, cut at a whole
 * character or escape, nothing after the first piece left out, and VB_CUT_END added. */
void vb_text_to(char *buf, size_t n, const char *s);

/* A new string of what vb_text writes of s, or NULL: how every output of `vbench
 * report` shows text it read. */
char *vb_text_dup(const char *s);

/* What a cut text holds where it was cut: at the end, or in the middle. */
#define VB_CUT_END "...(cut)"
#define VB_CUT_MIDDLE "...(cut)..."

/* Copies s as it is into buf of n bytes, or, when it does not fit, cut at a whole UTF-8
 * character (a byte that is not UTF-8 counts as one) with a marker, so that a cut never
 * hides that more was there: the first characters that fit, then VB_CUT_END; or, with
 * middle, the first and the last characters (half the room each) around VB_CUT_MIDDLE,
 * so that the end of a sentence (its reason) survives a long path. True when cut. s may
 * be buf itself when middle is false. */
bool vb_text_cut(char *buf, size_t n, const char *s, bool middle);

/* Columns vb_text's output of s takes on a terminal. */
size_t vb_text_width(const char *s);

/* Appends s as vb_text shows it (so no control byte) as one RFC 4180 field; one a
 * spreadsheet would run as a formula (= + - @ first, after any apostrophes) gets one more
 * apostrophe in front. */
void vb_csv_field(struct vb_buf *b, const char *s);

/* s without the apostrophe vb_csv_field put in front of a formula-like field. */
const char *vb_csv_plain(const char *s);

/* Writes s as a JSON string (NULL: ""); bytes not UTF-8 become U+FFFD. */
void vb_json_string(FILE *f, const char *s);

/* vb_json_string for the len bytes at s, NULs and all (for the tests). */
void vb_json_string_n(FILE *f, const char *s, size_t len);

#endif
