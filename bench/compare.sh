#!/usr/bin/env bash
# Measures vbench against dd (and fio when installed) on the same work, interleaved,
# and prints the medians and their ratios against the targets of the issues (4, 13, 14).
#
#   bench/compare.sh              default sizes (4 GiB, 1 GiB, 512 MiB), 5 repeats
#   QUICK=1 bench/compare.sh      small sizes, 3 repeats: a smoke test of the script
#
# Environment: REPEATS (repeats per measurement), CPU_REPEATS (of the CPU figure; 7),
# QUICK (1: small sizes), VBENCH (the binary; default: ../vbench next to this directory),
# OLD_VBENCH (an earlier binary to compare --qd 1 with), DISK_DIR (where the O_DIRECT
# tests make their temporary directory; default /var/tmp), NO_FIO (1: skip fio),
# KEEP_PAGE_REPORTING (1: leave the guest's free page reporting on; a root run pauses it
# by default, see the supervisor below).
#
# A MISS is a finding, not a failure: the script exits 0 unless a command crashed or the
# setup was impossible. See bench/README.md for what each figure means.

set -u
set -o pipefail
# dd and awk print and read decimal points; a locale with decimal commas would break the
# parsing, so everything runs in the C locale.
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VBENCH=${VBENCH:-$here/../vbench}
QUICK=${QUICK:-0}
DISK_DIR=${DISK_DIR:-/var/tmp}
NO_FIO=${NO_FIO:-0}
if [ "$QUICK" = 1 ]; then
	REPEATS=${REPEATS:-3}
	CPU_REPEATS=${CPU_REPEATS:-3}
else
	REPEATS=${REPEATS:-5}
	CPU_REPEATS=${CPU_REPEATS:-7}
fi
OLD_VBENCH=${OLD_VBENCH:-}

MiB=1048576
if [ "$QUICK" = 1 ]; then
	# Small enough to finish in well under a minute, large enough that every code path
	# (parsing, medians, cleanup) is exercised as in a full run.
	a_bytes=$((64 * MiB)); b_blocks=64; c_blocks=64; e_blocks=64; f_labels=1000
else
	a_bytes=$((4096 * MiB)); b_blocks=1024; c_blocks=512; e_blocks=512; f_labels=100000
fi
a_count4k=$((a_bytes / 4096))
a_count1m=$((a_bytes / MiB))

die() {
	echo "compare.sh: $*" >&2
	exit 1
}

for v in "$REPEATS" "$CPU_REPEATS"; do
	case $v in
	'' | *[!0-9]* | 0) die "REPEATS and CPU_REPEATS must be positive integers, not '$v'" ;;
	esac
done
if [ -n "$OLD_VBENCH" ]; then
	[ -x "$OLD_VBENCH" ] || die "OLD_VBENCH=$OLD_VBENCH is not an executable"
	OLD_VBENCH=$(cd "$(dirname "$OLD_VBENCH")" && pwd)/$(basename "$OLD_VBENCH")
fi
[ -x "$VBENCH" ] || die "no vbench binary at $VBENCH (run make, or set VBENCH)"
VBENCH=$(cd "$(dirname "$VBENCH")" && pwd)/$(basename "$VBENCH")
command -v dd >/dev/null || die "dd not found"

have_fio=0
if [ "$NO_FIO" != 1 ] && command -v fio >/dev/null; then
	have_fio=1
fi
# GNU time gives the peak resident set (%M) exactly; without it the script samples
# VmHWM from /proc, which is a close lower bound.
gnu_time=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	gnu_time=/usr/bin/time
fi

