# Results people read and paste: the line to paste, warnings that name their label,
# runs=auto, the version of the schema, the space a run needs, loop devices without
# direct I/O, report splitting a label by its settings, and --help against the man page.
. "$(dirname "$0")/lib.sh"
man="$(dirname "$0")/../../man/vbench.1"

# --- the line to paste ------------------------------------------------------------------
d=$(new_dir)
run_vb -q --no-progress -l my-fs bs=64k count=16 runs=3 "$d"
expect_rc 0 "-q into a directory"
last=$(printf '%s\n' "$OUT" | tail -n 1)
check "-q ends with the line to paste ($last)" has "$last" \
	'^my-fs  bs=64k x16 buffered fsync qd1: [0-9.]+ MB/s \([0-9.]+-[0-9.]+, CV [0-9.]+%, n=3\)$'
# Its figures are the summary's, in MB/s of 10^6 bytes.
want=$(printf '%s\n' "$OUT" | awk '
	/^mean / { m = $2 / 1e6 } /^min / { lo = $2 / 1e6 } /^max / { hi = $2 / 1e6 }
	/^stddev / { cv = $4; gsub(/[()%]/, "", cv) }
	END {
		d = m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : 3
		printf "%.*f MB/s (%.*f-%.*f, CV %s%%, n=3)", d, m, d, lo, d, hi, cv
	}')
check "the line's MB/s, range and CV are the summary's ($want)" \
	sh -c 'case "$1" in *": $2") exit 0;; esac; exit 1' _ "$last" "$want"
run_vb --no-progress --direct bs=64k count=4 runs=1 "$d"
expect_out '^[A-Za-z0-9._-]+  bs=64k x4 direct fsync qd1: [0-9.]+ MB/s \(n=1\)$' \
	"one run: the line says n=1 and the default label"

# --- every warning names its label ------------------------------------------------------
run_vb --no-progress -l buffered-test --sync none bs=4k count=4 runs=3 "$d"
n_warn=$(printf '%s\n' "$ERR" | grep -c '^vbench: warning: ')
n_named=$(printf '%s\n' "$ERR" | grep -c '^vbench: warning: buffered-test: ')
check "--sync none warns ($n_warn lines), every line naming the label" \
	[ "$n_warn" -ge 1 -a "$n_warn" = "$n_named" ]

# --- runs=auto ----------------------------------------------------------------------------
# /dev/null: no disk is written. The runs stop by the rule, never past --max-runs, and the
# summary says why; the dd lines are exactly the runs the line to paste counts.
run_vb --no-progress runs=auto --max-runs 4 bs=64k count=64 /dev/null
expect_rc 0 "runs=auto --max-runs 4"
n=$(printf '%s\n' "$OUT" | grep -c 'bytes transferred in')
check "runs=auto: between 3 and 4 runs ($n)" [ "$n" -ge 3 -a "$n" -le 4 ]
expect_out "^runs    (stopped after $n runs: 95% CI \+-[0-9.]+% \(--precision 3%\)|reached --max-runs 4.*: this disk is not steady)$" \
	"runs=auto: the summary says why the runs stopped"
expect_out ", n=$n\)$" "runs=auto: the line to paste counts the same runs"
expect_out '^# vbench .*runs auto \(3 to 4, until the mean.s 95% CI is within \+-3%\)' \
	"runs=auto: the header states the rule"
# A time budget already spent after three runs: exactly three, the minimum.
run_vb --no-progress runs=auto --max-time 0.000001 bs=64k count=64 /dev/null
n=$(printf '%s\n' "$OUT" | grep -c 'bytes transferred in')
check "runs=auto with a spent --max-time: the 3 runs of the minimum ($n)" [ "$n" = 3 ]
expect_out '^runs    (stopped after 3 runs|stopped by --max-time 1e-06 s after 3 runs)' \
	"runs=auto: the time budget is named when it ends the runs"
run_vb --no-progress --precision 2 /dev/null
expect_rc 1 "--precision without runs=auto"
expect_err 'applies only to runs=auto' "and the message says what it needs"

# --- the version of the schema ------------------------------------------------------------
run_vb --json runs=1 count=1 /dev/null
expect_rc 0 "--json"
check "--json: a JSON document that starts with schema_version" \
	sh -c 'printf "%s\n" "$1" | sed -n 2p | grep -qx "  \"schema_version\": 1,"' _ "$OUT"
run_vb -f csv runs=1 count=1 /dev/null
# (found by name: columns added later follow it)
check "CSV: the header has schema_version, the row 1 there" \
	sh -c 'printf "%s\n" "$1" | tr -d "\r" | awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"schema_version\") c = i }
		NR == 2 && (!c || \$c != \"1\") { exit 1 }"' _ "$OUT"

# --- --help and the man page --------------------------------------------------------------
"$VBENCH" --help >"$SCRATCH/help"
"$VBENCH" report --help >"$SCRATCH/rhelp"
wide=$(awk 'length($0) > 80' "$SCRATCH/help")
check "--help fits 80 columns" [ -z "$wide" ]
wide=$("$VBENCH" report --help | awk 'length($0) > 80')
check "report --help fits 80 columns" [ -z "$wide" ]
# Issue 37: the file-system example labels its runs and starts from an empty CSV, and a
# virtio-against-IDE example ends the text.
check "--help's file-system example starts with rm -f fs.csv and labels each run" \
	sh -c 'grep -qx "  rm -f fs.csv" "$1" && grep -q -- "-l ext4 --csv-append fs.csv /mnt/ext4" "$1" &&
		grep -q -- "-l xfs --csv-append fs.csv /mnt/xfs" "$1" && grep -q "vbench report --svg fs.svg fs.csv" "$1"' \
	_ "$SCRATCH/help"
check "--help ends with a virtio-against-IDE example" \
	sh -c 'tail -n 4 "$1" | grep -q "virtio against IDE" && tail -n 3 "$1" | grep -q -- "--force --direct -l virtio" &&
		tail -n 1 "$1" | grep -q "vbench report --baseline ide --svg bus.svg"' _ "$SCRATCH/help"
missing=""
for o in $(grep -oE -- '--[a-z][a-z-]+' "$SCRATCH/help" | sort -u); do
	# the man page writes an option as "Fl \-name", and names it "\-\-name" in examples
	name=${o#--}
	grep -qE "Fl \\\\-$name\\b|\\\\-\\\\-$name\\b" "$man" || missing="$missing $o"
done
check "every --option of --help is in man/vbench.1${missing:+ (missing:$missing)}" [ -z "$missing" ]
readme="$(dirname "$0")/../../README.md"
missing=""
for o in $(grep -oE -- '--[a-z][a-z-]+' "$readme" | sort -u); do
	name=${o#--}
	grep -qE "Fl \\\\-$name\\b|\\\\-\\\\-$name\\b" "$man" || missing="$missing $o"
done
check "every --option the README uses is in man/vbench.1${missing:+ (missing:$missing)}" \
	[ -z "$missing" ]
# and the other way: every option the man page lists is one --help lists
missing=""
for name in $(grep '^\.It ' "$man" | grep -oE 'Fl \\-[a-z][a-z-]+' | sed 's/^Fl \\-//' | sort -u); do
	grep -qE -- "--$name\b" "$SCRATCH/help" "$SCRATCH/rhelp" || missing="$missing --$name"
done
check "every option the man page lists is in --help or report --help${missing:+ (missing:$missing)}" \
	[ -z "$missing" ]
# Issue 37: a manual one can read: at most 500 lines, SECURITY at most 40.
if command -v groff >/dev/null 2>&1; then
	check "man/vbench.1 is clean under groff -mdoc -ww" sh -c '[ -z "$(groff -mdoc -ww -z "$1" 2>&1)" ]' _ "$man"
	groff -mdoc -Tutf8 -P-c -rLL=78n "$man" 2>/dev/null | sed "s/.\x08//g" >"$SCRATCH/man.txt"
	lines=$(wc -l <"$SCRATCH/man.txt")
	sec=$(awk '/^SECURITY$/ { f = 1 } /^[A-Z][A-Z ]+$/ && !/^SECURITY$/ { f = 0 } f' "$SCRATCH/man.txt" | wc -l)
	check "the manual is at most 500 lines (it is $lines)" test "$lines" -gt 100 -a "$lines" -le 500
	check "its SECURITY section is at most 40 lines (it is $sec)" test "$sec" -gt 5 -a "$sec" -le 40
else
	skip "groff not installed: the manual's length"
fi

# --- report splits a label whose runs differ ---------------------------------------------
c="$d/split.csv"
"$VBENCH" -q --no-progress -l same bs=4k count=16 runs=2 --csv-append "$c" "$d" >/dev/null 2>&1
"$VBENCH" -q --no-progress -l same bs=64k count=1 runs=2 --csv-append "$c" "$d" >/dev/null 2>&1
run_vb report "$c"
expect_rc 0 "report of one label with two block sizes"
expect_out '^bytes/sec +same bs=4k +same bs=64k$' "report: one column per block size"
expect_err 'note: label "same" holds runs made with different settings, which are never averaged together: reported as "same bs=4k", "same bs=64k"' \
	"report: a note says the label was split"
expect_out '^mean MB/s ' "report: MB/s beside bytes/sec"
run_vb report --baseline same "$c"
expect_rc 1 "report --baseline naming the split label"
expect_err 'name one of "same bs=4k", "same bs=64k"' "and the message names what to give"

# --- space: a run that cannot fit is refused before anything is written -----------------
need_linux "tmpfs and loop devices"
need_root "mount a small tmpfs and set up loop devices"
m=$(new_dir)
if mount -t tmpfs -o size=4m tmpfs "$m"; then
	add_mount "$m"
	run_vb --no-progress bs=1M count=8 runs=1 "$m"
	expect_rc 2 "a directory with 4 MiB free and runs of 8 MiB"
	expect_err "only [0-9]+ bytes are free under $m, less than the 8388608 bytes of one run \(bs=1048576 count=8\); count=3 fits" \
		"the message names the count that fits"
	check "nothing was left in it" empty_dir "$m"
	run_vb --no-progress --keep bs=1M count=8 runs=1 "$m/new.img"
	expect_rc 2 "a new file there"
	check "and the new file is not left behind, even with --keep" [ ! -e "$m/new.img" ]
	run_vb --no-progress bs=1M count=3 runs=1 "$m"
	expect_rc 0 "count=3 does fit"
else
	skip "cannot mount a tmpfs: the free space check"
fi
truncate -s 1M "$d/small.img"
L=$(losetup -f --show "$d/small.img") && add_loop "$L"
if [ -n "${L:-}" ]; then
	run_vb --no-progress --force bs=64k count=32 runs=1 "$L"
	expect_rc 2 "a 1 MiB disk and runs of 2 MiB"
	expect_err "$L holds 1048576 bytes, less than the 2097152 bytes of one run \(bs=65536 count=32\); count=16 fits; nothing was written" \
		"the message names the count that fits"
	# --- a loop device without direct I/O is named ---------------------------------------
	name=${L#/dev/}
	if [ -r "/sys/block/$name/loop/dio" ]; then
		dio=$(cat "/sys/block/$name/loop/dio")
		run_vb --no-progress --force --direct bs=64k count=4 runs=1 "$L"
		if [ "$dio" = 0 ]; then
			expect_err "^vbench: warning: [^:]+: $name has no direct I/O on its backing file: .*losetup --direct-io=on$" \
				"a loop device with dio 0 is warned about"
		else
			skip "losetup made $name with direct I/O already"
		fi
		if losetup --direct-io=on "$L" 2>/dev/null && [ "$(cat "/sys/block/$name/loop/dio")" = 1 ]; then
			run_vb --no-progress --force --direct bs=64k count=4 runs=1 "$L"
			expect_no_err "no direct I/O" "with --direct-io=on it is not"
		else
			skip "the backing file's file system refuses direct I/O for the loop device"
		fi
	else
		skip "no loop/dio attribute in sysfs (kernel before 4.10)"
	fi
else
	skip "no free loop device"
fi
