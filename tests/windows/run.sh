#!/bin/sh
# make windows-test: the system tests that have meaning on Windows, against vbench.exe
# (x86-64, under Debian's wine64) and vbench32.exe (i686, under wine32) in a fresh Wine
# prefix. Paths are given as Wine sees the Unix root: Z:\...
#
# What Wine does not do, and so is not tested here: it ignores FILE_FLAG_NO_BUFFERING
# and FILE_FLAG_WRITE_THROUGH (the flags are passed, the page cache is still used), so
# vbench's own alignment check is what is tested for --direct; it has no physical
# drives or volumes, so raw disks are not tried (the in-use decision, the names refused
# and the open flags are unit tests: tests/test_os_win.c); it has every function of
# recent Windows, so the XP fallbacks run only where a lookup is forced to fail (never
# here); Ctrl+Break and closing the console cannot be sent. Ctrl+C is: Wine turns
# SIGINT into a console Ctrl+C event.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
wine64=${WINE64:-/usr/lib/wine/wine64}
wine32=${WINE32:-/usr/lib/wine/wine}
# The server the prefix's programs share, beside the loaders (Debian: /usr/lib/wine).
wineserver=${WINESERVER:-$(dirname "$wine64")/wineserver}
for w in "$wine64" "$wine32" "$wineserver"; do
	[ -x "$w" ] || {
		echo "windows-test: $w is missing (Debian: apt-get install wine64 wine32:i386)" >&2
		exit 2
	}
done
for exe in vbench.exe vbench32.exe build/windows/vbench32-xp.exe build/windows/threads.exe; do
	[ -f "$top/$exe" ] || { echo "windows-test: build $exe first (make windows)" >&2; exit 2; }
done
WINEDEBUG=-all
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-wine.XXXXXX")
# A fresh prefix every time: nothing from an earlier run (a Windows version set for the
# version test) carries over.
WINEPREFIX=${WINEPREFIX:-$tmp/prefix}
export WINEDEBUG WINEPREFIX
trap '"$wineserver" -k 2>/dev/null; "$wineserver" -w 2>/dev/null; rm -rf "$tmp"' EXIT

# Some kernels refuse every 32-bit program (no IA-32 emulation): the 32-bit loader is
# run once, by execv(2) itself, and only the kernel's ENOEXEC makes the 32-bit runs
# skip. Any other failure of the loader is left to fail those runs.
"${CC:-cc}" -o "$tmp/execv" "$top/tests/windows/execv.c" || {
	echo "windows-test: cannot build tests/windows/execv.c with ${CC:-cc}" >&2
	exit 2
}
run32=1
if "$tmp/execv" "$wine32" --version >"$tmp/probe" 2>&1; then
	:
elif [ $? = 126 ]; then
	run32=0
	echo "windows-test: skip threads32.exe, vbench32.exe, vbench32-xp.exe: this kernel" \
		"refuses 32-bit programs ($(tail -n 1 "$tmp/probe")); what still covers them:" \
		"their imports checked against Windows XP (make windows), the same source's x64" \
		"runs (threads.exe, vbench.exe)"
fi
echo "windows-test: starting Wine in a new prefix (the first start takes a while)"
# One server for the whole test, started before anything else and kept until the end.
# Left to itself, the server begins to shut down each time the last program exits
# (wineserver(1): the default persistence is 0 s); a vbench started in that instant is
# killed with exit code 1 and no message, or loses its connection (Wine's
# server/process.c: server_shutdown_timeout, kill_all_processes). Wine failing, not vbench.
mkdir -p "$WINEPREFIX"   # the server works in it
"$wineserver" -p || {
	echo "windows-test: cannot start $wineserver -p in $WINEPREFIX (does one run there" \
		"already? wineserver -k ends it)" >&2
	exit 2
}
"$wine64" wineboot -i >/dev/null 2>&1

status=0
total_p=0 total_f=0 total_s=0
# run EXE WINE: the tests against one exe.
run() {
	printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$2" "$top/$1" >"$tmp/vbench"
	chmod +x "$tmp/vbench"
	echo "windows-test: $1 under $(basename "$2")"
	rm -f "$tmp/counts"
	COUNTS="$tmp/counts" VBENCH="$tmp/vbench" WINE="$2" EXE="$1" \
		sh "$top/tests/windows/t_windows.sh"
	read -r p f s <"$tmp/counts" 2>/dev/null || { p=0; f=1; s=0; }
	echo "windows: $1: $p passed, $f failed, $s skipped"
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
	[ "$f" = 0 ] || status=1
}
# threads EXE WINE: the threads' own test.
threads() {
	echo "windows-test: $1 under $(basename "$2")"
	if timeout 300 "$2" "$top/build/windows/$1"; then
		total_p=$((total_p + 1))
	else
		echo "FAIL - $1"
		total_f=$((total_f + 1)) status=1
	fi
}
threads threads.exe "$wine64"
run vbench.exe "$wine64"
if [ $run32 = 1 ]; then
	threads threads32.exe "$wine32"
	run vbench32.exe "$wine32"
	# Every lookup of a function Vista added made to fail, as on XP.
	run build/windows/vbench32-xp.exe "$wine32"
else
	total_s=$((total_s + 3))
fi
echo "windows: $total_p passed, $total_f failed, $total_s skipped"
exit $status
