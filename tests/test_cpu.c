/* Where the maker of the data may run when the writer is pinned: the pure choice, checked
 * wherever the tests run, and the CPU lists of Linux's sysfs it is fed from. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>

#include "vb_test.h"

#define N 64

/* "1,3-4" as a set of N. */
static void set_of(const char *list, bool *set)
{
	if (!vb_cpu_list_parse(list, set, N))
		fail_msg("not a CPU list: %s", list);
}

/* The CPUs of set as a list "1,3,4". */
static const char *list_of(const bool *set, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int c = 0; c < N && at < n; c++)
		if (set[c])
			at += (size_t)snprintf(buf + at, n - at, "%s%d", at ? "," : "", c);
	return buf;
}

static void test_cpu_lists(void **state)
{
	static const char *const good[][2] = {
		{"0", "0"}, {"0-3", "0,1,2,3"}, {"0-1,4,6-7\n", "0,1,4,6,7"}, {"5-5", "5"},
		{"", ""}, {"\n", ""}, {"62-70", "62,63"}, {"1,1", "1"},
	};
	static const char *const bad[] = {"a", "1-", "-1", "3-1", "1,,2", "1 2", "1-2x",
					  "99999999999"};
	bool set[N];
	char buf[256];
	(void)state;

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		set_of(good[i][0], set);
		assert_string_equal(list_of(set, buf, sizeof buf), good[i][1]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (vb_cpu_list_parse(bad[i], set, N))
			fail_msg("taken as a CPU list: \"%s\"", bad[i]);
}

/* The maker's CPUs for a writer on CPU w, given the allowed CPUs, those sharing w's
 * last-level cache and w's SMT siblings ("-" for not known). */
static const char *maker_set(const char *allowed, const char *cache, const char *sib, int w,
			     char *buf, size_t n)
{
	bool a[N], c[N], s[N], out[N];

	set_of(allowed, a);
	if (strcmp(cache, "-") != 0)
		set_of(cache, c);
	if (strcmp(sib, "-") != 0)
		set_of(sib, s);
	int k = vb_cpu_maker_set(N, a, strcmp(cache, "-") ? c : NULL, strcmp(sib, "-") ? s : NULL,
				 w, out);
	list_of(out, buf, n);
	/* the count returned is the size of the set */
	int m = 0;
	for (int i = 0; i < N; i++)
		m += out[i];
	assert_int_equal(k, m);
	return buf;
}

static void test_maker_set(void **state)
{
	static const char *const cases[][5] = {
		/* allowed, same cache, siblings, writer, the maker's */
		{"0-1", "-", "-", "0", "1"},                  /* the development VM */
		{"0-1", "-", "-", "1", "0"},
		{"0", "-", "-", "0", ""},                     /* one CPU: no split */
		{"2-3", "-", "-", "3", "2"},                  /* taskset -c 2,3 */
		/* 2 cores x 2 threads, one cache: not the writer's sibling */
		{"0-3", "0-3", "0,2", "0", "1,3"},
		/* two caches of 4 CPUs: the writer's cache first, without its sibling */
		{"0-7", "0-3", "0,4", "0", "1,2,3"},
		{"0-7", "4-7", "5,1", "5", "4,6,7"},
		/* allowed only outside the writer's cache: those, siblings last */
		{"0,4-5", "0-3", "0,4", "0", "5"},
		/* only the writer and its sibling allowed: the sibling, rather than nothing */
		{"0,4", "0-3", "0,4", "0", "4"},
		/* topology not known: every other allowed CPU */
		{"0-5", "-", "-", "2", "0,1,3,4,5"},
	};
	char buf[256];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int w = cases[i][3][0] - '0';
		const char *got = maker_set(cases[i][0], cases[i][1], cases[i][2], w, buf,
					    sizeof buf);
		if (strcmp(got, cases[i][4]) != 0)
			fail_msg("allowed %s cache %s siblings %s writer %d: %s, want %s",
				 cases[i][0], cases[i][1], cases[i][2], w, got, cases[i][4]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_maker_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
