/* libFuzzer target: what `vbench report` does with a file, in its order. The readers
 * (auto-detected, then each one), the analysis, the data set freed, then every printer
 * on the comparison alone, into a null stream; a --trace file read, summed up and
 * drawn. A refusal always says why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "report/vb_report.h"
#include "report/report_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null;

/* The comparison of d, printed the way the command does: after d is freed. */
static void compare_and_print(struct vb_dataset *d)
{
	struct vb_comparison a;
	char err[512] = "";

	int rc = vb_report_compare(d, NULL, &a, err, sizeof err);
	vb_dataset_free(d);
	if (rc != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	vb_report_print_text(null, &a);
	vb_report_print_markdown(null, &a);
	vb_report_print_csv(null, &a);
	vb_report_print_json(null, &a);
	vb_report_print_svg(null, &a, "bs=1");
	vb_comparison_free(&a);
}

static void trace(const char *text, size_t size)
{
	struct vbr_trace t = {0};
	char err[512] = "";

	if (!vbr_is_trace(text, size))
		return;
	if (vbr_read_trace(&t, text, size, "fuzz.csv", err, sizeof err) == 0) {
		vbr_trace_print(null, &t);
		vbr_trace_svg(null, &t, NULL);
	} else if (err[0] == '\0') {
		abort();
	}
	vbr_trace_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[512];
	int (*readers[])(struct vb_dataset *, const char *, size_t, const char *, char *,
			 size_t) = {vb_report_read, vb_report_read_csv, vb_report_read_json,
				    vb_report_read_text};

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
		struct vb_dataset d;
		vb_dataset_init(&d);
		err[0] = '\0';
		if (readers[i](&d, text, size, "fuzz.log", err, sizeof err) == 0) {
			compare_and_print(&d);
			continue;
		}
		if (err[0] == '\0')
			abort(); /* a refusal always says why */
		vb_dataset_free(&d);
	}
	trace(text, size);
	return 0;
}
