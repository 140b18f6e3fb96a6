# The attack pass of issue 9, reproduced: a hostile local user and a careless root user
# try to make vbench destroy or corrupt what it did not create, hang past --timeout, or
# forge its output. Each case fails on a vbench that does not defend against it.
. "$(dirname "$0")/lib.sh"
ulimit -c 0   # a process that dies of SIGQUIT must not leave a core file here

cc=${CC:-cc}
exchange=""
if $cc -o "$SCRATCH/exchange" "$(dirname "$0")/helpers/exchange.c" 2>/dev/null; then
	exchange="$SCRATCH/exchange"
fi

# --- --csv-append: links, FIFOs, hard links, opened before the target -----------------
d=$(new_dir)
t=$(new_dir)
printf 'secret\n' >"$d/victim"
chmod 600 "$d/victim"
ln -s "$d/victim" "$d/link.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/link.csv" "$t"
expect_rc 2 "--csv-append through a symbolic link is refused"
expect_err "symbolic link" "and the message says why"
check "the linked file is untouched" [ "$(cat "$d/victim")" = secret ]
check "nothing was written to the target first" empty_dir "$t"
ln -s "$d/nonexistent.csv" "$d/dangling.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/dangling.csv" "$t"
expect_rc 2 "--csv-append through a dangling link is refused"
check "the dangling link's target is not created" [ ! -e "$d/nonexistent.csv" ]
ln "$d/victim" "$d/hard.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/hard.csv" "$t"
expect_rc 2 "--csv-append to a file with another name is refused"
check "the hard-linked file is untouched" [ "$(cat "$d/victim")" = secret ]
mkfifo "$d/fifo.csv"
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/fifo.csv" "$t" >/dev/null 2>"$SCRATCH/fifo.err" &
pid=$!
check "--csv-append to a FIFO does not hang" wait_pid "$pid" 10
check "and is refused (exit $WAIT_RC)" [ "$WAIT_RC" = 2 ]
check "before the target was created" empty_dir "$t"

# --- descriptors 0, 1 and 2 closed: the CSV file never receives the human output ------
d=$(new_dir)
"$VBENCH" --no-progress bs=4k count=2 runs=2 --csv-append "$d/runs.csv" "$d" >&- 2>/dev/null
check "stdout closed: the CSV file starts with its header" [ "$(head -c 6 "$d/runs.csv")" = "label," ]
check "stdout closed: no human line in the CSV file" sh -c '! grep -q "^#\|records out\|^mean" "$1"' _ "$d/runs.csv"
rm -f "$d/runs.csv"
"$VBENCH" --no-progress bs=4k count=2 runs=2 --csv-append "$d/runs.csv" "$d" 2>&- >/dev/null
check "stderr closed: the CSV file holds only rows" [ "$(grep -c '' "$d/runs.csv")" = 3 ]
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/runs.csv" "$d" <&- >/dev/null 2>&1
check "stdin closed: still only rows" [ "$(grep -c '' "$d/runs.csv")" = 4 ]

# --- concurrent appenders never duplicate the header or interleave rows ----------------
d=$(new_dir)
bad=0
i=0
while [ $i -lt 30 ]; do
	rm -f "$d/c.csv"
	"$VBENCH" -q --no-progress bs=4k count=1 runs=2 -l a --csv-append "$d/c.csv" /dev/null >/dev/null 2>&1 &
	p1=$!
	"$VBENCH" -q --no-progress bs=4k count=1 runs=2 -l b --csv-append "$d/c.csv" /dev/null >/dev/null 2>&1 &
	p2=$!
	wait_pid "$p1" 20
	wait_pid "$p2" 20
	h=$(grep -c '^label,run,' "$d/c.csv")
	rows=$(grep -c '^[ab],[12],' "$d/c.csv")
	[ "$h" = 1 ] && [ "$rows" = 4 ] || bad=$((bad + 1))
	i=$((i + 1))
done
check "30 pairs of concurrent appenders: one header, four whole rows each time ($bad bad)" [ $bad = 0 ]

