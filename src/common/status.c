#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/vb_escape.h"
#include "common/vb_status.h"

void vb_vmsgf(char *buf, size_t n, const char *fmt, va_list ap)
{
	va_list again;

	if (n == 0)
		return;
	va_copy(again, ap);
	int len = vsnprintf(buf, n, fmt, ap);
	if (len >= 0 && (size_t)len >= n) {
		char *whole = malloc((size_t)len + 1);
		if (whole != NULL && vsnprintf(whole, (size_t)len + 1, fmt, again) == len)
			vb_text_cut(buf, n, whole, true);
		else
			vb_text_cut(buf, n - 1, buf, false);   /* no memory: the end cut, marked */
		free(whole);
	}
	va_end(again);
}

void vb_msgf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vb_vmsgf(buf, n, fmt, ap);
	va_end(ap);
}

enum vb_status vb_fail(struct vb_err *e, enum vb_status s, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return s;
	e->status = s;
	va_start(ap, fmt);
	vb_vmsgf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return s;
}
