# Faults and data safety: links, FIFOs, signals, vanished directories, full disks,
. "$(dirname "$0")/lib.sh"
# block devices. Root-only cases skip with a message.

d=$(new_dir)
printf 'keep me\n' >"$d/real"
ln -s "$d/real" "$d/link"
run_vb bs=4k count=1 runs=1 --force "$d/link"
expect_rc 2 "a symbolic link is refused even with --force"
expect_err "symbolic link" "the refusal names the link"
check "the link's target is untouched" [ "$(cat "$d/real")" = "keep me" ]

ln "$d/real" "$d/hard"
run_vb bs=4k count=1 runs=1 --force "$d/hard"
expect_rc 2 "a hard-linked file is refused even with --force"
expect_err "hard links" "the refusal says why"
check "the hard-linked file is untouched" [ "$(cat "$d/real")" = "keep me" ]

mkfifo "$d/fifo"
run_vb bs=4k count=1 runs=1 --force "$d/fifo"
expect_rc 2 "a FIFO is refused without blocking"
expect_err "FIFO" "the refusal names the FIFO"

mkdir "$d/sub"
printf 'inner\n' >"$d/sub/name"
run_vb bs=4k count=1 runs=1 "of=$d/sub/name"
expect_rc 2 "of=DIR/NAME that exists is refused"
check "DIR/NAME untouched" [ "$(cat "$d/sub/name")" = "inner" ]

# A file renamed or linked onto the name vbench created, between runs, is never emptied.
d=$(new_dir)
head -c 100000 /dev/urandom >"$d/victim"
sum_before=$(cksum <"$d/victim")
"$VBENCH" --no-progress bs=4k count=16 runs=300 "$d/target" >/dev/null 2>&1 &
pid=$!
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
	ln -f "$d/victim" "$d/target" 2>/dev/null
	i=$((i + 1))
done
check "the relinking session ends" wait_pid "$pid" 120
check "a file linked onto vbench's name is never emptied" [ "$(cksum <"$d/victim")" = "$sum_before" ]

# Labels and paths with bytes that are not UTF-8, commas, quotes and newlines.
d=$(new_dir)
odd="$d/caf$(printf '\351') dir"
mkdir "$odd"
run_vb bs=4k count=2 runs=2 -f json -l "$(printf 'lab\377el "q"')" "$odd"
expect_rc 0 "non-UTF-8 path and label"
if command -v python3 >/dev/null 2>&1; then
	check "JSON output parses, with U+FFFD for the bad byte" sh -c 'printf "%s" "$1" |
		python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"label\"]==\"lab\ufffdel \\\"q\\\"\", d[\"label\"]; assert len(d[\"runs\"])==2"' _ "$OUT"
	run_vb bs=4k count=2 runs=2 -f csv -l "$(printf 'a,b "c"\nd')" "$odd"
	check "CSV output parses, label as a terminal shows it (LF as \\x0a)" sh -c 'printf "%s" "$1" |
		python3 -c "import csv,sys; r=list(csv.DictReader(sys.stdin)); assert len(r)==2; assert r[0][\"label\"]==\"a,b \\\"c\\\"\\\\x0ad\", r[0][\"label\"]"' _ "$OUT"
else
	skip "python3 missing (apt-get install python3): JSON/CSV parse checks"
fi
check "nothing left in the odd directory" empty_dir "$odd"

# Signals during a run: prompt stop, partial run printed, file removed, signal re-raised.
# A background job of a script starts with SIGINT ignored, and vbench keeps what it was
# given ignored (as nohup expects); env --default-signal gives it the default back.
if env --default-signal=INT true 2>/dev/null; then
	bg="env --default-signal=INT,TERM,HUP"
else
	bg=""
