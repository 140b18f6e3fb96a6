# Waits nobody watches (issue 24, class 2): every call that can block on a filesystem
# or a device is made where the watchdog sees it, and nothing waits for a reader or a
# stuck process. Each case fails on a vbench that hangs or misreports.
. "$(dirname "$0")/lib.sh"

# --- --timeout: the shortest value honoured, the value given printed as given ------------
d=$(new_dir)
run_vb --no-progress --timeout 0.0001 bs=4k count=1 runs=1 "$d"
expect_rc 1 "--timeout below 0.1 s is refused"
expect_err "0.0001: shorter than 0.1 s" "the message quotes the value given and the shortest one"
run_vb --no-progress --timeout 0 bs=4k count=1 runs=1 "$d"
expect_rc 0 "--timeout 0 means no timeout"

# --- a named file swapped for a FIFO between runs: the next open does not wait ---------------
d=$(new_dir)
rm -f "$SCRATCH/f.out" "$SCRATCH/f.err"
"$VBENCH" --no-progress --sync dsync bs=4k count=500 runs=20 "$d/f.img" >"$SCRATCH/f.out" 2>"$SCRATCH/f.err" &
pid=$!
watch_run "$SCRATCH/f.out" "$SCRATCH/f.err"
if wait_for "^# run 1 of 20" "$SCRATCH/f.out" "$pid"; then
	rm -f "$d/f.img"
	mkfifo "$d/f.img"
	wait_pid "$pid" 20
	# a vbench that waited is released (its session outlives the kill of the guard)
	[ "$WAIT_RC" = 137 ] && timeout 2 cat "$d/f.img" >/dev/null 2>&1
	check "a FIFO in place of the file: vbench does not wait for a reader (exit $WAIT_RC)" [ "$WAIT_RC" = 3 ]
	check "and says the name no longer holds its file" grep -q "no longer names the file vbench created" "$SCRATCH/f.err"
	check "the FIFO is left alone" [ -p "$d/f.img" ]
else
	not_started "the FIFO case" "$pid"
fi

# --- the session's child holds none of the user's descriptors ---------------------------------
d=$(new_dir)
rm -f "$SCRATCH/w.out" "$SCRATCH/w.err"
"$VBENCH" --no-progress --sync dsync bs=4k count=3000 runs=5 --csv-append "$d/runs.csv" "$d" >"$SCRATCH/w.out" 2>"$SCRATCH/w.err" &
pid=$!
watch_run "$SCRATCH/w.out" "$SCRATCH/w.err"
if wait_for "^# run 1 of 5" "$SCRATCH/w.out" "$pid" && [ -d /proc/self/fd ]; then
	w=$(worker_of "$pid" | tail -n 1)
	check "two processes: vbench and the session's child ($(worker_of "$pid" | wc -l) below it)" [ "$(worker_of "$pid" | wc -l)" = 1 ]
	check "the child's standard output is a pipe to vbench, not the user's file" sh -c 'readlink /proc/"$1"/fd/1 | grep -q "^pipe:"' _ "$w"
	check "and so is its standard error" sh -c 'readlink /proc/"$1"/fd/2 | grep -q "^pipe:"' _ "$w"
	check "its standard input is the null device" [ "$(readlink /proc/"$w"/fd/0)" = /dev/null ]
	check "vbench's own standard output is the user's" [ "$(readlink /proc/"$pid"/fd/1)" = "$SCRATCH/w.out" ]
	kill "$pid"
	wait_pid "$pid" 30
else
	not_started "the descriptor case" "$pid"
fi

# ---------------------------------------------------------------------------------------
need_root "the cases with frozen filesystems"
need_linux "the cases with frozen filesystems"
if ! command -v fsfreeze >/dev/null 2>&1; then
	skip "fsfreeze missing (apt-get install util-linux): the frozen cases are not tried"
	exit 0
fi
d=$(new_dir)
# The images are in memory: the disk this machine shares with other work cannot stall a
# write for longer than the short timeouts below, and a run between two events is quick.
if ! mount -t tmpfs -o size=600m vbench-hangs "$d"; then
	skip "cannot mount a tmpfs: the frozen cases are not tried"
	exit 0
fi
add_mount "$d"
truncate -s 256M "$d/f.img" "$d/c.img"
mkfs.ext4 -q "$d/f.img"
mkfs.ext4 -q "$d/c.img"
mkdir "$d/fm" "$d/cm"
if ! mount -o loop "$d/f.img" "$d/fm" || ! mount -o loop "$d/c.img" "$d/cm"; then
	skip "cannot loop-mount an ext4 image"
	exit 0
