#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>

#include "common/vb_status.h"

enum vb_status vb_fail(struct vb_err *e, enum vb_status s, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return s;
	e->status = s;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return s;
}
