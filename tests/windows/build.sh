#!/bin/sh
# make windows: builds vbench.exe with Debian's MinGW-w64 cross compiler, statically, and
# checks that it imports nothing but DLLs every Windows has.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
cc=${MINGW_CC:-x86_64-w64-mingw32-gcc}
command -v "$cc" >/dev/null || {
	echo "windows: $cc is missing (Debian: apt-get install gcc-mingw-w64-x86-64)" >&2
	exit 2
}
version=$(sed -n 's/^VERSION *= *//p' Makefile | head -n 1)
# The MinGW stdio gives the C99 formats (%zu, %llu) that msvcrt's printf lacks; it is
# linked in, not a DLL.
# shellcheck disable=SC2046
"$cc" -std=c11 -O2 -g0 -Wall -Wextra -Werror -D__USE_MINGW_ANSI_STDIO=1 \
	-D_FILE_OFFSET_BITS=64 -DVB_VERSION="\"$version\"" -Iinclude -Isrc/os -Isrc/report \
	-static -o vbench.exe $(find src -name '*.c' | LC_ALL=C sort) \
	-lbcrypt -lsetupapi -lcfgmgr32 -lshell32 -lpthread
# Every DLL it needs is one every Windows since Vista has.
allowed="KERNEL32.dll msvcrt.dll bcrypt.dll SETUPAPI.dll CFGMGR32.dll SHELL32.dll"
dlls=$(x86_64-w64-mingw32-objdump -p vbench.exe | sed -n 's/^[[:space:]]*DLL Name: //p')
bad=""
for d in $dlls; do
	case " $(echo "$allowed" | tr 'A-Z' 'a-z') " in
	*" $(echo "$d" | tr 'A-Z' 'a-z') "*) ;;
	*) bad="$bad $d" ;;
	esac
done
if [ -n "$bad" ]; then
	echo "windows: vbench.exe imports DLLs that not every Windows has:$bad" >&2
	exit 1
fi
echo "windows: vbench.exe, $(wc -c <vbench.exe | tr -d ' ') bytes, imports: $(echo $dlls)"