fi
add_mount "$d/fm"
add_mount "$d/cm"
# thaw_later MNT SECS: a safety net, so that a vbench that hangs fails its test instead
# of hanging the suite.
# A case that ends calls done_thaw, so that its net cannot thaw a later case's freeze.
THAWS=""
thaw_later() {
	(sleep "$2"; fsfreeze -u "$1" 2>/dev/null) >/dev/null 2>&1 &
	THAWS="$! $THAWS"
}
done_thaw() {
	for _t in $THAWS; do kill "$_t" 2>/dev/null; done
	THAWS=""
	fsfreeze -u "$d/fm" 2>/dev/null
	fsfreeze -u "$d/cm" 2>/dev/null
}
# freeze_wait MNT PID: freezes MNT (thawed at the latest 40 s later), waits up to 60 s for
# vbench PID to end (WAIT_RC), and thaws; the seconds it took are $((t1 - t0)).
freeze_wait() {
	fsfreeze -f "$1"
	thaw_later "$1" 40
	t0=$(date +%s)
	wait_pid "$2" 60
	t1=$(date +%s)
	done_thaw
}

# --- setup on a frozen filesystem: creating the file blocks ---------------------------------
fsfreeze -f "$d/fm"
thaw_later "$d/fm" 40
t0=$(date +%s)
run_vb --no-progress --timeout 2 --stall-timeout 1 bs=4k count=16 runs=1 "$d/fm"
t1=$(date +%s)
done_thaw
check "setup stuck: vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 10 ]
expect_rc 2 "setup stuck: a setup error"
expect_err "stall: while examining" "setup stuck: the stall is reported"
expect_err "while examining .*: a call has not returned for .* \\(still stuck 2 s after --timeout 2 expired\\)" "setup stuck: the message says what and how long"
sleep 1

fsfreeze -f "$d/fm"
thaw_later "$d/fm" 40
rm -f "$SCRATCH/t.out" "$SCRATCH/t.err"
"$VBENCH" --no-progress bs=4k count=16 runs=1 "$d/fm" >"$SCRATCH/t.out" 2>"$SCRATCH/t.err" &
pid=$!
watch_run "$SCRATCH/t.out" "$SCRATCH/t.err"
# (the signal comes once the setup waits on the frozen file system, however slow its start)
if wait_blocked "$pid"; then
	kill -TERM "$pid"
	t0=$(date +%s)
	wait_pid "$pid" 60
	t1=$(date +%s)
	done_thaw
	check "setup stuck, SIGTERM: vbench exits about 10 s later ($((t1 - t0)) s)" [ $((t1 - t0)) -le 16 ]
	check "setup stuck, SIGTERM: dies of it (status $WAIT_RC)" [ "$WAIT_RC" = 143 ]
	check "setup stuck, SIGTERM: says so" grep -q "did not stop within 10 s of the signal" "$SCRATCH/t.err"
else
	done_thaw
	not_started "the setup stuck on a frozen file system" "$pid"
fi
sleep 1

# --- --csv-append onto a filesystem that freezes during the session ----------------------------
rm -f "$SCRATCH/c.out" "$SCRATCH/c.err"
"$VBENCH" --no-progress --timeout 2 --sync dsync bs=4k count=2000 runs=6 --csv-append "$d/cm/runs.csv" "$d/fm" >"$SCRATCH/c.out" 2>"$SCRATCH/c.err" &
pid=$!
watch_run "$SCRATCH/c.out" "$SCRATCH/c.err"
if wait_for "^# run 1 of 6" "$SCRATCH/c.out" "$pid"; then
	freeze_wait "$d/cm" "$pid"
	# (the little: the rest of the run under way at the freeze, before its row is
	# written; a vbench that waits for the thaw takes 40 s)
	check "CSV file frozen: vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 20 ]
	check "CSV file frozen: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
	check "CSV file frozen: the message says it was writing the results" grep -q "while writing an output file" "$SCRATCH/c.err"
	check "CSV file frozen: the runs that completed are summed up all the same" grep -q "^# summary of [1-9][0-9]* completed run" "$SCRATCH/c.out"
else
	not_started "the CSV case" "$pid"
fi
sleep 1

# --- --csv-append onto a frozen filesystem at setup: a setup error, and what is left named ------
fsfreeze -f "$d/cm"
thaw_later "$d/cm" 40
t0=$(date +%s)
run_vb --no-progress --timeout 2 bs=4k count=16 runs=1 --csv-append "$d/cm/new.csv" "$d/fm/n.img"
t1=$(date +%s)
done_thaw
check "CSV file frozen at setup: vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 10 ]
expect_rc 2 "CSV file frozen at setup: a setup error, as vbench(1) says"
expect_err "while opening an output file \(--csv-append, --trace\) for .*n\.img: a call has not returned" "CSV file frozen at setup: the message says what was stuck"
expect_err "n\.img, the file vbench created, is left behind; --csv-append .*/cm/new\.csv, if vbench was creating it, may be left behind, empty" "CSV file frozen at setup: both files that may be left are named"
expect_no_err "in the target's directory" "CSV file frozen at setup: not the message of a stuck target"
sleep 1
rm -f "$d/cm/new.csv" "$d/fm/n.img"

