# What is written: random data every byte fresh (no 512-byte sector repeats, nothing a
# long-window compressor can shrink), urandom fresh or said not to be, zeros said to be.
. "$(dirname "$0")/lib.sh"
cc=${CC:-cc}

sectors=""
if $cc -o "$SCRATCH/sectors" "$(dirname "$0")/helpers/sectors.c" 2>/dev/null; then
	sectors="$SCRATCH/sectors"
fi

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

# --- random: the writer and the maker of the data on CPUs of their own -----------------
# expand LIST: a Linux CPU list ("0-2,5") as numbers, one per line.
expand() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF == 1 { print $1 } NF == 2 { for (c = $1; c <= $2; c++) print c }'
}
# worker_cpus [--to DIR] TASKSET...: runs a long random run to /dev/null, or with
# O_DIRECT to a file in DIR (16 GiB at most; stopped long before), under TASKSET when
# given, and prints the CPU list of each thread of its worker, one per line, half a
# second after the header (the run's own line comes only at its end).
worker_cpus() {
	_to=/dev/null _how="--sync none" _count=100000000
	if [ "${1:-}" = --to ]; then
		_to=$2 _how="--direct --sync none" _count=16384
		shift 2
	fi
	# shellcheck disable=SC2086 # _how is two or three options
	"$@" "$VBENCH" --no-progress $_how --source random bs=1M "count=$_count" runs=1 \
		"$_to" >"$SCRATCH/cpu.out" 2>&1 &
	_pid=$!
	wait_for '^# data random' "$SCRATCH/cpu.out"
	sleep 0.5
	for _w in $(worker_of "$_pid"); do
		for _t in /proc/"$_w"/task/*; do
			sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$_t/status"
		done
	done
	kill -TERM "$_pid" 2>/dev/null
	wait_pid "$_pid" 20
}
# disk_irq_cpus DIR: the CPU lists of the interrupts of the disk holding DIR, one per
# line (nothing when there is none): its sysfs directory (a partition's parent), then up
# from its device link to the first directory with MSI vectors or a legacy line.
disk_irq_cpus() {
	_dev=$(stat -c '%d' "$1" 2>/dev/null) || return 0
	_sys=$(readlink -f "/sys/dev/block/$((_dev >> 8 & 0xfff)):$(((_dev & 0xff) | (_dev >> 12 & 0xfff00)))" 2>/dev/null) || return 0
	[ -n "$_sys" ] && [ -e "$_sys/partition" ] && _sys=${_sys%/*}
	[ -n "$_sys" ] && [ -e "$_sys/device" ] || return 0
	_hw=$(readlink -f "$_sys/device")
	while [ -n "$_hw" ] && [ "$_hw" != /sys/devices ]; do
		_n=""
		if [ -d "$_hw/msi_irqs" ]; then
			_n=$(ls "$_hw/msi_irqs")
		elif [ -r "$_hw/irq" ] && [ "$(cat "$_hw/irq")" != 0 ]; then
			_n=$(cat "$_hw/irq")
		fi
		if [ -n "$_n" ]; then
			for _i in $_n; do
				cat "/proc/irq/$_i/effective_affinity_list" 2>/dev/null ||
					cat "/proc/irq/$_i/smp_affinity_list" 2>/dev/null
			done | sort -u | tr '\n' ',' | sed 's/,$//'
			return 0
		fi
		_hw=${_hw%/*}
	done
}
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)
if [ "$(uname -s)" != Linux ] || [ -z "$allowed" ]; then
	skip "not Linux: where the writer and the maker run (read from /proc)"
elif [ "$(expand "$allowed" | wc -l)" -lt 2 ]; then
	skip "one CPU allowed here ($allowed): the writer and the maker cannot be split"
else
	lists=$(worker_cpus)
	writer=$(printf '%s\n' "$lists" | awk '$0 ~ /^[0-9]+$/' | head -n 1)
	maker=$(printf '%s\n' "$lists" | awk -v w="$writer" '$0 != w' | head -n 1)
	check "random: two threads in the worker ($(printf '%s' "$lists" | tr '\n' ' '))" \
		[ "$(printf '%s\n' "$lists" | wc -l)" = 2 ]
	check "random: the writer is pinned to one CPU (${writer:-none})" [ -n "$writer" ]
	check "random: the maker may use other CPUs (${maker:-none}), never the writer's" \
		sh -c '[ -n "$2" ] && ! printf "%s\n" "$3" | grep -qx "$1"' _ "$writer" "$maker" \
		"$(expand "$maker")"
	if command -v taskset >/dev/null 2>&1; then
		one=$(expand "$allowed" | head -n 1)
		lists=$(worker_cpus taskset -c "$one")
		check "random under taskset -c $one: nothing split, both threads on CPU $one" \
			[ "$(printf '%s\n' "$lists" | sort -u)" = "$one" ]
	else
		skip "no taskset: the single-CPU case (apt-get install util-linux)"
	fi
	# The disk under the scratch directory, read from sysfs as the kernel lays it out:
	# its interrupts' CPUs (effective affinity); with O_DIRECT there, the writer must be
	# on one of them and the maker on none, when some allowed CPU takes none.
	irqs=$(disk_irq_cpus "$SCRATCH")
	quiet=$(expand "$allowed" | grep -vxF "$(expand "${irqs:-none}")" | head -n 1)
	if [ -z "$irqs" ]; then
		skip "no disk with interrupts under $SCRATCH: where the disk's interrupts go"
	elif [ -z "$quiet" ]; then
		skip "the disk's interrupts go to every allowed CPU ($irqs): nothing to keep off"
	else
		d=$(new_dir)
		lists=$(worker_cpus --to "$d")
		writer=$(printf '%s
' "$lists" | awk '$0 ~ /^[0-9]+$/' | head -n 1)
		maker=$(printf '%s
' "$lists" | awk -v w="$writer" '$0 != w' | head -n 1)
		check "O_DIRECT random: the writer (${writer:-none}) on a CPU of the disk's interrupts ($irqs)" \
			sh -c '[ -n "$1" ] && printf "%s\n" "$2" | grep -qx "$1"' _ "$writer" "$(expand "$irqs")"
		check "O_DIRECT random: the maker (${maker:-none}) on none of them" \
			sh -c '[ -n "$1" ] && ! printf "%s\n" "$2" | grep -qxF "$3"' _ "$maker" \
			"$(expand "$maker")" "$(expand "$irqs")"
		rm -rf "$d"
	fi
fi

# --- zeros: said to be zeros ----------------------------------------------------------
run_vb --no-progress bs=64k count=16 runs=1 "$d"
expect_out "^# data zeros" "the header says zeros"
check "nothing left behind" empty_dir "$d"