# Everything the script creates lives in four directories made here, before any
# measurement: work (captured output of each command, and the tmpfs mount point),
# shm_dir (used for (b) when no tmpfs can be mounted), and disk_dir (the O_DIRECT files).
#
# The script runs as two processes. This one, the supervisor, makes the directories,
# starts a second copy of the script that does the measuring, waits for it, and then
# unmounts and removes everything. The split exists because bash 5.2 can lose a signal
# trap that fires while it is parsing a command substitution (it reports "trap: unexpected
# EOF while looking for matching `)'" and carries on), and the measuring half is full of
# command substitutions; a supervisor that only sits in `wait` gets its traps reliably.
if [ "${VBENCH_COMPARE_CHILD:-}" != 1 ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/vbench-compare.XXXXXX") || die "cannot make a scratch directory"
	shm_dir="" disk_dir="" child="" reporting_saved=""
	reporting_knob=/sys/module/page_reporting/parameters/page_reporting_order
	# shellcheck disable=SC2317 # called from the traps and at the end
	cleanup() {
		local i
		# The measuring copy, and whatever vbench, dd or fio it was running, must be gone
		# before their directories are: they run in their own process group, which gets
		# TERM, then KILL if it is still there after five seconds.
		if [ -n "$child" ] && kill -0 -- "-$child" 2>/dev/null; then
			kill -TERM -- "-$child" 2>/dev/null
			for ((i = 0; i < 50; i++)); do
				kill -0 -- "-$child" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL -- "-$child" 2>/dev/null
		fi
		if [ -s "$work/loopdev" ]; then
			losetup -d "$(cat "$work/loopdev")" 2>/dev/null
		fi
		if [ -d "$work/tmpfs" ]; then
			umount "$work/tmpfs" 2>/dev/null || umount -l "$work/tmpfs" 2>/dev/null
		fi
		if [ -n "$reporting_saved" ]; then
			echo "$reporting_saved" >"$reporting_knob" 2>/dev/null ||
				echo "vbench compare: could not restore $reporting_knob to $reporting_saved" >&2
		fi
		[ -n "$shm_dir" ] && rm -rf -- "$shm_dir"
		[ -n "$disk_dir" ] && rm -rf -- "$disk_dir"
		rm -rf -- "$work"
	}
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	# Free page reporting (a virtio balloon feature) hands the guest's free memory back to
	# the host a couple of seconds after it is freed; the next run that allocates it (a
	# tmpfs file, the page cache) then takes a host page fault for every page and runs at a
	# third of its speed. Which runs get such memory is chance, so the samples split into
	# two groups far apart and a median of a few decides nothing. For the length of the
	# measurement the reporting is paused by raising its order above any block the buddy
	# allocator has; the cleanup puts the old value back. KEEP_PAGE_REPORTING=1 leaves it.
	if [ "${KEEP_PAGE_REPORTING:-0}" != 1 ] && [ -w "$reporting_knob" ]; then
		old_order=$(cat "$reporting_knob" 2>/dev/null)
		case "$old_order" in
		'' | *[!0-9]*) ;;
		*)
			if echo 64 >"$reporting_knob" 2>/dev/null || echo 11 >"$reporting_knob" 2>/dev/null; then
				reporting_saved=$old_order
				export VBENCH_COMPARE_REPORTING="paused (order $old_order -> $(cat "$reporting_knob"), restored at the end)"
			fi
			;;
		esac
	fi
	mkdir "$work/tmpfs" || die "cannot make a mount point"
	shm_dir=$(mktemp -d /dev/shm/vbench-compare.XXXXXX 2>/dev/null) || shm_dir=""
	disk_dir=$(mktemp -d "$DISK_DIR/vbench-compare.XXXXXX") || die "cannot make a directory in $DISK_DIR"
	# Job control puts the measuring copy in a process group of its own, so the cleanup
	# can stop it together with the command it is running.
	set -m
	VBENCH_COMPARE_CHILD=1 VBENCH_COMPARE_WORK=$work VBENCH_COMPARE_SHM=$shm_dir \
		VBENCH_COMPARE_DISK=$disk_dir "$BASH" "${BASH_SOURCE[0]}" "$@" &
	child=$!
	set +m
	wait "$child"
	rc=$?
	child=""
	exit "$rc"
fi

# From here on: the measuring copy, started by the supervisor above.
work=$VBENCH_COMPARE_WORK
disk_dir=$VBENCH_COMPARE_DISK
tmpfs_dir="" tmpfs_mounted=0
errf=$work/stderr
outf=$work/stdout
timef=$work/time

# Shows the captured output of a command that failed, then stops: a crash is the one
# case where the script exits non-zero.
crashed() {
	echo "compare.sh: command failed (exit $1): ${*:2}" >&2
	sed 's/^/  stdout: /' "$outf" >&2 2>/dev/null
	sed 's/^/  stderr: /' "$errf" >&2 2>/dev/null
	exit 1
}

# Runs a command with its output captured in $outf and $errf, and stores its CPU time in
# seconds (user + system, of the process and its children) in the global `cpu`. Bash's
# `time` keyword reads the rusage that wait4 returns, so no external tool is needed; it
# prints milliseconds, though a kernel that accounts CPU time by ticks is coarser.
cpu=""
run_timed() {
	local TIMEFORMAT='%3U %3S' rc
	{ time "$@" >"$outf" 2>"$errf"; } 2>"$timef"
	rc=$?
	[ "$rc" = 0 ] || crashed "$rc" "$@"
	cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$timef")
}

# Runs a command with its output captured, failing loudly.
run_plain() {
	local rc
	"$@" >"$outf" 2>"$errf"
	rc=$?
	[ "$rc" = 0 ] || crashed "$rc" "$@"
}

# The rate vbench printed in its dd-style line "N bytes transferred in S secs (R bytes/sec)".
vbench_rate() {
	awk '/ bytes transferred in / { r = $(NF - 1); sub(/^\(/, "", r) } END { print r }' "$outf"
}

# The "sync and close" seconds of vbench's "# ... MiB/s ...; write W secs, sync and close
# S secs" line: how long the part after the last write took.
vbench_sync_close() {
	awk '/ sync and close / { for (i = 1; i < NF; i++) if ($i == "close") v = $(i + 1) }
		END { print v }' "$outf"
}

