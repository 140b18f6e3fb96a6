# The third attack pass (issue 34), space and permissions: the blocks ext4 keeps for
# privileged users, counted only for a process the file system lets use them; vbench
# run as an ordinary user (nobody) wherever root and users differ; ramfs, which reports
# no size; a read-only disk. Each case fails on a vbench that does not defend against it.
. "$(dirname "$0")/lib.sh"
need_root "the cases with loop devices, mounts and runuser"
need_linux "the cases with loop devices, ext4 mount options and ramfs"

# --- vbench as nobody ---------------------------------------------------------------------
# nobody must reach the binary (copied where it can when its own place is closed to
# others) and the directories of the cases (the scratch directory is made 0700).
chmod 711 "$SCRATCH"
NB_VBENCH=$VBENCH
if ! runuser -u nobody -- "$NB_VBENCH" --version >/dev/null 2>&1; then
	NB_VBENCH=$SCRATCH/vbench-nobody
	cp "$VBENCH" "$NB_VBENCH" && chmod 755 "$NB_VBENCH"
fi
if runuser -u nobody -- "$NB_VBENCH" --version >/dev/null 2>&1; then
	have_nobody=1
else
	have_nobody=0
fi

# run_nobody ARGS...: run_vb as the user nobody.
run_nobody() {
	runuser -u nobody -- "$NB_VBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
	OUT=$(cat "$SCRATCH/out")
	ERR=$(cat "$SCRATCH/err")
}

# Whether this process has CAP_SYS_RESOURCE (bit 24 of CapEff), which opens the reserve
# whatever the mount says.
has_sys_resource() {
	_c=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	[ -n "$_c" ] && [ $(((0x$_c >> 24) & 1)) = 1 ]
}

d=$(new_dir)
chmod 755 "$d"

# --- the root reserve ------------------------------------------------------------------
# A 64 MiB ext4 with 10% reserved: a run of COUNT MiB fits in f_bfree but not in
# f_bavail. Who may use the reserve (ext4_has_free_clusters): CAP_SYS_RESOURCE, the
# fsuid of resuid, a group of resgid other than 0; resuid and resgid are 0 by default.
truncate -s 64M "$d/e.img"
mkfs.ext4 -q -m 10 "$d/e.img"
E=$(losetup -f --show "$d/e.img") && add_loop "$E"
mkdir "$d/m"
mount -o resuid=65534 "$E" "$d/m" && add_mount "$d/m"
chmod 1777 "$d/m"
set -- $(stat -f -c '%f %a %S' "$d/m")
bfree=$(($1 * $3)) bavail=$(($2 * $3))
mib=1048576
count=$((bavail / mib + 2))
check "the case holds: $count MiB is more than f_bavail ($bavail) and well within f_bfree ($bfree)" \
	[ $((count * mib)) -gt "$bavail" ] && [ $((count * mib + 4 * mib)) -lt "$bfree" ]

if has_sys_resource; then
	skip "root has CAP_SYS_RESOURCE here: the reserve is its own whatever resuid says"
else
	# mounted resuid=65534: root (without CAP_SYS_RESOURCE) may not use the reserve
	run_vb --no-progress bs=1M count=$count runs=1 "$d/m"
	expect_rc 2 "root outside resuid: a run that fits only the reserve is refused before writing"
	expect_err "only $bavail bytes are free under $d/m, less than the $((count * mib)) bytes of one run .*; count=[0-9]+ fits; nothing was written" \
		"the message gives f_bavail and the count that fits"
	check "nothing was written: no run printed" sh -c '! grep -q "records out" "$1"' _ "$SCRATCH/out"
	check "and nothing left in the file system" sh -c '[ -z "$(ls -A "$1" | grep -v lost+found)" ]' _ "$d/m"
	fits=$(printf '%s\n' "$ERR" | sed -n 's/.*count=\([0-9]*\) fits.*/\1/p')
	run_vb --no-progress bs=1M count="${fits:-0}" runs=1 "$d/m"
	expect_rc 0 "the count named (count=$fits) runs"
fi
if [ $have_nobody = 1 ]; then
	# nobody is resuid: the same run is its to make, and the kernel agrees
	run_nobody --no-progress bs=1M count=$count runs=1 "$d/m"
	expect_rc 0 "nobody, the resuid, may use the reserve: the run is made"
	expect_out "^$count\+0 records out" "all $count MiB were written"
else
	skip "nobody cannot run vbench here"
fi

