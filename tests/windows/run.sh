#!/bin/sh
# make windows-test: the system tests that have meaning on Windows, against vbench.exe
# under Wine (Debian's wine64). Paths are given as Wine sees the Unix root: Z:\...
#
# What Wine does not do, and so is not tested here: it ignores FILE_FLAG_NO_BUFFERING
# and FILE_FLAG_WRITE_THROUGH (the flags are passed, the page cache is still used), so
# vbench's own alignment check is what is tested for --direct; it has no physical
# drives or volumes, so raw disks are not tried; Ctrl+Break and closing the console
# cannot be sent. Ctrl+C is: Wine turns SIGINT into a console Ctrl+C event.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
wine=${WINE:-/usr/lib/wine/wine64}
[ -x "$wine" ] || { echo "windows-test: $wine is missing (Debian: apt-get install wine64)" >&2; exit 2; }
[ -f "$top/vbench.exe" ] || { echo "windows-test: build vbench.exe first (make windows)" >&2; exit 2; }
WINEDEBUG=-all
WINEPREFIX=${WINEPREFIX:-$top/build/wineprefix}
export WINEDEBUG WINEPREFIX
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vbench-wine.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wine" "$top/vbench.exe" >"$tmp/vbench"
chmod +x "$tmp/vbench"
echo "windows-test: starting Wine (the first start takes a few seconds)"
"$tmp/vbench" --version >/dev/null 2>&1
COUNTS="$tmp/counts" VBENCH="$tmp/vbench" sh "$top/tests/windows/t_windows.sh"
read -r p f s <"$tmp/counts" 2>/dev/null || { p=0; f=1; s=0; }
echo "windows: $p passed, $f failed, $s skipped"
[ "$f" = 0 ]
