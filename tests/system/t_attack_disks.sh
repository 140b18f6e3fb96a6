# The attack pass of issue 9, reproduced (disks and filesystems, as root): a disk or image
# that something is layered on, swap, mounted partitions, a device replaced between
# runs, a mount source with newlines, a full disk under --csv-append, a frozen
# filesystem. Each case fails on a vbench that does not defend against it.
. "$(dirname "$0")/lib.sh"
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
	if [ "$(cksum <"$d/b.img")" = "$Bsum" ]; then
		ok "a device swapped for a link between runs: the other device is untouched"
	else
		not_ok "a device swapped for a link between runs: the other device is untouched" \
			"$(echo "first changed bytes:"; cmp -l "$d/noise" "$d/b.img" 2>&1 | head -3
			   echo "vbench said:"; tail -5 "$SCRATCH/n.err"; echo "loop devices:"; losetup -a)"
	fi
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
