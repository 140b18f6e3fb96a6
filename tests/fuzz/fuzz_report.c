/* libFuzzer target: the report readers (CSV, JSON, dd logs, auto-detected), then the
 * analysis and every printer on whatever was read, into a null stream. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "vb_report.h"
#include "vb_report_test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print_all(const struct vb_dataset *d)
{
	struct vb_comparison a;
	char err[512];
	FILE *null = fopen("/dev/null", "w");

	if (null == NULL)
		return;
	if (vb_report_compare(d, NULL, &a, err, sizeof err) == 0) {
		vb_report_print_text(null, &a);
		vb_report_print_markdown(null, &a);
		vb_report_print_csv(null, &a);
		vb_report_print_json(null, &a);
		vb_report_print_svg(null, &a, "bs=1");
		vb_comparison_free(&a);
	}
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[512];
	int (*readers[])(struct vb_dataset *, const char *, size_t, const char *, char *,
			 size_t) = {vb_report_read, vb_report_read_csv, vb_report_read_json,
				    vb_report_read_text};

	for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
		struct vb_dataset d;
		vb_dataset_init(&d);
		err[0] = '\0';
		if (readers[i](&d, text, size, "fuzz.log", err, sizeof err) == 0)
			print_all(&d);
		else if (err[0] == '\0')
			abort(); /* a refusal always says why */
		vb_dataset_free(&d);
	}
	return 0;
}
