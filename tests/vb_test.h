#ifndef VB_TEST_H
#define VB_TEST_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

/* Everything cmocka needs before its own header, in the order it needs it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "common/vb_escape.h"

/* Fails unless CSV text s is valid UTF-8 holding no control character (C0, DEL, C1)
 * but the CR LF that ends a row. */
static inline void assert_csv_clean(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s);

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0)
			fail_msg("byte 0x%02x at %zu is not UTF-8", u[i], i);
		if (cp == '\r' && u[i + 1] == '\n') {
			i += 2;
			continue;
		}
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			fail_msg("control character U+%04x at %zu", (unsigned)cp, i);
		i += k;
	}
}

#endif
