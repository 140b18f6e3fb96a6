#!/bin/sh
# Writes the seed corpus of fuzz_report (tests/fuzz/corpus/report/) from what the built
# vbench writes: a CSV file with warm-up rows, runs of two settings and the flush probe's
# row; its JSON document (warnings, the flush verdict, the knee summary); a --trace file;
# a saved log (standard output and error, with --interval lines and warnings); what
# `vbench report` itself writes (its JSON with storage_notes, its CSV and markdown); and,
# from vbench's own writers (knee_rows.c), runs with a knee, which no session here can
# be made to show on demand. Run it again when what vbench writes changes:
#     make && sh tests/fuzz/corpus.sh
set -eu
cd "$(dirname "$0")/../.."
vb=${VBENCH:-$(pwd)/build/vbench}
out=tests/fuzz/corpus/report
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
d="$tmp/target"
mkdir "$d"
label='ext4 "quoted", 1 bytes transferred in 0.000001 secs (9 bytes/sec)'
"$vb" -q --no-progress --check-flush --warmup 1 --csv-append "$tmp/runs.csv" -l "$label" \
	bs=4k count=16 runs=2 "$d" >/dev/null 2>&1
"$vb" -q --no-progress --sync none --csv-append "$tmp/runs.csv" -l "$label" \
	bs=8k count=8 runs=2 "$d" >/dev/null 2>&1
"$vb" -q --no-progress -l xfs --csv-append "$tmp/runs.csv" bs=4k count=4 runs=1 "$d" \
	>/dev/null 2>&1
"$vb" -f json --no-progress --check-flush -l "$label" bs=4k count=16 runs=2 "$d" \
	>"$tmp/run.json" 2>/dev/null
"$vb" --no-progress --interval 0.02 --trace "$tmp/trace.csv" -l "$label" bs=1M count=128 runs=2 \
	"$d" >"$tmp/saved.log" 2>&1
"$vb" report -f json "$tmp/runs.csv" >"$tmp/report.json" 2>/dev/null
"$vb" report -f csv "$tmp/runs.csv" >"$tmp/report.csv" 2>/dev/null
"$vb" report -f markdown "$tmp/runs.csv" >"$tmp/report.md" 2>/dev/null
cc -Iinclude -DVB_VERSION='"corpus"' -o "$tmp/knee_rows" tests/fuzz/knee_rows.c \
	build/libvbench.a -lm -lpthread
"$tmp/knee_rows" "$tmp/knee.csv" "$tmp/knee.json"
mkdir -p "$out"
for f in runs.csv run.json trace.csv saved.log report.json report.csv report.md knee.csv \
	knee.json; do
	# the fuzzer reads at most 16384 bytes of an input (run.sh)
	head -c 16384 "$tmp/$f" >"$out/$f"
done
echo "corpus: $(ls "$out" | wc -l) files in $out"
