/* SIZE parsing: every suffix, products, and every way a size can be wrong. */
#include "vb_test.h"
#include <string.h>
#include "cli/vb_size.h"

static uint64_t ok(const char *text)
{
	uint64_t v = 0;
	const char *why = vb_parse_size0(text, 0, &v);
	if (why != NULL)
		fail_msg("'%s' rejected: %s", text, why);
	return v;
}

static void rejected(const char *text, const char *fragment)
{
	uint64_t v = 12345;
	const char *why = vb_parse_size0(text, 0, &v);
	if (why == NULL)
		fail_msg("'%s' accepted as %llu", text, (unsigned long long)v);
	if (strstr(why, fragment) == NULL)
		fail_msg("'%s': reason '%s' lacks '%s'", text, why, fragment);
	assert_int_equal(v, 12345); /* nothing written on failure */
}

static void test_plain(void **state)
{
	(void)state;
	assert_int_equal(ok("1"), 1);
	assert_int_equal(ok("512"), 512);
	assert_int_equal(ok("100"), 100);
}

static void test_binary_suffixes(void **state)
{
	(void)state;
	assert_int_equal(ok("1k"), 1024);
	assert_int_equal(ok("1K"), 1024);
	assert_int_equal(ok("3m"), 3 * 1048576);
	assert_int_equal(ok("3M"), 3 * 1048576);
	assert_int_equal(ok("2g"), 2ULL << 30);
	assert_int_equal(ok("2G"), 2ULL << 30);
	assert_int_equal(ok("5t"), 5ULL << 40);
	assert_int_equal(ok("5T"), 5ULL << 40);
	assert_int_equal(ok("4KiB"), 4096);
	assert_int_equal(ok("1MiB"), 1048576);
	assert_int_equal(ok("1GiB"), 1ULL << 30);
	assert_int_equal(ok("1TiB"), 1ULL << 40);
	assert_int_equal(ok("3b"), 1536);
}

static void test_decimal_suffixes(void **state)
{
	(void)state;
	assert_int_equal(ok("1kB"), 1000);
	assert_int_equal(ok("1KB"), 1000);
	assert_int_equal(ok("7MB"), 7000000);
	assert_int_equal(ok("2GB"), 2000000000ULL);
	assert_int_equal(ok("3TB"), 3000000000000ULL);
}

static void test_products(void **state)
{
	(void)state;
	assert_int_equal(ok("2x512"), 1024);
	assert_int_equal(ok("2x1k"), 2048);
	assert_int_equal(ok("2x3x4"), 24);
	assert_int_equal(ok("1kx1k"), 1048576);
}

static void test_boundaries(void **state)
{
	(void)state;
	assert_int_equal(ok("9223372036854775807"), INT64_MAX);
	rejected("9223372036854775808", "too large");
	rejected("99999999999999999999999", "too large");
	rejected("8388608t", "too large");      /* 2^23 x 2^40 = 2^63 */
	assert_int_equal(ok("8388607t"), 8388607ULL << 40);
	rejected("4294967296x4294967296", "too large");
}

static void test_rejections(void **state)
{
	(void)state;
	rejected("0", "zero");
	rejected("0k", "zero");
	rejected("2x0", "zero");
	rejected("-1", "sign");
	rejected("+1", "sign");
	rejected("1Q", "unknown suffix");
	rejected("1kb", "unknown suffix");
	rejected("1mb", "unknown suffix");
	rejected("1 k", "unknown suffix");
	rejected(" 1", "spaces");
	rejected("", "empty");
	rejected("abc", "digit");
	rejected("0x10", "hexadecimal");
	/* octal to BSD dd, decimal to GNU dd: an error, as the manual says */
	rejected("010", "octal");
	rejected("00", "octal");
	rejected("2x010", "octal");
	rejected("1.5M", "fraction");
	rejected("1x", "missing");
	rejected("x2", "missing");
	rejected("2xx2", "missing");
	rejected("1k2", "unknown suffix");
}

static void test_zero_allowed_when_asked(void **state)
{
	uint64_t v = 1;
	(void)state;
	assert_null(vb_parse_size0("0", 1, &v));
	assert_int_equal(v, 0);
	assert_non_null(vb_parse_size0("0", 0, &v));
}

static void test_secs(void **state)
{
	double s = -1;
	(void)state;
	assert_null(vb_parse_secs("30", &s));
	assert_true(s == 30.0);
	assert_null(vb_parse_secs("0.25", &s));
	assert_true(s == 0.25);
	assert_non_null(vb_parse_secs("-1", &s));
	assert_non_null(vb_parse_secs("", &s));
	assert_non_null(vb_parse_secs("nan", &s));
	assert_non_null(vb_parse_secs("5s", &s));
	assert_non_null(vb_parse_secs("1e99", &s));
	assert_non_null(vb_parse_secs("0x10", &s));
	assert_non_null(vb_parse_secs("1e3", &s));
	s = -1;
	assert_non_null(vb_parse_secs("010", &s));
	assert_true(s == -1);
	assert_null(vb_parse_secs("0", &s));
	assert_true(s == 0.0);
	assert_null(vb_parse_secs("0.5", &s));
	assert_true(s == 0.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_binary_suffixes),
		cmocka_unit_test(test_decimal_suffixes),
		cmocka_unit_test(test_products),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_zero_allowed_when_asked),
		cmocka_unit_test(test_secs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
