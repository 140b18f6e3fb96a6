#!/bin/sh
# make mutate: applies each mutation of tests/mutate/mutations.txt, one at a time, to a
# scratch copy of the tree, runs the tests on it (the unit tests first, the system tests
# only when those pass) with a time limit, and prints each mutation as killed (by which
# test) or survived, then the score. Each is anchored to a function (found wherever it
# is defined) and a text unique within it. Fails, before any test, when a mutation's
# anchor is gone (every one is checked, whatever is selected); and when fewer than 95%
# are killed. MUTATE_QUICK=1 runs only the ones marked "quick";
# MUTATE_ONLY="W1 T2" runs the ones named.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/mutate/mutations.txt
limit=${MUTATE_TIMEOUT:-900}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-mutate.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cc=${CC:-cc}
$cc -o "$work/apply" "$top/tests/mutate/apply.c" || exit 2

# The scratch tree, built and tested once unmutated: a mutation is only killed by a test
# that passes without it.
mkdir "$work/tree"
(cd "$top" && tar cf - --exclude=./.git --exclude=./build --exclude=./vbench \
	--exclude=./vbench-static --exclude=./vbench.exe .) | (cd "$work/tree" && tar xf -)
# One record a mutation: ID, function (or table), quick flag, old text, new text, tab-separated.
awk '
/^@ / { id = $2; func = $3; quick = ($4 == "quick") ? "quick" : "-" }
/^- / { old = substr($0, 3) }
/^\+ / { printf "%s\t%s\t%s\t%s\t%s\n", id, func, quick, old, substr($0, 3) }
' "$list" >"$work/list"
# The files a function may be defined in: every C file and header of the tree.
(cd "$work/tree" && find src include -name '*.[ch]' | LC_ALL=C sort) >"$work/files"

# Every anchor is checked first, whatever is selected: a mutation whose function or
# text is gone fails the run before any test is run.
stale=0
while IFS='	' read -r id func quick old new; do
	# shellcheck disable=SC2046
	(cd "$work/tree" && "$work/apply" -n "$func" "$old" "$new" $(cat "$work/files")) \
		>/dev/null 2>"$work/why" || {
		echo "$id $func: DOES NOT APPLY: $(cat "$work/why"): update tests/mutate/mutations.txt"
		stale=$((stale + 1))
	}
done <"$work/list"
[ $stale = 0 ] || { echo "mutate: $stale mutations no longer apply"; exit 1; }

echo "== the unmutated tree"
if ! (cd "$work/tree" && make -s test >"$work/base.log" 2>&1); then
	echo "mutate: the tests fail without any mutation; see below"
	grep -E '^(FAIL|FAILED:|\[  FAILED  \])' "$work/base.log"
	tail -30 "$work/base.log"
	exit 2
fi

total=0 killed=0
survivors=""
while IFS='	' read -r id func quick old new; do
	if [ "${MUTATE_QUICK:-0}" = 1 ] && [ "$quick" != quick ]; then continue; fi
	if [ -n "${MUTATE_ONLY:-}" ]; then
		case " $MUTATE_ONLY " in *" $id "*) ;; *) continue ;; esac
	fi
	total=$((total + 1))
	# shellcheck disable=SC2046
	file=$(cd "$work/tree" && "$work/apply" -n "$func" "$old" "$new" $(cat "$work/files"))
	cp -p "$work/tree/$file" "$work/orig"
	# shellcheck disable=SC2046
	(cd "$work/tree" && "$work/apply" "$func" "$old" "$new" $(cat "$work/files")) >/dev/null
	verdict=survived
	if ! (cd "$work/tree" && timeout "$limit" make -s all >"$work/log" 2>&1); then
		# A mutation must change behaviour, not break the build: fix the list.
		echo "$id $file: DOES NOT BUILD: update tests/mutate/mutations.txt"
		sed 's/^/    /' "$work/log" | tail -5
		stale=$((stale + 1))
		cp "$work/orig" "$work/tree/$file"
		touch "$work/tree/$file"
		continue
	elif ! (cd "$work/tree" && timeout "$limit" make -s unit-test >"$work/log" 2>&1); then
		who=$(grep -m1 '^FAILED: ' "$work/log" | sed 's|^FAILED: .*/||')
		what=$(grep -m1 '^\[  FAILED  \] test_' "$work/log" | sed 's/^\[  FAILED  \] //')
		verdict="killed by ${who:-a unit test that did not build}${what:+: $what}"
	elif ! (cd "$work/tree" && timeout "$limit" make -s system-test >"$work/log" 2>&1); then
		what=$(grep -m1 '^FAIL - ' "$work/log" | sed 's/^FAIL - //')
		verdict="killed by the system tests: ${what:-timeout}"
	fi
	case $verdict in
	killed*) killed=$((killed + 1)) ;;
	*) survivors="$survivors $id" ;;
	esac
	echo "$id $file: $verdict"
	# Back to the original, newer than its object so that it is compiled again.
	cp "$work/orig" "$work/tree/$file"
	touch "$work/tree/$file"
done <"$work/list"

if [ $total = 0 ]; then
	echo "mutate: no mutation selected"
	exit 2
fi
pct=$(awk -v k=$killed -v t=$total 'BEGIN { printf "%.1f", 100 * k / t }')
echo "mutate: $killed of $total killed ($pct%)${survivors:+; survived:$survivors}"
[ $stale = 0 ] || { echo "mutate: $stale mutations no longer apply or do not build"; exit 1; }
awk -v k=$killed -v t=$total 'BEGIN { exit !(100 * k >= 95 * t) }' || {
	echo "mutate: below 95%"
	exit 1
}