# default mount: resuid 0, so root may and nobody may not
umount "$d/m"
mount "$E" "$d/m"
run_vb --no-progress bs=1M count=$count runs=1 "$d/m"
expect_rc 0 "root, the default resuid (0), may use the reserve even without CAP_SYS_RESOURCE"
expect_out "^$count\+0 records out" "all $count MiB were written"
# but not ext4's reserved clusters, which f_bfree counts: a run beyond f_bfree less
# those is refused, not ended by ENOSPC
kept=$(cat "/sys/fs/ext4/$(basename "$E")/reserved_clusters" 2>/dev/null)
if [ -n "$kept" ]; then
	usable=$((bfree - kept * $(stat -f -c '%S' "$d/m")))
	over=$((usable / mib + 1))
	if [ $((over * mib)) -le "$bfree" ]; then
		run_vb --no-progress bs=1M count=$over runs=1 "$d/m"
		expect_rc 2 "root: $over MiB, within f_bfree but beyond what ext4 keeps back, is refused"
		expect_err "only $usable bytes are free under $d/m, .*count=[0-9]+ fits; nothing was written" \
			"the message gives f_bfree less the reserved clusters"
	else
		skip "the reserved clusters are less than a MiB here"
	fi
else
	skip "no /sys/fs/ext4 attribute for $E"
fi
if [ $have_nobody = 1 ]; then
	run_nobody --no-progress bs=1M count=$count runs=1 "$d/m"
	expect_rc 2 "nobody outside resuid and resgid: refused before writing"
	expect_err "only $bavail bytes are free under $d/m, .*count=[0-9]+ fits; nothing was written" \
		"the message gives f_bavail and the count that fits"
	# resgid=65534: a group of nobody's
	umount "$d/m"
	mount -o resgid=65534 "$E" "$d/m"
	if id -G nobody | tr ' ' '\n' | grep -qx 65534; then
		run_nobody --no-progress bs=1M count=$count runs=1 "$d/m"
		expect_rc 0 "nobody in group resgid=65534 may use the reserve"
	else
		skip "nobody is not in group 65534 here"
	fi
fi
umount "$d/m"

# --- a run that fills the free blocks exactly --------------------------------------------
# The data fits, the file's own blocks (extent blocks) do not: ENOSPC after writing. The
# spare the named count leaves is part of the decision: the run is refused, the count
# named runs, and one block more is refused again.
# exact_fit WHO AVAIL: WHO is run_vb or run_nobody, AVAIL the bytes free to it.
exact_fit() {
	_n=$(($2 / 1024))
	$1 --no-progress bs=1k count=$_n runs=1 "$d/m"
	expect_rc 2 "$1: bs=1k count=$_n, all $2 free bytes, is refused before writing"
	expect_err "only $2 bytes are free under $d/m, too few for the $((_n * 1024)) bytes of one run .* and the 2% the file system needs for its own blocks; count=[0-9]+ fits; nothing was written" \
		"$1: the message says the file system's own blocks need room"
	_f=$(printf '%s\n' "$ERR" | sed -n 's/.*count=\([0-9]*\) fits.*/\1/p')
	$1 --no-progress bs=1k count=$((${_f:-0} + 1)) runs=1 "$d/m"
	expect_rc 2 "$1: one block more than the count named is refused"
	$1 --no-progress bs=1k count="${_f:-0}" runs=1 "$d/m"
	expect_rc 0 "$1: the count named (count=$_f) runs"
}
mount -o resuid=65534 "$E" "$d/m"
set -- $(stat -f -c '%a %S' "$d/m")
if has_sys_resource; then
	skip "root has CAP_SYS_RESOURCE here: its free space is not f_bavail"
else
	exact_fit run_vb $(($1 * $2))
fi
umount "$d/m"
mount "$E" "$d/m"
if [ $have_nobody = 1 ]; then
	exact_fit run_nobody $(($1 * $2))
fi
umount "$d/m"

# --- a child user namespace with every id mapped: all capabilities, none the kernel's -----
# ext4 asks capable(CAP_SYS_RESOURCE), the initial namespace's; inside a namespace that
# maps every id 1:1 (maps written from outside, by root) root holds it only there. With
# resuid=65534 the run that needs the reserve is refused, not ended by ENOSPC.
mount -o resuid=65534 "$E" "$d/m"
if has_sys_resource; then
	skip "root has CAP_SYS_RESOURCE here: the reserve is its own in any namespace"
