# The core contract: output lines, summary, cleanup, refusals, O_DIRECT.
. "$(dirname "$0")/lib.sh"

# A directory target: dd lines, a summary that matches them, nothing left behind.
d=$(new_dir)
run_vb bs=64k count=32 runs=3 --no-progress "$d"
expect_rc 0 "three runs into a directory"
check "nothing left in the directory" empty_dir "$d"
n=$(printf '%s\n' "$OUT" | grep -cE '^[0-9]+ bytes transferred in [0-9]+\.[0-9]{6} secs \([0-9]+ bytes/sec\)$')
check "three BSD dd summary lines" [ "$n" = 3 ]
n=$(printf '%s\n' "$OUT" | grep -cxE '32\+0 records (in|out)')
check "records in/out lines" [ "$n" = 6 ]
bad=$(printf '%s\n' "$OUT" | grep -vE '^# |^[0-9]+\+[0-9]+ records (in|out)$|bytes transferred in|^(mean|min|max|stddev) |^[^ ]+  bs=64k x32 buffered fsync qd1: [0-9.]+ MB/s \(')
check "every other line is a '# ' context line" [ -z "$bad" ]
# Recompute the rates from bytes and secs and the summary from the rates.
calc=$(printf '%s\n' "$OUT" | awk '
	/bytes transferred in/ {
		b = $1; s = $5; r = $7; sub(/\(/, "", r); r += 0
		# secs is printed to the microsecond, so allow that much rounding in the rate.
		want = b / s; tol = want * 0.000001 / s + 1
		if (want - r > tol || r - want > tol) bad = 1
		n++; sum += r; v[n] = r
		if (n == 1 || r < mn) mn = r
		if (n == 1 || r > mx) mx = r
	}
	/^mean / { gm = $2 } /^min / { gmin = $2 } /^max / { gmax = $2 } /^stddev / { gsd = $2 }
	END {
		m = sum / n; ss = 0
		for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
		sd = sqrt(ss / (n - 1))
		if (bad) print "rate"
		if (sprintf("%.1f", m) != gm) print "mean " m " vs " gm
		if (mn != gmin || mx != gmax) print "minmax"
		if (sprintf("%.1f", sd) != gsd) print "stddev " sd " vs " gsd
	}')
check "summary equals the stats of the per-run lines ($calc)" [ -z "$calc" ]
expect_out '^stddev  [0-9.]+ bytes/sec \([0-9.]+%\)$' "mean/min/max/stddev lines in bytes/sec"

# One run says so instead of a stddev.
run_vb bs=4k count=4 runs=1 "$d"
expect_out '^stddev  n/a \(one run\)$' "one run: stddev n/a"

# Quiet: only the summary.
run_vb -q bs=4k count=4 runs=2 "$d"
check "--quiet prints the four summary lines and the line to paste" \
	[ "$(printf '%s\n' "$OUT" | wc -l)" = 5 ]

# A new path is created and removed, or kept with --keep.
run_vb bs=4k count=8 runs=2 "$d/new.img"
expect_rc 0 "new path"
check "new path removed at the end" [ ! -e "$d/new.img" ]
run_vb bs=4k count=8 runs=2 --keep "$d/kept.img"
check "--keep leaves the file, bs x count bytes long" [ "$(wc -c <"$d/kept.img")" = 32768 ]
check "created files are mode 0600" [ "$(ls -l "$d/kept.img" | cut -c1-10)" = "-rw-------" ]
run_vb bs=4k count=1 runs=1 --keep "$d"
check "--keep in a directory leaves one vbench-*.tmp" [ "$(ls "$d" | grep -c '^vbench-.*\.tmp$')" = 1 ]
rm -f "$d"/*

# An existing file is refused without --force, and left untouched.
printf 'precious data\n' >"$d/precious"
run_vb bs=4k count=1 runs=1 "$d/precious"
expect_rc 2 "existing file refused"
expect_err "never overwrites a file it did not create" "refusal says why"
check "existing file untouched" [ "$(cat "$d/precious")" = "precious data" ]
run_vb bs=4k count=2 runs=1 --force "$d/precious"
expect_rc 0 "existing file with --force"
check "--force file is written, not deleted" [ "$(wc -c <"$d/precious")" = 8192 ]

# Bad input: exit 1 with a message naming the operand and the value.
d=$(new_dir)
for bad in "bs=0:bs=0" "bs=-1:bs=-1" "bs=1Q:bs=1Q" "bs=:bs=" "count=abc:count=abc" \
	"iflag=x:unknown operand" "--frobnicate:unknown option"; do
	arg=${bad%%:*}
	run_vb "$arg" "$d"
	expect_rc 1 "usage error for '$arg'"
	expect_err "${bad#*:}" "message names '$arg'"
done
run_vb bs=1G count=9000000000 "$d"
expect_rc 1 "bs x count overflow"
check "nothing created on a usage error" empty_dir "$d"

# Setup errors: exit 2.
run_vb bs=4k count=1 "$d/no/such/dir/file"
expect_rc 2 "missing directory"
expect_err "cannot create $d/no/such/dir/file" "message names the path"
run_vb bs=4k count=1 "$d/missing-dir/"
expect_rc 2 "missing directory with a trailing slash"

# O_DIRECT: misaligned bs refused with the multiple required; aligned bs really used.
d=$(new_dir)
run_vb bs=1000 count=1 --direct "$d"
expect_rc 2 "bs=1000 --direct"
expect_err "multiple of the 512-byte logical block size" "says which multiple is required"
if command -v strace >/dev/null 2>&1; then
	strace -f -o "$SCRATCH/trace" -e trace=openat,open,fsync,fdatasync "$VBENCH" \
		--direct bs=64k count=4 runs=2 "$d" >/dev/null 2>&1
	# The flags of the write open itself: O_DIRECTORY (the directory opens) is not it.
	check "strace: the file is opened for writing with O_DIRECT" sh -c 'grep -E "open(at)?\\(.*O_WRONLY" "$1" | grep -qE "O_DIRECT([|,)]|\$)"' _ "$SCRATCH/trace"
	check "strace: one fsync per run" [ "$(grep -c '^[0-9]* *fsync(' "$SCRATCH/trace")" = 2 ]
	strace -f -o "$SCRATCH/trace" -e trace=openat,open,fsync,fdatasync "$VBENCH" \
		--sync fdatasync bs=64k count=4 runs=1 "$d" >/dev/null 2>&1
	check "strace: --sync fdatasync calls fdatasync, once a run" [ "$(grep -c '^[0-9]* *fdatasync(' "$SCRATCH/trace")" = 1 ]
	strace -f -o "$SCRATCH/trace" -e trace=openat,open "$VBENCH" oflag=dsync bs=64k count=4 \
		runs=1 "$d" >/dev/null 2>&1
	check "strace: oflag=dsync opens for writing with O_DSYNC" sh -c 'grep -E "open(at)?\\(.*O_WRONLY" "$1" | grep -qE "O_DSYNC([|,)]|\$)"' _ "$SCRATCH/trace"
else
	skip "strace not installed (apt-get install strace): O_DIRECT witness"
fi
check "directory empty after the direct runs" empty_dir "$d"

# A character device is allowed.
run_vb bs=1M count=16 runs=2 /dev/null
expect_rc 0 "/dev/null is allowed"

# --help and the man page agree on the options.
missing=""
for o in $("$VBENCH" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "${o#--}" "$(dirname "$0")/../../man/vbench.1" 2>/dev/null || missing="$missing $o"
done
check "every --help option appears in man/vbench.1 (missing:$missing)" [ -z "$missing" ]