# GNU dd's line "N bytes (...) copied, S s, R unit": its rate is rounded to 2-3 digits,
# so the rate is recomputed from the exact byte count and seconds.
dd_rate() {
	awk -F', ' '/ copied, / { split($(NF - 1), s, " "); b = $1 + 0; t = s[1] + 0 }
		END { if (t > 0) printf "%.0f\n", b / t }' "$errf"
}

# fio's JSON: the write section's io_bytes and runtime (ms). With end_fsync=1 the final
# fsync happens inside fio's measured I/O phase, so io_bytes / runtime covers the same
# write + fsync span as dd's and vbench's clocks (see README.md). jq when present,
# otherwise a small awk reader of fio's one-key-per-line layout.
fio_rate() {
	if command -v jq >/dev/null; then
		jq -r '.jobs[0].write | if .runtime > 0 then (.io_bytes * 1000 / .runtime | floor)
			else empty end' "$outf"
	else
		awk '/"write" *: *\{/ { w = 1 }
			w && /"io_bytes"/ && b == "" { b = $3 + 0 }
			w && /"runtime"/ && t == "" { t = $3 + 0 }
			END { if (t > 0) printf "%.0f\n", b * 1000 / t }' "$outf"
	fi
}

# Median of the numbers given as arguments (mean of the middle two for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { OFMT = "%.10g"; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'
}

# verdict RATIO OP LIMIT: PASS when RATIO OP LIMIT holds (OP is <= or >=), else MISS.
verdict() {
	awk -v r="$1" -v op="$2" -v l="$3" 'BEGIN {
		if (r == "n/a") { print "n/a"; exit }
		ok = (op == "<=") ? (r <= l) : (r >= l)
		print ok ? "PASS" : "MISS" }'
}

# within RATIO PCT: PASS when the ratio is within PCT percent of 1.
within() {
	awk -v r="$1" -v p="$2" 'BEGIN {
		if (r == "n/a") { print "n/a"; exit }
		d = r - 1; if (d < 0) d = -d
		print (d <= p / 100) ? "PASS" : "MISS" }'
}

# The rates given as arguments in MiB/s, one decimal, space separated.
samples() {
	awk 'BEGIN { for (i = 1; i < ARGC; i++) printf "%.1f ", ARGV[i] / 1048576 }' "$@"
}

human_rate() {
	awk -v r="$1" 'BEGIN { printf "%.1f MiB/s", r / 1048576 }'
}

# Drops the file system's pending work (journal commit, online discard of freed blocks)
# before the next measurement, so that one tool does not pay for the previous one's
# deleted file.
settle() {
	sync -f "$1" 2>/dev/null || sync
}

rows=()   # lines of the result table
notes=()  # lines printed after it
add_row() { rows+=("$(printf '%-44s %14s %14s %-6s %7s %-7s %s' "$@")"); }

started=$(date +%s)
echo "vbench compare: $("$VBENCH" --version 2>&1 | head -n1) vs $(dd --version | head -n1)$(
	[ "$have_fio" = 1 ] && echo " vs $(fio --version)")"
echo "host: $(uname -sr), $(nproc) CPUs, $REPEATS repeats per figure, interleaved, medians$(
	[ "$QUICK" = 1 ] && echo ", QUICK sizes")"
[ -n "${VBENCH_COMPARE_REPORTING:-}" ] && echo "free page reporting: $VBENCH_COMPARE_REPORTING"
echo

# ---------------------------------------------------------------------------------------
# (a) CPU time to write the same bytes to /dev/null. dd reads every block from /dev/zero
# and writes it; vbench fills its buffer once and only writes, so it should need about
# half of dd's system calls. Issue 13 sets 0.45 at bs=4k, where the cost per block is
# most of the total; at bs=1M the copy into /dev/null is nothing and 0.70 stays.
# The floor, measured in the same loop when a C compiler is at hand: floor.c writes the
# same blocks with nothing else in its loop (bare), and with the least that exact
# per-write latency needs (clock: one clock read and a histogram bucket per write).
floor=""
if command -v cc >/dev/null && cc -O2 -o "$work/floor" "$here/floor.c" 2>"$errf"; then
	floor=$work/floor
else
	notes+=("(a) no floor rows: floor.c could not be compiled (no cc?)")
