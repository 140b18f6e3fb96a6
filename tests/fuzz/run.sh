#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c as a libFuzzer target (clang, with ASan and UBSan)
# and runs each for FUZZ_SECS seconds (default 150) on a copy of its seed corpus (see
# tests/fuzz/corpus.sh for the report's). Crashes, and inputs that take more than 10 s
# (a loop that does not end), are left in build/fuzz/ and make the script fail.
set -eu
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECS:-150}
out=build/fuzz
mkdir -p "$out"
status=0
srcs=$(find src -name '*.c' ! -name main.c | sort)
for f in tests/fuzz/fuzz_*.c; do
	name=$(basename "$f" .c)
	target=${name#fuzz_}
	clang -g -O1 -std=c11 -Iinclude -DVB_VERSION='"fuzz"' -D_FILE_OFFSET_BITS=64 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-o "$out/$name" "$f" $srcs -lm -lpthread
	work="$out/corpus-$target"
	mkdir -p "$work"
	[ -d "tests/fuzz/corpus/$target" ] && cp -n tests/fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
	echo "== $name: $secs s"
	if ! (cd "$out" && ASAN_OPTIONS=detect_leaks=1 "./$name" -max_total_time="$secs" \
		-max_len=16384 -timeout=10 -print_final_stats=1 "corpus-$target" 2>"$name.log"); then
		echo "FAILED: $name (see $out/$name.log and $out/crash-*)"
		tail -30 "$out/$name.log"
		status=1
	fi
	grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$name.log" | sed "s/^/   $name /"
done
exit $status