# --- text from the environment is escaped: a label cannot forge a dd line ---------------
d=$(new_dir)
run_vb --no-progress bs=4k count=2 runs=2 -l "$(printf 'x\n4096 bytes transferred in 1.000000 secs (4096 bytes/sec)')" "$d"
check "a newline in a label does not start a line" [ "$(printf '%s\n' "$OUT" | grep -c '^[0-9]* bytes transferred in')" = 2 ]
printf '%s\n' "$OUT" >"$SCRATCH/label.log"
run_vb report "$SCRATCH/label.log"
check "report counts only the real runs of that log" [ "$(printf '%s\n' "$OUT" | grep -c '^run ')" = 2 ]

# --- --help and --version fail when they cannot be written ------------------------------
"$VBENCH" --help >&- 2>/dev/null
check "--help with stdout closed fails (exit $?)" [ $? -ne 0 ]
"$VBENCH" --version >&- 2>/dev/null
check "--version with stdout closed fails" [ $? -ne 0 ]
"$VBENCH" report --help >&- 2>/dev/null
check "report --help with stdout closed fails" [ $? -ne 0 ]

# --- report: control bytes from an input never reach the terminal raw -------------------
printf 'label,run,bytes,secs,bytes_per_sec\n\033[31mred\a,x,1,1,1\n' >"$SCRATCH/esc.csv"
run_vb report "$SCRATCH/esc.csv"
expect_rc 1 "report refuses the bad row"
check "its message holds no escape byte" sh -c '! printf "%s" "$1" | grep -q "$(printf "\033")"' _ "$ERR"
check "and no bell" sh -c '! printf "%s" "$1" | grep -q "$(printf "\a")"' _ "$ERR"

# --- report --svg: never its own input, never through a link, never a stranger's file ---
d=$(new_dir)
printf 'label,run,bytes,secs,bytes_per_sec\na,1,1,1,10\na,2,1,1,12\n' >"$d/data.csv"
sum=$(cksum <"$d/data.csv")
run_vb report --svg "$d/data.csv" "$d/data.csv"
expect_rc 1 "report --svg over its own input is refused"
check "the input is unchanged" [ "$(cksum <"$d/data.csv")" = "$sum" ]
printf 'mine\n' >"$d/victim"
mkdir "$d/sticky" && chmod 1777 "$d/sticky"
ln -s "$d/victim" "$d/sticky/chart.svg"
run_vb report --force --svg "$d/sticky/chart.svg" "$d/data.csv"
expect_rc 1 "a link planted where the chart goes is refused, even with --force"
check "the link's target is unchanged" [ "$(cat "$d/victim")" = mine ]
printf 'a drawing\n' >"$d/other.svg"
run_vb report --svg "$d/other.svg" "$d/data.csv"
expect_rc 1 "a file vbench report did not write is not replaced without --force"
check "it is unchanged" [ "$(cat "$d/other.svg")" = "a drawing" ]
run_vb report --svg "$d/new.svg" "$d/data.csv"
expect_rc 0 "a new chart is written"
run_vb report --svg "$d/new.svg" "$d/data.csv"
expect_rc 0 "and its own chart is replaced"
check "no temporary file is left" [ -z "$(ls -A "$d" | grep vbench-svg)" ]

# --- SIGSTOP during a run: the pause is in the run's time, and vbench says so -----------
d=$(new_dir)
rm -f "$SCRATCH/p.out" "$SCRATCH/p.err"
"$VBENCH" --progress --sync dsync bs=4k count=30000 runs=1 "$d" >"$SCRATCH/p.out" 2>"$SCRATCH/p.err" &
pid=$!
if wait_for ETA "$SCRATCH/p.err"; then
	vb_stop "$pid"
	sleep 1
	vb_cont "$pid"
	wait_pid "$pid" 60
	check "a paused run is marked" grep -q "^# run 1 of 1 (paused" "$SCRATCH/p.out"
	check "and a warning says its time includes the pause" grep -q "was paused" "$SCRATCH/p.err"
else
	not_ok "the paused run never got under way" "$(cat "$SCRATCH/p.err")"
	kill "$pid" 2>/dev/null
fi

