# The third attack pass (issue 34), memory, operands and messages: not enough memory
# has one answer (at setup, exit 2, naming what fits); operands the manual calls errors
# are errors; a partial run counts the same writes in its records and its latency; an
# error names the file kept; a check that cannot read names the errno.
. "$(dirname "$0")/lib.sh"

d=$(new_dir)

# --- not enough memory: one rule ----------------------------------------------------------
# More buffers than any machine here has (257 GiB): at setup, exit 2, naming what fits.
run_vb --no-progress bs=1G --qd 256 --source random count=1 runs=1 "$d"
expect_rc 2 "bs=1G --qd 256 --source random: refused at setup"
expect_err "^vbench: bs=1073741824 --qd 256 --source random needs [0-9]+ bytes of buffers, more than the [0-9]+ bytes of memory available; (bs=[0-9]+ fits|--qd [0-9]+ fits|bs=[0-9]+ fits, or --qd [0-9]+); nothing was written$" \
	"the message names what was asked and what would fit"
check "nothing printed, nothing left" sh -c '[ ! -s "$1" ] && [ -z "$(ls -A "$2")" ]' _ "$SCRATCH/out" "$d"
if under_tool; then
	skip "ulimit -v: a sanitizer or valgrind needs more address space than the limit"
else
	(ulimit -v 60000 && exec "$VBENCH" --no-progress bs=64M count=1 runs=1 "$d") >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$? ERR=$(cat "$SCRATCH/err")
	expect_rc 2 "ulimit -v 60000, bs=64M: refused at setup, as the same rule says"
	expect_err "^vbench: bs=67108864 needs 67108864 bytes of buffers, more than this process may allocate \(a limit on its memory, such as ulimit -v\); bs=[0-9]+ fits; nothing was written$" \
		"the message names what was asked and what would fit"
	check "nothing printed before it" sh -c '[ ! -s "$1" ]' _ "$SCRATCH/out"
	fit=$(sed -n 's/.*; bs=\([0-9]*\) fits.*/\1/p' "$SCRATCH/err")
	(ulimit -v 60000 && exec "$VBENCH" --no-progress bs="${fit:-0}" count=1 runs=1 "$d") >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$? ERR=$(cat "$SCRATCH/err")
	expect_rc 0 "the bs named (bs=$fit) runs under the same limit"
fi

# --- operands the manual calls errors ---------------------------------------------------
run_vb --no-progress bs=010 count=1 runs=1 "$d"
expect_rc 1 "bs=010 (octal to BSD dd, decimal to GNU dd) is refused"
expect_err "bs=010: octal is not accepted" "the message says why"
run_vb status=noxfer bs=4k count=1 runs=1 "$d"
expect_rc 1 "status=noxfer is refused, not ignored"
expect_err "status=noxfer: vbench always prints the transfer line" "the message says why"
run_vb --no-progress runs=auto --max-time 0 bs=4k count=1 "$d"
expect_rc 1 "--max-time 0 is refused, not taken for no budget"
expect_err "--max-time 0: a budget of no time" "the message says why"
run_vb --no-progress --interval 0 bs=4k count=1 runs=1 "$d"
expect_rc 1 "--interval 0 is refused (the manual's least is 0.01), not taken for none"
check "nothing was left by any of them" empty_dir "$d"

# A run that fails partway, though every check at setup passes (a file-size limit is
# refused there): ext4 on a loop device over a sparse 64 MiB image on a 4 MiB tmpfs, so
# that with --direct the write that finds no room under the loop device fails (ENOSPC)
# after the last whole block. thin_fs: a fresh one at THIN; fails where it cannot be had.
thin_fs() {
	is_root && [ "$(uname -s)" = Linux ] || return 1
	_t=$(new_dir)
	mkdir "$_t/t" "$_t/m"
	mount -t tmpfs -o size=4m tmpfs "$_t/t" && add_mount "$_t/t" &&
		truncate -s 64M "$_t/t/img" &&
		mkfs.ext4 -q -O ^has_journal -E lazy_itable_init=1,nodiscard "$_t/t/img" &&
		_l=$(losetup -f --show "$_t/t/img") && add_loop "$_l" &&
		mount -o noinit_itable "$_l" "$_t/m" && add_mount "$_t/m" && THIN=$_t/m
}

# --- a partial run: the records out and the latency line count the same writes ---------
if thin_fs; then
	run_vb --no-progress --direct bs=64k count=128 runs=1 "$THIN"
	expect_rc 3 "a file system that runs out under it: the run fails partway"
	n=$(sed -n 's/^# \([0-9]*\)+0 records out$/\1/p' "$SCRATCH/out")
	check "whole writes only, some of them (${n:-none})" [ "${n:-0}" -gt 0 ]
	expect_out "^# write latency .*\(${n:-0} writes\)$" "the latency line counts the same $n writes, not the failed one"
