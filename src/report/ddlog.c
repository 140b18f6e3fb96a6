#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vb_escape.h"
#include "report/report_internal.h"

/* Plain-text logs: the BSD and GNU dd summary lines. */

/* Index of the first pat in the n bytes at s, or SIZE_MAX. */
static size_t find(const char *s, size_t n, const char *pat)
{
	size_t m = strlen(pat);
	for (size_t i = 0; m <= n && i <= n - m; i++)
		if (memcmp(s + i, pat, m) == 0)
			return i;
	return SIZE_MAX;
}

/* Start of the run of digits that ends at index e of s (e itself excluded); e if none. */
static size_t digits_before(const char *s, size_t e)
{
	size_t b = e;
	while (b > 0 && vbr_is_digit(s[b - 1]))
		b--;
	return b;
}

/* True when the byte count starting at index b stands on its own: at the line start or
 * after a blank, tab or punctuation that a log prefix might end with. */
static bool word_start(const char *s, size_t b)
{
	return b == 0 || s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == ':' ||
	       s[b - 1] == ']' || s[b - 1] == ')';
}

/* Parses the seconds of a dd line at s[i..n): a %f or %g number, or with a decimal comma
 * as GNU dd prints it under some LC_NUMERIC locales; the index after it, or 0. */
static size_t dd_secs(const char *s, size_t i, size_t n, double *out, double *unit)
{
	char buf[64];
	size_t k = 0;
	while (i + k < n && k < sizeof buf - 1 && (vbr_is_digit(s[i + k]) || s[i + k] == '.' ||
	       (s[i + k] == ',' && i + k + 1 < n && vbr_is_digit(s[i + k + 1])) ||
	       s[i + k] == 'e' || s[i + k] == 'E' || s[i + k] == '-' || s[i + k] == '+')) {
		buf[k] = s[i + k] == ',' ? '.' : s[i + k];
		k++;
	}
	size_t used = vbr_decimal_len(buf, k);
	if (used == 0 || !vbr_to_double(buf, used, out))
		return 0;
	*unit = vbr_last_digit(buf, used);
	return i + used;
}

/* True if the n bytes at s[i..] begin with pat; advances *i past it. */
static bool eat(const char *s, size_t n, size_t *i, const char *pat)
{
	size_t m = strlen(pat);
	if (n - *i < m || memcmp(s + *i, pat, m) != 0)
		return false;
	*i += m;
	return true;
}

/* Whether only blanks follow index i of the n bytes at s: dd ends its line there, so a
 * line going on is some other text that quotes one (a label, a message). */
static bool rest_blank(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == n;
}

/* BSD: "N bytes transferred in S secs (R bytes/sec)". */
static int dd_bsd(const char *s, size_t n, struct vb_dd_line *out)
{
	size_t k = find(s, n, " bytes transferred in ");
	if (k == SIZE_MAX)
		return 0;
	size_t b = digits_before(s, k);
	if (b == k || !word_start(s, b) || !vbr_parse_u64(s + b, k - b, &out->bytes))
		return 0;
	size_t i = dd_secs(s, k + strlen(" bytes transferred in "), n, &out->secs, &out->secs_unit);
	if (i == 0 || !eat(s, n, &i, " secs ("))
		return 0;
	size_t r = i;
	size_t rlen = vbr_decimal_len(s + r, n - r);
	i = r + rlen;
	double rate;
	/* A zero time prints "inf bytes/sec" (or similar): take the rate from bytes and secs. */
	out->printed_rate = -1;
	if (rlen > 0 && eat(s, n, &i, " bytes/sec)") && vbr_to_double(s + r, rlen, &rate)) {
		out->bytes_per_sec = out->printed_rate = rate;
		out->rate_unit = 1;   /* BSD dd prints it as a whole number (%.0f) */
	} else {
		size_t k2 = find(s + r, n - r, " bytes/sec)");
		if (k2 == SIZE_MAX || k2 > 16)
			return 0;
		i = r + k2 + strlen(" bytes/sec)");
		out->bytes_per_sec = out->secs > 0 ? (double)out->bytes / out->secs : INFINITY;
	}
	if (!rest_blank(s, i, n))
		return 0;
	out->kind = VB_DD_BSD;
	out->at = b;
	return 1;
}

/* GNU: "N bytes (1.0 GB, 1000 MiB) copied, S s, R MB/s"; "1 byte copied, ..."; the
 * parenthesis is absent below 1000 bytes. The printed rate is rounded to 2 digits, so
 * it is recomputed from bytes and seconds. */