# --- the flush check stuck on a frozen file system: --timeout ends it, the runs are summed up ---
# (strace holds the check's first unlink, of its file's name, until the freeze is on)
if command -v strace >/dev/null 2>&1; then
	rm -f "$SCRATCH/p.out" "$SCRATCH/p.err" "$SCRATCH/p.st"
	"$VBENCH" --no-progress --check-flush --timeout 1 --sync dsync bs=4k count=3000 runs=2 "$d/fm/pr" >"$SCRATCH/p.out" 2>"$SCRATCH/p.err" &
	pid=$!
	watch_run "$SCRATCH/p.out" "$SCRATCH/p.err"
	st=""
	if wait_for "^# run 1 of 2" "$SCRATCH/p.out" "$pid"; then
		strace -p "$(worker_of "$pid" | head -n 1)" -o "$SCRATCH/p.st" -e trace=unlinkat \
			-e inject=unlinkat:delay_enter=2000000:when=1 >/dev/null 2>&1 &
		st=$!
	fi
	if [ -n "$st" ] && wait_for "unlinkat\\(" "$SCRATCH/p.st" "$pid"; then
		freeze_wait "$d/fm" "$pid"
		check "flush check stuck: vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 12 ]
		check "flush check stuck: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
		check "flush check stuck: said so" grep -q "a call of the flush check is still stuck 2 s after --timeout 1 expired" "$SCRATCH/p.err"
		check "flush check stuck: the runs are summed up" grep -q "^# summary of 2 completed runs" "$SCRATCH/p.out"
		check "flush check stuck: its file is named" grep -q "vbench-[a-z0-9]*\.tmp, the flush probe's file, may be left behind" "$SCRATCH/p.err"
		check "flush check stuck: and so is the target vbench created" grep -q "pr, the file vbench created, is left behind" "$SCRATCH/p.err"
	else
		done_thaw
		not_started "the stuck flush check" "$pid"
	fi
	[ -n "$st" ] && { kill "$st" 2>/dev/null; wait "$st" 2>/dev/null; }
	sleep 1
	rm -f "$d/fm/pr" "$d/fm"/vbench-*.tmp
else
	skip "no strace: the stuck flush check"
fi

# --- --timeout below one second: the value given is printed as given ---------------------------
rm -f "$SCRATCH/h.out" "$SCRATCH/h.err"
"$VBENCH" --progress --timeout 0.5 --sync dsync bs=4k count=40000 runs=3 "$d/fm" >"$SCRATCH/h.out" 2>"$SCRATCH/h.err" &
pid=$!
watch_run "$SCRATCH/h.out" "$SCRATCH/h.err"
# (the freeze comes once the first run is writing: its progress line is out)
if wait_for ETA "$SCRATCH/h.err" "$pid"; then
	# thawed within the 2 s of grace: the call returns, and the run is reported aborted
	fsfreeze -f "$d/fm"
	thaw_later "$d/fm" 30
	sleep 1.5
	fsfreeze -u "$d/fm"
	wait_pid "$pid" 30
	done_thaw
	check "--timeout 0.5 on a frozen run: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
	check "--timeout 0.5: printed as 0.5, not rounded" grep -q "did not return within --timeout 0.5 s" "$SCRATCH/h.err"
	check "--timeout 0.5: never printed as 0" sh -c '! grep -q "timeout 0 " "$1"' _ "$SCRATCH/h.err"
else
	not_started "the --timeout 0.5 run" "$pid"
fi
sleep 1

# --- out=$(vbench --timeout 2 ...) returns when vbench exits, not when the stuck call does -----
thaw_later "$d/fm" 30
(sleep 2; fsfreeze -f "$d/fm") &
fz=$!
t0=$(date +%s)
out=$("$VBENCH" --no-progress --timeout 2 --sync dsync bs=4k count=40000 runs=3 "$d/fm" 2>&1)
t1=$(date +%s)
wait "$fz"
done_thaw
check "\$(vbench ...) returns within a few seconds of the freeze ($((t1 - t0)) s)" [ $((t1 - t0)) -le 12 ]
check "and holds the message" has "$out" "stuck"
sleep 1
t0=$(date +%s)
(sleep 2; fsfreeze -f "$d/fm") &
fz=$!
thaw_later "$d/fm" 30
"$VBENCH" --no-progress --timeout 2 --sync dsync bs=4k count=40000 runs=3 "$d/fm" 2>&1 | cat >"$SCRATCH/tee.out"
t1=$(date +%s)
wait "$fz"
done_thaw
check "vbench | cat returns within a few seconds of the freeze ($((t1 - t0)) s)" [ $((t1 - t0)) -le 12 ]
