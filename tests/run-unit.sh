#!/bin/sh
# Runs each cmocka test binary given; with VALGRIND=1 under valgrind memcheck.
# Prints one closing line "N passed, N failed" over all the binaries.
pass=0
fail=0
for t in "$@"; do
	if [ "${VALGRIND:-0}" = 1 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			"$t" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAILED: $t"; }
	else
		"$t" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAILED: $t"; }
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" = 0 ]
