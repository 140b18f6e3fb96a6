# The same storage under another name (issue 24, class 1): a disk or file in use is
# reached through another loop device, an overlay, a btrfs subvolume, another device
# node, a lock on a device, a second vbench, or vbench's own output files; each must be
# refused, whatever name it is given by. Each case fails on a vbench that compares
# names or device numbers as it sees them.
. "$(dirname "$0")/lib.sh"

holdlock=$(helper holdlock)
LOCKERS=""
# lock KIND PATH: holds a lock as QEMU would, until the test file ends.
lock() {
	rm -f "$SCRATCH/lock.out"
	"$holdlock" "$1" "$2" >"$SCRATCH/lock.out" 2>&1 &
	_lp=$!
	LOCKERS="$_lp $LOCKERS"
	wait_for locked "$SCRATCH/lock.out"
}
unlock_all() { for p in $LOCKERS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; LOCKERS=""; }
trap 'unlock_all; finish' EXIT

# --- vbench's own output files are storage too --------------------------------------------
d=$(new_dir)
"$VBENCH" -q --no-progress bs=4k count=1 runs=2 --csv-append "$d/runs.csv" /dev/null >/dev/null 2>&1
sum=$(cksum <"$d/runs.csv")
run_vb --no-progress --force bs=4k count=1 runs=1 --csv-append "$d/runs.csv" "$d/runs.csv"
expect_rc 2 "the --csv-append file as the target is refused, even with --force"
expect_err "where vbench writes its results" "the message says why"
check "the collected results are intact" [ "$(cksum <"$d/runs.csv")" = "$sum" ]
run_vb --no-progress --force bs=4k count=1 runs=1 --trace "$d/runs.csv" "$d/runs.csv"
expect_rc 2 "the --trace file as the target is refused"
check "and is intact" [ "$(cksum <"$d/runs.csv")" = "$sum" ]
"$VBENCH" --no-progress --force bs=4k count=1 runs=1 "$d/runs.csv" >>"$d/runs.csv" 2>"$SCRATCH/err"
check "standard output as the target is refused (exit $?)" [ $? = 2 ]
check "and says so" grep -q "standard output" "$SCRATCH/err"
printf 'keep\n' >"$d/log"
"$VBENCH" --no-progress --force bs=4k count=1 runs=1 "$d/log" 2>>"$d/log" >/dev/null
check "standard error as the target is refused (exit $?)" [ $? = 2 ]
check "the log keeps its first line" [ "$(head -n 1 "$d/log")" = keep ]

# --- two vbench on one file: the second is refused --------------------------------------------
d=$(new_dir)
head -c 65536 /dev/zero >"$d/img"
rm -f "$SCRATCH/a.out" "$SCRATCH/a.err"
"$VBENCH" --no-progress --force --sync dsync bs=4k count=20000 runs=3 "$d/img" >"$SCRATCH/a.out" 2>"$SCRATCH/a.err" &
pid=$!
if wait_for "^# target" "$SCRATCH/a.out" || wait_for "records" "$SCRATCH/a.out"; then
	run_vb --no-progress --force bs=4k count=1 runs=1 "$d/img"
	expect_rc 2 "a second vbench on the file the first is writing is refused"
	expect_err "in use" "the message says it is in use"
	if [ -n "$holdlock" ]; then
		# a program that locks what it uses, started after vbench, is refused by it
		for kind in ofd posix flock; do
			"$holdlock" $kind "$d/img" >/dev/null 2>&1 &
			lp=$!
			wait_pid "$lp" 5
			check "a $kind lock on the file vbench is writing is refused (exit $WAIT_RC)" [ "$WAIT_RC" = 2 ]
		done
	fi
	kill "$pid" 2>/dev/null
	wait_pid "$pid" 30
else
	not_ok "the first vbench never got under way" "$(cat "$SCRATCH/a.err")"
	kill "$pid" 2>/dev/null
fi

# ---------------------------------------------------------------------------------------
need_root "the cases with loop devices, mounts and device nodes"
need_linux "the cases with loop devices, mounts and device nodes"

