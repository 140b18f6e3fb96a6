# Helpers every system test file uses; each file is run in a shell of its own by run.sh
# and sources this first. VBENCH is the binary under test; COUNTS is where this file's
# pass, fail and skip counts go when it ends.
set -u
PASS=0
FAIL=0
SKIP=0
# What this test file set up, most recent first, undone in that order however the file
# ends: "m:DIR" a mount, "l:DEV" a loop device, "g:DIR" a cgroup. LOOPS lists the loop
# devices alone.
UNDO=""
LOOPS=""
# The files the last vbench run wrote (its stdout and stderr) and its exit status, shown
# under a FAIL line: what was seen, not only what was wanted.
SEEN=""
SEEN_RC=""
SCRATCH=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-systest.XXXXXX")

# Whether loop device $1 is still this test file's: backed by a file of its scratch
# directory, or by another loop device it attached. One the test detached itself may
# have been taken since by another suite running beside this one (make mutate, a second
# worktree), and detaching that would pull a disk from under its tests.
own_loop() {
	_b=$(losetup -n -O BACK-FILE "$1" 2>/dev/null)
	case $_b in
	"$SCRATCH"/*) return 0 ;;
	/dev/loop*) case " $LOOPS " in *" $_b "*) return 0 ;; esac ;;
	esac
	return 1
}

# is_mounted DIR: something is mounted on DIR (Linux: /proc/self/mountinfo).
is_mounted() {
	awk -v d="$1" '$5 == d { f = 1 } END { exit !f }' /proc/self/mountinfo 2>/dev/null
}

# left_behind WHAT: says that cleaning up failed; the test file fails with it.
left_behind() { not_ok "cleanup: $1"; }

undo_mount() {
	fsfreeze -u "$1" 2>/dev/null
	# (one name can have mounts stacked on it)
	_n=0
	while is_mounted "$1" && [ $_n -lt 4 ]; do
		_n=$((_n + 1))
		umount "$1" 2>/dev/null && continue
		# Busy (a process of a failed case still in it): detached now, freed when the
		# last user goes.
		if _e=$(umount -l "$1" 2>&1); then
			echo "# cleanup: $1 was busy: unmounted lazily"
		else
			left_behind "$1 is still mounted ($_e)"
			return
		fi
	done
}
undo_loop() {
	own_loop "$1" || return 0
	_e=$(losetup -d "$1" 2>&1) || left_behind "$1 is still attached ($_e)"
}
undo_group() {
	[ -d "$1" ] || return 0
	# a process of a failed case left in it goes back to the root group
	for _p in $(cat "$1/cgroup.procs" 2>/dev/null); do
		echo "$_p" >"$1/../cgroup.procs" 2>/dev/null
	done
	_e=$(rmdir "$1" 2>&1) || left_behind "cgroup $1 is still there ($_e)"
}

# Everything a test file set up is undone however it ends, in the reverse order of its
# setup (a loop device over a file in a mount goes before the mount).
finish() {
	for _u in $UNDO; do
		case $_u in
		m:*) undo_mount "${_u#m:}" ;;
		l:*) undo_loop "${_u#l:}" ;;
		g:*) undo_group "${_u#g:}" ;;
		esac
	done
	UNDO=""
	# a free page reporting order that a test changed goes back
	if [ -n "${REPORTING_ORDER:-}" ]; then
		echo "$REPORTING_ORDER" >/sys/module/page_reporting/parameters/page_reporting_order
	fi
	_e=$(rm -rf "$SCRATCH" 2>&1) || left_behind "cannot remove $SCRATCH ($(echo "$_e" | tail -n 1))"
	echo "$PASS $FAIL $SKIP" >"${COUNTS:-/dev/null}"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# helper NAME: builds helpers/NAME.c (with $CC, else cc) into the scratch directory and
# prints its path; prints nothing when it cannot be built (the caller skips its cases).
helper() {
	"${CC:-cc}" -o "$SCRATCH/$1" "$(dirname "$0")/helpers/$1.c" 2>/dev/null && echo "$SCRATCH/$1"
}

ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/       /'; return 0; }
skip() { SKIP=$((SKIP + 1)); echo "skip - $1"; }

# last_lines: the last lines of its input, a progress line's refreshes each on its own.
last_lines() { tr '\r' '\n' | grep -v '^ *$' | tail -n 6 | sed 's/^/  /'; }

# seen: what the vbench run the test watches showed (run_vb's, or one started in the
# background and named by watch_run): its exit status, the last lines of its output.
seen() {
	[ -n "$SEEN" ] || return 0
	case $SEEN_RC in
	"") echo "vbench: no exit status (still running, or not waited for)" ;;
	137) echo "vbench: killed when its time was up (status 137)" ;;
	*) echo "vbench: exit status $SEEN_RC" ;;
	esac
	for _f in $SEEN; do
		if [ -s "$_f" ]; then
			echo "the last lines of $(basename "$_f"):"
			last_lines <"$_f"
		else
			echo "$(basename "$_f"): empty"
		fi
	done
}
# seen_vb: the same of the last run_vb, from what it left in RC, OUT and ERR.
seen_vb() {
	echo "vbench: exit status $RC"
	if [ -n "$OUT" ]; then echo "the last lines of its stdout:"; printf '%s\n' "$OUT" | last_lines
	else echo "stdout: empty"; fi
	if [ -n "$ERR" ]; then echo "the last lines of its stderr:"; printf '%s\n' "$ERR" | last_lines
	else echo "stderr: empty"; fi
}

# watch_run OUT ERR: the files a vbench started by the test writes; the status comes from
# wait_pid.
watch_run() { SEEN="$1 $2" SEEN_RC=""; }

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds; a failure shows the
# command, its status and what the last vbench run showed.
check() {
	_what=$1
	shift
	"$@"
	_rc=$?
	if [ $_rc = 0 ]; then
		ok "$_what"
	else
		not_ok "$_what" "$(echo "failed (status $_rc): $*" | cut -c 1-300; seen)"
	fi
}

# run_vb ARGS...: runs vbench, leaving stdout in $OUT, stderr in $ERR, status in $RC.
run_vb() {
	"$VBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
	OUT=$(cat "$SCRATCH/out")
	ERR=$(cat "$SCRATCH/err")
	SEEN="$SCRATCH/out $SCRATCH/err" SEEN_RC=$RC
}

# expect_rc WANT DESCRIPTION: the last run_vb exited with WANT.
expect_rc() {
	if [ "$RC" = "$1" ]; then ok "$2 (exit $1)"; else not_ok "$2: exit $RC, expected $1" "$(seen_vb)"; fi
}

# has TEXT ERE: some line of TEXT matches the extended regular expression ERE. The one
# helper for "output contains".
has() {
	printf '%s\n' "$1" | grep -qE -- "$2"
}

# expect_out ERE DESCRIPTION / expect_err ERE DESCRIPTION: the last run_vb's stdout or
# stderr has a line matching ERE.
expect_out() {
	if has "$OUT" "$1"; then ok "$2"; else not_ok "$2: stdout lacks /$1/" "$(seen_vb)"; fi
}
expect_err() {
	if has "$ERR" "$1"; then ok "$2"; else not_ok "$2: stderr lacks /$1/" "$(seen_vb)"; fi
}
# expect_no_err ERE DESCRIPTION: no line of the last run_vb's stderr matches ERE.
expect_no_err() {
	if has "$ERR" "$1"; then
		not_ok "$2: stderr has /$1/" "$(printf '%s\n' "$ERR" | grep -E -- "$1" | tail -n 6)"
	else
		ok "$2"
	fi
}

is_root() { [ "$(id -u)" = 0 ]; }

# Whether vbench runs under a sanitizer or valgrind, which need more address space than
# a tight ulimit -v leaves.
under_tool() { [ -n "${VB_UNDER_TOOL:-}" ] || [ "${VALGRIND:-0}" = 1 ]; }

# need_root WHY: ends this test file with a visible skip unless run as root.
need_root() {
	if ! is_root; then
		skip "not root: $1"
		exit 0
	fi
}

# need_linux WHY: ends this test file with a visible skip on systems other than Linux
# (loop devices, tmpfs options and fsfreeze as Linux has them).
need_linux() {
	if [ "$(uname -s)" != Linux ]; then
		skip "not Linux: $1"
		exit 0
	fi
}

# empty_dir DIR: DIR holds no entries.
empty_dir() { [ -z "$(ls -A "$1")" ]; }

new_dir() {
	mktemp -d "$SCRATCH/d.XXXXXX"
}

add_mount() { UNDO="m:$1 $UNDO"; }
add_loop() { UNDO="l:$1 $UNDO" LOOPS="$1 $LOOPS"; }
add_group() { UNDO="g:$1 $UNDO"; }

# size_of FILE: its size in bytes (POSIX: no stat -c).
size_of() { wc -c <"$1" | tr -d ' '; }

# wait_for ERE FILE [PID]: waits up to 60 s until a line of FILE matches ERE (a progress
# line, a run's title); fails when it never does, or when PID ends first.
wait_for() {
	_i=0
	while ! grep -qE -- "$1" "$2" 2>/dev/null; do
		[ $_i -lt 600 ] || return 1
		if [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null; then
			grep -qE -- "$1" "$2" 2>/dev/null
			return
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
}

# wait_blocked PID: waits up to 60 s until PID or one of its descendants sleeps in the
# kernel uninterruptibly (state D in /proc: a frozen file system holds it there); fails
# when none does, or when PID ends first. Linux only.
wait_blocked() {
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$1" 2>/dev/null; do
		for _k in "$1" $(worker_of "$1"); do
			# (the state follows the name's closing parenthesis)
			case $(sed 's/.*) //' "/proc/$_k/stat" 2>/dev/null) in D*) return 0 ;; esac
		done
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# wait_wchan PID ERE: waits up to 60 s until PID or one of its descendants sleeps in a
# kernel function matching ERE (/proc/PID/wchan: pipe_write, a full pipe); fails when
# none does, or when PID ends first. Linux only.
wait_wchan() {
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$1" 2>/dev/null; do
		for _k in "$1" $(worker_of "$1"); do
			grep -qE -- "$2" "/proc/$_k/wchan" 2>/dev/null && return 0
		done
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# wait_pid PID SECS: waits at most SECS seconds for PID to end, then kills it; the
# status is in WAIT_RC (137 when it had to be killed).
wait_pid() {
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt $(($2 * 10)) ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		WAIT_RC=137 SEEN_RC=137
		return 1
	fi
	wait "$1"
	WAIT_RC=$?
	SEEN_RC=$WAIT_RC
	return 0
}

# not_started WHAT PID: a vbench started by the test never got to where the case acts;
# the failure says whether it ended (and how) or was still running, and what it printed.
not_started() {
	if kill -0 "$2" 2>/dev/null; then
		kill -9 "$2" 2>/dev/null
		wait "$2" 2>/dev/null
		not_ok "$1 never got under way: still running after 60 s" "$(SEEN_RC=""; seen)"
	else
		wait "$2"
		SEEN_RC=$?
		not_ok "$1 never got under way: vbench ended first" "$(seen)"
	fi
}

# slow_disk RATE: a loop device over a file on a tmpfs of this test file, and a cgroup v1
# blkio group that holds the direct writes of a vbench started by slow_vbench to RATE
# bytes/s, however idle or loaded the machine; SLOW is the device. A run there lasts
# until the test has done what it does, then slow_lift lets it end at memory speed.
# Fails (the caller skips, naming slow_why) where there is no such group: not root, not
# Linux, cgroup v2 alone.
slow_disk() {
	_cg=/sys/fs/cgroup/blkio
	slow_why="no writable cgroup v1 blkio hierarchy with a write throttle"
	is_root && [ "$(uname -s)" = Linux ] && [ -w "$_cg/cgroup.procs" ] &&
		[ -e "$_cg/blkio.throttle.write_bps_device" ] || return 1
	slow_why="cannot set up a tmpfs, a loop device and a blkio group"
	_m=$(mktemp -d "$SCRATCH/slow.XXXXXX") &&
		mount -t tmpfs -o size=72m vbench-slow "$_m" && add_mount "$_m" &&
		truncate -s 64m "$_m/disk.img" &&
		SLOW=$(losetup -f --show "$_m/disk.img") && add_loop "$SLOW" &&
		SLOW_DEV=$(cat "/sys/block/${SLOW#/dev/}/dev") &&
		SLOW_GROUP=$_cg/$(basename "$SCRATCH")-slow && mkdir "$SLOW_GROUP" &&
		add_group "$SLOW_GROUP" &&
		echo "$SLOW_DEV $1" >"$SLOW_GROUP/blkio.throttle.write_bps_device"
}
# slow_vbench OUT ERR ARGS...: starts vbench ARGS in the throttled group, in the
# background, its stdout to OUT and stderr to ERR; its process is VB_PID (a shell moves
# itself into the group and becomes vbench; the worker follows).
slow_vbench() {
	_o=$1 _e=$2
	shift 2
	rm -f "$_o" "$_e"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$SLOW_GROUP" "$VBENCH" "$@" \
		>"$_o" 2>"$_e" &
	VB_PID=$!
	watch_run "$_o" "$_e"
}
slow_lift() { echo "$SLOW_DEV 0" >"$SLOW_GROUP/blkio.throttle.write_bps_device"; }

# The processes vbench runs its session and its writes in: every descendant of PID (the
# session is its child, the worker the session's).
children_of() {
	if command -v pgrep >/dev/null 2>&1; then
		pgrep -P "$1"
	else
		cat /proc/"$1"/task/*/children 2>/dev/null
	fi
}
worker_of() {
	for _k in $(children_of "$1"); do
		echo "$_k"
		worker_of "$_k"
	done
}

# vb_stop PID / vb_cont PID: stop and continue vbench and its worker, as ^Z and fg do.
vb_stop() { kill -STOP "$1"; for _c in $(worker_of "$1"); do kill -STOP "$_c"; done; }
vb_cont() { for _c in $(worker_of "$1"); do kill -CONT "$_c"; done; kill -CONT "$1"; }
