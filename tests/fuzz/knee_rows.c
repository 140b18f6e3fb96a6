/* Writes, with vbench's own writers, what no session on this machine can be made to
 * write on demand: runs with a knee (a cache that ran out), as CSV rows (argv[1]) and a
 * JSON document (argv[2]), for the fuzz corpus (tests/fuzz/corpus.sh). The figures are
 * those of a cache of 2.1 GB in front of a disk of 310 MB/s. */
#include <stdio.h>
#include <string.h>
#include "bench/vb_analysis.h"
#include "output/vb_output.h"

int main(int argc, char *argv[])
{
	static struct vb_config cfg;
	static struct vb_env env;
	static struct vb_interval iv[16];
	struct vb_context ctx;
	struct vb_run runs[2];
	struct vb_run_analysis an;
	struct vb_buf b;

	if (argc != 3)
		return 2;
	vb_config_defaults(&cfg);
	cfg.interval_secs = 0.5;
	memset(&env, 0, sizeof env);
	strcpy(env.fs, "xfs");
	strcpy(env.device, "nvme0n1");
	strcpy(env.driver, "nvme");
	strcpy(env.write_cache, "write back");
	memset(&ctx, 0, sizeof ctx);
	ctx.cfg = &cfg;
	ctx.env = &env;
	ctx.label = "xfs-nvme";
	ctx.target = "/mnt/xfs";
	for (size_t i = 0; i < 16; i++) {
		iv[i].start_secs = 0.5 * (double)i;
		iv[i].secs = 0.5;
		iv[i].bytes = i < 4 ? 960000000 : 155000000;
	}
	memset(runs, 0, sizeof runs);
	for (int i = 0; i < 2; i++) {
		struct vb_run *r = &runs[i];
		r->run = (uint64_t)i + 1;
		r->bytes = 6245000000;
		r->secs = 8.0 + i * 0.25;
		r->bytes_per_sec = vb_rate(r->bytes, r->secs);
		r->intervals = iv;
		r->n_intervals = 16;
		vb_knee_find(iv, 16, &r->knee);
	}
	vb_buf_init(&b);
	vb_out_csv_header(&b);
	vb_out_csv_row(&b, &ctx, &runs[0], NULL);
	vb_out_csv_row(&b, &ctx, &runs[1], NULL);
	FILE *f = fopen(argv[1], "w");
	if (f == NULL || b.oom || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0)
		return 1;
	vb_buf_free(&b);
	if (vb_analyze(&cfg, runs, 2, NULL, 0, &an) != 0)
		return 1;
	f = fopen(argv[2], "w");
	if (f == NULL)
		return 1;
	vb_out_json(f, &ctx, runs, 2, &an, NULL, 0);
	return fclose(f) != 0;
}