# --- a new file among the device nodes is a mistyped disk name --------------------------
run_vb --no-progress --force bs=4k count=1 runs=1 /dev/vbench-no-such-disk
expect_rc 2 "a new file under /dev is refused"
expect_err "no such device" "with a hint that the device does not exist"
check "nothing was created in /dev" [ ! -e /dev/vbench-no-such-disk ]
if [ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d /dev)" ]; then
	run_vb --no-progress bs=4k count=1 runs=1 /dev/shm/vbench-systest.img
	expect_rc 0 "a file system mounted under /dev (/dev/shm) is not refused"
	rm -f /dev/shm/vbench-systest.img
fi

# --- two loop devices over one image, the second mounted ---------------------------------
d=$(new_dir)
truncate -s 64M "$d/one.img"
A=$(losetup -f --show "$d/one.img") && add_loop "$A"
B=$(losetup -f --show "$d/one.img") && add_loop "$B"
mkfs.ext4 -q "$B"
mkdir "$d/m"
mount "$B" "$d/m" && add_mount "$d/m"
echo precious >"$d/m/data"
sync
run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
expect_rc 2 "a loop device whose image another (mounted) loop device shares is refused"
expect_err "backed by the same file as" "the message names the other loop device"
umount "$d/m"
check "the mounted filesystem is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$B"
losetup -d "$B"

