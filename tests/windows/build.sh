#!/bin/sh
# make windows: builds vbench.exe (x86-64) and vbench32.exe (i686, which 32-bit Windows
# and so Windows XP needs) with Debian's MinGW-w64 cross compilers, statically, against
# msvcrt.dll, and checks that each starts on Windows XP: no import that XP SP3 or XP x64
# lacks (../shared/winxp/check-imports.sh), and no DLL beyond the few every Windows has.
#
# The threads are vbench's own (include/os/win32/pthread.h, src/os/win_threads.c): MinGW's
# winpthreads imports Vista's functions even when linked statically. The compilers are
# the "-win32" threading variants where they exist, whose libgcc needs no winpthreads.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
version=$(sed -n 's/^VERSION *= *//p' Makefile | head -n 1)

# The import checker: WINXP_CHECK, else the team's shared copy next to the checkout.
check=${WINXP_CHECK:-}
for c in "$top/../shared/winxp/check-imports.sh" /work/shared/winxp/check-imports.sh; do
	[ -n "$check" ] || { [ -f "$c" ] && check=$c; }
done
[ -n "$check" ] || {
	echo "windows: check-imports.sh not found (set WINXP_CHECK to its path)" >&2
	exit 2
}

# compiler ARCH: the MinGW-w64 C compiler for ARCH (the triplet's first part).
compiler() {
	cc=${MINGW_CC:-}
	[ -n "$cc" ] || cc=$1-w64-mingw32-gcc-win32
	command -v "$cc" >/dev/null || cc=$1-w64-mingw32-gcc
	command -v "$cc" >/dev/null || {
		pkg=gcc-mingw-w64-$(echo "$1" | tr _ -)
		echo "windows: $cc is missing (Debian: apt-get install $pkg)" >&2
		exit 2
	}
	echo "$cc"
}

# compile ARCH OUTPUT [FLAGS|SOURCES...]: one exe. The MinGW stdio gives the C99 formats
# (%zu, %llu) that msvcrt's printf lacks; it is linked in, not a DLL. The headers show
# Vista's declarations, but the import check below holds the exes to XP.
compile() {
	arch=$1 out=$2
	shift 2
	"$(compiler "$arch")" -std=c11 -O2 -g0 -Wall -Wextra -Werror -D__USE_MINGW_ANSI_STDIO=1 \
		-D_WIN32_WINNT=0x0600 -D_FILE_OFFSET_BITS=64 -DVB_VERSION="\"$version\"" \
		-Iinclude/os/win32 -Iinclude -static -o "$out" "$@" \
		-ladvapi32 -lsetupapi -lcfgmgr32 -lshell32 -lntdll
}

# check ARCH EXE: the DLLs and imports of EXE.
check_imports() {
	# Every DLL it needs is one every Windows since XP has.
	allowed=" kernel32.dll ntdll.dll msvcrt.dll advapi32.dll setupapi.dll cfgmgr32.dll shell32.dll "
	dlls=$("$1"-w64-mingw32-objdump -p "$2" | sed -n 's/^[[:space:]]*DLL Name: //p')
	bad=""
	for d in $dlls; do
		case $allowed in
		*" $(echo "$d" | tr 'A-Z' 'a-z') "*) ;;
		*) bad="$bad $d" ;;
		esac
	done
	if [ -n "$bad" ]; then
		echo "windows: $2 imports DLLs that not every Windows has:$bad" >&2
		exit 1
	fi
	if ! out=$(sh "$check" "$2"); then
		echo "$out" >&2
		echo "windows: $2 would not start on Windows XP" >&2
		exit 1
	fi
	echo "windows: $2, $(wc -c <"$2" | tr -d ' ') bytes, imports: $(echo $dlls);" \
		"$(echo "$out" | tail -n 1 | sed 's/^ *//')"
}

srcs=$(find src -name '*.c' | LC_ALL=C sort)
lib=$(find src -name '*.c' ! -name main.c | LC_ALL=C sort)
# shellcheck disable=SC2086
compile x86_64 vbench.exe $srcs
check_imports x86_64 vbench.exe
# shellcheck disable=SC2086
compile i686 vbench32.exe $srcs
check_imports i686 vbench32.exe

# For make windows-test only: the threads' own test, and a build whose lookups of
# Vista's functions all fail, so that the XP fallbacks run under Wine. Their imports are
# checked too: on a host that cannot run 32-bit programs, that check is what remains of
# the 32-bit ones.
mkdir -p build/windows
# shellcheck disable=SC2086
compile x86_64 build/windows/threads.exe tests/windows/threads.c $lib
# shellcheck disable=SC2086
compile i686 build/windows/threads32.exe tests/windows/threads.c $lib
check_imports i686 build/windows/threads32.exe
# shellcheck disable=SC2086
compile i686 build/windows/vbench32-xp.exe -DVB_WIN_AS_XP=1 $srcs
check_imports i686 build/windows/vbench32-xp.exe
