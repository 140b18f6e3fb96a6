#!/bin/sh
# Runs each cmocka test binary given; with VALGRIND=1 under valgrind memcheck.
# Prints one closing line over all the binaries: how many passed and failed, and how
# many test cases in them passed and were skipped (a skip says why in its output).
pass=0
fail=0
cases=0
skipped=0
log=$(mktemp "${TMPDIR:-/tmp}/vbench-unit.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT
for t in "$@"; do
	if [ "${VALGRIND:-0}" = 1 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			"$t" >"$log" 2>&1
	else
		"$t" >"$log" 2>&1
	fi
	rc=$?
	cat "$log"
	if [ "$rc" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
	n=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	cases=$((cases + ${n:-0})) skipped=$((skipped + ${k:-0}))
done
echo "unit: $pass passed, $fail failed ($cases test cases passed, $skipped skipped)"
[ "$fail" = 0 ]