fi
for sig_no in INT:2 TERM:15 HUP:1; do
	sig=${sig_no%:*}
	d=$(new_dir)
	# The child opens (and empties) these itself, later: stale ones must not be read.
	rm -f "$SCRATCH/sig.out" "$SCRATCH/sig.err"
	$bg "$VBENCH" --progress --sync dsync bs=4k count=200000 runs=3 "$d" >"$SCRATCH/sig.out" 2>"$SCRATCH/sig.err" &
	pid=$!
	check "SIG$sig: the first run is under way" wait_for ETA "$SCRATCH/sig.err"
	kill -s "$sig" "$pid"
	t0=$(date +%s)
	wait_pid "$pid" 30
	rc=$WAIT_RC
	t1=$(date +%s)
	want=$((128 + ${sig_no#*:}))
	check "SIG$sig: the process dies of the signal (status $rc, want $want)" [ "$rc" = "$want" ]
	check "SIG$sig: stops promptly" [ $((t1 - t0)) -le 5 ]
	check "SIG$sig: the partial run is printed and marked" grep -q "partial, stopped by signal" "$SCRATCH/sig.out"
	check "SIG$sig: the summary is printed" grep -q "^mean " "$SCRATCH/sig.out"
	check "SIG$sig: the created file is removed" empty_dir "$d"
done

# An ignored SIGHUP (nohup) stays ignored: the runs go on to the end. (Runs of a few
# seconds: the first progress line comes after one, and the signal must find a run.)
d=$(new_dir)
rm -f "$SCRATCH/h.out" "$SCRATCH/h.err"
(trap '' HUP; exec "$VBENCH" --progress --sync dsync bs=4k count=40000 runs=2 "$d" >"$SCRATCH/h.out" 2>"$SCRATCH/h.err") &
pid=$!
check "the run is under way" wait_for ETA "$SCRATCH/h.err"
kill -HUP "$pid"
# (a bound for a hang, not a time limit: 80000 dsync writes take minutes on a busy disk)
wait_pid "$pid" 600
rc=$WAIT_RC
check "an ignored SIGHUP does not stop vbench (exit $rc)" [ "$rc" = 0 ]
check "and both runs are summarised" grep -q "^# summary of 2 completed runs" "$SCRATCH/h.out"

# A reader that goes away (SIGPIPE): the created file is still removed.
d=$(new_dir)
"$VBENCH" --no-progress bs=64k count=64 runs=50 "$d/piped" 2>/dev/null | head -1 >/dev/null
check "SIGPIPE: the created file is removed" [ ! -e "$d/piped" ]

# The directory vanishes between runs: the next run cannot open, exit 3. vbench is
# stopped (with its worker) while the directory goes, so that it is between runs.
d=$(new_dir)
rm -f "$SCRATCH/v.out" "$SCRATCH/v.err"
"$VBENCH" --no-progress --sync dsync bs=4k count=300 runs=20 "$d/gone" >"$SCRATCH/v.out" 2>"$SCRATCH/v.err" &
pid=$!
check "vanished directory: run 1 completes" wait_for "^# run 1 of 20" "$SCRATCH/v.out"
vb_stop "$pid"
rm -rf "$d"
vb_cont "$pid"
wait_pid "$pid" 60
rc=$WAIT_RC
check "vanished directory: exit 3 (got $rc)" [ "$rc" = 3 ]
check "vanished directory: the message names the target" grep -q "$d/gone" "$SCRATCH/v.err"

# kill -9 cannot be caught: with O_TMPFILE the file has no name, so nothing is left.
d=$(new_dir)
rm -f "$SCRATCH/k.err"
"$VBENCH" --progress --sync dsync bs=4k count=100000 runs=1 "$d" >/dev/null 2>"$SCRATCH/k.err" &
pid=$!
check "kill -9: the run is under way" wait_for ETA "$SCRATCH/k.err"
kill -9 "$pid"
wait_pid "$pid" 10
sleep 0.5   # the worker follows its parent (it is killed with it)
check "kill -9 during a run leaves nothing behind" empty_dir "$d"

need_linux "tmpfs ENOSPC, full ext4 image and block device cases use Linux tools"
if ! is_root; then
	skip "not root: tmpfs ENOSPC, full ext4 image and block device cases need root"
	exit 0
fi

# A small tmpfs: a run without room is refused before the first write, exit 2, whether
# into an existing file (--force: emptied first, so its blocks count), a directory or a
# new file. (ENOSPC during a run: t_attack_small.sh, and the ext4 image below.)
m=$(new_dir)
if mount -t tmpfs -o size=8m tmpfs "$m"; then
	add_mount "$m"
	: >"$m/existing"
	run_vb --no-progress --force bs=1M count=16 runs=2 "$m/existing"
	expect_rc 2 "tmpfs of 8 MiB, 16 MiB per run into an existing file: refused"
	expect_err "under $m/existing \(the 0 bytes it holds included\), less than the 16777216 bytes of one run .*nothing was written" \
		"the message counts what the file holds"
	check "tmpfs holds only the existing file afterwards" [ "$(ls -A "$m")" = existing ]
	rm -f "$m/existing"
	run_vb --no-progress bs=1M count=16 runs=2 "$m"
	expect_rc 2 "a directory without room for one run is refused"
	check "tmpfs empty afterwards" empty_dir "$m"
	run_vb --no-progress bs=1M count=16 runs=2 "$m/named.img"
	expect_rc 2 "a named new file without room for one run is refused"
	check "the named file is removed" [ ! -e "$m/named.img" ]
	umount "$m"
	if mount -t tmpfs -o ro,size=1m tmpfs "$m"; then
		run_vb --no-progress bs=4k count=1 runs=1 "$m"
		expect_rc 2 "read-only directory"
		expect_err "Read-only file system" "the message says read-only"
		umount "$m"
	fi
else
	skip "cannot mount tmpfs"
fi

# A loop-mounted ext4 image that fills between runs: run 1 completes and is summarised.
if command -v mkfs.ext4 >/dev/null 2>&1 && command -v losetup >/dev/null 2>&1; then
	img="$SCRATCH/ext4.img"
	truncate -s 48M "$img"
	mkfs.ext4 -q -F "$img"
	m=$(new_dir)
	if mount -o loop "$img" "$m"; then
		add_mount "$m"
		rm -f "$SCRATCH/f.out" "$SCRATCH/f.err"
		"$VBENCH" --no-progress --sync dsync bs=4k count=2048 runs=3 "$m" >"$SCRATCH/f.out" 2>"$SCRATCH/f.err" &
		pid=$!
		i=0
		while ! grep -q "^# run 1 of 3" "$SCRATCH/f.out" 2>/dev/null && [ $i -lt 600 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		vb_stop "$pid"
		dd if=/dev/zero of="$m/filler" bs=64k >/dev/null 2>&1
		vb_cont "$pid"
		wait_pid "$pid" 60
		rc=$WAIT_RC
		check "full ext4 image: exit 3 (got $rc)" [ "$rc" = 3 ]
		check "full ext4 image: ENOSPC reported" grep -q "No space left on device" "$SCRATCH/f.err"
		n=$(grep -c "bytes transferred" "$SCRATCH/f.out")
		check "full ext4 image: completed run and partial run printed ($n)" [ "$n" -ge 2 ]
		check "full ext4 image: the completed run is summarised" grep -q "^mean    [0-9]" "$SCRATCH/f.out"
		rm -f "$m/filler"
		check "full ext4 image: nothing left but lost+found" [ "$(ls -A "$m")" = "lost+found" ]
		umount "$m"
	else
		skip "cannot loop-mount an ext4 image"
	fi

	# Block devices: refused while mounted (and the filesystem stays clean), refused
	# without --force, written with it.
	loop=$(losetup -f --show "$img" 2>/dev/null)
	if [ -n "$loop" ]; then
		add_loop "$loop"
		m=$(new_dir)
		mount "$loop" "$m" && add_mount "$m"
		run_vb --no-progress --force bs=1M count=4 runs=1 "$loop"
		expect_rc 2 "mounted loop device refused even with --force"
		expect_err "in use" "the refusal says the device is in use"
		umount "$m"
		check "the filesystem checks clean after the refusal" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$loop"
		run_vb --no-progress bs=1M count=4 runs=1 "$loop"
		expect_rc 2 "unmounted block device refused without --force"
		expect_err "add --force" "the refusal says how to allow it"
		check "still clean after the refusal" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$loop"
		run_vb --no-progress --force --direct bs=1M count=4 runs=2 "$loop"
		expect_rc 0 "unmounted block device with --force --direct"
		check "the device was really written (superblock gone)" sh -c '! fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$loop"
		run_vb --no-progress --force bs=1M count=100 runs=1 "$loop"
		expect_rc 2 "a run larger than the device is refused"
		losetup -d "$loop"
	else
		skip "no free loop device"
	fi
else
	skip "mkfs.ext4 or losetup missing (apt-get install e2fsprogs mount)"
fi
