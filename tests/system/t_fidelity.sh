# Data fidelity and live feedback: unique incompressible sectors, progress, status.
. "$(dirname "$0")/lib.sh"

d=$(new_dir)
run_vb --no-progress --source random --keep bs=64k count=256 runs=1 "$d/r.img"
expect_rc 0 "random source, kept"
if command -v python3 >/dev/null 2>&1; then
	check "every 4 KiB sector of the random file differs" python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
sectors = [data[i:i + 4096] for i in range(0, len(data), 4096)]
sys.exit(0 if len(sectors) == 4096 and len(set(sectors)) == len(sectors) else 1)' "$d/r.img"
else
	skip "python3 missing (apt-get install python3): sector uniqueness"
fi
orig=$(wc -c <"$d/r.img")
packed=$(gzip -c -9 "$d/r.img" | wc -c)
check "gzip cannot shrink the random file by more than 1% ($packed of $orig)" \
	[ $((packed * 100)) -ge $((orig * 99)) ]
rm -f "$d/r.img"

# urandom data is stamped too: a small bs would otherwise repeat inside gzip's window.
run_vb --no-progress --source urandom --keep bs=4k count=1024 runs=1 "$d/u.img"
packed=$(gzip -c "$d/u.img" | wc -c)
check "urandom file at bs=4k does not compress" [ $((packed * 100)) -ge $((4194304 * 99)) ]
rm -f "$d/u.img"

# --seed makes the data reproducible.
"$VBENCH" -q --no-progress --source random --seed 7 --keep bs=64k count=16 runs=1 "$d/s1" >/dev/null 2>&1
"$VBENCH" -q --no-progress --source random --seed 7 --keep bs=64k count=16 runs=1 "$d/s2" >/dev/null 2>&1
check "--seed gives the same bytes twice" cmp -s "$d/s1" "$d/s2"
rm -f "$d/s1" "$d/s2"

# Free page reporting: in a guest that gives freed memory back to its host, every
# buffered run is warned (its page cache may get memory the host must supply again);
# not with --direct, and not while the reporting is paused (an order above the buddy
# allocator's largest). The order is changed for these runs only (finish puts it back).
knob=/sys/module/page_reporting/parameters/page_reporting_order
if ! is_root || [ "$(uname -s)" != Linux ] || [ ! -w "$knob" ] || [ ! -r /proc/buddyinfo ]; then
	skip "free page reporting: needs root, Linux, and a kernel with page reporting"
else
	balloon=""
	for v in /sys/bus/virtio/devices/*; do
		if [ "$(cat "$v/device" 2>/dev/null)" = 0x0005 ] &&
			[ "$(cut -c6 "$v/features" 2>/dev/null)" = 1 ]; then
			balloon=$v
		fi
	done
	orders=$(awk 'NR == 1 { print NF - 4 }' /proc/buddyinfo)
	REPORTING_ORDER=$(cat "$knob")
	fr=$(new_dir)
	echo 9 >"$knob"
	run_vb --no-progress bs=64k count=16 runs=1 "$fr"
	if [ -n "$balloon" ]; then
		expect_err '^vbench: warning: [^:]+: free page reporting is on: ' \
			"reporting on ($balloon): a buffered run is warned, naming its label"
		# issue 37: one plain sentence, on one line (no "and run slower..." line after it)
		n=$(printf '%s\n' "$ERR" | grep -c 'free page reporting\|DIAGNOSTICS\|slower by chance')
		check "in one line ($n)" [ "$n" = 1 ]
	else
		expect_no_err "free page reporting" "no virtio balloon reports free pages: no warning"
	fi
	run_vb --no-progress --direct bs=64k count=16 runs=1 "$fr"
	expect_no_err "free page reporting" "reporting on, --direct: no warning"
	echo "$orders" >"$knob"
	run_vb --no-progress bs=64k count=16 runs=1 "$fr"
	expect_no_err "free page reporting" "reporting paused (order $orders): no warning"
	echo "$REPORTING_ORDER" >"$knob"
	REPORTING_ORDER=""
fi

# Live progress: one line refreshed in place with a rate and an ETA, erased at the end.
"$VBENCH" --progress --sync dsync bs=4k count=20000 runs=1 "$d" >"$SCRATCH/p.out" 2>"$SCRATCH/p.err"
check "progress shows percent, rate and ETA" grep -q 'bytes (.*%), now .* MB/s, avg .* MB/s, ETA' "$SCRATCH/p.err"
# (warnings may follow the erased line: in a guest with free page reporting)
check "progress is erased at the end" sh -c 'sed "s/vbench: warning: .*//" "$1" | tr -d "\n" | tail -c 5 | od -c | grep -q "\\\\r"' _ "$SCRATCH/p.err"
check "progress never reaches stdout" sh -c '! grep -q ETA "$1"' _ "$SCRATCH/p.out"

