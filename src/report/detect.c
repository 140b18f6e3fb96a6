#define _POSIX_C_SOURCE 200809L

#include "report/report_internal.h"

/* What kind of file an input is, and the reader for it. */

enum vb_input_kind vb_report_detect(const char *text, size_t len)
{
	size_t i = vbr_bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && text[i] == '{')
		return VB_INPUT_JSON;
	/* CSV: a first record naming two of the required columns. Two, not all, so that a
	 * CSV file missing one gets "missing column" rather than "no dd summary lines". */
	return vbr_csv_header_names(text, len) >= 2 ? VB_INPUT_CSV : VB_INPUT_TEXT;
}

int vb_report_read(struct vb_dataset *d, const char *text, size_t len, const char *name,
		   char *err, size_t errlen)
{
	size_t i = vbr_bom_len(text, len);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len)
		return vbr_fail(&(const struct vbr_err){name, err, errlen}, 0, "empty file");
	switch (vb_report_detect(text, len)) {
	case VB_INPUT_JSON:
		return vb_report_read_json(d, text, len, name, err, errlen);
	case VB_INPUT_CSV:
		return vb_report_read_csv(d, text, len, name, err, errlen);
	default:
		return vb_report_read_text(d, text, len, name, err, errlen);
	}
}
