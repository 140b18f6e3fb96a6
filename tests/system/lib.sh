# Helpers every system test file uses; each file is run in a shell of its own by run.sh
# and sources this first. VBENCH is the binary under test; COUNTS is where this file's
# pass, fail and skip counts go when it ends.
set -u
PASS=0
FAIL=0
SKIP=0
MOUNTS=""
LOOPS=""
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

# Everything a test file set up is undone however it ends.
finish() {
	for m in $MOUNTS; do fsfreeze -u "$m" 2>/dev/null; umount "$m" 2>/dev/null; done
	for l in $LOOPS; do own_loop "$l" && losetup -d "$l" 2>/dev/null; done
	# a free page reporting order that a test changed goes back
	if [ -n "${REPORTING_ORDER:-}" ]; then
		echo "$REPORTING_ORDER" >/sys/module/page_reporting/parameters/page_reporting_order
	fi
	rm -rf "$SCRATCH"
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

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds.
check() {
	_what=$1
	shift
	if "$@"; then ok "$_what"; else not_ok "$_what"; fi
}

# run_vb ARGS...: runs vbench, leaving stdout in $OUT, stderr in $ERR, status in $RC.
run_vb() {
	"$VBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
	OUT=$(cat "$SCRATCH/out")
	ERR=$(cat "$SCRATCH/err")
}

# expect_rc WANT DESCRIPTION: the last run_vb exited with WANT.
expect_rc() {
	if [ "$RC" = "$1" ]; then ok "$2 (exit $1)"; else not_ok "$2: exit $RC, expected $1" "$ERR"; fi
}

# has TEXT ERE: some line of TEXT matches the extended regular expression ERE. The one
# helper for "output contains".
has() {
	printf '%s\n' "$1" | grep -qE -- "$2"
}

# expect_out ERE DESCRIPTION / expect_err ERE DESCRIPTION: the last run_vb's stdout or
# stderr has a line matching ERE.
expect_out() {
	if has "$OUT" "$1"; then ok "$2"; else not_ok "$2: stdout lacks /$1/" "$OUT"; fi
}
expect_err() {
	if has "$ERR" "$1"; then ok "$2"; else not_ok "$2: stderr lacks /$1/" "$ERR"; fi
}
# expect_no_err ERE DESCRIPTION: no line of the last run_vb's stderr matches ERE.
expect_no_err() {
	if has "$ERR" "$1"; then not_ok "$2: stderr has /$1/" "$ERR"; else ok "$2"; fi
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

add_mount() { MOUNTS="$1 $MOUNTS"; }
add_loop() { LOOPS="$1 $LOOPS"; }

# size_of FILE: its size in bytes (POSIX: no stat -c).
size_of() { wc -c <"$1" | tr -d ' '; }

# wait_for ERE FILE: waits up to 60 s until a line of FILE matches ERE (a progress line,
# a run's title); fails when it never does.
wait_for() {
	_i=0
	while ! grep -qE -- "$1" "$2" 2>/dev/null; do
		[ $_i -lt 600 ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
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
		WAIT_RC=137
		return 1
	fi
	wait "$1"
	WAIT_RC=$?
	return 0
}

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