# --- signals whose default action ends the process: summary, cleanup, the same death ----
for sig in QUIT USR2 ALRM XCPU VTALRM PROF; do
	num=$(kill -l "$sig" 2>/dev/null) || continue
	d=$(new_dir)
	rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
	"$VBENCH" --progress --sync dsync bs=4k count=200000 runs=3 "$d" >"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
	pid=$!
	if ! wait_for ETA "$SCRATCH/s.err"; then
		not_ok "SIG$sig: the run never got under way"
		kill -9 "$pid"
		continue
	fi
	kill -s "$sig" "$pid"
	wait_pid "$pid" 30
	check "SIG$sig: dies of the signal (status $WAIT_RC, want $((128 + num)))" [ "$WAIT_RC" = $((128 + num)) ]
	check "SIG$sig: the summary is printed" grep -q "^mean " "$SCRATCH/s.out"
	check "SIG$sig: the created file is removed" empty_dir "$d"
	if [ "$sig" = ALRM ]; then
		check "an outside SIGALRM is not taken for --timeout" sh -c '! grep -q "timeout" "$1"' _ "$SCRATCH/s.err"
	fi
done

# --- a file-size limit: EFBIG is an I/O error, with the summary and the cleanup ----------
d=$(new_dir)
(ulimit -f 64 && exec "$VBENCH" --no-progress bs=64k count=100 runs=2 "$d/big") >"$SCRATCH/f.out" 2>"$SCRATCH/f.err"
rc=$?
check "ulimit -f: exit 3 (got $rc), not death by SIGXFSZ" [ "$rc" = 3 ]
check "ulimit -f: the error is named" grep -q "File too large" "$SCRATCH/f.err"
check "ulimit -f: the summary is printed" grep -q "^mean " "$SCRATCH/f.out"
check "ulimit -f: the file is removed" [ ! -e "$d/big" ]

# --- little address space: the supervision needs no thread, --timeout still works -------
if under_tool; then
	skip "ulimit -v: a sanitizer or valgrind needs more address space than the limit"
else
	d=$(new_dir)
	(ulimit -v 20000 && exec "$VBENCH" --no-progress --timeout 5 bs=64k count=16 runs=2 "$d") >"$SCRATCH/v.out" 2>"$SCRATCH/v.err"
	rc=$?
	check "ulimit -v 20000: runs with --timeout (exit $rc)" [ "$rc" = 0 ]
fi

# --- the parent directory renamed during the session: its file is still removed --------
d=$(new_dir)
mkdir "$d/sub"
rm -f "$SCRATCH/r.out"
"$VBENCH" --no-progress --sync dsync bs=4k count=200 runs=10 "$d/sub/file" >"$SCRATCH/r.out" 2>&1 &
pid=$!
check "renamed directory: run 1 completes" wait_for "^# run 1 of 10" "$SCRATCH/r.out"
mv "$d/sub" "$d/moved"
wait_pid "$pid" 60
check "renamed directory: the session goes on (exit $WAIT_RC)" [ "$WAIT_RC" = 0 ]
check "renamed directory: the file vbench created is gone" empty_dir "$d/moved"

# --- cleanup with a parent swapped for a link, over and over ------------------------------
if [ -n "$exchange" ]; then
	d=$(new_dir)
	mkdir "$d/dir" "$d/victim"
	ln -s "$d/victim" "$d/alt"
	i=0
	while [ $i -lt 200 ]; do printf 'root %s\n' $i >"$d/victim/f$i.img"; i=$((i + 1)); done
	"$exchange" "$d/dir" "$d/alt" 8 >"$SCRATCH/x.out" 2>&1 &
	xp=$!
	i=0
	while [ $i -lt 200 ] && kill -0 "$xp" 2>/dev/null; do
		"$VBENCH" -q --no-progress bs=4k count=1 runs=1 "$d/dir/f$i.img" >/dev/null 2>&1
		i=$((i + 1))
	done
	wait_pid "$xp" 20
	left=$(ls "$d/victim" | grep -c '^f[0-9]*\.img$')
	check "$i cleanups while the parent was swapped for a link: all 200 of root's files kept ($left)" [ "$left" = 200 ]
	intact=0
	j=0
	while [ $j -lt 200 ]; do
		[ "$(cat "$d/victim/f$j.img" 2>/dev/null)" = "root $j" ] && intact=$((intact + 1))
		j=$((j + 1))
	done
	check "and none was overwritten ($intact intact)" [ "$intact" = 200 ]
else
	skip "cannot build the exchange helper (apt-get install build-essential): the swapped-parent race is not tried"
fi

# ---------------------------------------------------------------------------------------
need_root "the cases with loop devices, mounts and frozen filesystems"
need_linux "the cases with loop devices, mounts and frozen filesystems"

