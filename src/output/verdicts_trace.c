/* What says whether the storage lies (the flush verdict, the guest's write cache, a
 * knee), computed before and only formatted here; and the --trace rows. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>

#include "common/vb_escape.h"
#include "output/vb_output.h"

static void comment_line(FILE *f, const char *text)
{
	fputs("# ", f);
	vb_text(f, text);
	fputc('\n', f);
}

void vb_out_human_verdicts(FILE *f, const struct vb_context *c, const struct vb_run_analysis *a)
{
	char line[1024];

	if (vb_flush_text(&a->flush, line, sizeof line))
		comment_line(f, line);
	if (!c->sink && vb_write_cache_text(c->env->write_cache, c->env->write_cache_where, line,
					    sizeof line))
		comment_line(f, line);
	if (!c->sink && vb_knee_text(&a->knee, c->room_bytes, line, sizeof line))
		comment_line(f, line);
}

void vb_out_csv_verdicts(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r,
			 const struct vb_flush_result *fr)
{
	if (fr == NULL && r->knee.found)
		vb_buf_printf(b, ",%.0f,%.0f,%" PRIu64, r->knee.burst_bytes_per_sec,
			      r->knee.sustained_bytes_per_sec, r->knee.at_bytes);
	else
		vb_buf_puts(b, ",,,");
	if (fr != NULL)
		vb_buf_printf(b, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
			      ",%" PRIu64 ",", vb_flush_verdict_name(fr->verdict), fr->flush_p50_ns,
			      fr->flush_p99_ns, fr->write_p50_ns, fr->diff_lo_ns, fr->diff_hi_ns,
			      fr->calls);
	else
		vb_buf_puts(b, ",,,,,,,,");
	vb_csv_field(b, c->env->write_cache);
}

void vb_out_json_verdicts(FILE *f, const struct vb_run_analysis *a)
{
	const struct vb_knee_summary *k = &a->knee;
	const struct vb_flush_result *fr = &a->flush;

	fprintf(f, ", \"knee\": {\"runs_checked\": %" PRIu64 ", \"runs_with_knee\": %" PRIu64,
		k->checked, k->found);
	if (k->found > 0)
		fprintf(f, ", \"burst_bytes_per_sec\": %.0f, \"sustained_bytes_per_sec\": %.0f, "
			"\"at_bytes\": %.0f, \"at_secs\": %.3f", k->burst_bytes_per_sec,
			k->sustained_bytes_per_sec, k->at_bytes, k->at_secs);
	fprintf(f, "}, \"flush\": {\"verdict\": \"%s\"", vb_flush_verdict_name(fr->verdict));
	if (fr->why[0] != '\0') {
		fputs(", \"why\": ", f);
		vb_json_string(f, fr->why);
	}
	if (fr->verdict != 0 || fr->samples > 0) {
		fprintf(f, ", \"full\": %s, \"call\": \"%s\", \"samples\": %" PRIu64
			", \"write_bytes\": %u, \"flush_p50_ns\": %" PRIu64 ", \"flush_p99_ns\": %"
			PRIu64 ", \"write_p50_ns\": %" PRIu64 ", \"diff_p50_ns\": %" PRId64
			", \"diff_lo_ns\": %" PRId64 ", \"diff_hi_ns\": %" PRId64
			", \"confidence\": %.4f, \"margin_ns\": %d, \"calls\": %" PRIu64
			", \"secs\": %.6f",
			fr->full ? "true" : "false",
			fr->call == VB_CALL_FDATASYNC ? "fdatasync" : "fsync", fr->samples,
			fr->write_bytes, fr->flush_p50_ns, fr->flush_p99_ns, fr->write_p50_ns,
			fr->diff_p50_ns, fr->diff_lo_ns, fr->diff_hi_ns, fr->confidence,
			VB_FLUSH_MARGIN_NS, fr->calls, fr->secs);
		/* The pairs themselves: the verdict can be made again from them. */
		const uint64_t *v[2] = {fr->flush_ns, fr->write_ns};
		const char *name[2] = {"flush_ns", "write_ns"};
		for (int j = 0; j < 2; j++) {
			fprintf(f, ", \"%s\": [", name[j]);
			for (uint64_t i = 0; i < fr->samples && i < VB_FLUSH_MAX_PAIRS; i++)
				fprintf(f, "%s%" PRIu64, i ? ", " : "", v[j][i]);
			fputs("]", f);
		}
	}
	fputs("}", f);
}

void vb_out_trace_header(struct vb_buf *b)
{
	vb_buf_puts(b, "label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\n");
}

void vb_out_trace_run(struct vb_buf *b, const struct vb_context *c, const struct vb_run *r)
{
	for (uint64_t i = 0; i < r->n_intervals; i++) {
		const struct vb_interval *iv = &r->intervals[i];
		vb_csv_field(b, c->label);
		vb_buf_printf(b, ",%" PRIu64 ",%d,%.6f,%.6f,%" PRIu64 ",%.0f\r\n", r->run,
			      r->warmup ? 1 : 0, iv->start_secs, iv->secs, iv->bytes,
			      iv->secs > 0 ? (double)iv->bytes / iv->secs : 0.0);
	}
}