static int dd_gnu(const char *s, size_t n, struct vb_dd_line *out)
{
	size_t k = find(s, n, " copied, ");
	if (k == SIZE_MAX)
		return 0;
	size_t e = k;
	if (e > 0 && s[e - 1] == ')') {
		while (e > 0 && s[e - 1] != '(')
			e--;
		if (e < 2 || s[e - 2] != ' ')
			return 0;
		e -= 2;
	}
	if (e >= 6 && memcmp(s + e - 6, " bytes", 6) == 0)
		e -= 6;
	else if (e >= 5 && memcmp(s + e - 5, " byte", 5) == 0)
		e -= 5;
	else
		return 0;
	size_t b = digits_before(s, e);
	if (b == e || !word_start(s, b) || !vbr_parse_u64(s + b, e - b, &out->bytes))
		return 0;
	size_t i = dd_secs(s, k + strlen(" copied, "), n, &out->secs, &out->secs_unit);
	/* (coreutils before 7.0 wrote "seconds" where it now writes "s") */
	if (i == 0 || !(eat(s, n, &i, " s, ") || eat(s, n, &i, " seconds, ")))
		return 0;
	/* The rate: "28.3 MB/s", "4,1 kB/s", "Infinity B/s", then the end of the line; only
	 * its shape is checked. */
	char num[32];
	size_t b0 = i;
	out->printed_rate = -1;
	if (!eat(s, n, &i, "Infinity") && !eat(s, n, &i, "inf")) {
		while (i < n && (vbr_is_digit(s[i]) || s[i] == '.' || s[i] == ','))
			i++;
		if (i == b0 || !vbr_is_digit(s[b0]))
			return 0;
	}
	size_t nlen = i - b0 < sizeof num ? i - b0 : 0;
	for (size_t j = 0; j < nlen; j++)
		num[j] = s[b0 + j] == ',' ? '.' : s[b0 + j];
	if (!eat(s, n, &i, " "))
		return 0;
	/* the rate's unit: k is 1000, K (only before "iB") and the others as SI or, with
	 * "iB", powers of 1024 */
	static const char prefixes[] = "kMGTPEZYRQ";
	double mult = 1;
	int power = 0;
	if (i < n && strchr("kKMGTPEZYRQ", s[i]) != NULL && s[i] != '\0') {
		power = s[i] == 'K' ? 1 : (int)(strchr(prefixes, s[i]) - prefixes) + 1;
		i++;
	}
	bool iec = i < n && s[i] == 'i';
	if (iec)
		i++;
	for (int p = 0; p < power; p++)
		mult *= iec ? 1024 : 1000;
	if (!eat(s, n, &i, "B/s") || !rest_blank(s, i, n))
		return 0;
	double printed;
	if (nlen > 0 && vbr_decimal_len(num, nlen) == nlen && vbr_to_double(num, nlen, &printed)) {
		out->printed_rate = printed * mult;
		out->rate_unit = vbr_last_digit(num, nlen) * mult;
	}
	out->bytes_per_sec = out->secs > 0 ? (double)out->bytes / out->secs : INFINITY;
	out->kind = VB_DD_GNU;
	out->at = b;
	return 1;
}

int vb_report_parse_dd_line(const char *line, size_t len, struct vb_dd_line *out)
{
	struct vb_dd_line tmp;
	if (dd_bsd(line, len, &tmp) || dd_gnu(line, len, &tmp)) {
		*out = tmp;
		return 1;
	}
	return 0;
}

/* Whether the text is vbench's own output: a line starts with its header, "# vbench ". */
static bool vbench_log(const char *text, size_t len)
{
	static const char mark[] = "# vbench ";
	size_t i = 0;

	while (i < len) {
		if (len - i >= sizeof mark - 1 && memcmp(text + i, mark, sizeof mark - 1) == 0)
			return true;
		const char *nl = memchr(text + i, '\n', len - i);
		if (nl == NULL)
			break;
		i = (size_t)(nl - text) + 1;
	}
	return false;
}

/* Whether a line is vbench's message ("vbench: ...", "vbench report: ..."), which may
 * quote a label or a path, and is never a run. */
static bool vbench_message(const char *line, size_t n)
{
	return (n >= 8 && memcmp(line, "vbench: ", 8) == 0) ||
	       (n >= 15 && memcmp(line, "vbench report: ", 15) == 0);
}

