# vbench's own outputs (issue 24, classes 1 and 2): the --csv-append and --trace files
# are examined before anything opens them, since opening a FIFO wakes its reader and
# opening a device already acts on it; and no output is the storage of the target, of
# another output, or the reverse, whatever name each is given by (standard output on the
# target's disk or a partition of it, --trace into the --csv-append file, a bind mount).
# Each case fails on a vbench that opens first or compares names.
. "$(dirname "$0")/lib.sh"

READER=""
trap '[ -n "$READER" ] && kill "$READER" 2>/dev/null; finish' EXIT

# --- a FIFO with a reader waiting: vbench must not open it to find out what it is ------
d=$(new_dir)
t=$(new_dir)
mkfifo "$d/fifo.csv"
for opt in --csv-append --trace; do
	rm -f "$d/woken"
	sh -c 'exec 3<"$1"; echo woken >"$2"' _ "$d/fifo.csv" "$d/woken" &
	READER=$!
	sleep 0.5
	run_vb --no-progress bs=4k count=1 runs=1 $opt "$d/fifo.csv" "$t"
	expect_rc 2 "$opt to a FIFO is refused"
	expect_err "^vbench: $opt $d/fifo.csv: is a FIFO; vbench appends only to a regular file$" \
		"$opt: the message names the option given and the FIFO"
	expect_no_err "csv-append needs" "$opt: no other option's name in the message"
	sleep 0.3
	check "$opt: the FIFO's reader was never woken (vbench did not open it)" [ ! -e "$d/woken" ]
	check "$opt: nothing was written to the target" empty_dir "$t"
	kill "$READER" 2>/dev/null
	wait "$READER" 2>/dev/null
	READER=""
done

# --- a socket is called a socket, a device a device ---------------------------------------
mksock=$(helper mksock)
if [ -n "$mksock" ] && "$mksock" "$d/sock.csv"; then
	for opt in --csv-append --trace; do
		run_vb --no-progress bs=4k count=1 runs=1 $opt "$d/sock.csv" "$t"
		expect_rc 2 "$opt to a Unix socket is refused"
		expect_err "^vbench: $opt $d/sock.csv: is a socket; vbench appends only to a regular file$" \
			"$opt: the message says it is a socket"
	done
else
	skip "cannot build the socket helper: the socket case is not tried"
fi
run_vb --no-progress bs=4k count=1 runs=1 --trace /dev/null "$t"
expect_rc 2 "--trace to a character device is refused"
expect_err "^vbench: --trace /dev/null: is a character device; vbench appends only to a regular file$" \
	"the message says it is a character device"
if command -v strace >/dev/null 2>&1 && [ -e /dev/ptmx ]; then
	for opt in --csv-append --trace; do
		strace -f -o "$SCRATCH/st" -e trace=%file "$VBENCH" -q --no-progress bs=4k \
			count=1 runs=1 $opt /dev/ptmx "$t" >/dev/null 2>&1
		check "$opt /dev/ptmx: the device is never opened for writing (only examined)" \
			sh -c '! grep "\"/dev/ptmx\"" "$1" | grep -q "O_WRONLY\|O_RDWR"' _ "$SCRATCH/st"
	done
else
	skip "strace missing: the device-open case is seen through the FIFO case only"
fi

# --- outputs that are one storage ------------------------------------------------------------
d=$(new_dir)
"$VBENCH" -q --no-progress bs=4k count=1 runs=2 --csv-append "$d/r.csv" /dev/null >/dev/null 2>&1
sum=$(cksum <"$d/r.csv")
run_vb --no-progress bs=4k count=1 runs=2 --csv-append "$d/r.csv" --trace "$d/r.csv" "$t"
expect_rc 2 "--trace into the --csv-append file is refused"
expect_err "^vbench: --csv-append $d/r.csv and --trace $d/r.csv are one storage \(it is the same file\)" \
	"the message names both"
check "the collected results are intact" [ "$(cksum <"$d/r.csv")" = "$sum" ]
check "nothing was written to the target" empty_dir "$t"
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/r.csv" "$t" >>"$d/r.csv" 2>"$SCRATCH/err"
check "standard output into the --csv-append file is refused (exit $?)" [ $? = 2 ]
check "and says so" grep -q "and standard output are one storage" "$SCRATCH/err"
check "the collected results are intact" [ "$(cksum <"$d/r.csv")" = "$sum" ]
"$VBENCH" --no-progress bs=4k count=1 runs=1 --trace "$d/t.csv" "$t" >/dev/null 2>>"$d/t.csv"
check "standard error into the --trace file is refused (exit $?)" [ $? = 2 ]
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/a.csv" --trace "$d/b.csv" "$t"
expect_rc 0 "two files of their own are accepted"
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/a.csv" "$t" >"$d/log" 2>&1
check "standard output and error in one log are accepted (exit $?)" [ $? = 0 ]

# ---------------------------------------------------------------------------------------
need_root "the cases without /proc, with bind mounts and loop devices"
need_linux "the cases without /proc, with bind mounts and loop devices"

# --- without /proc (an initramfs) the file is examined by its name, and still appended to ---
if under_tool; then
	skip "a sanitizer or valgrind needs /proc itself: the case without /proc is not tried"
