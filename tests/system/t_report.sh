# Comparisons: CSV collected across invocations, vbench report, JSON, SVG, dd logs,
. "$(dirname "$0")/lib.sh"
# environment detection on tmpfs and a loop device.

d=$(new_dir)
csv="$SCRATCH/all.csv"
rm -f "$csv"
run_vb -q --no-progress --csv-append "$csv" -l "alpha, \"one\"" bs=64k count=16 runs=3 "$d"
expect_rc 0 "first labelled invocation"
run_vb -q --no-progress --csv-append "$csv" -l beta bs=64k count=16 runs=4 "$d"
expect_rc 0 "second labelled invocation"
check "one header row for two invocations" [ "$(grep -c '^label,run,bytes' "$csv")" = 1 ]
check "seven data rows" [ "$(($(wc -l <"$csv") - 1))" = 7 ]

run_vb report --format csv "$csv"
expect_rc 0 "report on the collected CSV"
if command -v python3 >/dev/null 2>&1; then
	check "report means equal the per-run numbers" python3 -c '
import csv, sys, io, statistics
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
rep = {r["label"]: r for r in csv.DictReader(io.StringIO(sys.argv[2]))}
for label in ("alpha, \"one\"", "beta"):
    rates = [int(r["bytes_per_sec"]) for r in rows if r["label"] == label]
    got = rep[label]
    assert int(got["runs"]) == len(rates), (label, got["runs"])
    assert abs(float(got["mean"]) - statistics.mean(rates)) < 0.1, (label, got["mean"])
    assert abs(float(got["stddev"]) - statistics.stdev(rates)) < 0.1, (label, got["stddev"])
    assert float(got["min"]) == min(rates) and float(got["max"]) == max(rates)
' "$csv" "$OUT"
	run_vb report --format json "$csv"
	check "report JSON parses" sh -c 'printf "%s" "$1" | python3 -m json.tool >/dev/null' _ "$OUT"
	run_vb report --svg "$SCRATCH/chart.svg" "$csv"
	check "SVG is well-formed XML with an svg root" python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
text = open(sys.argv[1]).read()
assert "MB/s" in text and "beta" in text
' "$SCRATCH/chart.svg"
else
	skip "python3 missing (apt-get install python3): report checks"
fi
run_vb report --format markdown "$csv"
expect_out '^\| bytes/sec \| alpha, "one" \| beta \|' "markdown table has one column per label"
expect_out 'beta .*(faster|slower|no significant difference)' "comparison with Welch's t-test"

# The flush probe's row is a note under "storage:", printed from memory the report still
# owns (issue 32: it pointed into the freed runs and printed garbage).
fcsv="$SCRATCH/flush.csv"
run_vb -q --no-progress --check-flush --csv-append "$fcsv" -l flushy bs=64k count=16 runs=3 "$d"
expect_rc 0 "a session with --check-flush"
notes='(flushes do no work|flushes take time|the flush probe could not tell)'
run_vb report "$fcsv"
expect_out "^  flushy: $notes" "text: the flush verdict under storage:, intact"
run_vb report --format markdown "$fcsv"
expect_out "^- flushy: $notes" "markdown: the flush verdict, intact"
run_vb report --format json "$fcsv"
expect_out "^    \{\"label\": \"flushy\", \"text\": \"$notes" "JSON: storage_notes intact"