fi
for bs in 4k 1M; do
	if [ "$bs" = 4k ]; then count=$a_count4k bsb=4096; else count=$a_count1m bsb=$MiB; fi
	vb=() dd_=() fb=() fc=()
	tools=(vb dd)
	[ -n "$floor" ] && tools+=(fb fc)
	echo "(a) CPU time, $((a_bytes / MiB)) MiB to /dev/null, bs=$bs ..."
	for ((i = 1; i <= CPU_REPEATS; i++)); do
		# Rotating which tool goes first keeps any from always running on a cache or CPU
		# frequency state left by the same other one.
		order=""
		for ((k = 0; k < ${#tools[@]}; k++)); do
			order+=" ${tools[(k + i) % ${#tools[@]}]}"
		done
		for t in $order; do
			case $t in
			vb)
				run_timed "$VBENCH" --no-progress --sync none -q "bs=$bs" "count=$count" runs=1 /dev/null
				vb+=("$cpu") ;;
			dd)
				run_timed dd if=/dev/zero of=/dev/null "bs=$bs" "count=$count"
				dd_+=("$cpu") ;;
			fb)
				run_timed "$floor" bare "$bsb" "$count"
				fb+=("$cpu") ;;
			fc)
				run_timed "$floor" clock "$bsb" "$count"
				fc+=("$cpu") ;;
			esac
		done
	done
	mv=$(median "${vb[@]}") md=$(median "${dd_[@]}") r=$(ratio "$mv" "$md")
	if [ "$bs" = 4k ]; then limit=0.45; else limit=0.70; fi
	add_row "(a) CPU secs, $((a_bytes / MiB)) MiB -> /dev/null, bs=$bs" "$mv" "$md" "dd" "$r" "<=$limit" \
		"$(verdict "$r" "<=" "$limit")"
	notes+=("(a) bs=$bs samples (s, user+sys): vbench ${vb[*]} | dd ${dd_[*]}")
	if [ -n "$floor" ]; then
		m=$(median "${fb[@]}")
		add_row "(a) floor: bare pwrite loop, bs=$bs" "$m" "$md" "dd" "$(ratio "$m" "$md")" "(info)" "-"
		m=$(median "${fc[@]}")
		add_row "(a) floor: + clock read per write, bs=$bs" "$m" "$md" "dd" "$(ratio "$m" "$md")" "(info)" "-"
		notes+=("(a) bs=$bs floor samples (s): bare ${fb[*]} | with a clock read ${fc[*]}")
	fi
done

# ---------------------------------------------------------------------------------------
# (b) Throughput of source random against source zero on a tmpfs: with no disk in the way
# the figure is the cost of producing the data plus copying it into the page cache.
echo "(b) tmpfs throughput, random vs zero ..."
tmpfs_need=$((b_blocks * MiB + 64 * MiB))
# A tmpfs of its own when root, so that the figure does not depend on what else lives in
# /dev/shm; the supervisor unmounts it.
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o "size=$((tmpfs_need / MiB))m" tmpfs "$work/tmpfs" 2>"$errf"; then
	tmpfs_dir=$work/tmpfs tmpfs_mounted=1
else
	# Not root, or a container without CAP_SYS_ADMIN: the shared-memory tmpfs.
	tmpfs_dir=$VBENCH_COMPARE_SHM
	[ -n "$tmpfs_dir" ] || die "no tmpfs: cannot mount one and cannot use /dev/shm"
	avail=$(df -Pk "$tmpfs_dir" | awk 'NR == 2 { printf "%.0f", $4 * 1024 }')
	[ "${avail:-0}" -ge "$tmpfs_need" ] || die "/dev/shm has $avail bytes free, $tmpfs_need needed"
fi
notes+=("(b) tmpfs: $tmpfs_dir ($([ "$tmpfs_mounted" = 1 ] && echo "mounted for this run" || echo "/dev/shm"))")

# One unmeasured pass per source first: a virtual machine's memory is often backed by the
# host only on first touch, and whichever source ran first would pay for it.
for src in zero random; do
	run_plain "$VBENCH" --no-progress --sync fsync --source "$src" -q bs=1M "count=$b_blocks" runs=1 "$tmpfs_dir"
done
# Four times the repeats: a tmpfs run's rate wanders by 5-15% from one run to the next
# here, and the figure is a ratio of two such medians.
zr=() rr=() pr=()
for ((i = 1; i <= 4 * REPEATS; i++)); do
	if ((i % 2)); then order="zero random"; else order="random zero"; fi
	for src in $order; do
		run_plain "$VBENCH" --no-progress --sync fsync --source "$src" bs=1M "count=$b_blocks" runs=1 "$tmpfs_dir"
		rate=$(vbench_rate)
		[ -n "$rate" ] || crashed 0 "no dd-style line from vbench --source $src"
		if [ "$src" = zero ]; then zr+=("$rate"); else rr+=("$rate"); fi
	done
	pr+=("$(ratio "${rr[-1]}" "${zr[-1]}")")
done
mz=$(median "${zr[@]}") mr=$(median "${rr[@]}") r=$(ratio "$mr" "$mz")
add_row "(b) MiB/s, $b_blocks MiB tmpfs, random vs zero" "$(human_rate "$mr")" "$(human_rate "$mz")" \
	"zero" "$r" ">=0.97" "$(verdict "$r" ">=" 0.97)"
notes+=("(b) samples (MiB/s): random $(samples "${rr[@]}")| zero $(samples "${zr[@]}")")
notes+=("(b) random / zero of each repeat's pair: ${pr[*]}; their median $(median "${pr[@]}")")

