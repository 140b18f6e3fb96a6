#include <string.h>

#include "common/vb_args.h"

bool vb_arg_is_option(const char *a)
{
	return a[0] == '-' && (a[1] == '-' || (a[1] >= 'a' && a[1] <= 'z') ||
			       (a[1] >= 'A' && a[1] <= 'Z'));
}

/* Edit distance, an adjacent swap one edit ("dierct"); above cap, cap + 1 (so too for
 * words over 31 bytes). */
static size_t distance(const char *a, size_t la, const char *b, size_t lb, size_t cap)
{
	size_t d[32][32];

	if (la > 31 || lb > 31)
		return cap + 1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb] > cap ? cap + 1 : d[la][lb];
}

const char *vb_nearest(const char *word, size_t len, const char *const *names, size_t n)
{
	size_t cap = len == 1 ? 0 : len <= 4 ? 1 : 2, best = cap + 1;
	const char *pick = NULL, *prefix = NULL;
	int ties = 0, prefixes = 0;

	if (len == 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, len, names[i], strlen(names[i]), cap);
		if (d < best) {
			best = d;
			pick = names[i];
			ties = 0;
		} else if (d == best && d <= cap) {
			ties++;
		}
		if (len >= 2 && strlen(names[i]) > len && strncmp(names[i], word, len) == 0) {
			prefix = names[i];
			prefixes++;
		}
	}
	if (pick != NULL && ties == 0)
		return pick;
	return pick == NULL && prefixes == 1 ? prefix : NULL;
}
