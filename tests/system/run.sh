#!/bin/sh
# System tests: the real binary against temp files, tmpfs and loop devices.
# Root-only cases skip with a message when not root. Never touches a real disk.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${VBENCH:?set VBENCH to the binary under test}"
if [ "${VALGRIND:-0}" = 1 ]; then
	real=$VBENCH
	VBENCH="$(mktemp)"
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "%s" "$@"\n' "$real" >"$VBENCH"
	chmod +x "$VBENCH"
fi
SCRATCH=$(mktemp -d /var/tmp/vbench-systest.XXXXXX)
export SCRATCH VBENCH
MOUNTS=""
LOOPS=""
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT INT TERM
. "$here/lib.sh"
for t in "$here"/t_*.sh; do
	echo "# $(basename "$t")"
	. "$t"
done
echo "system: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" = 0 ]
