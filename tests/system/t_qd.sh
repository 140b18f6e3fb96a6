# Several writes in flight (--qd): the same file at any depth, writers really
# concurrent, and every failure path (an error at one offset, a signal, a frozen
# filesystem) ending all the writers.
. "$(dirname "$0")/lib.sh"

# csv_column_is CSV NAME VALUE: CSV has a column NAME, and every row holds VALUE there.
csv_column_is() {
	printf '%s\n' "$1" | awk -F, -v name="$2" -v want="$3" '
		{ sub(/\r$/, "") }
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		$c != want { bad = 1 }
		END { exit (bad || !c) }'
}

# --- the depth is an option and an operand, within bounds ------------------------------
d=$(new_dir)
run_vb --no-progress --qd 0 bs=4k count=1 "$d"
expect_rc 1 "--qd 0 is refused"
run_vb --no-progress --qd 257 bs=4k count=1 "$d"
expect_rc 1 "--qd 257 is refused"
run_vb --no-progress qd=8 bs=64k count=64 runs=2 --format csv "$d"
expect_rc 0 "qd=8 as an operand"
check "the CSV rows carry qd 8" csv_column_is "$OUT" qd 8
run_vb --no-progress --qd 8 bs=64k count=64 runs=2 "$d"
expect_out "^# vbench .*8 writes in flight" "the header states the depth"
run_vb --no-progress --qd 4 bs=64k count=64 runs=2 --format json "$d"
expect_out '"qd": 4' "the JSON configuration carries the depth"
check "nothing left behind" empty_dir "$d"

# --- the same bytes at any depth: every block once, where it belongs --------------------
for extra in "" "--direct" "--sync dsync"; do
	d=$(new_dir)
	run_vb --no-progress --timeout 60 $extra --keep --source random --seed 7 --qd 1 bs=64k count=512 runs=1 "of=$d/q1"
	expect_rc 0 "qd 1 $extra --keep"
	run_vb --no-progress --timeout 60 $extra --keep --source random --seed 7 --qd 8 bs=64k count=512 runs=1 "of=$d/q8"
	expect_rc 0 "qd 8 $extra --keep"
	check "qd 8 $extra: the file is the size of bs x count" [ "$(size_of "$d/q8")" = 33554432 ]
	check "qd 8 $extra: the file equals the qd 1 file byte for byte" cmp -s "$d/q1" "$d/q8"
	last=$d/q8
done
d=$(new_dir)
run_vb --no-progress --keep --source random --seed 8 --qd 8 bs=64k count=512 runs=1 "of=$d/other"
check "another seed gives other bytes" sh -c '! cmp -s "$1" "$2"' _ "$d/other" "$last"

# --- strace: the writes come from several threads at once ------------------------------
if [ "${VALGRIND:-0}" = 1 ]; then
	skip "strace: not under valgrind (its threads are its own)"
elif command -v strace >/dev/null 2>&1; then
	d=$(new_dir)
	strace -f -qq -e trace=pwrite64 -o "$SCRATCH/st" "$VBENCH" --no-progress --qd 4 --sync none \
		bs=64k count=2000 runs=1 "$d" >/dev/null 2>&1
	n=$(grep pwrite64 "$SCRATCH/st" | awk '{print $1}' | sort -u | wc -l | tr -d ' ')
	check "strace: the writes come from 4 threads (saw $n)" [ "$n" -ge 4 ]
	check "strace: some writes overlap in time (unfinished/resumed pairs)" grep -q "unfinished" "$SCRATCH/st"
	n=$(grep -c '= 65536$' "$SCRATCH/st")
	check "strace: 2000 writes of a block each (saw $n)" [ "$n" = 2000 ]
else
	skip "strace not installed (apt-get install strace): concurrency witness"
fi

