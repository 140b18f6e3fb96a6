#!/bin/sh
# test-check-layers.sh ARCHIVE MAIN_OBJECT CFLAGS TEST_ARCHIVE: check-layers.sh must pass
# on a copy of the tree and fail on each violation planted in a copy: an include of a
# bench header by the output layer, a header directly in include/ (in no layer), an
# include that names no layer, a call from main.c into src/os/ (declared through the
# bench headers it includes; main.c compiled again with CFLAGS, the archive is the
# tree's own), a module docs/layout.md does not name, the tests' hooks in the
# archive (TEST_ARCHIVE, the unit tests' own, given as vbench's), and a function
# src/os/ exports without the vb_os_ prefix (src/os/common.c compiled again with
# CFLAGS into a copy of the archive).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
archive=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mainobj=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
testarchive=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
# The version's quotes do not survive being passed as one word: the planted main.c gets
# a version of its own.
cflags=$(printf '%s\n' "$3" | sed 's/-DVB_VERSION=[^ ]*//')
work=$(mktemp -d "${TMPDIR:-/tmp}/vbench-layers.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

copy() {
	rm -rf "$work/tree" && mkdir -p "$work/tree/tests"
	(cd "$top" && tar cf - src include tests/tools docs/layout.md) | (cd "$work/tree" && tar xf -)
}

# expect WHAT PATTERN MAIN_OBJECT [ARCHIVE]: the copy's check fails, saying PATTERN.
expect_fail() {
	if (cd "$work/tree" && sh tests/tools/check-layers.sh "${4:-$archive}" "$3") >"$work/out" 2>&1; then
		echo "test-check-layers: $1: check-layers passed"
		status=1
	elif ! grep -q "$2" "$work/out"; then
		echo "test-check-layers: $1: check-layers failed without saying '$2':"
		cat "$work/out"
		status=1
	fi
}

copy
if ! (cd "$work/tree" && sh tests/tools/check-layers.sh "$archive" "$mainobj") >"$work/out" 2>&1; then
	echo "test-check-layers: the unchanged copy fails:"
	cat "$work/out"
	status=1
fi

(cd "$work/tree" && awk 'done == 0 && /^#include "/ { print "#include \"bench/vb_target.h\""; done = 1 } 1' \
	src/output/output.c >"$work/output.c" && mv "$work/output.c" src/output/output.c)
expect_fail "output includes a bench header" "back-edge: output -> bench: src/output/output.c includes include/bench/vb_target.h" "$mainobj"

copy
(cd "$work/tree" && awk '/^int main\(/ { main = 1 } main && /^{/ { print; print "\tvb_os_isatty(2);"; main = 0; next } 1' \
	src/main.c >"$work/main.c" && mv "$work/main.c" src/main.c)
# shellcheck disable=SC2086
if ! (cd "$work/tree" && ${CC:-cc} $cflags -DVB_VERSION='"planted"' -c -o "$work/main.o" \
	src/main.c) >"$work/out" 2>&1; then
	echo "test-check-layers: the planted main.c does not compile:"
	cat "$work/out"
	status=1
fi
expect_fail "main.c calls into os" "back-edge: main -> os: main.o calls vb_os_isatty" "$work/main.o"

copy
(cd "$work/tree" && cp include/common/vb_units.h include/vb_loose.h)
expect_fail "a header directly in include/" "include/vb_loose.h is in no layer" "$mainobj"

copy
(cd "$work/tree" && awk 'done == 0 && /^#include "/ { print "#include \"vb_units.h\""; done = 1 } 1' \
	src/cli/size.c >"$work/size.c" && mv "$work/size.c" src/cli/size.c)
expect_fail "an include without its layer" \
	"include/vb_units.h (included by src/cli/size.c) is in no layer" "$mainobj"

copy
(cd "$work/tree" && sed 's/`session.c`/`the session`/' docs/layout.md >"$work/layout.md" &&
	mv "$work/layout.md" docs/layout.md)
expect_fail "docs/layout.md leaves a module out" "does not name src/bench/session.c" "$mainobj"

copy
expect_fail "the tests' hooks in vbench" "vb_source_ring_tune, a hook for tests" "$mainobj" \
	"$testarchive"

copy
(cd "$work/tree" && printf '\nint vb_fam_planted(void);\n\nint vb_fam_planted(void)\n{\n\treturn 0;\n}\n' \
	>>src/os/common.c)
cp "$archive" "$work/lib.a"
# shellcheck disable=SC2086
if ! (cd "$work/tree" && ${CC:-cc} $cflags -DVB_VERSION='"planted"' -c -o "$work/os_common.o" \
	src/os/common.c && ar r "$work/lib.a" "$work/os_common.o") >"$work/out" 2>&1; then
	echo "test-check-layers: the planted src/os/common.c does not compile:"
	cat "$work/out"
	status=1
fi
expect_fail "os exports a name without vb_os_" "os_common.o (src/os/) exports vb_fam_planted" \
	"$mainobj" "$work/lib.a"

[ $status = 0 ] && echo "test-check-layers: check-layers fails on an output -> bench include, a header or an include in no layer, a main -> os call, a module left out of docs/layout.md, the tests' hooks in vbench and an os symbol without vb_os_"
exit $status
