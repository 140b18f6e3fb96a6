#!/bin/sh
# check-layers.sh [ARCHIVE [MAIN_OBJECT]]: the structure rules of vbench, checked on
# every `make test`.
#  1. No cycle between source files: a file that calls into another is never called
#     back by it, directly or around a loop (read from the symbols of the compiled
#     objects in ARCHIVE, default build/libvbench.a).
#  2. Calls between the directories of src/ go one way only, down the layers:
#        main.c (on top, not in the archive; it calls nothing in os)
#        cli -> bench -> common, os
#        output -> common, os      report -> common, os      os -> common
#     (read from the same symbols, and main.c's from MAINOBJECT, default build/main.o);
#     any other edge is a back-edge, and fails.
#  3. The same holds for #include between layers: a header belongs to the layer of the
#     directory it is in (include/<layer>/); one directly in include/ fails.
#  4. No cycle between headers included with quotes.
#  5. Nothing outside the platform layer (src/os/, include/os/) names an operating system.
#  6. docs/layout.md names every file of src/ and include/.
#  7. vbench has no hook that only tests use: no function declared inside
#     "#ifdef VB_TEST_SEAMS" in a header is defined in ARCHIVE.
#  8. Every symbol an object of the platform layer (src/os/) exports starts with vb_os_
#     (read from the symbols of ARCHIVE): one prefix for the whole layer.
set -u
cd "$(dirname "$0")/../.."
archive=${1:-build/libvbench.a}
mainobj=${2:-build/main.o}
status=0

# A depth-first search for a cycle in the edges "from to" on standard input; prints it.
find_cycle() {
	awk '
	{ if ($1 != $2) { adj[$1] = adj[$1] " " $2; node[$1] = 1; node[$2] = 1 } }
	function visit(n,   i, k, parts, m) {
		state[n] = 1; path[++depth] = n
		k = split(adj[n], parts, " ")
		for (i = 1; i <= k; i++) {
			m = parts[i]
			if (state[m] == 1) { cyc = m; for (j = 1; j <= depth; j++) if (path[j] == m) start = j
				line = ""; for (j = start; j <= depth; j++) line = line path[j] " -> "
				print line m; found = 1; return }
			if (state[m] == 0) { visit(m); if (found) return }
		}
		state[n] = 2; depth--
	}
	END { for (n in node) if (state[n] == 0 && !found) visit(n); exit found }'
}

if [ -f "$archive" ]; then
	if ! nm -A "$archive" 2>/dev/null | awk '
		{ split($1, f, ":"); obj = f[2] }
		$(NF-1) ~ /^[TDBR]$/ { def[$NF] = obj }
		$(NF-1) == "U" { use[obj, $NF] = 1 }
		END { for (k in use) { split(k, p, SUBSEP); if (p[2] in def) print p[1], def[p[2]] } }' |
		find_cycle >/tmp/vbench-cycle.$$; then
		echo "check-layers: source files call each other in a cycle: $(cat /tmp/vbench-cycle.$$)"
		status=1
	fi
	rm -f /tmp/vbench-cycle.$$
else
	echo "check-layers: $archive missing; build first" >&2
	status=1
fi

# An object of src/os/ is os_<file>.o; a symbol it defines (any type but U, in capitals:
# external) is named vb_os_*, or _vb_os_* where the system puts "_" before C names (macOS).
if [ -f "$archive" ]; then
	nm -A "$archive" 2>/dev/null | awk '
		{ split($1, f, ":"); obj = f[2] }
		obj ~ /^os_/ && $(NF-1) ~ /^[A-TV-Z]$/ && $NF !~ /^_?vb_os_/ {
			print "check-layers: " obj " (src/os/) exports " $NF ": the os layer names its symbols vb_os_*"
			bad = 1
		}
		END { exit bad }' || status=1
fi

# The directories each directory of src/ may call into; a directory not listed here is
# refused too, so that a new one is given its place.
allowed='main:cli,bench,common,output,report cli:bench,common,os bench:common,os
output:common,os report:common,os os:common common:'
[ -f "$mainobj" ] || { echo "check-layers: $mainobj missing; build first" >&2; status=1; }
if [ -f "$archive" ] && [ -f "$mainobj" ]; then
	{ nm -A "$archive"; nm -A "$mainobj" | sed 's|^[^:]*:|main.o:main.o:|'; } 2>/dev/null |
	awk -v allowed="$allowed" '
		{ split($1, f, ":"); obj = f[2] }
		$(NF-1) ~ /^[TDBR]$/ { def[$NF] = obj }
		$(NF-1) == "U" { use[obj, $NF] = 1 }
		# objects are named after their path: src/bench/writer.c -> bench_writer.o
		function dir(o) { sub(/[_.].*/, "", o); return o }
		END {
			n = split(allowed, rules, " ")
			for (i = 1; i <= n; i++) {
				split(rules[i], kv, ":"); known[kv[1]] = 1
				m = split(kv[2], to, ","); for (j = 1; j <= m; j++) ok[kv[1], to[j]] = 1
			}
			for (k in use) {
				split(k, p, SUBSEP)
				if (!(p[2] in def)) continue
				a = dir(p[1]); b = dir(def[p[2]])
				if (!(a in known)) bad[a " is no known layer (" p[1] ")"] = 1
				else if (a != b && !((a, b) in ok))
					bad[a " -> " b ": " p[1] " calls " p[2]] = 1
			}
			for (e in bad) { print "check-layers: back-edge: " e; found = 1 }
			exit found
		}' || status=1