elif command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	d=$(new_dir)
	printf 'keep\r\n' >"$d/r.csv"
	unshare -m sh -c 'umount -l /proc && exec "$1" -q --no-progress bs=4k count=1 runs=1 --csv-append "$2/r.csv" "$2"' \
		_ "$VBENCH" "$d" >/dev/null 2>/dev/null
	check "without /proc an existing --csv-append file is appended to (exit $?)" [ "$(grep -c '' "$d/r.csv")" = 2 ]
	unshare -m sh -c 'umount -l /proc && exec "$1" -q --no-progress bs=4k count=1 runs=1 --csv-append "$2/r.csv" "$2"' \
		_ "$VBENCH" "$d" >/dev/null 2>"$SCRATCH/np.err"
	check "but a file as standard error cannot be told apart from it: refused (exit $?)" \
		grep -q "standard error: cannot tell.*/proc" "$SCRATCH/np.err"
	check "and nothing was appended" [ "$(grep -c '' "$d/r.csv")" = 2 ]
	mkfifo "$d/fifo.csv"
	unshare -m sh -c 'umount -l /proc && exec "$1" -q --no-progress bs=4k count=1 runs=1 --trace "$2/fifo.csv" "$2"' \
		_ "$VBENCH" "$d" >/dev/null 2>"$SCRATCH/np.err"
	check "and a FIFO is still refused (exit $?)" grep -q "is a FIFO" "$SCRATCH/np.err"
else
	skip "unshare -m is not available: the case without /proc is not tried"
fi

# --- a bind mount shows the same file under another name ---------------------------------
d=$(new_dir)
mkdir "$d/a" "$d/b"
if mount --bind "$d/a" "$d/b"; then
	add_mount "$d/b"
	run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/a/r.csv" --trace "$d/b/r.csv" "$t"
	expect_rc 2 "--trace into the --csv-append file through a bind mount is refused"
	expect_err "are one storage \(it is the same file\)" "the message says why"
	umount "$d/b"
else
	skip "cannot bind-mount: the bind mount case is not tried"
fi

# --- standard output or error on the target's disk -------------------------------------------
d=$(new_dir)
head -c 4194304 /dev/zero | tr '\0' 'v' >"$d/e.img"
A=$(losetup -f --show "$d/e.img") && add_loop "$A"
sum=$(cksum <"$d/e.img")
"$VBENCH" --no-progress --force bs=64k count=16 runs=2 "$A" >"$A" 2>"$SCRATCH/err"
check "standard output on the target disk is refused (exit $?)" [ $? = 2 ]
check "and says so" grep -q "standard output: it is ${A#/dev/}, the same disk" "$SCRATCH/err"
"$VBENCH" --no-progress --force bs=64k count=16 runs=2 "$A" 2>"$A" >/dev/null
check "standard error on the target disk is refused (exit $?)" [ $? = 2 ]
check "the disk is untouched" [ "$(cksum <"$d/e.img")" = "$sum" ]
losetup -d "$A"

# --- a file or directory on a mounted disk, standard output on that disk -----------------
mkfs.ext4 -q -F "$d/e.img"
mkdir "$d/m"
A=$(losetup -f --show "$d/e.img") && add_loop "$A"
if mount "$A" "$d/m"; then
	add_mount "$d/m"
	head -c 65536 /dev/zero >"$d/m/f"
	"$VBENCH" --no-progress --force bs=4k count=1 runs=1 "$d/m/f" >"$A" 2>"$SCRATCH/err"
	check "a file whose disk is standard output is refused (exit $?)" [ $? = 2 ]
	check "and says so" grep -q "where the target lies" "$SCRATCH/err"
	"$VBENCH" --no-progress bs=4k count=1 runs=1 "$d/m" >"$A" 2>"$SCRATCH/err"
	check "a directory whose disk is standard output is refused (exit $?)" [ $? = 2 ]
	umount "$d/m"
	check "the filesystem is intact" sh -c 'fsck.ext4 -n "$1" >/dev/null 2>&1' _ "$A"
else
	skip "cannot mount the image: the mounted case is not tried"
fi
losetup -d "$A"

# --- a partition, its disk and the disk's other partitions are one storage ---------------------
if command -v sfdisk >/dev/null 2>&1; then
	truncate -s 64M "$d/parts.img"
	printf 'label: dos\n,32M\n,\n' | sfdisk -q "$d/parts.img" >/dev/null 2>&1
	P=$(losetup -P -f --show "$d/parts.img") && add_loop "$P"
	sleep 0.5
	added=""
	n=${P#/dev/}
	if [ ! -d "/sys/block/$n/${n}p1" ] && command -v partx >/dev/null 2>&1 && partx -a "$P" 2>/dev/null; then
		added=yes
		sleep 0.5
	fi
	if [ -b "${P}p1" ] && [ -b "${P}p2" ]; then
		"$VBENCH" --no-progress --force bs=64k count=4 runs=1 "${P}p1" >"$P" 2>"$SCRATCH/err"
		check "a partition as the target, its disk as standard output: refused (exit $?)" [ $? = 2 ]
		check "and says so" grep -q "standard output: it is $n, the same disk or a part of it" "$SCRATCH/err"
		"$VBENCH" --no-progress --force bs=64k count=4 runs=1 "$P" >"${P}p1" 2>"$SCRATCH/err"
		check "a disk as the target, its partition as standard output: refused (exit $?)" [ $? = 2 ]
		"$VBENCH" --no-progress --force bs=64k count=4 runs=1 "${P}p1" >"${P}p2" 2>"$SCRATCH/err"
		check "another partition of the same disk as standard output: refused too (exit $?)" [ $? = 2 ]
	else
		skip "no partition devices for loop devices here: the partition cases"
	fi
	[ -n "$added" ] && partx -d "$P" 2>/dev/null
	losetup -d "$P"
else
	skip "sfdisk missing (apt-get install fdisk): the partition cases"
fi
