/* Cutting text vbench did not write: at a whole UTF-8 character, never silently. */
#include "vb_test.h"
#include <string.h>
#include "common/vb_escape.h"
#include "common/vb_status.h"

/* Whether s is valid UTF-8 throughout. */
static bool valid_utf8(const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = vb_utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

/* Text that fits is copied as it is, with no marker. */
static void test_fits_unmarked(void **state)
{
	char out[16];
	(void)state;
	assert_false(vb_text_cut(out, sizeof out, "caf\xc3\xa9", false));
	assert_string_equal(out, "caf\xc3\xa9");
	assert_false(vb_text_cut(out, sizeof out, "0123456789abcde", true));   /* 15 + NUL */
	assert_string_equal(out, "0123456789abcde");
	assert_null(strstr(out, "(cut)"));
}

/* For each width of character, every size of buffer: a cut lands between characters, the
 * marker ends the text, and what is kept is the start of the text. */
static void test_cut_at_a_character(void **state)
{
	static const char *const ch[] = {"\xc3\xa4", "\xe4\xb8\xad", "\xf0\x9f\x98\x80"};
	(void)state;
	for (size_t w = 0; w < 3; w++) {
		char text[64] = "", out[64];
		for (int i = 0; i < 10; i++)
			strcat(text, ch[w]);
		size_t len = strlen(text), mlen = strlen(VB_CUT_END);
		for (size_t n = mlen + 1; n <= len; n++) {
			assert_true(vb_text_cut(out, n, text, false));
			size_t kept = strlen(out) - mlen;
			assert_true(strlen(out) < n);
			assert_string_equal(out + kept, VB_CUT_END);
			assert_int_equal(kept % (w + 2), 0);          /* whole characters only */
			assert_true(kept + w + 2 > n - 1 - mlen);     /* as many as fit */
			assert_memory_equal(out, text, kept);
			assert_true(valid_utf8(out));
		}
		assert_false(vb_text_cut(out, len + 1, text, false));
	}
}

/* A middle cut keeps the start and the end, both at characters, around the marker. */
static void test_middle_keeps_the_end(void **state)
{
	char text[400] = "/", out[64];
	(void)state;
	for (int i = 0; i < 100; i++)
		strcat(text, "\xe4\xb8\xad");
	strcat(text, ": its directory does not exist");
	for (size_t n = 60; n <= 64; n++) {
		assert_true(vb_text_cut(out, n, text, true));
		assert_true(strlen(out) < n);
		const char *m = strstr(out, VB_CUT_MIDDLE);
		assert_non_null(m);
		assert_true(valid_utf8(out));
		assert_memory_equal(out, text, (size_t)(m - out));
		const char *tail = m + strlen(VB_CUT_MIDDLE);
		assert_string_equal(text + strlen(text) - strlen(tail), tail);
	}
	vb_text_cut(out, sizeof out, text, true);
	assert_non_null(strstr(out, "does not exist"));
}

/* Nothing after the first character that did not fit: a small one after a big one stays
 * out, or the text would look whole where it is not. */
static void test_nothing_after_what_did_not_fit(void **state)
{
	char out[32];
	(void)state;
	/* room for 7 bytes before the marker: "abcde", not U+1F600 (4 bytes), so not "f" */
	assert_true(vb_text_cut(out, 8 + strlen(VB_CUT_END), "abcde\xf0\x9f\x98\x80" "fghijklmnop",
				false));
	assert_string_equal(out, "abcde" VB_CUT_END);
	/* a byte that is not UTF-8 is a character of its own, cut like one */
	assert_true(vb_text_cut(out, 5 + strlen(VB_CUT_END), "ab\xff\xfe" "cdefghijklmn", false));
	assert_string_equal(out, "ab\xff\xfe" VB_CUT_END);
}

/* Too small even for the marker: what fits of the marker, no bytes of the text. */
static void test_tiny_buffer(void **state)
{
	char out[4] = "zzz";
	(void)state;
	assert_true(vb_text_cut(out, 4, "abcdefgh", false));
	assert_string_equal(out, "...");
	assert_true(vb_text_cut(out, 0, "abc", false));
	assert_string_equal(out, "...");   /* n == 0: untouched */
}

/* A message about a path longer than its buffer keeps the reason after the path. */
static void test_fail_keeps_the_reason(void **state)
{
	static char path[3000];
	struct vb_err e;
	(void)state;
	strcpy(path, "/nodir");
	while (strlen(path) + 3 < sizeof path)
		strcat(path, "/\xc3\xa4");
	vb_fail(&e, VB_E_SETUP, "cannot create %s: its directory does not exist", path);
	assert_int_equal(e.status, VB_E_SETUP);
	assert_non_null(strstr(e.msg, "cannot create /nodir/"));
	assert_non_null(strstr(e.msg, ": its directory does not exist"));
	assert_non_null(strstr(e.msg, VB_CUT_MIDDLE));
	assert_true(valid_utf8(e.msg));
	vb_fail(&e, VB_E_SETUP, "cannot create %s: gone", "/short");
	assert_string_equal(e.msg, "cannot create /short: gone");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_unmarked),
		cmocka_unit_test(test_cut_at_a_character),
		cmocka_unit_test(test_middle_keeps_the_end),
		cmocka_unit_test(test_nothing_after_what_did_not_fit),
		cmocka_unit_test(test_tiny_buffer),
		cmocka_unit_test(test_fail_keeps_the_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
