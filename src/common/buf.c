#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_buf.h"

void vb_buf_init(struct vb_buf *b)
{
	memset(b, 0, sizeof *b);
}

void vb_buf_free(struct vb_buf *b)
{
	free(b->p);
	vb_buf_init(b);
}

/* Makes room for n more bytes and the terminating NUL; false without memory. */
static bool reserve(struct vb_buf *b, size_t n)
{
	if (b->oom)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1) {
		if (cap > ((size_t)-1) / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(b->p, cap);
	if (p == NULL) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void vb_buf_add(struct vb_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void vb_buf_puts(struct vb_buf *b, const char *s)
{
	vb_buf_add(b, s, strlen(s));
}

void vb_buf_putc(struct vb_buf *b, char c)
{
	vb_buf_add(b, &c, 1);
}

void vb_buf_printf(struct vb_buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[128];

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		vb_buf_add(b, small, (size_t)n);
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}
