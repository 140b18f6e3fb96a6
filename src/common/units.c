#include <stdio.h>

#include "common/vb_units.h"

void vb_size_short(char *buf, size_t n, uint64_t bytes)
{
	static const char suffix[] = "kMGT";
	int k = -1;

	while (k < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, n, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)bytes, suffix[k]);
}
