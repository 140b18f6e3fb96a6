#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/vb_size.h"

struct suffix {
	const char *text;
	uint64_t factor;
};

static const struct suffix suffixes[] = {
	{"", 1},
	{"b", 512},
	{"k", 1ULL << 10}, {"K", 1ULL << 10},
	{"m", 1ULL << 20}, {"M", 1ULL << 20},
	{"g", 1ULL << 30}, {"G", 1ULL << 30},
	{"t", 1ULL << 40}, {"T", 1ULL << 40},
	{"KiB", 1ULL << 10}, {"MiB", 1ULL << 20}, {"GiB", 1ULL << 30}, {"TiB", 1ULL << 40},
	{"kB", 1000ULL}, {"KB", 1000ULL},
	{"MB", 1000000ULL}, {"GB", 1000000000ULL}, {"TB", 1000000000000ULL},
};

static int mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a != 0 && b > VB_SIZE_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

/* Parses one factor of a SIZE: digits then an optional suffix, ending at 'x' or '\0'. */
static const char *parse_term(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;

	if (*p == '\0' || *p == 'x')
		return "a number is missing";
	if (*p == '-' || *p == '+')
		return "a sign is not allowed";
	if (*p == ' ' || *p == '\t')
		return "spaces are not allowed";
	if (*p < '0' || *p > '9')
		return "it does not start with a digit";
	if (p[0] == '0' && p[1] == 'x')
		return "hexadecimal is not accepted";
	/* 010 is 8 to BSD dd and 10 to GNU dd: neither is guessed. */
	if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
		return "octal is not accepted (no leading 0)";
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');
		if (v > (VB_SIZE_MAX - d) / 10)
			return "the number is too large (the limit is 2^63-1)";
		v = v * 10 + d;
	}
	const char *end = strchr(p, 'x');
	size_t len = end ? (size_t)(end - p) : strlen(p);
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		if (strlen(suffixes[i].text) == len && strncmp(p, suffixes[i].text, len) == 0) {
			if (!mul_ok(v, suffixes[i].factor, out))
				return "the number is too large (the limit is 2^63-1)";
			*pp = p + len;
			return NULL;
		}
	}
	if (len > 0 && (p[0] == '.' || p[0] == ','))
		return "fractions are not accepted";
	return "unknown suffix (use k m g t, KiB MiB GiB TiB, kB MB GB TB, or b)";
}

const char *vb_parse_size0(const char *text, int allow_zero, uint64_t *out)
{
	const char *p = text;
	uint64_t total = 1;

	if (text == NULL || *text == '\0')
		return "the value is empty";
	for (;;) {
		uint64_t term;
		const char *why = parse_term(&p, &term);
		if (why != NULL)
			return why;
		if (!mul_ok(total, term, &total))
			return "the product is too large (the limit is 2^63-1)";
		if (*p == '\0')
			break;
		p++; /* the 'x' between factors */
	}
	if (total == 0 && !allow_zero)
		return "zero is not allowed";
	*out = total;
	return NULL;
}

const char *vb_parse_secs(const char *text, double *out_secs)
{
	char *end = NULL;

	if (text == NULL || *text == '\0')
		return "the value is empty";
	if (*text < '0' || *text > '9' || text[strspn(text, "0123456789.")] != '\0')
		return "expected a number of seconds such as 30 or 0.5";
	if (text[0] == '0' && text[1] >= '0' && text[1] <= '9')
		return "octal is not accepted (no leading 0)";
	double v = strtod(text, &end);
	if (end == text || *end != '\0' || !isfinite(v) || v < 0)
		return "expected a number of seconds such as 30 or 0.5";
	if (v > 1e9)
		return "the number of seconds is too large";
	*out_secs = v;
	return NULL;
}
