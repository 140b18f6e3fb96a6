#!/bin/sh
# System tests: the real binary against temp files, tmpfs and loop devices. Each t_*.sh
# runs in a shell of its own (nothing leaks from one to the next) and reports its counts.
# Root-only cases skip with a message when not root. Never touches a real disk.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${VBENCH:?set VBENCH to the binary under test}"
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-systest-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "${VALGRIND:-0}" = 1 ]; then
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --trace-children=no "%s" "$@"\n' "$VBENCH" >"$tmp/vbench"
	chmod +x "$tmp/vbench"
	VBENCH="$tmp/vbench"
fi
export VBENCH
pass=0 fail=0 skipped=0
for t in "$here"/t_*.sh; do
	echo "# $(basename "$t")"
	rm -f "$tmp/counts"
	COUNTS="$tmp/counts" sh "$t"
	if [ -s "$tmp/counts" ]; then
		read -r p f s <"$tmp/counts"
	else
		echo "FAIL - $(basename "$t") ended without reporting its counts"
		p=0 f=1 s=0
	fi
	pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + s))
done
echo "system: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