# --- a partition of a loop device whose image another loop device (partitioned, mounted) shares --
if command -v sfdisk >/dev/null 2>&1; then
	truncate -s 64M "$d/parts.img"
	printf 'label: dos\n,32M\n,\n' | sfdisk -q "$d/parts.img" >/dev/null 2>&1
	P=$(losetup -P -f --show "$d/parts.img") && add_loop "$P"
	Q=$(losetup -P -f --show "$d/parts.img") && add_loop "$Q"
	sleep 0.5
	# (a kernel without the DOS partition parser makes none: partx adds them)
	added=""
	for dev in "$P" "$Q"; do
		n=${dev#/dev/}
		if [ ! -d "/sys/block/$n/${n}p1" ] && command -v partx >/dev/null 2>&1 &&
		    partx -a "$dev" 2>/dev/null; then
			added="$added $dev"
		fi
	done
	sleep 0.5
	if [ -d "/sys/block/${P#/dev/}/${P#/dev/}p1" ] && [ -d "/sys/block/${Q#/dev/}/${Q#/dev/}p1" ] &&
	    mkfs.ext4 -q "${Q}p1" && mount "${Q}p1" "$d/m"; then
		add_mount "$d/m"
		run_vb --no-progress --force bs=1M count=8 runs=1 "${P}p1"
		expect_rc 2 "a partition of a loop device whose image another loop device shares (mounted) is refused"
		expect_err "backed by the same file as" "the message names the other loop device"
		umount "$d/m"
		check "the mounted filesystem is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "${Q}p1"
	else
		skip "no partition devices for loop devices here: the partitioned case"
	fi
	for dev in $added; do partx -d "$dev" 2>/dev/null; done
	losetup -d "$Q" 2>/dev/null
	losetup -d "$P" 2>/dev/null
else
	skip "sfdisk missing (apt-get install fdisk): the partitioned case"
fi

# --- a lock on a block device (QEMU locks the raw disks it uses) ------------------------------
if [ -n "$holdlock" ]; then
	lock ofd "$A"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
	expect_rc 2 "a block device another program holds an OFD lock on is refused"
	expect_err "lock" "the message names the lock"
	set -- $(ls -lL "$A" | tr ',' ' ' | awk '{print $5, $6}')
	mknod "$d/other-node" b "$1" "$2"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$d/other-node"
	expect_rc 2 "the same device through another node is refused too"
	unlock_all
	lock flock "$A"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
	expect_rc 2 "a block device with a flock on it is refused"
	unlock_all
	lock posix "$d/one.img"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
	expect_rc 2 "a loop device whose image is locked is refused"
	unlock_all
	run_vb --no-progress --force bs=1M count=8 runs=1 "$A"
	expect_rc 0 "with the locks gone, the device is written"
else
	skip "cannot build the lock helper: the lock cases are not tried"
fi
losetup -d "$A"

# --- without /proc, nothing can tell whether a program has the file locked -------------------
if under_tool; then
	skip "a sanitizer or valgrind needs /proc itself: the case without /proc is not tried"
elif command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	d=$(new_dir)
	head -c 65536 /dev/zero >"$d/img"
	unshare -m sh -c 'umount -l /proc && exec "$1" --no-progress --force bs=4k count=1 runs=1 "$2"' _ "$VBENCH" "$d/img" >"$SCRATCH/np.out" 2>"$SCRATCH/np.err"
	rc=$?
	check "without /proc an existing file is refused (exit $rc)" [ $rc = 2 ]
	check "and the message names /proc" grep -q "/proc" "$SCRATCH/np.err"
else
	skip "unshare -m is not available: the case without /proc is not tried"
fi

# overlay_image UPPER: in a new $d, mounts an overlay of $d/lower and $d/UPPER on $d/ov,
# makes an ext4 image x.img in it, attaches loop device $L to it through the overlay and
# mounts that on $d/m; fails when there is no overlay here.
overlay_image() {
	d=$(new_dir)
	mkdir "$d/lower" "$d/upper" "$d/work" "$d/ov" "$d/m" "$d/b"
	ln -s upper "$d/uplink"
	mount -t overlay overlay -o "lowerdir=$d/lower,upperdir=$d/$1,workdir=$d/work" "$d/ov" \
		2>/dev/null || return 1
	add_mount "$d/ov"
	truncate -s 64M "$d/ov/x.img"
	mkfs.ext4 -q "$d/ov/x.img"
	L=$(losetup -f --show "$d/ov/x.img") && add_loop "$L"
	mount "$L" "$d/m" && add_mount "$d/m"
	echo precious >"$d/m/data"
	sync
}

# --- overlayfs: the loop reports the overlay's file, the target is the upper layer's ----------
if overlay_image upper; then
	run_vb --no-progress --force bs=1M count=8 runs=1 "$d/upper/x.img"
	expect_rc 2 "the upper layer's file behind a loop device attached through the overlay is refused"
	expect_err "loop device loop[0-9]+ is backed by it" "the message names the loop device"
	umount "$d/m"
	check "the filesystem in the image is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$L"
	losetup -d "$L"
	L=$(losetup -f --show "$d/upper/x.img") && add_loop "$L"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$d/ov/x.img"
	expect_rc 2 "and the reverse: the overlay's file, with the loop attached to the upper layer's"
	losetup -d "$L"
	umount "$d/ov"
else
	skip "cannot mount an overlay: the overlay case is not tried"
fi

# --- overlay layers named through a link, reached through a bind mount, or relative -----------
# The layers are known by what they are: a name of the layer's directory that mountinfo
# does not show is the same directory. Layers given relative to where the mount was made
# cannot be found at all: that is refused, as it cannot be told.
if overlay_image uplink; then
	run_vb --no-progress --force bs=1M count=8 runs=1 "$d/upper/x.img"
	expect_rc 2 "an upper layer named through a link: its file behind a loop device is refused"
	expect_err "loop device loop[0-9]+ is backed by it" "the message names the loop device"
	mount --bind "$d/upper" "$d/b" && add_mount "$d/b"
	run_vb --no-progress --force bs=1M count=8 runs=1 "$d/b/x.img"
	expect_rc 2 "the same file through a bind mount of the upper layer is refused"
	umount "$d/b"
	umount "$d/m"
	check "the filesystem in the image is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$L"
	losetup -d "$L"
	umount "$d/ov"
	if (cd "$d" && mount -t overlay overlay -o lowerdir=lower,upperdir=upper,workdir=work ov) 2>/dev/null; then
		run_vb --no-progress --force bs=64k count=1 runs=1 "$d/upper/x.img"
		umount "$d/ov"
		expect_rc 2 "with an overlay whose layers are relative paths, a file is refused"
		expect_err "names a layer by a relative path" "the message says why"
	else
		skip "cannot mount an overlay with relative layer paths"
	fi
else
	skip "cannot mount an overlay: the layer-identity cases are not tried"
fi

# --- a file refused is never opened for writing: on an overlay that alone copies it up -------
d=$(new_dir)
mkdir "$d/lower" "$d/upper" "$d/work" "$d/ov"
head -c 8388608 /dev/zero >"$d/lower/f"
if command -v flock >/dev/null 2>&1 &&
    mount -t overlay overlay -o "lowerdir=$d/lower,upperdir=$d/upper,workdir=$d/work" "$d/ov" 2>/dev/null; then
	add_mount "$d/ov"
	# (flock(1) opens the file for reading, which copies nothing up)
	flock -s "$d/ov/f" sh -c "echo locked >'$SCRATCH/fl.out'; exec sleep 30" &
	fl=$!
	wait_for locked "$SCRATCH/fl.out"
	run_vb --no-progress --force bs=1M count=1 runs=1 "$d/ov/f"
	expect_rc 2 "a file on an overlay that a program has locked is refused"
	check "and it was not copied up into the upper layer" empty_dir "$d/upper"
	pkill -P "$fl" sleep 2>/dev/null
	kill "$fl" 2>/dev/null
	wait "$fl" 2>/dev/null
	umount "$d/ov"
else
	skip "no flock(1) or no overlay: the copy-up case is not tried"
fi

# --- an overlay over an overlay, and a layer given by "lowerdir+=" with a ':' in its name ------
d=$(new_dir)
mkdir -p "$d/la/sub" "$d/ua" "$d/wa" "$d/ma" "$d/ub" "$d/wb" "$d/mb" "$d/m" "$d/c:o" "$d/uc" "$d/wc" "$d/mc"
truncate -s 64M "$d/la/sub/x.img"
mkfs.ext4 -q "$d/la/sub/x.img"
if mount -t overlay overlay -o "lowerdir=$d/la,upperdir=$d/ua,workdir=$d/wa" "$d/ma" 2>/dev/null &&
    add_mount "$d/ma" &&
    mount -t overlay overlay -o "lowerdir=$d/ma/sub,upperdir=$d/ub,workdir=$d/wb" "$d/mb" 2>/dev/null; then
	add_mount "$d/mb"
	L=$(losetup -r -f --show "$d/mb/x.img") && add_loop "$L"
	mount -o ro "$L" "$d/m" && add_mount "$d/m"
	run_vb --no-progress --force bs=1M count=1 runs=1 "$d/la/sub/x.img"
	expect_rc 2 "the bottom file of an overlay over an overlay, behind a loop device, is refused"
	umount "$d/m"
	check "the filesystem in the image is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$d/la/sub/x.img"
	losetup -d "$L"
	umount "$d/mb"
	umount "$d/ma"
else
	skip "cannot mount an overlay over an overlay: that case is not tried"
fi
truncate -s 64M "$d/c:o/y.img"
mkfs.ext4 -q "$d/c:o/y.img"
if mount -t overlay overlay -o "lowerdir+=$d/c:o,upperdir=$d/uc,workdir=$d/wc" "$d/mc" 2>/dev/null; then
	add_mount "$d/mc"
	L=$(losetup -r -f --show "$d/mc/y.img") && add_loop "$L"
	run_vb --no-progress --force bs=1M count=1 runs=1 "$d/c:o/y.img"
	expect_rc 2 "a layer given by lowerdir+= with a ':' in its name: its file behind a loop device is refused"
	expect_err "loop device loop[0-9]+ is backed by it" "for that reason (the name is one layer, not two)"
	losetup -d "$L"
	umount "$d/mc"
else
	skip "this mount(8) or kernel takes no lowerdir+=: that case is not tried"
fi

# --- a file system mounted from the file itself, without a loop device (erofs) -------------------
mountfile=$(helper mountfile)
if command -v mkfs.erofs >/dev/null 2>&1 && [ -n "$mountfile" ]; then
	d=$(new_dir)
	mkdir "$d/src" "$d/m"
	echo precious >"$d/src/data"
	mkfs.erofs --quiet "$d/e.img" "$d/src" >/dev/null 2>&1
	if "$mountfile" erofs "$d/e.img" "$d/m" 2>/dev/null; then
		add_mount "$d/m"
		sum=$(cksum <"$d/e.img")
		run_vb --no-progress --force bs=64k count=4 runs=1 "$d/e.img"
		expect_rc 2 "a file an erofs file system is mounted from (no loop device) is refused"
		expect_err "a file system is mounted from it on" "the message names the mount"
		check "the image is unchanged" [ "$(cksum <"$d/e.img")" = "$sum" ]
		check "and its file system reads" grep -q precious "$d/m/data"
		umount "$d/m"
	else
		skip "this kernel cannot mount erofs from a file: the case is not tried"
	fi
else
	skip "mkfs.erofs missing (apt-get install erofs-utils): the erofs case is not tried"
fi

# --- a loop device's file deleted, the target its other link -----------------------------------
d=$(new_dir)
mkdir "$d/m"
truncate -s 64M "$d/s.img"
ln "$d/s.img" "$d/s2.img"
L=$(losetup -f --show "$d/s.img") && add_loop "$L"
mkfs.ext4 -q "$L"
if mount "$L" "$d/m"; then
	add_mount "$d/m"
	echo precious >"$d/m/data"
	sync
	rm "$d/s.img"
	run_vb --no-progress --force bs=64k count=16 runs=1 "$d/s2.img"
	expect_rc 2 "the other link of a loop device's deleted file is refused"
	expect_err "loop device loop[0-9]+ is backed by it" "the message names the loop device"
	# Without a node to ask the loop device by (a /dev of its own), the name
	# "s.img (deleted)" is all there is: refused, as it cannot be told.
	if unshare -m true 2>/dev/null; then
		unshare -m sh -c 'mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3 &&
			exec "$1" --no-progress --force bs=64k count=16 runs=1 "$2"' _ \
			"$VBENCH" "$d/s2.img" >"$SCRATCH/out" 2>"$SCRATCH/err"
		RC=$? ERR=$(cat "$SCRATCH/err")
		expect_rc 2 "and without a loop node to ask, it is refused too"
		expect_err "cannot identify the backing file of loop[0-9]+" "the message says why"
	else
		skip "unshare -m is not available: the case without loop nodes is not tried"
	fi
	umount "$d/m"
	check "the filesystem in the image is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$L"
	losetup -d "$L"
else
	skip "cannot mount a loop device: the deleted-backing case is not tried"
fi

# --- btrfs: a lock on a file in a subvolume -------------------------------------------------------
if command -v mkfs.btrfs >/dev/null 2>&1 && command -v btrfs >/dev/null 2>&1 && [ -n "$holdlock" ]; then
	d=$(new_dir)
	truncate -s 256M "$d/b.img"
	mkdir "$d/m"
	if mkfs.btrfs -q "$d/b.img" >/dev/null 2>&1 && mount -o loop "$d/b.img" "$d/m"; then
		add_mount "$d/m"
		btrfs -q subvolume create "$d/m/sub" >/dev/null
		head -c 1048576 /dev/zero >"$d/m/sub/disk.img"
		lock ofd "$d/m/sub/disk.img"
		# the lock as /proc/locks shows it, and what vbench must see besides its own
		run_vb --no-progress --force bs=4k count=1 runs=1 "$d/m/sub/disk.img"
		expect_rc 2 "a file in a btrfs subvolume that a program has locked is refused"
		unlock_all
		run_vb --no-progress --force bs=4k count=1 runs=1 "$d/m/sub/disk.img"
		expect_rc 0 "unlocked, it is written"
		# Another subvolume's file with the same inode number: /proc/locks cannot tell
		# the two apart, so vbench refuses, and says that it cannot tell.
		btrfs -q subvolume create "$d/m/sub2" >/dev/null
		head -c 1048576 /dev/zero >"$d/m/sub2/other.img"
		if [ "$(stat -c %i "$d/m/sub2/other.img")" = "$(stat -c %i "$d/m/sub/disk.img")" ]; then
			lock ofd "$d/m/sub2/other.img"
			run_vb --no-progress --force bs=4k count=1 runs=1 "$d/m/sub/disk.img"
			expect_rc 2 "a file whose inode number another subvolume's locked file shares is refused"
			expect_err "or a file of another subvolume" "and the message says it cannot tell which"
			unlock_all
		else
			skip "the two subvolumes' files got different inode numbers"
		fi
		# the loop driver reports the filesystem's device too, not the subvolume's
		BL=$(losetup -f --show "$d/m/sub/disk.img") && add_loop "$BL"
		run_vb --no-progress --force bs=4k count=1 runs=1 "$d/m/sub/disk.img"
		expect_rc 2 "a file in a btrfs subvolume behind a loop device is refused"
		expect_err "loop device loop[0-9]+ is backed by it" "the message names the loop device"
		losetup -d "$BL"
		umount "$d/m"
	else
		skip "cannot make or mount a btrfs filesystem"
	fi
else
	skip "btrfs-progs missing (apt-get install btrfs-progs): the btrfs case is not tried"
fi
