# What is written: random data every byte fresh (no 512-byte sector repeats, nothing a
# long-window compressor can shrink), urandom fresh or said not to be, zeros said to be.
. "$(dirname "$0")/lib.sh"

sectors=$(helper sectors)

# check_sectors FILE WHAT: no 512-byte sector of FILE equals another.
check_sectors() {
	if [ -z "$sectors" ]; then
		skip "$2: no C compiler for the sector check (apt-get install build-essential)"
		return
	fi
	set -- "$2" $("$sectors" "$1")
	check "$1: none of the ${2:-?} 512-byte sectors repeats (${3:-?} repeats)" [ "${3:-x}" = 0 ]
}

# ratio ORIGINAL COMPRESSED: prints COMPRESSED / ORIGINAL with three decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }

# --- random: 256 MiB, every 512-byte sector unique, incompressible ----------------------
d=$(new_dir)
run_vb --no-progress --keep --source random bs=64k count=4096 runs=1 "of=$d/r"
expect_rc 0 "256 MiB of random data kept"
expect_out "^# data random, every byte of every run fresh" "the header says every byte is fresh"
check_sectors "$d/r" "random"
if command -v zstd >/dev/null 2>&1; then
	c=$(zstd -1 --long=27 -c "$d/r" | wc -c | tr -d ' ')
	r=$(ratio "$(size_of "$d/r")" "$c")
	check "random: zstd -1 --long=27 leaves $r of it (at least 0.99)" awk -v r="$r" 'BEGIN { exit !(r >= 0.99) }'
elif command -v gzip >/dev/null 2>&1; then
	c=$(gzip -1 -c "$d/r" | wc -c | tr -d ' ')
	r=$(ratio "$(size_of "$d/r")" "$c")
	check "random: gzip -1 leaves $r of it (zstd missing: apt-get install zstd)" awk -v r="$r" 'BEGIN { exit !(r >= 0.99) }'
else
	skip "neither zstd nor gzip: the compression check (apt-get install zstd)"
fi
rm -f "$d/r"

# --- urandom: fresh for runs up to 64 MiB; beyond, reused, stamped, and said so ----------
d=$(new_dir)
run_vb --no-progress --keep --source urandom bs=1M count=32 runs=2 "of=$d/u"
expect_rc 0 "32 MiB of urandom data"
expect_out "^# data urandom, read fresh from the kernel before each run" "the header says it is fresh"
check_sectors "$d/u" "urandom, fresh"
rm -f "$d/u"
run_vb --no-progress --keep --source urandom bs=1M count=80 runs=1 "of=$d/u"
expect_rc 0 "80 MiB of urandom data"
expect_out "^# data urandom, NOT fresh: .*reused" "the header says it is reused"
check_sectors "$d/u" "urandom, reused and stamped"
rm -f "$d/u"

# --- zeros: said to be zeros ----------------------------------------------------------
# (a directory of its own: the one above may have been removed already, and a run into
# a missing directory would leave it trivially empty)
d=$(new_dir)
run_vb --no-progress bs=64k count=16 runs=1 "$d"
expect_rc 0 "zeros into a fresh directory"
expect_out "^# data zeros" "the header says zeros"
check "nothing left behind" empty_dir "$d"
