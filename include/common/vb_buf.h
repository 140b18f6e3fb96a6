#ifndef VB_BUF_H
#define VB_BUF_H

/* A growable buffer: a CSV row is made whole before one write puts it out. */

#include <stdbool.h>
#include <stddef.h>
#include "common/vb_status.h"

struct vb_buf {
	char *p;          /* always NUL-terminated when not NULL */
	size_t len, cap;
	bool oom;         /* an append failed for lack of memory: the contents are cut */
};

/* Makes b empty (no allocation yet); frees it and makes it empty. */
void vb_buf_init(struct vb_buf *b);
void vb_buf_free(struct vb_buf *b);

/* Appends n bytes, a string, one byte, formatted text. */
void vb_buf_add(struct vb_buf *b, const char *s, size_t n);
void vb_buf_puts(struct vb_buf *b, const char *s);
void vb_buf_putc(struct vb_buf *b, char c);
void vb_buf_printf(struct vb_buf *b, const char *fmt, ...) VB_PRINTF(2, 3);

#endif