elif ! unshare -U true 2>/dev/null; then
	skip "no user namespaces here"
else
	rm -f "$d/go"
	unshare -U sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done; shift; exec "$@"' _ "$d/go" \
		"$VBENCH" --no-progress bs=1M count=$count runs=1 "$d/m" >"$SCRATCH/out" 2>"$SCRATCH/err" &
	ns_pid=$!
	# (until it is in its namespace: at most 10 s)
	_n=0
	while [ "$(readlink /proc/$ns_pid/ns/user)" = "$(readlink /proc/self/ns/user)" ] && [ $_n -lt 100 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	echo "0 0 4294967295" >/proc/$ns_pid/uid_map && echo "0 0 4294967295" >/proc/$ns_pid/gid_map
	touch "$d/go"
	wait $ns_pid
	RC=$? OUT=$(cat "$SCRATCH/out") ERR=$(cat "$SCRATCH/err")
	expect_rc 2 "root in an identity-mapped user namespace: its CAP_SYS_RESOURCE does not open the reserve"
	expect_err "only $bavail bytes are free under $d/m, .*count=[0-9]+ fits; nothing was written" \
		"the message gives f_bavail"
fi
umount "$d/m"

# --- an existing file (--force): emptied before each run, so what it holds is free --------
# A 16 MiB tmpfs with 12.5 MiB taken: an empty file gets 3.5 MiB, not a run of 8 MiB; a
# file holding 8 MiB already gives them back and the run is made.
mkdir "$d/t"
mount -t tmpfs -o size=16M tmpfs "$d/t" && add_mount "$d/t"
chmod 1777 "$d/t"
head -c $((12 * mib + mib / 2)) /dev/zero >"$d/t/fill"
for who in run_vb run_nobody; do
	[ $who = run_nobody ] && [ $have_nobody = 0 ] && continue
	: >"$d/t/f" && chown nobody "$d/t/f"
	$who --no-progress --force bs=1M count=8 runs=1 "$d/t/f"
	# (nobody cannot read what backs the loop devices of a test running beside this one)
	if has "$ERR" "cannot tell whether it is in use"; then
		skip "$who: another's loop device cannot be checked here: $ERR"
		continue
	fi
	expect_rc 2 "$who: an empty file with --force where 8 MiB do not fit is refused at setup"
	expect_err "only [0-9]+ bytes are free under $d/t/f \(the 0 bytes it holds included\), less than the 8388608 bytes of one run .*; count=3 fits; nothing was written" \
		"$who: the message names the count that fits"
	check "$who: the file was not written" [ "$(size_of "$d/t/f")" = 0 ]
	rm "$d/t/fill" && head -c $((8 * mib)) /dev/zero >"$d/t/f"
	head -c $((8 * mib - mib / 2)) /dev/zero >"$d/t/fill"
	$who --no-progress --force bs=1M count=8 runs=1 "$d/t/f"
	expect_rc 0 "$who: a file that holds the 8 MiB already: the run is made"
	: >"$d/t/f" && rm "$d/t/fill" && head -c $((12 * mib + mib / 2)) /dev/zero >"$d/t/fill"
done
umount "$d/t"

# --- a file-size limit (ulimit -f): known before writing, so refused then -----------------
mkdir "$d/lim"
chmod 777 "$d/lim"
for who in root nobody; do
	[ $who = nobody ] && [ $have_nobody = 0 ] && continue
	# lim_vb BYTES ARGS...: vbench as $who under a file-size limit of BYTES (ulimit -f
	# counts in units that differ between shells; prlimit in bytes)
	lim_vb() {
		_l=$1
		shift
		if [ $who = root ]; then
			prlimit --fsize="$_l" -- "$VBENCH" "$@"
		else
			runuser -u nobody -- prlimit --fsize="$_l" -- "$NB_VBENCH" "$@"
		fi >"$SCRATCH/out" 2>"$SCRATCH/err"
		RC=$?
		OUT=$(cat "$SCRATCH/out")
		ERR=$(cat "$SCRATCH/err")
	}
	lim_vb 4194304 --no-progress bs=1M count=8 runs=2 "$d/lim"
	expect_rc 2 "$who, a file-size limit of 4 MiB: runs of 8 MiB are refused at setup"
	expect_err "one run writes 8388608 bytes \(bs=1048576 count=8\), more than the 4194304 bytes this process may put in a file \(ulimit -f\); count=4 fits; nothing was written" \
		"$who: the message names the limit and the count that fits"
	check "$who: no run was started" sh -c '! grep -q "records out" "$1"' _ "$SCRATCH/out"
	lim_vb 4194304 --no-progress bs=1M count=4 runs=2 "$d/lim"
	expect_rc 0 "$who: the count named runs under the same limit"
	: >"$d/lim/f" && chown nobody "$d/lim/f"
	lim_vb 4194304 --no-progress --force bs=1M count=5 runs=1 "$d/lim/f"
	expect_rc 2 "$who: an existing file (--force) beyond the limit is refused as well"
	if has "$ERR" "cannot tell whether it is in use"; then
		skip "$who: another's loop device cannot be checked here: $ERR"
	else
		expect_err "count=5\\), more than the 4194304 bytes .*count=4 fits" "$who: for the limit"
	fi
	rm -f "$d/lim/f"
done

# --- nobody where root and users differ ---------------------------------------------------
if [ $have_nobody = 1 ]; then
	# a directory nobody may not write in: refused at setup, nothing left
	mkdir "$d/closed"
	chmod 755 "$d/closed"
	run_nobody --no-progress bs=64k count=4 runs=1 "$d/closed"
	expect_rc 2 "nobody, a directory it cannot write in: refused at setup"
	expect_err "cannot create a file in $d/closed: Permission denied" "the message says why"
	check "nothing left there" empty_dir "$d/closed"
	# a file behind a loop device: root asks the loop driver what backs it, nobody reads
	# the name in sysfs; both refuse it, also once the name is gone (a deleted file that
	# lives on under another link)
	mkdir "$d/own"
	chown nobody "$d/own"
	truncate -s 16M "$d/own/f.img"
	chown nobody "$d/own/f.img"
	F=$(losetup -f --show "$d/own/f.img") && add_loop "$F"
	run_nobody --no-progress --force bs=1M count=2 runs=1 "$d/own/f.img"
	expect_rc 2 "nobody: a file behind a loop device is refused"
	# (another loop device whose file nobody may not reach, one of a test running beside
	# this one, is refused as well: what cannot be checked is not written)
	expect_err "(in use: loop device loop[0-9]+ is backed by it|cannot identify the backing file of loop[0-9]+: Permission denied)" \
		"the message names the loop device"
	ln "$d/own/f.img" "$d/own/g.img"
	rm "$d/own/f.img"
	run_nobody --no-progress --force bs=1M count=2 runs=1 "$d/own/g.img"
	expect_rc 2 "nobody: the same file under another name, its first deleted, is refused"
	expect_err "loop[0-9]+" "the message names the loop device"
	run_vb --no-progress --force bs=1M count=2 runs=1 "$d/own/g.img"
	expect_rc 2 "root: refused as well"
	losetup -d "$F"
	check "the file was never written" sh -c '[ -z "$(tr -d "\\000" <"$1" | head -c 1)" ]' _ "$d/own/g.img"
	# a disk nobody may not open
	run_nobody --no-progress --force bs=1M count=2 runs=1 "$E"
	expect_rc 2 "nobody: a disk it may not open is refused at setup"
	# (or, as above, another test's loop device it cannot check)
	expect_err "(cannot open $E: Permission denied|cannot identify the backing file of loop[0-9]+: Permission denied)" \
		"the message says why"
fi

# --- ramfs: no size at all is unknown free space, not none -------------------------------
mkdir "$d/r"
if mount -t ramfs ramfs "$d/r" 2>/dev/null; then
	add_mount "$d/r"
	run_vb --no-progress bs=64k count=16 runs=1 "$d/r"
	expect_rc 0 "ramfs (0 blocks in all: unknown) is not refused"
	expect_no_err "bytes are free" "no claim of free space"
	run_vb --no-progress bs=64k count=16 runs=1 "$d/r/new.img"
	expect_rc 0 "a new file on ramfs neither"
else
	skip "no ramfs here"
fi

# --- a read-only disk: refused at setup, saying so ----------------------------------------
truncate -s 16M "$d/ro.img"
R=$(losetup -r -f --show "$d/ro.img") && add_loop "$R"
run_vb --no-progress --force bs=1M count=4 runs=1 "$R"
expect_rc 2 "a read-only disk (losetup -r) is refused at setup"
expect_err "$R is read-only" "the message says it is read-only"
check "no run was started" sh -c '! grep -q "records out" "$1"' _ "$SCRATCH/out"
losetup -d "$R"