# Numbers no clock measured are refused where they are read (issue 32): a trace whose
# sample ends at infinity or lasts a subnormal time once looped the chart's ticks
# forever, filling the disk; a rate of 1.7e308 gave a verdict of bare digits.
tr="$SCRATCH/trace"
mkdir -p "$tr"
for bad in "0,1e308,1e308:start_secs \\+ secs inf is not a finite" \
	"0,0,5e-324:secs 4.94066e-324 is too small to be measured" \
	"0,0,1e-310:secs 1e-310 is too small to be measured"; do
	printf 'label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\nx,1,%s,1048576,0\r\n' \
		"${bad%%:*}" >"$tr/t.csv"
	RC=0
	timeout 20 "$VBENCH" report --svg "$tr/t.svg" "$tr/t.csv" >"$SCRATCH/out" 2>"$SCRATCH/err" || RC=$?
	OUT=$(cat "$SCRATCH/out") ERR=$(cat "$SCRATCH/err")
	expect_rc 1 "trace sample ${bad%%:*} refused, in bounded time"
	expect_err "t.csv:2: ${bad#*:}" "and the value is named"
	check "no chart and no temporary file are left" sh -c '[ -z "$(ls -A "$1" | grep -v "^t.csv$")" ]' _ "$tr"
	check "no infinite rate printed" sh -c 'case $1 in *inf*) exit 1;; esac' _ "$OUT"
done
# A trace's rates are the recorded ones, not remade from seconds rounded to 6 decimals.
printf 'label,run,warmup,start_secs,secs,bytes,bytes_per_sec\r\nx,1,0,0.000000,0.000973,1048576,1077186062\r\n' >"$tr/t.csv"
run_vb report "$tr/t.csv"
expect_out '^x run 1: 1 samples over 0.0 s, 1077.2 to 1077.2 MB/s, 1077.2 MB/s in all' \
	"trace: the recorded rate (1077186062 bytes/sec), not 1077.7 MB/s from the rounded seconds"
printf 'label,run,bytes,secs,bytes_per_sec\na,1,100,1,100\na,2,100,1,110\nb,1,100,1,1.7e308\nb,2,100,1,1.6e308\n' >"$SCRATCH/absurd.csv"
run_vb report "$SCRATCH/absurd.csv"
expect_rc 1 "a rate of 1.7e308 bytes/sec is refused"
expect_err 'absurd.csv:4: bytes_per_sec 1.7e\+308 bytes/sec is beyond any measured rate' "and named"

# A label longer than the stated limit is refused, never cut: two labels that differ
# past the cut were one group in the report.
long=$(printf '%0330d' 0)
run_vb -q --no-progress --csv-append "$SCRATCH/long.csv" -l "${long}A" bs=64k count=1 runs=1 "$d"
expect_rc 1 "a label of 331 bytes is refused"
expect_err 'label: 331 bytes; a label is at most 256 bytes' "and the limit is stated"
check "and nothing was written" [ ! -e "$SCRATCH/long.csv" ]

# A saved log (stdout and stderr) counts only its run lines, though the label quotes a
# dd line in the result line and in each warning.
ddlabel='ext4 1 bytes transferred in 0.000001 secs (9999999999999 bytes/sec)'
"$VBENCH" --no-progress -l "$ddlabel" bs=64k count=16 runs=3 "$d" >"$SCRATCH/saved.log" 2>&1
check "the saved log quotes the label in its result line" grep -q "^$ddlabel  bs=64k" "$SCRATCH/saved.log"
run_vb report --format csv "$SCRATCH/saved.log"
expect_out '^saved,3,' "report of the saved log counts its 3 runs"

# One label with fsync and unsynced runs is two groups, never averaged.
scsv="$SCRATCH/sync.csv"
run_vb -q --no-progress --csv-append "$scsv" -l same --sync fsync bs=64k count=16 runs=2 "$d"
run_vb -q --no-progress --csv-append "$scsv" -l same --sync none bs=64k count=16 runs=2 "$d"
run_vb report --format csv "$scsv"
expect_out '^same fsync,2,' "the fsync runs are a group of their own"
expect_out '^same nosync,2,' "and the unsynced runs another"

# A CSV file that is not vbench's says so, and what its first line holds.
printf 'name,size\nx,1\n' >"$SCRATCH/other.csv"
run_vb report "$SCRATCH/other.csv"
expect_rc 1 "a CSV file that is not vbench's is refused"
expect_err 'other.csv: neither a vbench CSV or JSON file nor a dd log .*its first line is "name,size"' \
	"and it says what it is not, and what its first line holds"

