#!/bin/sh
# Builds ./vbench-static, a statically linked vbench for minimal guests (a busybox
# initramfs, a rescue system) that have no compiler and perhaps no shared libc at all.
#
# musl is preferred when musl-gcc is installed, because a static musl binary is small
# and has none of glibc's static-linking caveats (NSS, iconv, dlopen). Without musl,
# or when the sources do not build against musl's headers, glibc's "gcc -static" is
# used instead, with a warning saying why, so that the VM test can still run.
#
# The script also checks that every source file compiles without a warning under
# "-std=c11 -pedantic" with gcc and with clang. Those warnings are reported, not fatal:
# they are portability findings for the owner of src/, and the static binary is still
# good for the VM test.
#
# Environment: STATIC_CC overrides the compiler choice (for example STATIC_CC=gcc to
# skip musl); STRIP overrides the strip program.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

# The version is defined once, in the Makefile; read it from there so that
# "vbench-static --version" agrees with the normal build.
version=$(grep -E '^VERSION[[:space:]]*=' Makefile | head -n 1 | sed 's/^[^=]*=[[:space:]]*//; s/[[:space:]]*$//')
if [ -z "$version" ]; then
	echo "build-static: cannot find VERSION in the Makefile" >&2
	exit 1
fi

# The temporary directory holds build logs and the unstripped binary; it is removed
# however the script ends.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vbench-static.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

flags="-std=c11 -Wall -Wextra -O2 -Iinclude -D_FILE_OFFSET_BITS=64"
define="-DVB_VERSION=\"$version\""
srcs=$(find src -name "*.c" | sort)

# build CC: compiles and links all sources statically into $tmp/vbench, keeping the
# compiler's messages in $tmp/build.log. Returns the compiler's status.
build() {
	# $flags and $srcs are split into words on purpose; none contains spaces.
	# shellcheck disable=SC2086
	"$1" $flags "$define" -static -o "$tmp/vbench" $srcs -lm -lpthread >"$tmp/build.log" 2>&1
}

libc=""
if [ -n "${STATIC_CC:-}" ]; then
	cc=$STATIC_CC
elif command -v musl-gcc >/dev/null 2>&1; then
	cc=musl-gcc
else
	cc=gcc
fi

echo "build-static: compiling vbench $version with $cc"
if build "$cc"; then
	case $cc in
	*musl*) libc=musl ;;
	*) libc=glibc ;;
	esac
elif [ "$cc" = musl-gcc ] && [ -z "${STATIC_CC:-}" ]; then
	# The sources are meant to build against musl too; show exactly what failed so it
	# can be fixed in src/, then carry on with glibc so the guest test is not blocked.
	cat "$tmp/build.log" >&2
	echo "build-static: WARNING: the build with musl-gcc failed (messages above);" \
		"falling back to gcc -static with glibc" >&2
	cc=gcc
	build "$cc" || { cat "$tmp/build.log" >&2; echo "build-static: gcc -static failed too" >&2; exit 1; }
	libc="glibc (musl build FAILED)"
else
	cat "$tmp/build.log" >&2
	echo "build-static: the static build with $cc failed" >&2
	exit 1
fi
# Warnings of a successful build are shown, not hidden.
if [ -s "$tmp/build.log" ]; then
	cat "$tmp/build.log" >&2
fi

# Symbols are of no use in a guest and triple the size of the file.
${STRIP:-strip} "$tmp/vbench"
mv -f "$tmp/vbench" vbench-static

# A static binary must start on a system without a dynamic loader; "file" tells whether
# the link really was static, and running it proves it at least starts here.
if command -v file >/dev/null 2>&1; then
	case $(file -b vbench-static) in
	*"statically linked"* | *"static-pie linked"*) ;;
	*)
		echo "build-static: vbench-static is not statically linked: $(file -b vbench-static)" >&2
		exit 1
		;;
	esac
fi
./vbench-static --version >/dev/null

size=$(wc -c <vbench-static | tr -d ' ')
echo "build-static: ./vbench-static: $size bytes ($((size / 1024)) KiB), $libc, static, stripped"

# Pedantic portability check. Each file is compiled on its own to an object that is
# thrown away; only the compilers' messages matter.
pedantic_total=0
for pcc in gcc clang; do
	if ! command -v "$pcc" >/dev/null 2>&1; then
		echo "build-static: pedantic check: $pcc not installed, skipped"
		continue
	fi
	: >"$tmp/pedantic.log"
	for f in $srcs; do
		# shellcheck disable=SC2086
		"$pcc" $flags -pedantic "$define" -c -o "$tmp/pedantic.o" "$f" >>"$tmp/pedantic.log" 2>&1 ||
			echo "build-static: $pcc -pedantic: $f does not compile" >>"$tmp/pedantic.log"
	done
	n=$(grep -c -E 'warning:|error:|does not compile' "$tmp/pedantic.log" || true)
	if [ "$n" -eq 0 ]; then
		echo "build-static: $pcc -std=c11 -pedantic: no warnings"
	else
		echo "build-static: $pcc -std=c11 -pedantic: $n warning(s) or error(s):"
		sed 's/^/    /' "$tmp/pedantic.log"
		pedantic_total=$((pedantic_total + n))
	fi
done
if [ "$pedantic_total" -ne 0 ]; then
	echo "build-static: NOTE: $pedantic_total pedantic finding(s) above; they do not fail the build"
fi
