/* sectors FILE [SIZE]: counts the SIZE-byte sectors of FILE (default 512) that equal an
 * earlier one; prints "SECTORS DUPLICATES" and exits 0, or 2 on an error. For the check
 * that no two sectors vbench writes are alike (storage that deduplicates would skip
 * them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t sector;

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, sector);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: sectors FILE [SIZE]\n");
		return 2;
	}
	sector = argc == 3 ? (size_t)strtoul(argv[2], NULL, 10) : 512;
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL || sector == 0) {
		perror(argv[1]);
		return 2;
	}
	if (fseek(f, 0, SEEK_END) != 0) {
		perror("fseek");
		return 2;
	}
	long size = ftell(f);
	rewind(f);
	size_t n = (size_t)size / sector;
	unsigned char *all = malloc(n * sector + 1);
	if (all == NULL || fread(all, sector, n, f) != n) {
		fprintf(stderr, "sectors: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	qsort(all, n, sector, cmp);
	size_t dup = 0;
	for (size_t i = 1; i < n; i++)
		dup += memcmp(all + (i - 1) * sector, all + i * sector, sector) == 0;
	printf("%zu %zu\n", n, dup);
	free(all);
	return 0;
}
