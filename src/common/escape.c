#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"

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

/* Where escape_walk puts its pieces: a file, a growable vb_buf, or a buffer of n bytes
 * cut at a whole character or escape; the bytes and the terminal columns of the whole
 * are counted. */
struct sink {
	FILE *f;
	struct vb_buf *vb;
	char *buf;
	size_t n, used, bytes, width;
	bool cut;   /* a piece did not fit: none after it goes in, or the cut would hide it */
};

static void put(struct sink *k, const char *p, size_t n, bool escape)
{
	k->bytes += n;
	k->width += escape ? 4 : 1;
	if (k->f != NULL) {
		fwrite(p, 1, n, k->f);
	} else if (k->vb != NULL) {
		vb_buf_add(k->vb, p, n);
	} else if (k->buf != NULL && !k->cut && k->used + n < k->n) {
		memcpy(k->buf + k->used, p, n);
		k->used += n;
		k->buf[k->used] = '\0';
	} else {
		k->cut = true;
	}
}

/* Puts s into out, each character safe as it is or as its escape. */
static void escape_walk(const char *s, struct sink *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s);

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f)) {
			/* every byte of a C1 character, so that a terminal sees none of it */
			size_t m = k ? k : 1;
			for (size_t j = 0; j < m; j++) {
				char esc[5];
				snprintf(esc, sizeof esc, "\\x%02x", u[i + j]);
				put(out, esc, 4, true);
			}
			i += m;
			continue;
		}
		put(out, s + i, k, false);
		i += k;
	}
}

void vb_text(FILE *f, const char *s)
{
	struct sink k = {.f = f};

	escape_walk(s, &k);
}

void vb_text_to(char *buf, size_t n, const char *s)
{
	struct sink k = {.buf = buf, .n = n};
	size_t mlen = strlen(VB_CUT_END);

	if (n == 0)
		return;
	buf[0] = '\0';
	escape_walk(s, &k);
	if (!k.cut)
		return;
	/* again with room kept for the marker, so that the cut is seen */
	k = (struct sink){.buf = buf, .n = n > mlen ? n - mlen : 1};
	buf[0] = '\0';
	escape_walk(s, &k);
	size_t m = n - 1 - k.used < mlen ? n - 1 - k.used : mlen;
	memcpy(buf + k.used, VB_CUT_END, m);
	buf[k.used + m] = '\0';
}

char *vb_text_dup(const char *s)
{
	struct sink k = {0};

	escape_walk(s, &k);
	char *buf = malloc(k.bytes + 1);
	if (buf != NULL)
		vb_text_to(buf, k.bytes + 1, s);
	return buf;
}

size_t vb_text_width(const char *s)
{
	struct sink k = {0};

	escape_walk(s, &k);
	return k.width;
}

/* Length of the whole characters of s (len bytes) that fit in room bytes, counted from
 * the start; a byte that is not UTF-8 is a character of its own. */
static size_t whole_head(const char *s, size_t len, size_t room)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t cp;
		size_t k = vb_utf8_decode(u + i, len - i, &cp);
		if (k == 0)
			k = 1;
		if (i + k > room)
			break;
		i += k;
	}
	return i;
}

bool vb_text_cut(char *buf, size_t n, const char *s, bool middle)
{
	const char *mark = middle ? VB_CUT_MIDDLE : VB_CUT_END;
	size_t len = strlen(s), mlen = strlen(mark);

	if (n == 0)
		return len > 0;
	if (len < n) {
		memmove(buf, s, len + 1);
		return false;
	}
	if (n <= mlen) {
		/* no room for the marker: what fits of it, never a part of s that looks whole */
		memcpy(buf, mark, n - 1);
		buf[n - 1] = '\0';
		return true;
	}
	size_t room = n - 1 - mlen;
	size_t tail_room = middle ? room / 2 : 0;
	size_t head = whole_head(s, len, room - tail_room), start = len;
	if (middle) {
		/* the tail: from the first character boundary that leaves it within tail_room */
		start = head;
		while (len - start > tail_room) {
			uint32_t cp;
			size_t k = vb_utf8_decode((const unsigned char *)s + start, len - start, &cp);
			start += k ? k : 1;
		}
	}
	memmove(buf, s, head);
	memcpy(buf + head, mark, mlen);
	memmove(buf + head + mlen, s + start, len - start);
	buf[head + mlen + len - start] = '\0';
	return true;
}

/* Whether a spreadsheet would take a field starting at s for a formula (tab and CR no
 * longer start a field vbench writes, but do in the files older versions wrote). */
static int formula_start(const char *s)
{
	while (*s == '\'')
		s++;
	return *s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t' || *s == '\r';
}

void vb_csv_field(struct vb_buf *b, const char *s)
{
	/* The text as vb_text shows it, so that a CSV file holds no control byte but its row
	 * ends: `cat` of it can forge no line and send no escape sequence. */
	struct vb_buf t;
	struct sink k = {.vb = &t};
	vb_buf_init(&t);
	escape_walk(s, &k);
	if (t.oom)
		b->oom = true;   /* the field would be cut: the row must not pass for whole */
	const char *p = t.p != NULL ? t.p : "";
	bool quote = strpbrk(p, ",\"") != NULL;   /* CR and LF are escaped by now */

	if (quote)
		vb_buf_putc(b, '"');
	if (formula_start(p))
		vb_buf_putc(b, '\'');   /* inside the quotes, if any: it is part of the text */
	for (; *p; p++) {
		if (*p == '"')
			vb_buf_putc(b, '"');
		vb_buf_putc(b, *p);
	}
	if (quote)
		vb_buf_putc(b, '"');
	vb_buf_free(&t);
}

const char *vb_csv_plain(const char *s)
{
	return s[0] == '\'' && formula_start(s + 1) && s[1] != '\0' ? s + 1 : s;
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
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
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