# --- a disk or image that something is layered on is never written --------------------------
d=$(new_dir)
truncate -s 64M "$d/a.img"
A=$(losetup -f --show "$d/a.img") && add_loop "$A"
B=$(losetup -f --show "$A") && add_loop "$B"
mkfs.ext4 -q "$B"
mkdir "$d/m"
mount "$B" "$d/m" && add_mount "$d/m"
echo precious >"$d/m/data"
sync
run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
expect_rc 2 "a loop device with another loop device on it is refused, even with --force"
expect_err "in use: loop device loop[0-9]+ is backed by loop[0-9]+" "the message names what holds it"
run_vb --no-progress --force bs=1M count=8 runs=1 "of=$d/a.img"
expect_rc 2 "an image behind an attached loop device is refused, even with --force"
expect_err "loop device loop[0-9]+ is backed by it" "the message names the loop device"
umount "$d/m"
check "the filesystem on top is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$B"
mount "$B" "$d/m"
check "its file too" [ "$(cat "$d/m/data")" = precious ]
umount "$d/m"
losetup -d "$B"
run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
expect_rc 0 "the same loop device with nothing on it is written"

# --- swap ----------------------------------------------------------------------------------
if command -v mkswap >/dev/null && mkswap "$A" >/dev/null 2>&1 && swapon "$A" 2>/dev/null; then
	run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
	expect_rc 2 "a device used as swap is refused"
	expect_err "used as swap" "the message says so"
	swapoff "$A"
else
	skip "swap cannot be enabled on a loop device here"
fi

# --- partitions: a disk whose partition is mounted ------------------------------------------
if command -v sfdisk >/dev/null 2>&1; then
	truncate -s 64M "$d/p.img"
	printf 'label: dos\n,32M\n,\n' | sfdisk -q "$d/p.img" >/dev/null 2>&1
	P=$(losetup -P -f --show "$d/p.img") && add_loop "$P"
	sleep 0.5
	# A kernel without the DOS partition parser makes no partition devices by itself;
	# partx adds them from the table (BLKPG), which every kernel accepts.
	added=0
	if [ ! -b "${P}p1" ] && command -v partx >/dev/null 2>&1 && partx -a "$P" 2>/dev/null; then
		added=1
		sleep 0.5
	fi
	if [ -b "${P}p1" ] && mkfs.ext4 -q "${P}p1" && mount "${P}p1" "$d/m"; then
		add_mount "$d/m"
		run_vb --no-progress --force bs=1M count=8 runs=1 "$P"
		expect_rc 2 "a disk whose partition is mounted is refused"
		expect_err "p1 is mounted on" "the message names the partition"
		umount "$d/m"
	else
		skip "the kernel made no partition devices for a loop device (no partition support, and partx could not add them): the partition case"
	fi
	[ "$added" = 1 ] && partx -d "$P" 2>/dev/null
else
	skip "sfdisk missing (apt-get install fdisk): the partition case is not tried"
fi

# --- a device path replaced between runs: every run writes the device identified first ----
truncate -s 64M "$d/b.img"
head -c 1048576 /dev/urandom >"$d/noise"
dd if="$d/noise" of="$d/b.img" conv=notrunc 2>/dev/null
Bsum=$(cksum <"$d/b.img")
B2=$(losetup -f --show "$d/b.img") && add_loop "$B2"
mkdir "$d/devdir"
set -- $(ls -lL "$A" | tr ',' ' ' | awk '{print $5, $6}')
mknod "$d/devdir/node" b "$1" "$2"
rm -f "$SCRATCH/n.out" "$SCRATCH/n.err"
"$VBENCH" --no-progress --force --sync dsync bs=1M count=16 runs=20 "$d/devdir/node" >"$SCRATCH/n.out" 2>"$SCRATCH/n.err" &
pid=$!
if wait_for "^# run 1 of 20" "$SCRATCH/n.out"; then
	rm "$d/devdir/node"
	ln -s "$B2" "$d/devdir/node"
	wait_pid "$pid" 120
	check "a device swapped for a link between runs: the other device is untouched" [ "$(cksum <"$d/b.img")" = "$Bsum" ]
	check "and the session ended normally or with an error (exit $WAIT_RC)" [ "$WAIT_RC" = 0 ] || [ "$WAIT_RC" = 3 ]