# An O_DIRECT loop device over an image in DISK_DIR, written whole once (root only), for
# (b2) and (e): a disk that every run writes over in place, so that no run pays for the
# allocation of its file or for the discard of the one before.
loopdev="" loop_why="not root: no O_DIRECT loop device"
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	img=$disk_dir/qd.img
	loop_why="no O_DIRECT loop device could be set up"
	if dd if=/dev/zero "of=$img" bs=1M "count=$((e_blocks + 16))" conv=fsync 2>/dev/null; then
		loopdev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null) || loopdev=""
	fi
	[ -n "$loopdev" ] && echo "$loopdev" >"$work/loopdev"   # the supervisor detaches it
fi

# ---------------------------------------------------------------------------------------
# (b2) The same with O_DIRECT to the disk: the generator thread must keep ahead of a
# disk's writes too, and here the disk reads the data itself. Runs of 64 MiB, so that
# --source urandom is read whole before the clock starts (data made in advance:
# information), to the loop device above (as root), else to a new file in DISK_DIR.
# Runs this short wander by 10% here, so there are eight times the repeats, in rotating
# order. The controls, when cc is at hand: floor.c writes the same blocks with O_DIRECT
# from a pool made before its clock starts, with no generator running: zeros and other
# bytes from a pool of one block (what the disk itself rewards zeros with), and other
# bytes from a pool of the ring's size (what writing from that many distinct pages costs:
# random cannot do better than that).
echo "(b2) O_DIRECT throughput, random vs zero ..."
b2_target=${loopdev:-$disk_dir}
b2_force=()
[ -n "$loopdev" ] && b2_force=(--force)
ring_bytes=$((4 * MiB))   # the ring at bs=1M and qd 1 (man page, Memory)
tools=(zero random urandom)
[ -n "$floor" ] && tools+=(fzero fdata fring)
zr=() rr=() ur=() fzr=() fdr=() frr=() pr=()
for ((i = 1; i <= 8 * REPEATS; i++)); do
	order=""
	for ((k = 0; k < ${#tools[@]}; k++)); do
		order+=" ${tools[(k + i) % ${#tools[@]}]}"
	done
	for src in $order; do
		case $src in
		fzero | fdata | fring)
			what=data pool=$MiB
			[ "$src" = fzero ] && what=zero
			[ "$src" = fring ] && pool=$ring_bytes
			ft=$b2_target
			[ -n "$loopdev" ] || ft=$disk_dir/floor.out
			run_plain "$floor" write "$what" "$MiB" 64 "$pool" "$ft"
			rate=$(awk '/ bytes transferred in / { r = $(NF - 1); sub(/^\(/, "", r) } END { print r }' "$outf")
			;;
		*)
			run_plain "$VBENCH" --no-progress "${b2_force[@]}" --direct --sync fsync --source "$src" \
				bs=1M count=64 runs=1 "$b2_target"
			rate=$(vbench_rate)
			;;
		esac
		[ -n "$rate" ] || crashed 0 "no dd-style line from the $src run of (b2)"
		case $src in
		zero) zr+=("$rate") ;;
		random) rr+=("$rate") ;;
		urandom) ur+=("$rate") ;;
		fzero) fzr+=("$rate") ;;
		fdata) fdr+=("$rate") ;;
		fring) frr+=("$rate") ;;
		esac
		settle "$disk_dir"
	done
	pr+=("$(ratio "${rr[-1]}" "${zr[-1]}")")
done
mz=$(median "${zr[@]}") mr=$(median "${rr[@]}") mu=$(median "${ur[@]}")
r=$(ratio "$mr" "$mz")
add_row "(b2) MiB/s, 64 MiB O_DIRECT, random vs zero" "$(human_rate "$mr")" "$(human_rate "$mz")" \
	"zero" "$r" ">=0.97" "$(verdict "$r" ">=" 0.97)"
r=$(ratio "$mr" "$mu")
add_row "(b2) MiB/s, 64 MiB O_DIRECT, random vs urandom" "$(human_rate "$mr")" "$(human_rate "$mu")" \
	"urand" "$r" "(info)" "-"
notes+=("(b2) target: $b2_target$([ -n "$loopdev" ] && echo " (a loop device with direct I/O over $disk_dir/qd.img)")")
notes+=("(b2) samples (MiB/s): random $(samples "${rr[@]}")| urandom $(samples "${ur[@]}")| zero $(samples "${zr[@]}")")
notes+=("(b2) random / zero of each round: median $(median "${pr[@]}"); urandom is read before the clock")
if [ -n "$floor" ]; then
	mfz=$(median "${fzr[@]}") mfd=$(median "${fdr[@]}") mfr=$(median "${frr[@]}")
	add_row "(b2) control: other bytes vs zeros, no generator" "$(human_rate "$mfd")" "$(human_rate "$mfz")" \
		"zero" "$(ratio "$mfd" "$mfz")" "(info)" "-"
	add_row "(b2) control: a ring's pages vs one block's" "$(human_rate "$mfr")" "$(human_rate "$mfd")" \
		"1blk" "$(ratio "$mfr" "$mfd")" "(info)" "-"
	add_row "(b2) random vs the ring's pages, made before" "$(human_rate "$mr")" "$(human_rate "$mfr")" \
		"ring" "$(ratio "$mr" "$mfr")" "(info)" "-"
	notes+=("(b2) control samples (MiB/s): other bytes, one block $(samples "${fdr[@]}")| zeros $(samples "${fzr[@]}")| other bytes, $((ring_bytes / MiB)) MiB $(samples "${frr[@]}")")
	notes+=("(b2) random vs zero is bounded by the first two controls' product: a disk that rewards zeros, or a pool of more pages, costs any real data as much")