# A label naming another file system than the target's is warned about, naming both,
# and the report shows where each label was measured: a mount that failed leaves an
# empty directory, and the runs measure the disk under it.
run_vb -f json --no-progress bs=4k count=1 runs=1 "$d"
here_fs=$(printf '%s\n' "$OUT" | sed -n 's/.*"fs": "\([^"]*\)".*/\1/p' | head -n 1)
other=xfs
[ "$here_fs" = xfs ] && other=btrfs
mkdir -p "$d/$other"
wcsv="$SCRATCH/where.csv"
run_vb -q --no-progress --csv-append "$wcsv" -l "$other" bs=64k count=16 runs=2 "$d/$other"
expect_rc 0 "a label naming $other, on $here_fs, still runs"
expect_err "warning: $other: the label names $other, but .*/$other is on $here_fs \(" \
	"and is warned about, naming both file systems"
run_vb report "$wcsv"
expect_out "^  $other: $here_fs on [^ ]+ \(but the label names $other: not what was measured\)" \
	"report: the label's file system and device, and the mismatch"
expect_err "label \"$other\" names $other, but its runs were measured on $here_fs" \
	"report: and a warning"
run_vb report --format json "$wcsv"
expect_out "\"measured_on\": \"$here_fs on [^\"]+\", \"label_names_other_fs\": \"$other\"" \
	"report JSON: where, and the mismatch"
run_vb report --svg "$SCRATCH/where.svg" "$wcsv"
check "the chart marks the bar" grep -q "class=\"other-fs\"" "$SCRATCH/where.svg"

# Every kind of row and key vbench writes, in one report in every format and a chart
# (make asan runs this under AddressSanitizer): run, warm-up and flush rows and a trace
# from sessions here; the JSON document with its warnings; a saved log; and runs with a
# knee from vbench's own writers (tests/fuzz/corpus.sh), which no session here can be
# made to show on demand.
all="$SCRATCH/all"
mkdir -p "$all"
run_vb -q --no-progress --check-flush --warmup 1 --interval 0.02 --trace "$all/trace.csv" \
	--csv-append "$all/runs.csv" -l "every, \"row\"" bs=1M count=32 runs=2 "$d"
expect_rc 0 "a session with a warm-up, the flush probe and a trace"
run_vb -f json --no-progress --check-flush -l json-doc bs=64k count=16 runs=2 "$d"
printf '%s\n' "$OUT" >"$all/doc.json"
"$VBENCH" --no-progress -l logged bs=64k count=16 runs=2 "$d" >"$all/logged.log" 2>&1
corpus="$(dirname "$0")/../fuzz/corpus/report"
check "the warm-up, run and flush rows are there" sh -c \
	'grep -q "^\"every, \"\"row\"\"\",1,.*,1,0,ok," "$1" && grep -q ",flush," "$1"' _ "$all/runs.csv"
for fmt in text markdown csv json; do
	run_vb report --format "$fmt" --svg "$all/all.svg" "$all/runs.csv" "$all/doc.json" \
		"$all/logged.log" "$corpus/knee.csv" "$corpus/knee.json"
	expect_rc 0 "report --format $fmt and --svg of every kind of row"
done
expect_out '"text": "run 1: burst 1920.0 MB/s for the first 3840.0 MB' "the knee is a storage note"
expect_out '"label": "every, \\"row\\"", "text": "(flushes|the flush probe)' "the flush verdict too"
check "the chart is written" grep -q '<svg' "$all/all.svg"
run_vb report --svg "$all/trace.svg" "$all/trace.csv"
expect_rc 0 "report and chart of the trace"
expect_out '^every, "row" run 1: [0-9]+ samples' "the trace's runs are summed up"

