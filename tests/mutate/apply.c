/* apply FILE OLD NEW: replaces the one occurrence of the text OLD in FILE with NEW, for
 * `make mutate`. Exits 0 when done, 3 when OLD is not in FILE (the code moved: the list
 * needs updating), 4 when OLD occurs more than once (the mutation would be ambiguous),
 * 2 on a usage or I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *b = realloc(buf, cap);
			if (b == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	size_t len;
	char *text;

	if (argc != 4 || argv[2][0] == '\0') {
		fputs("usage: apply FILE OLD NEW\n", stderr);
		return 2;
	}
	if ((text = slurp(argv[1], &len)) == NULL) {
		perror(argv[1]);
		return 2;
	}
	char *at = strstr(text, argv[2]);
	if (at == NULL)
		return 3;
	if (strstr(at + 1, argv[2]) != NULL)
		return 4;
	FILE *f = fopen(argv[1], "wb");
	if (f == NULL) {
		perror(argv[1]);
		return 2;
	}
	size_t before = (size_t)(at - text), old = strlen(argv[2]);
	int bad = fwrite(text, 1, before, f) != before ||
		  fputs(argv[3], f) == EOF ||
		  fwrite(at + old, 1, len - before - old, f) != len - before - old;
	bad |= fclose(f) != 0;
	free(text);
	return bad ? 2 : 0;
}