else
	not_ok "the device run never got under way" "$(cat "$SCRATCH/n.err")"
	kill "$pid"
fi

# --- a mount source with newlines cannot forge a dd line -----------------------------------------
m=$(new_dir)
src=$(printf 'evil\n4096 bytes transferred in 1.000000 secs (4096 bytes/sec)')
if mount -t tmpfs -o size=4m "$src" "$m" 2>/dev/null; then
	add_mount "$m"
	run_vb --no-progress bs=4k count=2 runs=2 "$m"
	check "a mount source with a newline does not start a line" [ "$(printf '%s\n' "$OUT" | grep -c '^[0-9]* bytes transferred in')" = 2 ]
	check "it is shown escaped" has "$OUT" 'evil\\x0a4096 bytes'
	umount "$m"
else
	skip "cannot mount a tmpfs with that source"
fi

# --- a full disk under --csv-append: whole rows or nothing ------------------------------------
m=$(new_dir)
if mount -t tmpfs -o size=8k tmpfs "$m"; then
	add_mount "$m"
	"$VBENCH" -q --no-progress bs=4k count=1 runs=14 --csv-append "$m/runs.csv" /dev/null >/dev/null 2>&1
	dd if=/dev/zero of="$m/filler" bs=1k >/dev/null 2>&1   # until the disk is full
	run_vb -q --no-progress bs=4k count=1 runs=40 --csv-append "$m/runs.csv" /dev/null
	check "disk full under --csv-append: exit 3 (got $RC)" [ "$RC" = 3 ]
	expect_err "could not be written" "the message says the row was not written"
	rows=$(grep -c '' "$m/runs.csv")
	check "no partial row is left (the file ends with a whole line)" [ "$(tail -c 1 "$m/runs.csv" | od -An -c | tr -d ' ')" = '\n' ]
	rm -f "$m/filler"
	run_vb -q --no-progress bs=4k count=1 runs=1 --csv-append "$m/runs.csv" /dev/null
	expect_rc 0 "with room again, the next row is appended"
	run_vb report "$m/runs.csv"
	expect_rc 0 "and report reads the file ($rows lines before)"
	umount "$m"
else
	skip "cannot mount a small tmpfs"
fi

# --- a frozen filesystem: --timeout still ends vbench two seconds later --------------------
if command -v fsfreeze >/dev/null 2>&1; then
	truncate -s 1G "$d/f.img"
	mkfs.ext4 -q "$d/f.img"
	fm=$(new_dir)
	if mount -o loop "$d/f.img" "$fm"; then
		add_mount "$fm"
		for tgt in "$fm" "$fm/named.img"; do
			rm -f "$SCRATCH/z.out" "$SCRATCH/z.err"
			"$VBENCH" --progress --timeout 2 --stall-timeout 1 --sync dsync bs=4k count=100000 runs=3 "$tgt" >"$SCRATCH/z.out" 2>"$SCRATCH/z.err" &
			pid=$!
			if ! wait_for ETA "$SCRATCH/z.err"; then
				not_ok "frozen: the run never got under way"
				kill "$pid"
				continue
			fi
			fsfreeze -f "$fm"
			t0=$(date +%s)
			wait_pid "$pid" 30
			t1=$(date +%s)
			check "frozen ($tgt): vbench exits within --timeout + 2 s and a little ($((t1 - t0)) s)" [ $((t1 - t0)) -le 8 ]
			check "frozen ($tgt): exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
			check "frozen ($tgt): the stall was reported" grep -q "stall: run 1" "$SCRATCH/z.err"
			check "frozen ($tgt): the summary is printed" grep -q "^mean " "$SCRATCH/z.out"
			if [ "$tgt" = "$fm" ]; then
				check "frozen: it says nothing is left behind" grep -q "nothing is left behind" "$SCRATCH/z.err"
			else
				check "frozen: it names the file left behind" grep -q "named.img, the file vbench created, is left behind" "$SCRATCH/z.err"
			fi
			fsfreeze -u "$fm"
			sleep 1
			rm -f "$fm/named.img"
			check "thawed: nothing else is in the filesystem" [ "$(ls -A "$fm")" = "lost+found" ]
		done
		umount "$fm"
	else
		skip "cannot loop-mount an ext4 image"
	fi
else
	skip "fsfreeze missing (apt-get install util-linux)"
fi