# A dd log written by hand: BSD and GNU lines, recomputed for GNU.
cat >"$SCRATCH/old-virtio.log" <<'LOG'
1048576000 bytes transferred in 37.101394 secs (28262442 bytes/sec)
some noise
1048576000 bytes transferred in 35.000000 secs (29959314 bytes/sec)
LOG
cat >"$SCRATCH/old-ide.log" <<'LOG'
1048576000 bytes (1.0 GB, 1000 MiB) copied, 52.4288 s, 20.0 MB/s
1048576000 bytes (1.0 GB, 1000 MiB) copied, 50 s, 21.0 MB/s
LOG
run_vb report --baseline old-ide "$SCRATCH/old-virtio.log" "$SCRATCH/old-ide.log"
expect_rc 0 "report on hand-written dd logs"
expect_out '20000000' "GNU line recomputed from bytes and seconds (20000000)"
expect_out '20971520' "GNU line recomputed from bytes and seconds (20971520)"
expect_out 'old-virtio' "labels come from the file names"

# Bad input to report: exit 1 with a message, never a crash.
: >"$SCRATCH/empty.csv"
printf 'nothing to see\n' >"$SCRATCH/nolines.log"
printf 'label,run,bytes\nx,1,100\n' >"$SCRATCH/short.csv"
for bad in "$SCRATCH/missing.csv" "$SCRATCH/empty.csv" "$SCRATCH/nolines.log" "$SCRATCH/short.csv"; do
	run_vb report "$bad"
	expect_rc 1 "report refuses $(basename "$bad")"
	check "and names it" sh -c 'case $1 in *"$2"*) exit 0;; esac; exit 1' _ "$ERR" "$(basename "$bad")"
done

# Environment detection on this machine.
run_vb -f json --no-progress bs=4k count=1 runs=1 "$d"
# What the system itself says of the mount at /: its file system and its source.
root_fs=$(awk '$5 == "/" { for (i = 7; i <= NF; i++) if ($i == "-") { fs = $(i + 1); src = $(i + 2) } } END { if (fs != "") print fs, src }' /proc/self/mountinfo 2>/dev/null)
if ! python3 -c 'import sys' 2>/dev/null; then
	skip "python3 missing (apt-get install python3): root detection"
elif [ -z "$root_fs" ]; then
	skip "no mount at / here (a chroot or a container): root detection"
