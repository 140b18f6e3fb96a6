#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"
#include "report/report_internal.h"

/* Small helpers every reader of `vbench report` shares. */

/* (-1, so that callers can write `return vbr_fail(...)`) */
int vbr_fail(const struct vbr_err *e, size_t line, const char *fmt, ...)
{
	if (e->buf == NULL || e->len == 0)
		return -1;
	/* the name first, cut as a whole with the rest, so that a long one leaves the reason */
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vb_vmsgf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line > 0)
		vb_msgf(e->buf, e->len, "%s:%zu: %s", e->name, line, what);
	else
		vb_msgf(e->buf, e->len, "%s: %s", e->name, what);
	return -1;
}

const char *vbr_cut(char *buf, size_t n, const char *s)
{
	vb_text_cut(buf, n, s, false);
	return buf;
}

int vbr_grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -1;
		ncap *= 2;
	}
	void *q = realloc(*p, ncap * size);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = ncap;
	return 0;
}

char *vbr_dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

bool vbr_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool vbr_parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n == 0)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!vbr_is_digit(s[i]))
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* (no sign, hex, inf or nan: strtod would take those, dd and vbench never write them) */
size_t vbr_decimal_len(const char *s, size_t n)
{
	size_t i = 0, digits = 0;
	while (i < n && vbr_is_digit(s[i]))
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && vbr_is_digit(s[i]))
			i++, digits++;
	}
	if (digits == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		size_t k = j;
		while (k < n && vbr_is_digit(s[k]))
			k++;
		if (k > j)
			i = k;
	}
	return i;
}

bool vbr_to_double(const char *s, size_t n, double *out)
{
	char buf[64];
	char *copy = n < sizeof buf ? buf : malloc(n + 1);
	if (copy == NULL)
		return false;
	memcpy(copy, s, n);
	copy[n] = '\0';
	double v = strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	if (!isfinite(v))
		return false;
	*out = v;
	return true;
}

bool vbr_parse_number(const char *s, size_t n, double *out)
{
	return n > 0 && vbr_decimal_len(s, n) == n && vbr_to_double(s, n, out);
}

char *vbr_file_stem(const char *name)
{
	if (strcmp(name, "-") == 0)
		return vbr_dup_n("stdin", 5);
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	const char *dot = strrchr(base, '.');
	/* A leading dot is a hidden file's name, not an extension. */
	size_t n = (dot && dot != base) ? (size_t)(dot - base) : strlen(base);
	if (n == 0)
		return vbr_dup_n(name, strlen(name));
	return vbr_dup_n(base, n);
}

/* (some editors put one at the start of CSV files) */
size_t vbr_bom_len(const char *text, size_t len)
{
	return (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) ? 3 : 0;
}