fi

# ---------------------------------------------------------------------------------------
# (c) The same O_DIRECT write of whole 1 MiB blocks to a fresh file on the root file
# system, with one fsync before the clock stops, by each tool.
echo "(c) O_DIRECT + fsync, $c_blocks MiB to $DISK_DIR ..."
# df -T names ext4 as such, where stat -f says "ext2/ext3".
disk_fs=$(df -PT "$disk_dir" | awk 'NR == 2 { print $2 " on " $1 }')
case $disk_fs in
tmpfs* | ramfs*) notes+=("(c) warning: $DISK_DIR is on $disk_fs; there is no disk in this figure") ;;
esac
# vbf is vbench writing a named new file instead of a directory: a diagnostic row. In
# directory form vbench writes an anonymous file (O_TMPFILE) whose blocks are freed by
# the close, and a difference between the two rows is the cost of that close.
tools=(vb dd vbf)
[ "$have_fio" = 1 ] && tools+=(fio)
cv=() cd_=() cf=() cvf=() close_vb=() close_vbf=()
for ((i = 1; i <= REPEATS; i++)); do
	# Rotate the order so that each tool follows each other one equally often.
	order=""
	for ((k = 0; k < ${#tools[@]}; k++)); do
		order+=" ${tools[(k + i) % ${#tools[@]}]}"
	done
	for t in $order; do
		case $t in
		vb | vbf)
			# In both forms vbench removes the file it made itself.
			if [ "$t" = vb ]; then target=$disk_dir; else target=$disk_dir/vbench.out; fi
			run_plain "$VBENCH" --no-progress --direct --sync fsync bs=1M "count=$c_blocks" runs=1 "$target"
			rate=$(vbench_rate)
			[ -n "$rate" ] || crashed 0 "no dd-style line from vbench --direct"
			close=$(vbench_sync_close)
			if [ "$t" = vb ]; then
				cv+=("$rate") close_vb+=("$close")
			else
				cvf+=("$rate") close_vbf+=("$close")
				rm -f -- "$target"
			fi
			;;
		dd)
			run_plain dd if=/dev/zero "of=$disk_dir/dd.out" bs=1M "count=$c_blocks" oflag=direct conv=fsync
			rate=$(dd_rate)
			[ -n "$rate" ] || crashed 0 "no 'copied' line from dd"
			cd_+=("$rate")
			rm -f -- "$disk_dir/dd.out"
			;;
		fio)
			# --fallocate=none: by default fio preallocates the file, which would turn
			# its writes into writes to reserved extents while dd and vbench allocate
			# as they write. --zero_buffers: fio's default data is not zeros, and a
			# virtual disk that detects zeros would then see different work.
			run_plain fio --name=w "--filename=$disk_dir/fio.out" --rw=write --bs=1M \
				"--size=$((c_blocks))M" --direct=1 --end_fsync=1 --ioengine=sync \
				--fallocate=none --zero_buffers=1 --output-format=json
			rate=$(fio_rate)
			[ -n "$rate" ] || crashed 0 "no write figures in fio's JSON"
			cf+=("$rate")
			rm -f -- "$disk_dir/fio.out"
			;;
		esac
		settle "$disk_dir"
	done
done
mv=$(median "${cv[@]}") md=$(median "${cd_[@]}") mvf=$(median "${cvf[@]}")
r=$(ratio "$mv" "$md")
add_row "(c) MiB/s, $c_blocks MiB O_DIRECT+fsync, vs dd" "$(human_rate "$mv")" "$(human_rate "$md")" "dd" "$r" \
	"1+-0.10" "$(within "$r" 10)"
notes+=("(c) samples (MiB/s): vbench $(samples "${cv[@]}")| dd $(samples "${cd_[@]}")")
if [ "$have_fio" = 1 ]; then
	mf=$(median "${cf[@]}") r=$(ratio "$mv" "$mf")
	add_row "(c) MiB/s, $c_blocks MiB O_DIRECT+fsync, vs fio" "$(human_rate "$mv")" "$(human_rate "$mf")" "fio" "$r" \
		"1+-0.10" "$(within "$r" 10)"
	notes+=("(c) samples (MiB/s): fio $(samples "${cf[@]}")")
else
	notes+=("(c) fio not installed (or NO_FIO=1): vbench vs fio skipped")
fi
r=$(ratio "$mvf" "$md")
add_row "(c) diagnostic: vbench to a named file, vs dd" "$(human_rate "$mvf")" "$(human_rate "$md")" "dd" "$r" \
	"(info)" "-"
