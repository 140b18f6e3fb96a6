#!/bin/sh
# make cross-bsd: compiles every source of vbench for FreeBSD, DragonFly and NetBSD
# against their own system headers (../shared/sysroots, see its README), with
# clang --target and -Wall -Wextra -Werror, through the shared check.sh.
#
# The sysroots in the shared folder hold their symbolic links as small text files (the
# copy lost them), so check.sh cannot use them as they are; each README.txt lists every
# link ("errno.h -> sys/errno.h (symlink, as installed)"). This script copies each tree
# into build/sysroots, puts those links back as links, and runs the copied check.sh.
# Nothing of the shared folder is changed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# The sysroots: VB_SYSROOTS, else ../shared/sysroots beside the project, else beside the
# repository this one was cloned from (a fresh clone in a temporary directory).
src=${VB_SYSROOTS:-}
if [ -z "$src" ]; then
	src=$top/../shared/sysroots
	origin=$(git -C "$top" config --get remote.origin.url 2>/dev/null || true)
	if [ ! -f "$src/check.sh" ] && [ -n "$origin" ] && [ -d "$origin" ]; then
		src=$(cd "$origin" && pwd)/../shared/sysroots
	fi
	# a git worktree: beside the repository it belongs to
	common=$(git -C "$top" rev-parse --git-common-dir 2>/dev/null || true)
	if [ ! -f "$src/check.sh" ] && [ -n "$common" ] && [ -d "$common" ]; then
		src=$(cd "$top" && cd "$common/.." && pwd)/../shared/sysroots
	fi
fi
out=$top/build/sysroots
command -v "${CC_CROSS:-clang}" >/dev/null || { echo "cross-bsd: needs clang" >&2; exit 2; }
[ -f "$src/check.sh" ] || { echo "cross-bsd: no sysroots at $src" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
cp "$src/check.sh" "$out/"
status=0
for os in ${VB_BSDS:-freebsd dragonfly netbsd}; do
	cp -R "$src/$os" "$out/$os"
	chmod -R u+w "$out/$os"
	inc=$out/$os/usr/include
	sed -n 's/^ *\([^ ]*\) -> \([^ ]*\) (symlink, as installed).*/\1 \2/p' "$src/$os/README.txt" |
	while read -r name target; do
		rm -rf "${inc:?}/$name"
		ln -s "$target" "$inc/$name"
	done
	if CC=${CC_CROSS:-clang} EXTRA_CFLAGS="-Wall -Wextra -Werror" \
		sh "$out/check.sh" "$os" "$top"; then :; else status=1; fi
	# A branch guarded by __has_include(<H>) must be compiled in where the system has H:
	# each source that asks for a header this sysroot holds must include it. Not asked
	# of macos.c (macOS only), nor of NetBSD's sys/disklabel.h on DragonFly.
	target=$(sed -n "s/^$os) *target=\([^ ]*\) ;;.*/\1/p" "$out/check.sh")
	for f in $(grep -l '__has_include(<' "$top"/src/*/*.c "$top"/src/*.c 2>/dev/null); do
		case $f in */src/os/macos.c) continue ;; esac
		deps=$(${CC_CROSS:-clang} --target="$target" --sysroot="$out/$os" -std=c11 \
			-D_FILE_OFFSET_BITS=64 -DVB_VERSION='"0"' -I"$top/include" \
			-I"$(dirname "$f")" -E "$f" 2>/dev/null |
			sed -n 's/^# [0-9]* "\([^"]*\)".*/\1/p' | sort -u)
		for h in $(sed -n 's/.*__has_include(<\([^>]*\)>).*/\1/p' "$f" | sort -u); do
			[ -e "$inc/$h" ] || continue
			case $os:${f#"$top"/}:$h in dragonfly:src/os/bsd.c:sys/disklabel.h) continue ;; esac
			if ! printf '%s\n' "$deps" | grep -qx "$inc/$h"; then
				echo "cross-bsd: $os has <$h>, but ${f#"$top"/} compiled its branch out" >&2
				status=1
			fi
		done
	done
done
exit $status