# --- an error at one offset stops every writer, and that offset is reported --------------
# A 64 MiB loop device over a file on a full tmpfs, its first 16 MiB written beforehand:
# every write from 16 MiB on finds no page under it and fails (ENOSPC), every one before
# lands in place. (A file-size limit is refused at setup.) Eight writers hit it, the
# lowest failing offset is the one reported, and no block before it is missing.
lim=16777216
if is_root && [ "$(uname -s)" = Linux ]; then
	d=$(new_dir)
	mkdir "$d/t"
	if mount -t tmpfs -o size=$lim tmpfs "$d/t" && add_mount "$d/t" &&
		head -c $lim /dev/zero >"$d/t/img" && truncate -s 64M "$d/t/img" &&
		L=$(losetup -f --show "$d/t/img") && add_loop "$L"; then
		"$VBENCH" --no-progress --qd 8 --force --direct bs=64k count=1024 runs=2 "$L" >"$SCRATCH/f.out" 2>"$SCRATCH/f.err"
		rc=$?
		check "a device that fails from 16 MiB on, qd 8: exit 3 (got $rc)" [ "$rc" = 3 ]
		check "the error is named" grep -q "No space left on device" "$SCRATCH/f.err"
		check "the offset of the first failing block is reported" grep -q "partial, .*offset $lim:" "$SCRATCH/f.out"
		check "every block before it was written and counted" grep -q "^# $lim bytes transferred" "$SCRATCH/f.out"
		check "no second run after the failure" sh -c '! grep -q "^# run 2" "$1"' _ "$SCRATCH/f.out"
		losetup -d "$L"
	else
		skip "cannot set up a tmpfs and a loop device: an error at one offset"
	fi
else
	skip "a loop device needs root and Linux: an error at one offset"
fi

# --- not enough memory for the writers' stacks or the data ring: refused at setup ------
# (one rule for every shortage of memory: exit 2 before anything is written, naming what
# was asked and what would fit, which then runs)
if under_tool; then
	skip "ulimit -v: a sanitizer or valgrind needs more address space than the limit"
else
	d=$(new_dir)
	(ulimit -v 40000 && exec "$VBENCH" --no-progress --qd 256 bs=1M count=32 runs=2 "$d") >"$SCRATCH/t.out" 2>"$SCRATCH/t.err"
	rc=$?
	check "256 writers' stacks beyond ulimit -v 40000: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "the message names what was asked and the depth that fits" \
		grep -q "bs=1048576 --qd 256 needs 1048576 bytes of buffers and [0-9]* of its writers' stacks, more than this process may allocate .*--qd [0-9]* fits; nothing was written" "$SCRATCH/t.err"
	check "nothing was printed or written before" sh -c '! grep -q "records out" "$1"' _ "$SCRATCH/t.out"
	check "nothing is left in the directory" empty_dir "$d"
	fit=$(sed -n 's/.*--qd \([0-9]*\) fits.*/\1/p' "$SCRATCH/t.err")
	(ulimit -v 40000 && exec "$VBENCH" --no-progress --qd "${fit:-0}" bs=1M count=32 runs=1 "$d") >"$SCRATCH/t2.out" 2>"$SCRATCH/t2.err"
	rc=$?
	check "the depth named (--qd $fit) runs under the same limit (exit $rc)" [ "$rc" = 0 ]
	# The data ring of 256 writers (a block per writer and one: 257 MiB) does not fit:
	# the refusal names the ring's size, not one block's.
	(ulimit -v 200000 && exec "$VBENCH" --no-progress --qd 256 --source random bs=1M count=32 "$d") >"$SCRATCH/m.out" 2>"$SCRATCH/m.err"
	rc=$?
	check "ring too large for the memory: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "the message names the ring's size" grep -q "needs 269484032 bytes of buffers" "$SCRATCH/m.err"
fi

# --- writers that cannot all be started: the run fails before its first write ---------
# (a pids cgroup that leaves room for only some of 256 threads)
cg=/sys/fs/cgroup/pids
if ! is_root || [ ! -w "$cg" ] || ! mkdir "$cg/vbench-qd.$$" 2>/dev/null; then
	skip "no pids cgroup to limit the threads in"
