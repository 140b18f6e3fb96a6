# vbench.exe under Wine: operands and options, errors and exit statuses, the dd lines and
# the statistics, CSV, JSON and report, directory targets that leave nothing behind,
# refusals, the alignment check, ENOSPC, Ctrl+C. VBENCH runs vbench.exe.
. "$(dirname "$0")/../system/lib.sh"

# winpath PATH: the Windows name of a Unix path under Wine (Z: is the Unix root).
winpath() { printf 'Z:%s' "$1" | tr '/' '\\'; }

run_vb --version
expect_rc 0 "--version"
expect_out '^vbench [0-9]' "--version names vbench"
run_vb --help
expect_rc 0 "--help"
run_vb bs=0 "$(winpath "$SCRATCH")"
expect_rc 1 "bs=0 is a usage error"
expect_err "bs=0: zero is not allowed" "and says so"
run_vb bs=4k count=1
expect_rc 1 "no target is a usage error"
run_vb --frobnicate x
expect_rc 1 "an unknown option is a usage error"

# A directory: the dd lines, the statistics, nothing left behind.
d=$(new_dir)
run_vb --no-progress bs=64k count=16 runs=3 "$(winpath "$d")"
expect_rc 0 "a directory target"
check "three bare dd lines per run" [ "$(printf '%s\n' "$OUT" | grep -cE '^(16\+0 records (in|out)|1048576 bytes transferred in [0-9]+\.[0-9]{6} secs \([0-9]+ bytes/sec\))$')" = 9 ]
expect_out '^mean    [0-9]+\.[0-9] bytes/sec$' "mean line"
expect_out '^stddev  [0-9.]+ bytes/sec \([0-9.]+%\)$' "stddev line"
check "lines end in LF, as everywhere: no text-mode CR" sh -c '! grep -q "$(printf "\r")" "$1"' _ "$SCRATCH/out"
expect_out '^# host .*, Windows ' "the header names Windows"
check "nothing is left in the directory" empty_dir "$d"

# A new file: created, then removed; --keep keeps it.
run_vb --no-progress bs=64k count=4 runs=1 "$(winpath "$d/new.img")"
expect_rc 0 "a new file"
check "the new file is removed at the end" [ ! -e "$d/new.img" ]
run_vb --no-progress -k bs=64k count=4 runs=1 "$(winpath "$d/kept.img")"
check "--keep keeps it, at the size written" [ "$(size_of "$d/kept.img")" = 262144 ]

# An existing file is refused, and left as it was; --force writes it.
printf 'precious\n' >"$d/data"
run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d/data")"
expect_rc 2 "an existing file is refused"
expect_err "never overwrites a file it did not create" "the refusal says why"
check "the file is unchanged" [ "$(cat "$d/data")" = precious ]
run_vb --no-progress --force bs=4k count=2 runs=1 "$(winpath "$d/data")"
expect_rc 0 "--force writes an existing file"
check "and leaves it in place" [ "$(size_of "$d/data")" = 8192 ]
run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d/no/such/file")"
expect_rc 2 "a missing directory"
expect_err "its directory does not exist" "is named as such"

# --direct: the alignment is vbench's own check (Wine ignores FILE_FLAG_NO_BUFFERING).
run_vb --no-progress --direct bs=1000 count=4 runs=1 "$(winpath "$d")"
expect_rc 2 "--direct with bs=1000 is refused"
expect_err "multiple of the [0-9]+-byte logical block size" "the message names the block size"
expect_err "\\(e.g. bs=1k\\)" "and suggests a power of two"
run_vb --no-progress --direct bs=64k count=4 runs=1 "$(winpath "$d")"
expect_rc 0 "--direct with an aligned bs"
expect_out "direct I/O" "the header says direct I/O"

# The null device is a sink.
run_vb --no-progress bs=4k count=100 runs=1 NUL
expect_rc 0 "NUL is a data sink"
expect_out '^# label sink-' "labelled as a sink"

