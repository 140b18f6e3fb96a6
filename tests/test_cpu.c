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

/* The CPU lists Linux writes: ranges of two or more, single CPUs; cut at a whole entry. */
static void test_cpu_list_format(void **state)
{
	static const char *const cases[] = {"", "0", "0-1", "1", "0-3,8,10-11", "63", "0,2,4",
					    "5-7,62-63"};
	bool set[N], back[N];
	char buf[256], small[8];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		set_of(cases[i], set);
		assert_string_equal(vb_cpu_list_format(set, N, buf, sizeof buf), cases[i]);
		set_of(buf, back);
		assert_memory_equal(set, back, sizeof set);
	}
	set_of("0-3,8,10-11", set);
	/* "0-3,8" fits in 8 bytes with its NUL, ",10-11" does not: never "0-3,8,1" */
	assert_string_equal(vb_cpu_list_format(set, N, small, sizeof small), "0-3,8");
	assert_string_equal(vb_cpu_list_format(set, N, small, 3), "");
}

/* Where the writer goes, given the allowed CPUs, the disk's interrupt CPUs ("-": not
 * known) and the CPU it is on. */
static void test_writer_cpu(void **state)
{
	static const char *const cases[][4] = {
		/* allowed, interrupt CPUs, current, writer */
		{"0-1", "-", "0", "0"},     /* not known: where it is */
		{"0-1", "1", "0", "1"},     /* the development VM's virtio disk: to its CPU */
		{"0-1", "1", "1", "1"},
		{"0-3", "2-3", "3", "3"},   /* on one of them already: stays */
		{"0-3", "2-3", "0", "2"},   /* else the lowest allowed one */
		{"0,1,3", "2-3", "0", "3"},
		{"0-1", "4", "1", "1"},     /* none allowed (taskset): where it is */
		{"0-3", "", "2", "2"},      /* an empty list: where it is */
	};
	bool a[N], irq[N];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		set_of(cases[i][0], a);
		bool known = strcmp(cases[i][1], "-") != 0;
		if (known)
			set_of(cases[i][1], irq);
		int got = vb_cpu_writer(N, a, known ? irq : NULL, cases[i][2][0] - '0');
		if (got != cases[i][3][0] - '0')
			fail_msg("allowed %s interrupts %s current %s: writer %d, want %s",
				 cases[i][0], cases[i][1], cases[i][2], got, cases[i][3]);
	}
}

/* The maker's CPUs for a writer on CPU w, given the allowed CPUs, those sharing w's
 * last-level cache, w's SMT siblings and the disk's interrupt CPUs ("-" for not
 * known). */
static const char *maker_set_irq(const char *allowed, const char *cache, const char *sib,
				 const char *irqs, int w, char *buf, size_t n)
{
	bool a[N], c[N], s[N], irq[N], out[N];

	set_of(allowed, a);
	if (strcmp(cache, "-") != 0)
		set_of(cache, c);
	if (strcmp(sib, "-") != 0)
		set_of(sib, s);
	if (strcmp(irqs, "-") != 0)
		set_of(irqs, irq);
	int k = vb_cpu_maker_set(N, a, strcmp(cache, "-") ? c : NULL, strcmp(sib, "-") ? s : NULL,
				 strcmp(irqs, "-") ? irq : NULL, w, out);
	list_of(out, buf, n);
	/* the count returned is the size of the set */
	int m = 0;
	for (int i = 0; i < N; i++)
		m += out[i];
	assert_int_equal(k, m);
	return buf;
}

static const char *maker_set(const char *allowed, const char *cache, const char *sib, int w,
			     char *buf, size_t n)
{
	return maker_set_irq(allowed, cache, sib, "-", w, buf, n);
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

/* CPUs that take none of the disk's interrupts come first, whatever else they are. */
static void test_maker_set_off_interrupts(void **state)
{
	static const char *const cases[][6] = {
		/* allowed, same cache, siblings, interrupt CPUs, writer, the maker's */
		{"0-1", "-", "-", "1", "1", "0"},               /* the development VM */
		{"0-1", "-", "-", "0-1", "0", "1"},             /* all take them: as before */
		{"0-3", "-", "-", "1", "1", "0,2,3"},
		/* per-CPU queues (NVMe): every CPU takes some; the cache rule decides */
		{"0-7", "0-3", "0,4", "0-7", "0", "1,2,3"},
		/* outside the writer's cache but quiet beats inside it and busy */
		{"0-7", "0-3", "0,4", "0-3", "0", "5,6,7"},
		/* the quiet sibling beats a busy CPU that is not one */
		{"0-2", "0-2", "0,2", "0-1", "0", "2"},
		/* only busy ones left: those */
		{"0-2", "-", "-", "0-2", "1", "0,2"},
		{"0", "-", "-", "0", "0", ""},                  /* one CPU: no split */
	};
	char buf[256];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int w = cases[i][4][0] - '0';
		const char *got = maker_set_irq(cases[i][0], cases[i][1], cases[i][2], cases[i][3],
						w, buf, sizeof buf);
		if (strcmp(got, cases[i][5]) != 0)
			fail_msg("allowed %s cache %s siblings %s interrupts %s writer %d: %s, "
				 "want %s", cases[i][0], cases[i][1], cases[i][2], cases[i][3], w,
				 got, cases[i][5]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_cpu_list_format),
		cmocka_unit_test(test_writer_cpu),
		cmocka_unit_test(test_maker_set),
		cmocka_unit_test(test_maker_set_off_interrupts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