notes+=("(c) samples (MiB/s): vbench named file $(samples "${cvf[@]}")")
notes+=("(c) vbench 'sync and close' secs, median: directory form $(median "${close_vb[@]}" | xargs printf '%.3f'), named file $(
	median "${close_vbf[@]}" | xargs printf '%.3f') (the named file is unlinked after vbench's clock stops)")
notes+=("(c) target directory: $disk_dir, $disk_fs")

# ---------------------------------------------------------------------------------------
# (d) Peak resident memory of vbench, bs=1M, on the same tmpfs target as (b). The bound
# documented for issue 4 is bs + 16 MiB, plus for random the ring of blocks made ahead
# (at qd 1, four blocks); zero has nothing beyond its bs buffer.
echo "(d) peak resident memory ..."
peak_kib=""
peak_rss() {
	if [ -n "$gnu_time" ]; then
		run_plain "$gnu_time" -f %M -o "$timef" "$@"
		peak_kib=$(tail -n1 "$timef")
		return
	fi
	# Without GNU time: sample the high-water mark while the process lives. The last
	# sample misses at most the final few milliseconds, which only print the summary.
	"$@" >"$outf" 2>"$errf" &
	local pid=$! hwm=0 v rc
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
		sleep 0.01
	done
	wait "$pid"
	rc=$?
	[ "$rc" = 0 ] || crashed "$rc" "$@"
	peak_kib=$hwm
}
d_runs=$((REPEATS < 3 ? REPEATS : 3))
for src in zero random; do
	worst=0
	for ((i = 1; i <= d_runs; i++)); do
		peak_rss "$VBENCH" --no-progress --sync fsync --source "$src" -q bs=1M "count=$b_blocks" runs=1 "$tmpfs_dir"
		[ "$peak_kib" -gt "$worst" ] && worst=$peak_kib
	done
	bs_b=$MiB
	if [ "$src" = zero ]; then
		pool=0
	else
		pool=$((4 * bs_b))
	fi
	bound_kib=$(((bs_b + 16 * MiB + pool) / 1024))
	r=$(ratio "$worst" "$bound_kib")
	add_row "(d) peak RSS, bs=1M, source $src" "$(awk -v k="$worst" 'BEGIN { printf "%.1f MiB", k / 1024 }')" \
		"$(awk -v k="$bound_kib" 'BEGIN { printf "%.1f MiB", k / 1024 }')" "bound" "$r" "<1.00" \
		"$(awk -v a="$worst" -v b="$bound_kib" 'BEGIN { print (a < b) ? "PASS" : "MISS" }')"
done
notes+=("(d) peak RSS is the largest of $d_runs runs, measured with $([ -n "$gnu_time" ] && echo "GNU time %M" || echo "sampled /proc VmHWM")")

# ---------------------------------------------------------------------------------------
# (e) Queue depth: the same sequential 1 MiB write with 1, 4, 8 and 16 writes in flight,
# next to fio on the same target. On the tmpfs fio runs N jobs, each writing its own
# slice of one file (a buffered write returns only once done, so libaio would not keep
# more than one in flight there); on an O_DIRECT loop device (root only, over an image
# in DISK_DIR) fio keeps N writes in flight with libaio --iodepth=N. With OLD_VBENCH,
# --qd 1 is also compared with that binary (issue 14: within 3%).
echo "(e) queue depth ..."
e_targets="tmpfs"
[ -n "$loopdev" ] && e_targets="$e_targets loop"
[ -n "$loopdev" ] || notes+=("(e) $loop_why: the loop rows are left out")
e_tools=(vb)
[ "$have_fio" = 1 ] && e_tools+=(fio)
[ -n "$OLD_VBENCH" ] && e_tools+=(old)
for tgt in $e_targets; do
	for q in 1 4 8 16; do
		ve=() fe=() oe=()
		for ((i = 1; i <= REPEATS; i++)); do
			order=""
			for ((k = 0; k < ${#e_tools[@]}; k++)); do
				order+=" ${e_tools[(k + i) % ${#e_tools[@]}]}"
			done
			for t in $order; do
				[ "$t" = old ] && [ "$q" != 1 ] && continue
				case $t/$tgt in
				vb/tmpfs | old/tmpfs)
					bin=$VBENCH
					[ "$t" = old ] && bin=$OLD_VBENCH
					qarg=(--qd "$q")
					[ "$t" = old ] && qarg=()
					run_plain "$bin" --no-progress --sync fsync "${qarg[@]}" bs=1M "count=$e_blocks" runs=1 "$tmpfs_dir"
					;;
				vb/loop | old/loop)
					bin=$VBENCH
					[ "$t" = old ] && bin=$OLD_VBENCH
					qarg=(--qd "$q")
					[ "$t" = old ] && qarg=()
					run_plain "$bin" --no-progress --force --direct --sync fsync "${qarg[@]}" bs=1M "count=$e_blocks" runs=1 "$loopdev"
					;;
				fio/tmpfs)
					run_plain fio --name=w "--filename=$tmpfs_dir/fio.out" --rw=write --bs=1M \
						"--size=$((e_blocks / q))M" "--numjobs=$q" "--offset_increment=$((e_blocks / q))M" \
						--group_reporting --end_fsync=1 --ioengine=psync --fallocate=none \
						--zero_buffers=1 --output-format=json
					rm -f -- "$tmpfs_dir/fio.out"
					;;
				fio/loop)
					run_plain fio --name=w "--filename=$loopdev" --rw=write --bs=1M "--size=${e_blocks}M" \
						"--iodepth=$q" --ioengine=libaio --direct=1 --end_fsync=1 --zero_buffers=1 \
						--output-format=json
					;;
				esac
				case $t in
				vb) rate=$(vbench_rate); ve+=("$rate") ;;
				old) rate=$(vbench_rate); oe+=("$rate") ;;
				fio) rate=$(fio_rate); fe+=("$rate") ;;
				esac
				[ -n "$rate" ] || crashed 0 "no rate from $t at qd $q on $tgt"
			done
		done
		mv=$(median "${ve[@]}")
		if [ "$have_fio" = 1 ]; then
			mf=$(median "${fe[@]}")
			add_row "(e) MiB/s, $e_blocks MiB $tgt, qd=$q vs fio" "$(human_rate "$mv")" "$(human_rate "$mf")" \
				"fio" "$(ratio "$mv" "$mf")" "(info)" "-"
			notes+=("(e) $tgt qd=$q samples (MiB/s): vbench $(samples "${ve[@]}")| fio $(samples "${fe[@]}")")
		else
			add_row "(e) MiB/s, $e_blocks MiB $tgt, qd=$q" "$(human_rate "$mv")" "-" "-" "-" "(info)" "-"
		fi
		if [ "$q" = 1 ] && [ -n "$OLD_VBENCH" ]; then
			mo=$(median "${oe[@]}") r=$(ratio "$mv" "$mo")
			add_row "(e) $tgt qd=1 vs OLD_VBENCH" "$(human_rate "$mv")" "$(human_rate "$mo")" "old" "$r" \
				"1+-0.03" "$(within "$r" 3)"
			notes+=("(e) $tgt qd=1 samples (MiB/s): OLD_VBENCH $(samples "${oe[@]}")")
		fi
	done