# CSV and JSON.
run_vb --no-progress -f csv bs=64k count=4 runs=2 -l win "$(winpath "$d")"
expect_out '^label,run,bytes,secs,bytes_per_sec,' "CSV header"
check "CSV rows end in CRLF" [ "$(grep -c "$(printf '\r')\$" "$SCRATCH/out")" = 3 ]
expect_out '^win,2,262144,' "CSV rows"
run_vb --no-progress -f json bs=64k count=4 runs=2 "$(winpath "$d")"
if command -v python3 >/dev/null 2>&1; then
	check "JSON parses, with the environment of Windows" sh -c 'printf "%s" "$1" | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d[\"environment\"][\"os\"] == \"Windows\", d[\"environment\"]
assert len(d[\"runs\"]) == 2 and d[\"summary\"][\"runs\"] == 2"' _ "$OUT"
else
	skip "python3 missing: JSON parse check"
fi

# --csv-append twice, then report; --svg.
run_vb --no-progress -q bs=64k count=4 runs=3 -l one --csv-append "$(winpath "$d/all.csv")" "$(winpath "$d")"
run_vb --no-progress -q bs=64k count=4 runs=3 -l two --csv-append "$(winpath "$d/all.csv")" "$(winpath "$d")"
check "one header for two invocations" [ "$(grep -c '^label,' "$d/all.csv")" = 1 ]
run_vb report --format markdown --svg "$(winpath "$d/all.svg")" "$(winpath "$d/all.csv")"
expect_rc 0 "report on the CSV"
expect_out '^\| bytes/sec \| one \| two \|' "one column per label"
check "the chart is written" grep -q "<svg" "$d/all.svg"
run_vb report --svg "$(winpath "$d/all.csv")" "$(winpath "$d/all.csv")"
expect_rc 1 "report --svg over its input is refused"
check "the input is intact" [ "$(grep -c '^one,' "$d/all.csv")" = 3 ]

# Ctrl+C (Wine turns SIGINT into a console Ctrl+C): the partial run, the summary, the
# documented status, nothing left.
d=$(new_dir)
rm -f "$SCRATCH/c.out" "$SCRATCH/c.err"
"$VBENCH" --progress bs=4k count=2000000 runs=3 "$(winpath "$d")" >"$SCRATCH/c.out" 2>"$SCRATCH/c.err" &
pid=$!
if wait_for ETA "$SCRATCH/c.err"; then
	pkill -INT -f "vbench.exe.*$(basename "$d")"
	wait_pid "$pid" 30
	check "Ctrl+C: exit 130 (got $WAIT_RC)" [ "$WAIT_RC" = 130 ]
	check "Ctrl+C: the partial run is marked" grep -q "partial, stopped by signal 2" "$SCRATCH/c.out"
	check "Ctrl+C: the summary is printed" grep -q "^mean " "$SCRATCH/c.out"
	check "Ctrl+C: nothing is left" empty_dir "$d"
else
	not_ok "the Ctrl+C run never got under way" "$(cat "$SCRATCH/c.err")"
	kill "$pid"
fi

# Killed outright: the file was made to delete itself on close.
d=$(new_dir)
rm -f "$SCRATCH/k.err"
"$VBENCH" --progress bs=4k count=2000000 runs=1 "$(winpath "$d")" >/dev/null 2>"$SCRATCH/k.err" &
pid=$!
if wait_for ETA "$SCRATCH/k.err"; then
	pkill -KILL -f "vbench.exe.*$(basename "$d")"
	wait_pid "$pid" 10
	i=0
	while ! empty_dir "$d" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	check "killed: FILE_FLAG_DELETE_ON_CLOSE leaves nothing" empty_dir "$d"
else
	not_ok "the killed run never got under way"
	kill "$pid"
fi

# A full disk (root: a small tmpfs): ENOSPC is an I/O error, with nothing left.
if is_root && [ "$(uname -s)" = Linux ]; then
	m=$(new_dir)
	if mount -t tmpfs -o size=8m tmpfs "$m"; then
		add_mount "$m"
		run_vb --no-progress bs=1M count=16 runs=2 "$(winpath "$m")"
		expect_rc 3 "a full disk ends in exit 3"
		expect_err "No space left on device" "ENOSPC is named"
		expect_out "partial, write failed at offset" "the partial run is printed"
		check "and nothing is left" empty_dir "$m"
		umount "$m"
	else
		skip "cannot mount a tmpfs"
	fi
else
	skip "not root: the full-disk case needs a tmpfs"
fi
