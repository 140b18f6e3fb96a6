/* libFuzzer target: SIZE and seconds parsing must never crash, and must keep their
 * promises: an accepted size is non-zero and at most 2^63-1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/vb_size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	uint64_t v = 0;
	double secs = 0;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (vb_parse_size0(text, 0, &v) == NULL && (v == 0 || v > VB_SIZE_MAX))
		abort();
	if (vb_parse_size0(text, 1, &v) == NULL && v > VB_SIZE_MAX)
		abort();
	if (vb_parse_secs(text, &secs) == NULL && !(secs >= 0))
		abort();
	free(text);
	return 0;
}