done
if [ "$have_fio" = 1 ]; then
	notes+=("(e) fio: tmpfs --ioengine=psync --numjobs=N --offset_increment; loop --ioengine=libaio --iodepth=N --direct=1; both --end_fsync=1")
fi

# ---------------------------------------------------------------------------------------
# (f) vbench report over many labels: it must stay linear in the size of its input.
echo "(f) vbench report, $f_labels labels ..."
csv=$work/labels.csv
run_plain "$VBENCH" --no-progress --format csv --sync none bs=4k count=1 runs=1 /dev/null
head -n 1 "$outf" >"$csv"
row=$(sed -n 2p "$outf" | tr -d '\r')
# The same row under f_labels labels, two runs each, with rates that differ a little.
awk -F, -v OFS=, -v n="$f_labels" -v row="$row" 'BEGIN {
	split(row, f, ",")
	for (l = 1; l <= n; l++)
		for (r = 1; r <= 2; r++) {
			f[1] = "label" l; f[2] = r; f[5] = 1000000 + l * 7 + r
			f[4] = sprintf("%.6f", f[3] / f[5])   # (the report checks rate = bytes / secs)
			line = f[1]
			for (i = 2; i <= length(f); i++) line = line OFS f[i]
			print line
		}
}' >>"$csv"
t0=$(date +%s%N)
run_plain "$VBENCH" report --format csv "$csv"
t1=$(date +%s%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
add_row "(f) secs, vbench report, $f_labels labels x 2 runs" "$secs" "-" "-" "-" "(info)" "-"

# (g) the same for a --trace file: 20 runs of one label, and labels of 2 samples each.
echo "(g) vbench report of --trace files ..."
for shape in runs labels; do
	awk -v n=$((2 * f_labels)) -v shape=$shape 'BEGIN {
		print "label,run,warmup,start_secs,secs,bytes,bytes_per_sec"
		for (k = 0; k < n; k++) {
			if (shape == "runs") { l = "lab"; r = 1 + int(k * 20 / n); s = k % (n / 20) }
			else { l = "label" int(k / 2); r = 1; s = k % 2 }
			printf "%s,%d,0,%d.000000,1.000000,1000000,1000000\n", l, r, s
		}
	}' >"$work/trace-$shape.csv"
	t0=$(date +%s%N)
	run_plain "$VBENCH" report "$work/trace-$shape.csv"
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	add_row "(g) secs, report --trace, $((2 * f_labels)) samples ($shape)" "$secs" "-" "-" "-" \
		"(info)" "-"
done

# ---------------------------------------------------------------------------------------
echo
printf '%-44s %14s %14s %-6s %7s %-7s %s\n' "measurement (median)" "vbench" "other" "other" \
	"ratio" "target" "result"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${notes[@]}"
echo
echo "took $(($(date +%s) - started)) s"
exit 0