else
	d=$(new_dir)
	echo 40 >"$cg/vbench-qd.$$/pids.max"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --no-progress --qd 256 bs=1M count=32 runs=2 "$3"' \
		_ "$cg/vbench-qd.$$" "$VBENCH" "$d" >"$SCRATCH/t.out" 2>"$SCRATCH/t.err"
	rc=$?
	rmdir "$cg/vbench-qd.$$"
	check "writers not started: exit 3 (got $rc)" [ "$rc" = 3 ]
	check "the message says how many started, and that nothing was written" \
		grep -q "only [0-9]* of 256 writers could be started: .*; nothing was written to it" "$SCRATCH/t.err"
	check "and nothing was: 0+0 records out" grep -q "^# 0+0 records out" "$SCRATCH/t.out"
	check "no second run" sh -c '! grep -q "^# run 2" "$1"' _ "$SCRATCH/t.out"
	check "nothing is left in the directory" empty_dir "$d"
fi

# --- a signal stops every writer: the partial run printed, the file removed --------------
# (a background job of a script starts with SIGINT ignored, and vbench keeps it so)
if env --default-signal=INT true 2>/dev/null; then
	bg="env --default-signal=INT,TERM"
else
	bg=""
fi
for sig_no in TERM:143 INT:130; do
	sig=${sig_no%:*} want=${sig_no#*:}
	[ "$sig" = INT ] && [ -z "$bg" ] && { skip "env --default-signal missing: SIGINT case"; continue; }
	d=$(new_dir)
	rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
	$bg "$VBENCH" --progress --qd 8 --sync dsync bs=4k count=1000000 runs=3 "$d" >"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
	pid=$!
	if wait_for ETA "$SCRATCH/s.err"; then
		kill -s "$sig" "$pid"
		wait_pid "$pid" 20
		check "SIG$sig at qd 8: vbench dies of it promptly (status $WAIT_RC)" [ "$WAIT_RC" = "$want" ]
		check "SIG$sig at qd 8: the partial run is printed and marked" grep -q "partial, stopped by signal" "$SCRATCH/s.out"
		check "SIG$sig at qd 8: the created file is removed" empty_dir "$d"
	else
		not_ok "SIG$sig at qd 8: the run never got under way"
		kill -9 "$pid"
	fi
done

need_root "fsfreeze needs root"
need_linux "fsfreeze is Linux's"
# --- a frozen filesystem: the stalled writer is named, --timeout ends them all -----------
if command -v fsfreeze >/dev/null 2>&1; then
	d=$(new_dir)
	truncate -s 512M "$d/f.img"
	mkfs.ext4 -q "$d/f.img"
	fm=$(new_dir)
	if mount -o loop "$d/f.img" "$fm"; then
		add_mount "$fm"
		"$VBENCH" --progress --qd 4 --timeout 2 --stall-timeout 1 --sync dsync bs=4k count=100000 runs=3 "$fm" >"$SCRATCH/z.out" 2>"$SCRATCH/z.err" &
		pid=$!
		if wait_for ETA "$SCRATCH/z.err"; then
			fsfreeze -f "$fm"
			t0=$(date +%s)
			wait_pid "$pid" 30
			t1=$(date +%s)
			check "frozen at qd 4: vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 8 ]
			check "frozen at qd 4: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
			check "frozen at qd 4: the stalled writer is named" grep -qE "stall: run 1.*writer [1-4] of 4" "$SCRATCH/z.err"
			fsfreeze -u "$fm"
		else
			not_ok "frozen at qd 4: the run never got under way"
			kill -9 "$pid"
		fi
		sleep 1
		check "thawed: nothing left in the filesystem" [ "$(ls -A "$fm")" = "lost+found" ]
		umount "$fm"
	else
		skip "cannot loop-mount an ext4 image"
	fi
else
	skip "fsfreeze missing (apt-get install util-linux)"
fi