else
	set -- $root_fs
	case $2 in
	/dev/vd[a-z] | /dev/vd[a-z][0-9]*)
		dev=${2#/dev/}
		check "root filesystem detected as $1 on $dev, virtio_blk" sh -c 'printf "%s" "$1" | python3 -c "
import json, sys
e = json.load(sys.stdin)[\"environment\"]
want = (sys.argv[1], sys.argv[2], \"virtio_blk\")
assert (e[\"fs\"], e[\"device\"], e[\"driver\"]) == want, (e, want)" "$2" "$3"' _ "$OUT" "$1" "$dev"
		;;
	*)
		skip "the root is $1 on $2, not a virtio disk: root detection"
		;;
	esac
fi
if is_root && [ "$(uname -s)" = Linux ]; then
	m=$(new_dir)
	if mount -t tmpfs -o size=16m tmpfs "$m"; then
		add_mount "$m"
		run_vb --no-progress -f csv bs=4k count=1 runs=1 "$m"
		check "tmpfs detected as tmpfs" sh -c 'printf "%s\n" "$1" | sed -n 2p | grep -q "^tmpfs,1,"' _ "$OUT"
		umount "$m"
	fi
	img="$SCRATCH/det.img"
	truncate -s 32M "$img"
	mkfs.ext2 -q -F "$img" 2>/dev/null
	if mount -o loop "$img" "$m" 2>/dev/null; then
		add_mount "$m"
		run_vb --no-progress -f csv bs=4k count=1 runs=1 "$m"
		check "loop-mounted image detected as ext2 on loop" sh -c 'printf "%s\n" "$1" | sed -n 2p | grep -qE "^ext2-loop,1,.*,ext2,loop[0-9]+,loop,"' _ "$OUT"
		umount "$m"
	else
		skip "cannot loop-mount"
	fi
else
	skip "not root: tmpfs and loop detection"
fi

# The runs of one file given twice (a copy) count once; a row cut short by a killed
# append is refused, naming its line (attack report after issue 32, findings 1 and 2).
cp "$csv" "$SCRATCH/copy.csv"
run_vb report -f csv "$csv"
once=$OUT
run_vb report -f csv "$csv" "$SCRATCH/copy.csv"
expect_rc 0 "report on a file and its copy"
check "a copy of the file changes no figure" [ "$OUT" = "$once" ]
expect_err 'left out 7 runs read a second time' "the runs read twice are named in a note"
head -c -30 "$csv" >"$SCRATCH/cut.csv"
run_vb report "$SCRATCH/cut.csv"
expect_rc 1 "report on a CSV whose last row is cut"
expect_err 'cut\.csv:8: .*(fields|line break)' "the cut row is named by its line"

# Many labels cost linear time: 200000 labels in one file (the notes once looked at every
# later label for each: hours). A generous hang bound, not a timing measurement.
awk 'BEGIN { print "label,run,bytes,secs,bytes_per_sec"
	for (i = 0; i < 200000; i++) printf "l%d,1,100,1,100\n", i }' >"$SCRATCH/many.csv"
RC=0
timeout 120 "$VBENCH" report -f csv "$SCRATCH/many.csv" >"$SCRATCH/out" 2>"$SCRATCH/err" || RC=$?
check "200000 labels are reported within the hang bound (exit $RC)" [ "$RC" = 0 ]
check "one row each" [ "$(wc -l <"$SCRATCH/out")" = 200001 ]

# Killed while it writes --svg, report leaves no temporary file, and ends as the signal
# would end it (attack report after issue 32, finding 7).
kt=$(new_dir)
head -100001 "$SCRATCH/many.csv" >"$SCRATCH/m100k.csv"
for sn in TERM:15 INT:2 HUP:1; do
	sig=${sn%:*} num=${sn#*:}
	rm -f "$kt"/* "$kt"/.vbench-svg-*
	# (a shell starts a background job with SIGINT ignored, which vbench keeps: the
	# default is given back first)
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$VBENCH" report --svg "$kt/o.svg" "$SCRATCH/m100k.csv" \
		>/dev/null 2>"$SCRATCH/err" &
	pid=$!
	i=0
	while [ $i -lt 1000 ] && ! ls -a "$kt" | grep -q '^\.vbench-svg-'; do
		sleep 0.01
		i=$((i + 1))
	done
	if ls -a "$kt" | grep -q '^\.vbench-svg-'; then
		kill -$sig $pid
		wait $pid
		RC=$?
		check "SIG$sig while the chart is written: ended by it (exit $RC)" \
			[ "$RC" = $((128 + num)) ]
		check "SIG$sig: no temporary file and no chart left" [ -z "$(ls -A "$kt")" ]
	else
		wait $pid
		skip "the chart was written before its temporary file was seen: SIG$sig"
	fi
done

# --svg - is refused (inputs read "-" as standard input); a file is taken for a chart
# only by the head every chart starts with, not by the mark anywhere near its start
# (a label carries it into a text report): attack report after issue 32, finding 13.
run_vb report --svg - "$csv"
expect_rc 1 "--svg - is refused"
expect_err 'svg -: the chart goes to a file' "and the message says where a chart goes"
mk="$SCRATCH/mark.csv"
printf 'label,run,bytes,secs,bytes_per_sec\n<!-- made by vbench report -->,1,100,1,100\n' >"$mk"
"$VBENCH" report "$mk" >"$SCRATCH/sum.txt" 2>/dev/null
sum=$(cksum <"$SCRATCH/sum.txt")
run_vb report --svg "$SCRATCH/sum.txt" "$mk"
expect_rc 1 "a text report holding the mark in a label is not taken for a chart"
check "it is unchanged" [ "$(cksum <"$SCRATCH/sum.txt")" = "$sum" ]
run_vb report --svg "$SCRATCH/real.svg" "$mk"
run_vb report --svg "$SCRATCH/real.svg" "$mk"
expect_rc 0 "a chart vbench report wrote is replaced"