fi

# A header's layer is the directory it is in: include/<layer>/ (or the source's own
# directory, for a header beside it). One directly in include/ has none, and fails.
for h in $(find include -maxdepth 1 -name '*.h' | LC_ALL=C sort); do
	echo "check-layers: $h is in no layer: move it to include/<layer>/"
	status=1
done
for f in $(find include src -name '*.[ch]' | LC_ALL=C sort); do
	sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		if [ -f "$(dirname "$f")/$h" ]; then echo "$f $(dirname "$f")/$h"; else echo "$f include/$h"; fi
	done
done | awk -v allowed="$allowed" '
	BEGIN {
		n = split(allowed, rules, " ")
		for (i = 1; i <= n; i++) {
			split(rules[i], kv, ":")
			m = split(kv[2], to, ","); for (j = 1; j <= m; j++) ok[kv[1], to[j]] = 1
		}
	}
	function layer_of(p) {
		if (p == "src/main.c") return "main"
		if (p !~ /^(src|include)\/[^\/]+\//) return ""
		sub(/^[^\/]+\//, "", p); sub(/\/.*/, "", p); return p
	}
	{
		a = layer_of($1); b = layer_of($2)
		if (b == "") { print "check-layers: " $2 " (included by " $1 ") is in no layer: headers belong in include/<layer>/"; bad = 1 }
		else if (a != b && !((a, b) in ok)) { print "check-layers: back-edge: " a " -> " b ": " $1 " includes " $2; bad = 1 }
	}
	END { exit bad }' || status=1

if ! for f in $(find include src -name '*.[ch]'); do
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		echo "${f#include/} $h"
	done
done | grep '\.h$' | find_cycle >/tmp/vbench-cycle.$$; then
	echo "check-layers: headers include each other in a cycle: $(cat /tmp/vbench-cycle.$$)"
	status=1
fi
rm -f /tmp/vbench-cycle.$$

# docs/layout.md names every file of src/ and include/ (as `file.c` below its layer's
# directory, and a header as it is included: `layer/vb_name.h`).
for f in $(find src include -name '*.[ch]' ! -path src/main.c | LC_ALL=C sort); do
	case $f in include/*) n=${f#include/} ;; *) n=${f#src/*/} ;; esac
	grep -qF "\`$n\`" docs/layout.md || {
		echo "check-layers: docs/layout.md does not name $f (as \`$n\`)"
		status=1
	}
done

# The functions a header declares in its VB_TEST_SEAMS block (the first name before a
# parenthesis on a line that starts a declaration; a struct's members are indented).
seams=$(awk '/^#ifdef VB_TEST_SEAMS/ { on = 1; next }
	on && /^#endif/ { on = 0 }
	on && /^[A-Za-z]/ && match($0, /[A-Za-z_][A-Za-z_0-9]*\(/) { print substr($0, RSTART, RLENGTH - 1) }' \
	$(find include src -name '*.h' | LC_ALL=C sort))
if [ -f "$archive" ] && [ -n "$seams" ]; then
	for f in $(nm -g "$archive" 2>/dev/null | awk 'NF >= 2 && $(NF-1) ~ /^[TDBR]$/ { print $NF }' |
		grep -xF "$seams"); do
		echo "check-layers: $f, a hook for tests (VB_TEST_SEAMS), is in $archive"
		status=1
	done
fi

names='__linux__|__linux|_WIN32|_WIN64|__APPLE__|__MACH__|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__CYGWIN__|__sun|__HAIKU__'
if grep -nE "$names" $(find include src -name '*.[ch]' ! -path 'src/os/*' ! -path 'include/os/*'); then
	echo "check-layers: an operating system is named outside src/os/ and include/os/ (above)"
	status=1
fi
[ $status = 0 ] && echo "check-layers: no cycle; calls and includes go down the layers; no operating system named outside the os layer; the os layer exports only vb_os_*; docs/layout.md names every file; no hook for tests in vbench"
exit $status