# SIGUSR1 prints a dd-style status line on stderr at any time. On a throttled device,
# so that the run is still writing when the signal comes however loaded the machine; the
# throttle is lifted once the status line is out, and the run ends at once.
if slow_disk 131072; then
	slow_vbench "$SCRATCH/s.out" "$SCRATCH/s.err" --progress --force --direct --sync dsync \
		bs=4k count=4096 runs=1 "$SLOW"
	pid=$VB_PID
	check "the run is under way" wait_for ETA "$SCRATCH/s.err" "$pid"
	kill -USR1 "$pid"
	status='[0-9]+ bytes transferred in [0-9.]+ secs \([0-9]+ bytes/sec\)$'
	wait_for "$status" "$SCRATCH/s.err" "$pid"
	slow_lift
	check "the session ends" wait_pid "$pid" 60
	check "SIGUSR1: status line on stderr" grep -qE "$status" "$SCRATCH/s.err"
	check "SIGUSR1: the run goes on to the end" grep -q "^4096+0 records out" "$SCRATCH/s.out"
else
	skip "$slow_why: SIGUSR1 is not tried"
fi

# Warm-up runs are printed as such and left out; --overwrite marks the allocating run.
run_vb --no-progress --warmup 1 --overwrite bs=64k count=16 runs=2 "$d"
expect_out '^# warm-up 1 of 1 \(not counted\)' "warm-up printed"
expect_out 'allocating' "allocating run marked"
expect_out '^# summary of 2 completed runs' "summary counts only the measured runs"
check "warm-up dd lines are marked as context" [ "$(printf '%s\n' "$OUT" | grep -c '^[0-9]* bytes transferred')" = 2 ]
printf '%s\n' "$OUT" >"$SCRATCH/warm.log"
run_vb report --format csv "$SCRATCH/warm.log"
expect_out '^warm,2,' "vbench report on a saved log counts the measured runs only"

# --interval: time series lines and the slowest/fastest interval.
run_vb --no-progress --interval 0.05 --sync dsync bs=4k count=1500 runs=2 "$d"
expect_out '^# interval ' "--interval prints interval lines"
expect_out '^# slowest interval' "--interval names the slowest and fastest"

# The page-cache warning.
run_vb --no-progress --sync none bs=64k count=16 runs=2 "$d"
expect_err "may measure memory" "--sync none warns about the page cache"
expect_err "less than twice" "and says the run is smaller than twice the RAM"
check "nothing left behind" empty_dir "$d"

# JSON is one valid document with the documented keys.
if command -v python3 >/dev/null 2>&1; then
	run_vb --no-progress -f json --interval 0.01 bs=64k count=64 runs=3 "$d"
	check "JSON has config, environment, runs, summary with units" sh -c 'printf "%s" "$1" | python3 -c "
import json, sys
d = json.load(sys.stdin)
for k in (\"bs\", \"count\", \"source\", \"direct\", \"sync\", \"runs\"): assert k in d[\"config\"], k
for k in (\"fs\", \"device\", \"driver\", \"host\", \"os\"): assert k in d[\"environment\"], k
assert len(d[\"runs\"]) == 3
for r in d[\"runs\"]:
    for k in (\"run\", \"bytes\", \"secs\", \"bytes_per_sec\", \"write_secs\", \"sync_secs\"): assert k in r, k
    assert \"p99_9_ns\" in r[\"latency\"]
for k in (\"mean\", \"min\", \"max\", \"stddev\"): assert k in d[\"summary\"], k
rates = [r[\"bytes_per_sec\"] for r in d[\"runs\"]]
assert abs(sum(rates) / 3 - d[\"summary\"][\"mean\"]) < 0.1
"' _ "$OUT"
fi
