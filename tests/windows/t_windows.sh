# vbench.exe or vbench32.exe (EXE) under Wine (WINE): operands and options, errors and
# exit statuses, the dd lines and the statistics, CSV, JSON and report, directory targets
# that leave nothing behind, refusals (reserved device names, volumes, --qd), long
# paths, the alignment check, ENOSPC, Ctrl+C, the Windows version in the header.
# VBENCH runs the exe.
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
expect_out 'mounted on Z:\\$' "the volume holding the target is found (Z:, Wine's root)"
check "nothing is left in the directory" empty_dir "$d"

# Fresh random data: a thread makes it into a ring that the writer takes it from, so the
# Win32 threads, critical sections and events behind the pthread calls carry every block.
run_vb --no-progress -k --source random bs=64k count=256 runs=2 "$(winpath "$d/rnd.img")"
expect_rc 0 "--source random (the maker thread and the ring)"
expect_out '^256\+0 records out$' "every block written"
check "the file holds the data, not zeros" sh -c 'od -An -tx1 -N 65536 "$1" | grep -qv "^ *00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$"' _ "$d/rnd.img"
check "two blocks differ" sh -c '[ "$(dd if="$1" bs=65536 count=1 2>/dev/null | od -An -tx1 | head -2)" != "$(dd if="$1" bs=65536 skip=100 count=1 2>/dev/null | od -An -tx1 | head -2)" ]' _ "$d/rnd.img"
rm -f "$d/rnd.img"
# The system's randomness (RtlGenRandom, which XP has; not BCrypt, which it lacks).
run_vb --no-progress -k --source urandom bs=64k count=16 runs=1 "$(winpath "$d/ur.img")"
expect_rc 0 "--source urandom"
check "the file holds random bytes" sh -c 'od -An -tx1 -N 65536 "$1" | grep -qv "^ *00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$"' _ "$d/ur.img"
rm -f "$d/ur.img"

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

run_vb --no-progress bs=4k count=100 runs=1 '\\.\NUL'
expect_rc 0 "\\\\.\\NUL is the same sink"

# Only NUL is a sink: the other reserved device names are refused before anything is
# opened, in any directory and with any extension, and nothing is created.
d=$(new_dir)
for n in COM1 CON AUX LPT1 prn com1.dat nul.img "lpt3 .txt"; do
	run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d")\\$n"
	expect_rc 2 "$n is refused"
	expect_err "reserved device name" "and the refusal says why ($n)"
done
run_vb --no-progress bs=4k count=1 runs=1 COM1
expect_rc 2 "COM1 alone is refused"
expect_err "names the device COM1" "as the serial port"
mkdir "$d/aux"
run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d")\\aux\\x.img"
expect_rc 2 "a reserved name as a directory component is refused"
check "nothing was created" [ -z "$(ls "$d/aux")" ]
rmdir "$d/aux"
check "nothing was created in the directory" empty_dir "$d"

# Volumes and devices other than whole disks are refused by name.
run_vb --no-progress --force bs=4k count=1 runs=1 '\\.\C:'
expect_rc 2 "a volume is refused"
expect_err "is a volume" "as a volume"
run_vb --no-progress --force bs=4k count=1 runs=1 '\\.\CdRom0'
expect_rc 2 "another device is refused"
expect_err "a device vbench does not write to" "as a device vbench does not write"

# --qd above 1 would be qd 1 under another name: refused.
run_vb --no-progress --qd 8 bs=64k count=16 runs=1 "$(winpath "$d")"
expect_rc 2 "--qd 8 is refused"
expect_err "^vbench: --qd 8: .*use --qd 1" "with the reason and what to use"
check "nothing is left by the refusal" empty_dir "$d"

