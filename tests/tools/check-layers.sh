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
#     directory it is in, or (include/) to the one the table below gives it.
#  4. No cycle between headers included with quotes.
#  5. Nothing outside the platform layer (src/os/) names an operating system.
#  6. docs/layout.md names every file of src/ and include/.
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

# The layer of each header of include/: a header added there must be given its place.
headers='common: vb_args vb_buf vb_config vb_env vb_escape vb_escape_test vb_flush vb_hist
	vb_io vb_knee vb_live vb_result vb_schema vb_stats vb_status vb_units
bench: vb_analysis vb_analysis_test vb_autoruns vb_flushprobe vb_guard vb_memfit vb_plan
	vb_runner vb_session vb_source vb_source_test vb_space vb_supervise vb_target
	vb_target_test vb_writer
cli: vb_opts vb_size
output: vb_csvfile vb_output
report: vb_report vb_report_test
os: vb_os'
for f in $(find include src -name '*.[ch]' | LC_ALL=C sort); do
	sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		# a header beside the file is its own layer's; else the one of include/
		if [ -f "$(dirname "$f")/$h" ]; then echo "$f $(dirname "$f")/$h"; else echo "$f include/$h"; fi
	done
done | awk -v allowed="$allowed" -v headers="$headers" '
	BEGIN {
		n = split(allowed, rules, " ")
		for (i = 1; i <= n; i++) {
			split(rules[i], kv, ":")
			m = split(kv[2], to, ","); for (j = 1; j <= m; j++) ok[kv[1], to[j]] = 1
		}
		n = split(headers, w, /[ \t\n]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /:$/) l = substr(w[i], 1, length(w[i]) - 1); else layer[w[i]] = l
	}
	function layer_of(p,   b) {
		if (p == "src/main.c") return "main"
		if (p ~ /^src\/[^\/]+\//) { sub(/^src\//, "", p); sub(/\/.*/, "", p); return p }
		if (p ~ /^include\/[^\/]+\//) { sub(/^include\//, "", p); sub(/\/.*/, "", p); return p }
		b = p; sub(/.*\//, "", b); sub(/\.h$/, "", b)
		return (b in layer) ? layer[b] : ""
	}
	{
		a = layer_of($1); b = layer_of($2)
		if (b == "") { print "check-layers: " $2 " (included by " $1 ") has no layer: give it one in tests/tools/check-layers.sh"; bad = 1 }
		else if (a != b && !((a, b) in ok)) { print "check-layers: back-edge: " a " -> " b ": " $1 " includes " $2; bad = 1 }
	}
	END { exit bad }' || status=1

if ! for f in $(find include src -name '*.[ch]'); do
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		echo "$(basename "$f") $h"
	done
done | grep '\.h$' | find_cycle >/tmp/vbench-cycle.$$; then
	echo "check-layers: headers include each other in a cycle: $(cat /tmp/vbench-cycle.$$)"
	status=1
fi
rm -f /tmp/vbench-cycle.$$

# docs/layout.md names every file of src/ and include/ (as `file.c`, `dir/file.h`
# below its layer's directory, or `vb_name.h`).
for f in $(find src include -name '*.[ch]' ! -path src/main.c | LC_ALL=C sort); do
	case $f in include/*) n=$(basename "$f") ;; *) n=${f#src/*/} ;; esac
	grep -qF "\`$n\`" docs/layout.md || {
		echo "check-layers: docs/layout.md does not name $f (as \`$n\`)"
		status=1
	}
done

names='__linux__|__linux|_WIN32|_WIN64|__APPLE__|__MACH__|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__CYGWIN__|__sun|__HAIKU__'
if grep -nE "$names" $(find include src -name '*.[ch]' ! -path 'src/os/*'); then
	echo "check-layers: an operating system is named outside src/os/ (above)"
	status=1
fi
[ $status = 0 ] && echo "check-layers: no cycle; calls and includes go down the layers; no operating system named outside src/os/; docs/layout.md names every file"
exit $status