/* Reads every line of the log into d under label; 0, or -1 with a message in err. */
static int text_lines(struct vb_dataset *d, const char *text, size_t len, const char *label,
		      const struct vbr_err *e)
{
	uint64_t run = 0;
	size_t i = vbr_bom_len(text, len), lineno = 0;   /* (Notepad starts a file with one) */
	char why[160];
	/* vbench prints each run's dd line alone on its line; any other line that holds
	 * one (a result line starting with a label) is not a run. */
	bool bare = vbench_log(text, len);
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		const char *line = text + i;
		i += n + (nl != NULL);
		lineno++;
		if (n > 0 && line[n - 1] == '\r')
			n--;
		/* dd status=progress redraws one line with CRs: those are not results. Nor are
		 * comment lines: vbench marks its warm-up and partial runs' dd lines "# ". */
		if (memchr(line, '\r', n) != NULL || (n > 0 && line[0] == '#') ||
		    vbench_message(line, n))
			continue;
		struct vb_dd_line dl;
		if (!vb_report_parse_dd_line(line, n, &dl)) {
			/* a line in dd's words but not in its form is named, never dropped
			 * unseen */
			if (find(line, n, " bytes transferred in ") != SIZE_MAX ||
			    (find(line, n, " copied, ") != SIZE_MAX &&
			     find(line, n, " byte") != SIZE_MAX))
				d->skipped_ddlike++;
			continue;
		}
		if (bare && dl.at != 0)
			continue;
		if (vbr_check_measure("secs", dl.secs, false, why, sizeof why) < 0 ||
		    (dl.secs > 0 && vbr_check_measure("bytes/sec", dl.bytes_per_sec, true, why,
						       sizeof why) < 0) ||
		    (dl.printed_rate >= 0 && vbr_check_rate(dl.bytes, dl.secs, dl.secs_unit,
							     dl.printed_rate, dl.rate_unit, why,
							     sizeof why) < 0))
			return vbr_fail(e, lineno, "%s", why);
		run++;
		if (vbr_add_run_cfg(d, label, run, dl.bytes, dl.secs, dl.bytes_per_sec, NULL, "",
				    "") < 0)
			return vbr_fail(e, 0, "out of memory");
	}
	return 0;
}

/* Longest part of a first line quoted in an error, in bytes. */
#define QUOTE_MAX 60

/* The error for a text without a dd line: it is none of the files report reads, and
 * what its first line (not blank) holds, escaped, cut at QUOTE_MAX bytes. */
static void neither(const char *text, size_t len, char *buf, size_t n)
{
	size_t i = vbr_bom_len(text, len);
	while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' ' || text[i] == '\t'))
		i++;
	size_t e = i;
	while (e < len && text[e] != '\n' && text[e] != '\r')
		e++;
	size_t take = e - i;
	bool cut = take > QUOTE_MAX;
	if (cut) {
		take = QUOTE_MAX;
		while (take > 0 && ((unsigned char)text[i + take] & 0xc0) == 0x80)
			take--;   /* not within a UTF-8 character */
	}
	char raw[QUOTE_MAX + 1], shown[4 * QUOTE_MAX + 1];
	memcpy(raw, text + i, take);
	raw[take] = '\0';
	/* (a NUL byte ends the quote early: it is escaped nowhere, and shows as the end) */
	vb_text_to(shown, sizeof shown, raw);
	snprintf(buf, n, "neither a vbench CSV or JSON file nor a dd log (no \"... bytes "
		 "transferred in ... secs\" or \"... bytes ... copied, ... s, ...\" line); its "
		 "first line is \"%s\"%s", shown, cut ? " (cut)" : "");
}

int vb_report_read_text(struct vb_dataset *d, const char *text, size_t len, const char *name,
			char *err, size_t errlen)
{
	const struct vb_dataset mk = *d;   /* what a failed read returns to */
	struct vbr_err e = {name, err, errlen};
	char *label = vbr_file_stem(name);
	if (label == NULL)
		return vbr_fail(&e, 0, "out of memory");
	int rc = text_lines(d, text, len, label, &e);
	free(label);
	char what[512] = "";
	bool none = rc == 0 && d->n_samples == mk.n_samples;
	if (none && vbench_log(text, len))
		snprintf(what, sizeof what, "a saved log of vbench without a measured run "
			 "(stopped in its first run?)");
	else if (none)
		neither(text, len, what, sizeof what);
	return vbr_read_end(d, &mk, rc, &e, what);
}