# A path longer than MAX_PATH (260): a directory 300 characters deep.
long=$d
while [ ${#long} -lt 300 ]; do long=$long/abcdefghijklmnopqrstuvwxyz0123456789; done
mkdir -p "$long"
run_vb --no-progress bs=64k count=4 runs=1 "$(winpath "$long")"
expect_rc 0 "a directory target past MAX_PATH"
run_vb --no-progress -k bs=64k count=4 runs=1 "$(winpath "$long/kept.img")"
expect_rc 0 "a new file past MAX_PATH"
check "is written there" [ "$(size_of "$long/kept.img")" = 262144 ]
rm -rf "${d:?}"/*

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

# The header names the version of Windows, as RtlGetVersion tells it (GetVersionEx says
# 6.2 on 8.1 and later to a program whose manifest does not name them). Wine answers as
# the version set in its prefix; XP for the i686 exe, XP x64 for the x86-64 one (both
# NT 5.x); Wine 8 has no Windows 11 to set (the name of build 22000 and later is a unit
# test, as are the server editions).
# set_version V: winecfg where it knows V (it sets the edition too), else the registry
# value Wine reads (winecfg of a 64-bit prefix refuses winxp).
w64=${WINE64:-/usr/lib/wine/wine64}
set_version() {
	"$w64" winecfg -v "$1" >/dev/null 2>&1 ||
		"$w64" reg add 'HKCU\Software\Wine' /v Version /t REG_SZ /d "$1" /f >/dev/null 2>&1
}
d=$(new_dir)
run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d")"
expect_out '^# host .*, Windows [0-9A-Za-z. ]+ \([0-9]+\.[0-9]+\.[0-9]+\), ' "the header names the version"
case $EXE in
*32*.exe) xp=winxp want='XP \(5\.1\.2600\)' ;;
*) xp=winxp64 want='XP x64 \(5\.2\.3790\)' ;;
esac
for v in "$xp:$want" 'win7:7 \(6\.1\.7601\)' 'win81:8\.1 \(6\.3\.9600\)' 'win10:10 \(10\.0\.[0-9]+\)'; do
	if set_version "${v%%:*}"; then
		run_vb --no-progress bs=4k count=1 runs=1 "$(winpath "$d")"
		expect_out "^# host .*, Windows ${v#*:}, " "as ${v%%:*}: Windows ${v#*:}"
	else
		skip "Wine cannot be set to ${v%%:*}"
	fi
done
set_version win10

# Ctrl+C (Wine turns SIGINT into a console Ctrl+C): the partial run, the summary, the
# documented status, nothing left.
d=$(new_dir)
rm -f "$SCRATCH/c.out" "$SCRATCH/c.err"
"$VBENCH" --progress bs=4k count=2000000 runs=3 "$(winpath "$d")" >"$SCRATCH/c.out" 2>"$SCRATCH/c.err" &
pid=$!
if wait_for ETA "$SCRATCH/c.err"; then
	pkill -INT -f "$EXE.*$(basename "$d")"
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
	pkill -KILL -f "$EXE.*$(basename "$d")"
	wait_pid "$pid" 10
	i=0
	while ! empty_dir "$d" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	check "killed: FILE_FLAG_DELETE_ON_CLOSE leaves nothing" empty_dir "$d"
else
	not_ok "the killed run never got under way"
	kill "$pid"
fi

# The directory is held, and each run's file is opened relative to its handle: a
# directory moved away in the middle of a session, and a file put in its place, change
# nothing (a path-based open would fail the next run: the path now names a file).
if is_root && [ "$(uname -s)" = Linux ]; then
	m=$(new_dir)
	if mount -t tmpfs -o size=1g tmpfs "$m"; then
		add_mount "$m"
		mkdir "$m/d"
		rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
		"$VBENCH" --no-progress bs=4k count=120000 runs=2 "$(winpath "$m/d")" \
			>"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
		pid=$!
		# The swap as soon as a file of vbench is there (its first probe, or the
		# first run's, each of which takes a second or two here; a look every 10 ms).
		i=0 seen=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 6000 ]; do
			if [ -n "$(ls -A "$m/d" 2>/dev/null)" ]; then
				seen=1
				break
			fi
			sleep 0.01
			i=$((i + 1))
		done
		if [ $seen = 1 ]; then
			mv "$m/d" "$m/held"
			printf 'impostor\n' >"$m/d"
			wait_pid "$pid" 60
			check "a swapped directory: the session completes (got $WAIT_RC)" [ "$WAIT_RC" = 0 ]
			check "both runs" [ "$(grep -c "^120000+0 records out$" "$SCRATCH/s.out")" = 2 ]
			check "the file put in its place is untouched" [ "$(cat "$m/d")" = impostor ]
			# Wine deletes a delete-on-close file by the path its directory had when
			# it was opened, which the move took away: the runs' files stay in the
			# held directory here (Windows deletes the file itself, by its handle).
			check "the runs wrote in the held directory, nowhere else" \
				sh -c '[ -n "$(ls -A "$1")" ] && [ -z "$(ls -A "$1" | grep -v "^vbench-.*\.tmp$")" ]' _ "$m/held"
		else
			not_ok "the swap run never got under way" "$(cat "$SCRATCH/s.err")"
			kill "$pid" 2>/dev/null
			wait "$pid"
		fi
		umount "$m"
	else
		skip "cannot mount a tmpfs"
	fi
else
	skip "not root: the swapped-directory case needs a tmpfs"
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
