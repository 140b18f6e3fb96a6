/* libFuzzer target: the operand and option parser, with the input split into argv
 * words at newlines. An accepted configuration must satisfy the parser's promises. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/vb_opts.h"
#include "cli/vb_size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char *argv[64];
	int argc = 0;
	struct vb_config cfg;
	enum vb_opts_action act;
	struct vb_err err;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *p = text; argc < 64;) {
		argv[argc++] = p;
		char *nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	vb_config_defaults(&cfg);
	if (vb_opts_parse(argc, argv, &cfg, &act, &err) == VB_OK && act == VB_ACT_RUN) {
		if (cfg.bs_bytes == 0 || cfg.bs_bytes > VB_BS_MAX || cfg.count_blocks == 0 ||
		    cfg.runs == 0 || cfg.count_blocks > VB_SIZE_MAX / cfg.bs_bytes ||
		    cfg.qd == 0 || cfg.qd > VB_QD_MAX ||
		    cfg.target_path == NULL || cfg.target_path[0] == '\0')
			abort();
	} else if (act == VB_ACT_RUN && (strlen(err.msg) == 0 || err.status != VB_E_USAGE)) {
		abort(); /* a refusal always says why */
	}
	free(text);
	return 0;
}
