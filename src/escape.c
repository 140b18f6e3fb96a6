#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "vb_escape.h"

size_t vb_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t len;
	uint32_t v, min;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

void vb_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

void vb_json_string_n(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	putc('"', f);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0) {
			fputs("\\ufffd", f);  /* JSON text must be UTF-8: the stray byte cannot stay */
			i++;
			continue;
		}
		const char *esc = cp == '"' ? "\\\"" : cp == '\\' ? "\\\\" : cp == '\n' ? "\\n" :
				  cp == '\r' ? "\\r" : cp == '\t' ? "\\t" : cp == '\b' ? "\\b" :
				  cp == '\f' ? "\\f" : NULL;
		if (esc)
			fputs(esc, f);
		else if (cp < 0x20)
			fprintf(f, "\\u%04x", (unsigned)cp);
		else
			fwrite(u + i, 1, k, f);
		i += k;
	}
	putc('"', f);
}

void vb_json_string(FILE *f, const char *s)
{
	if (s == NULL)
		s = "";
	vb_json_string_n(f, s, strlen(s));
}
