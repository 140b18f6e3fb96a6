#!/bin/sh
# make windows: builds vbench.exe (x86-64) and vbench32.exe (i686, which 32-bit Windows
# and so Windows XP needs) with Debian's MinGW-w64 cross compilers, statically, against
# msvcrt.dll, and checks that each starts on Windows XP: no import that XP SP3 or XP x64
# lacks (../shared/winxp/check-imports.sh), and no DLL beyond the few every Windows has.
#
# The threads are vbench's own (src/os/win32/pthread.h, src/os/win_threads.c): MinGW's
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

# build ARCH OUTPUT: one exe; ARCH is the MinGW triplet's first part.
build() {
	cc=${MINGW_CC:-}
	[ -n "$cc" ] || cc=$1-w64-mingw32-gcc-win32
	command -v "$cc" >/dev/null || cc=$1-w64-mingw32-gcc
	command -v "$cc" >/dev/null || {
		pkg=gcc-mingw-w64-$(echo "$1" | tr _ -)
		echo "windows: $cc is missing (Debian: apt-get install $pkg)" >&2
		exit 2
	}
	# The MinGW stdio gives the C99 formats (%zu, %llu) that msvcrt's printf lacks; it is
	# linked in, not a DLL. XP is the oldest system the exes are for (_WIN32_WINNT).
	# shellcheck disable=SC2046
	"$cc" -std=c11 -O2 -g0 -Wall -Wextra -Werror -D__USE_MINGW_ANSI_STDIO=1 \
		-D_WIN32_WINNT=0x0600 -D_FILE_OFFSET_BITS=64 -DVB_VERSION="\"$version\"" \
		-Isrc/os/win32 -Iinclude -Isrc/os -Isrc/report \
		-static -o "$2" $(find src -name '*.c' | LC_ALL=C sort) \
		-ladvapi32 -lsetupapi -lcfgmgr32 -lshell32
	# Every DLL it needs is one every Windows since XP has.
	allowed=" kernel32.dll msvcrt.dll advapi32.dll setupapi.dll cfgmgr32.dll shell32.dll "
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

build x86_64 vbench.exe
build i686 vbench32.exe
