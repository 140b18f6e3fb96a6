# Helpers shared by the system tests: counters, assertions, scratch space.
# Each test file is sourced by run.sh; VBENCH is the binary under test.
PASS=0
FAIL=0
SKIP=0

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

# expect_err TEXT DESCRIPTION: the last run_vb's stderr holds TEXT.
expect_err() {
	case $ERR in
	*"$1"*) ok "$2" ;;
	*) not_ok "$2: stderr lacks '$1'" "$ERR" ;;
	esac
}

is_root() { [ "$(id -u)" = 0 ]; }

# empty_dir DIR: DIR holds no entries.
empty_dir() { [ -z "$(ls -A "$1")" ]; }

new_dir() {
	mktemp -d "$SCRATCH/d.XXXXXX"
}

# wait_for TEXT FILE: waits up to 60 s until FILE holds TEXT (e.g. a progress line);
# fails when it never does.
wait_for() {
	_i=0
	while ! grep -q "$1" "$2" 2>/dev/null; do
		[ $_i -lt 600 ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}
