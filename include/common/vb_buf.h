#ifndef VB_BUF_H
#define VB_BUF_H

/* A growable byte buffer, so that a line (a CSV row) is made whole in memory before a
 * single write puts it out: whole rows or nothing. */

#include <stdbool.h>
#include <stddef.h>
#include "common/vb_status.h"

struct vb_buf {
	char *p;          /* always NUL-terminated when not NULL */
	size_t len, cap;
	bool oom;         /* an append failed for lack of memory: the contents are cut */
};

/* Makes b empty (no allocation yet). */
void vb_buf_init(struct vb_buf *b);

/* Frees what b holds and makes it empty. */
void vb_buf_free(struct vb_buf *b);

/* Appends the n bytes at s. */
void vb_buf_add(struct vb_buf *b, const char *s, size_t n);

/* Appends a NUL-terminated string. */
void vb_buf_puts(struct vb_buf *b, const char *s);

/* Appends one byte. */
void vb_buf_putc(struct vb_buf *b, char c);

/* Appends formatted text. */
void vb_buf_printf(struct vb_buf *b, const char *fmt, ...) VB_PRINTF(2, 3);

#endif