else
	skip "no loop device and tmpfs here: a run that fails partway"
fi

# --- with --keep, an error names the kept file, not the directory ------------------------
if thin_fs; then
	run_vb --no-progress --keep --direct bs=64k count=128 runs=1 "$THIN"
	kept=$(ls "$THIN" | grep -v lost+found)
	expect_rc 3 "--keep, a file system that runs out under it: the run fails partway"
	check "one file is kept ($kept)" [ -f "$THIN/$kept" ]
	expect_err "^vbench: run 1: write of $THIN/$kept failed at offset [0-9]+: " "the error names the kept file"
else
	skip "no loop device and tmpfs here: an error with --keep"
fi

# --- --keep with a directory names the kept file with its directory, also without header
run_vb --no-progress --keep bs=64k count=2 runs=1 "$d"
kept=$(ls "$d")
expect_out "^# target $d: a new file in this directory, kept as $d/$kept$" "the header names $d/$kept"
run_vb -q --keep bs=64k count=2 runs=1 "$d"
kept=$(ls "$d" | grep -vx "$kept")
expect_err "^vbench: kept $d/$kept \(--keep\)$" "-q: standard error names $d/$kept"
rm -f "$d"/*
run_vb --json --keep bs=64k count=2 runs=1 "$d"
kept=$(ls "$d")
expect_err "^vbench: kept $d/$kept \(--keep\)$" "--json: standard error names $d/$kept"
rm -f "$d"/*

# --- a check that cannot read names why --------------------------------------------------
# Few descriptors: whichever call runs out first, its message names EMFILE.
if under_tool; then
	skip "ulimit -n: a sanitizer or valgrind holds descriptors of its own"
else
	seen=0 bare=""
	for n in 5 6 7 8 9 10 11 12; do
		(ulimit -n $n && exec "$VBENCH" --no-progress bs=64k count=4 runs=1 \
			--csv-append "$d/c.csv" "$d/t.img") >"$SCRATCH/out" 2>"$SCRATCH/err"
		if grep -q "Too many open files" "$SCRATCH/err"; then
			seen=$((seen + 1))
		fi
		# every "cannot ..." names its reason after a colon, never ends bare
		b=$(grep -E "cannot (read|open|identify|start|examine|create)[^:]*(;|$)" "$SCRATCH/err")
		[ -n "$b" ] && bare="$bare$n: $b
"
		rm -f "$d/c.csv" "$d/t.img"
	done
	check "the shortage of descriptors is named (EMFILE) at some limit ($seen of 8)" [ "$seen" -gt 0 ]
	if [ -z "$bare" ]; then ok "no 'cannot ...' message hides its errno"; else not_ok "a 'cannot ...' message without its errno" "$bare"; fi
	# fresh urandom data is read before each run, from what was opened at setup: too few
	# descriptors is a refusal at setup (exit 2), never a run that fails to open it
	bad=""
	for n in 4 5 6 7 8 9 10 11 12 13; do
		(ulimit -n $n && exec "$VBENCH" --no-progress bs=64k count=4 runs=1 if=urandom "$d") \
			>"$SCRATCH/out" 2>"$SCRATCH/err"
		rc=$?
		if [ $rc != 0 ] && [ $rc != 2 ] || grep -q "open failed" "$SCRATCH/out"; then
			bad="$bad$n: exit $rc, $(cat "$SCRATCH/err")
"
		fi
	done
	if [ -z "$bad" ]; then ok "if=urandom at ulimit -n 4 to 13: runs or is refused at setup"; else not_ok "if=urandom under ulimit -n: a run failed on the source" "$bad"; fi
	check "and nothing was left" empty_dir "$d"
	# The session's child is started before anything is examined, with three pipes:
	# without the descriptors for them, nothing is touched.
	(ulimit -n 7 && exec "$VBENCH" --no-progress bs=64k count=4 runs=1 --csv-append "$d/c.csv" \
		"$d/t.img") >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$? ERR=$(cat "$SCRATCH/err")
	expect_rc 2 "ulimit -n 7: a setup error"
	expect_err "cannot start the process of the session: Too many open files" \
		"ulimit -n 7: the message names EMFILE"
	check "ulimit -n 7: nothing was created" sh -c '[ ! -e "$1" ] && [ ! -e "$2" ]' _ "$d/c.csv" "$d/t.img"
	rm -f "$d/c.csv" "$d/t.img"
fi
