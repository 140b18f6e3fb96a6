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
	# The reports go to files, not to stderr, which some tests close.
	mkdir "$tmp/vg"
	# (through a descriptor valgrind moves out of the program's way: a file it opened
	# itself would take the number of a closed standard descriptor)
	cat >"$tmp/vbench" <<EOF
#!/bin/sh
exec 9>"$tmp/vg/\$\$.log"
exec valgrind -q --log-fd=9 --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --trace-children=no "$VBENCH" "\$@"
EOF
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
if [ "${VALGRIND:-0}" = 1 ]; then
	for f in "$tmp"/vg/*.log; do
		[ -s "$f" ] && { echo "# valgrind report $(basename "$f"):"; cat "$f"; }
	done
fi
echo "system: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
