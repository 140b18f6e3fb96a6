# Storage that lies, on devices whose behaviour is known because the test built them:
# a loop device over a file on a tmpfs (a flush there persists nothing: it must be
# flagged), and a direct-io loop device under the cgroup v1 blkio throttle (a steady,
# known rate: no knee may be found). Also what the probe and --trace write.
. "$(dirname "$0")/lib.sh"

# json_member JSON NAME: the value of the first "NAME": number or string in JSON.
json_member() {
	printf '%s\n' "$1" | grep -o "\"$2\": \"\{0,1\}[^,\"}]*" | head -n 1 | sed 's/.*: "\{0,1\}//'
}

# flushes_done DEV: the flush requests the block device DEV has completed (field 16 of
# /sys/block/DEV/stat, Linux 5.5 and later), or "" when the kernel does not count them.
flushes_done() {
	awk '{ print (NF >= 17 ? $16 : "") }' "/sys/block/$1/stat" 2>/dev/null
}

# --- what is probed, and when --------------------------------------------------------
d=$(new_dir)
run_vb --no-progress --sync none bs=64k count=4 runs=1 "$d"
if has "$OUT" '^# flush'; then not_ok "--sync none makes no flush probe" "$OUT"; else ok "--sync none makes no flush probe"; fi
run_vb --no-progress --check-flush bs=64k count=4 runs=1 /dev/null
expect_out '^# flush: not checked: the target is a data sink' "--check-flush on a sink says why nothing was checked"
run_vb --no-progress -f csv --check-flush bs=64k count=4 runs=2 /dev/null
expect_out '^sink-null,0,0,.*,0,1,flush,' "the flush row is run 0, partial, status flush"
run_vb --no-progress -f json bs=64k count=4 runs=1 "$d"
expect_out '"knee": \{"runs_checked": 0, "runs_with_knee": 0\}' "a run too short for samples checks no knee"
if has "$OUT" '"intervals": \[\{'; then not_ok "samples taken for the knee alone are not printed" "$OUT"; else ok "samples taken for the knee alone are not printed"; fi

# --- --trace: one row per interval, appended, header once ----------------------------
run_vb --no-progress --sync none --interval 0.01 --trace "$SCRATCH/trace.csv" -l tr bs=4k count=3000 runs=2 "$d"
expect_rc 0 "--trace writes the samples"
if [ -f "$SCRATCH/trace.csv" ]; then
	check "the trace's header names time, bytes and rate" \
		grep -q '^label,run,warmup,start_secs,secs,bytes,bytes_per_sec' "$SCRATCH/trace.csv"
	total=$(awk -F, 'NR > 1 { s += $6 } END { print s }' "$SCRATCH/trace.csv")
	check "the trace's bytes add up to the runs' ($total of 24576000)" [ "$total" = 24576000 ]
	check "the trace has rows of both runs" sh -c "grep -q '^tr,1,' '$SCRATCH/trace.csv' && grep -q '^tr,2,' '$SCRATCH/trace.csv'"
	run_vb report --svg "$SCRATCH/trace.svg" "$SCRATCH/trace.csv"
	expect_out '^tr run 2: [0-9]+ samples over ' "report sums up each run of the trace"
	check "and draws it" grep -q 'tr: write rate within each run' "$SCRATCH/trace.svg"
else
	not_ok "--trace made no file"
fi

need_linux "loop devices, tmpfs and the blkio throttle"
need_root "loop devices, tmpfs and the blkio throttle"

# --- a loop device over a file on a tmpfs: flushes do no work -------------------------
m=$SCRATCH/tmpfs
mkdir -p "$m"
if mount -t tmpfs -o size=80m vbench-lies "$m"; then
	add_mount "$m"
	truncate -s 64m "$m/disk.img"
	L=$(losetup -f --show "$m/disk.img") && add_loop "$L"
	n=${L#/dev/}
	# The verdict is a measurement: on a loaded machine a flush that does nothing can
	# still cost enough more than a write for vbench to say it cannot tell (which is
	# honest). Up to three sessions are made; one must find it.
	tries=0
	while [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		before=$(flushes_done "$n")
		run_vb --no-progress --force --direct --check-flush -f json -l tmpfs-loop bs=1M count=16 runs=2 "$L"
		after=$(flushes_done "$n")
		[ "$RC" = 0 ] && [ "$(json_member "$OUT" verdict)" = no-work ] && break
	done
	expect_rc 0 "vbench --check-flush on a loop device over tmpfs"
	v=$(json_member "$OUT" verdict)
	check "a loop device over tmpfs: flushes do no work (verdict $v)" [ "$v" = no-work ]
	calls=$(json_member "$OUT" calls)
	if [ -n "$before" ] && [ -n "$after" ] && [ -n "$calls" ]; then
		# Each run ends with one fsync, which the block layer makes one flush.
		check "the device completed the flushes vbench says it sent ($((after - before)) = 2 + $calls)" \
			[ $((after - before)) = $((2 + calls)) ]
	else
		skip "this kernel does not count flushes in /sys/block/$n/stat"
	fi
	tries=0
	while [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		run_vb --no-progress --force --direct --check-flush -l tmpfs-loop bs=1M count=16 runs=1 "$L"
		has "$OUT" '^# flush \(fsync\): no work: ' && break
	done
	expect_out '^# flush \(fsync\): no work: flush - 4 KiB write [-+][0-9.]+ .s \(99%: [-+][0-9.]+ .s to [-+][0-9.]+ .s, 256 pairs; margin 20 us\)' \
		"the summary says so in words, with the figures it used"
	line=$(printf '%s\n' "$OUT" | grep '^# flush')
	check "in two 80-column lines (${#line} characters)" [ "${#line}" -le 160 ]
	expect_out '^# guest: the kernel believes the disk has a volatile write cache' "and what the kernel believes of its cache"
	if has "$OUT" ' safe|(is|are) durable'; then
		not_ok "nothing is called durable or safe" "$OUT"
	else
		ok "nothing is called durable or safe"
	fi
	# The probe writes direct whatever the runs did: buffered runs, whose descriptor
	# goes through the page cache, do not make the flushes look like work.
	tries=0
	while [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		run_vb --no-progress --force --check-flush -f json -l buffered bs=1M count=16 runs=1 "$L"
		[ "$(json_member "$OUT" verdict)" = no-work ] && break
	done
	v=$(json_member "$OUT" verdict)
	check "runs without --direct: the probe still finds no work (verdict $v)" [ "$v" = no-work ]
	# and opens the disk again for it: direct, never O_DSYNC, even after --sync dsync runs
	if command -v strace >/dev/null 2>&1; then
		strace -f -qq -e trace=openat,dup,fcntl -o "$SCRATCH/strace" "$VBENCH" --no-progress -q \
			--force --sync dsync --check-flush bs=1M count=16 runs=1 "$L" >/dev/null 2>&1
		opens=$(grep "\"$n\", O_WRONLY" "$SCRATCH/strace")
		last=$(printf '%s\n' "$opens" | tail -n 1)
		check "--sync dsync: the session opens $n with O_DSYNC" has "$opens" 'O_DSYNC'
		if [ "$(printf '%s\n' "$opens" | grep -c .)" -ge 2 ] && has "$last" O_DIRECT &&
			! has "$last" O_DSYNC; then
			ok "and the probe opens it again, direct and without O_DSYNC"
		else
			not_ok "the probe does not open $n again, direct and without O_DSYNC" "$opens"
		fi
	else
		skip "no strace: the probe's open flags"
	fi
	# Told its cache writes through, the kernel sends the device no flush at all, and
	# vbench says so; the device's count of flushes does not move.
	if echo "write through" >"/sys/block/$n/queue/write_cache" 2>/dev/null; then
		before=$(flushes_done "$n")
		run_vb --no-progress --force --direct --check-flush -l wt bs=1M count=16 runs=1 "$L"
		after=$(flushes_done "$n")
		expect_out '^# guest: the kernel believes the disk has no volatile write cache .*sends the disk no flushes at all' \
			"write through: the summary says the kernel sends no flushes"
		if [ -n "$before" ] && [ -n "$after" ]; then
			check "write through: no flush reached the device ($((after - before)))" [ "$after" = "$before" ]
		fi
		echo "write back" >"/sys/block/$n/queue/write_cache"
	else
		skip "cannot set the loop device's write cache to write through"
	fi
	# The loop device holds the tmpfs busy: it goes first.
	losetup -d "$L"
	umount "$m"
else
	skip "cannot mount a tmpfs"
fi

# --- btrfs over storage that ignores flushes: the file system's own work is no flush's --
# A copy-on-write file system writes metadata of its own at every sync, even of a direct
# overwrite: on a loop device over a tmpfs file (whose flushes persist nothing, above)
# a file's flushes on btrfs take time, which says nothing of the storage.
if ! command -v mkfs.btrfs >/dev/null 2>&1; then
	skip "no mkfs.btrfs: the flush verdict on a copy-on-write file system"
elif mkdir -p "$SCRATCH/cow" "$SCRATCH/cow.mnt" &&
	mount -t tmpfs -o size=300m vbench-lies-cow "$SCRATCH/cow"; then
	add_mount "$SCRATCH/cow"
	truncate -s 256m "$SCRATCH/cow/disk.img"
	L=$(losetup -f --show --direct-io=on "$SCRATCH/cow/disk.img") && add_loop "$L"
	if mkfs.btrfs -q -f "$L" >/dev/null 2>&1 && mount "$L" "$SCRATCH/cow.mnt"; then
		add_mount "$SCRATCH/cow.mnt"
		for sync in fsync fdatasync; do
			run_vb --no-progress --sync $sync --check-flush -f json -l btrfs bs=1M count=20 runs=1 \
				"$SCRATCH/cow.mnt"
			v=$(json_member "$OUT" verdict)
			case $v in
			undecided)
				check "btrfs over a tmpfs, --sync $sync: cannot tell, and says why" \
					has "$OUT" '"why": "btrfs syncs its own metadata \(copy on write\): [+-][0-9.]+ .s over a 4 KiB write; measure the disk or ext4/xfs"' ;;
			no-work) ok "btrfs over a tmpfs, --sync $sync: no work" ;;
			*) not_ok "btrfs over a tmpfs, --sync $sync: verdict '$v', never works" "$OUT" ;;
			esac
		done
	else
		skip "cannot make or mount a btrfs on $L"
	fi
else
	skip "cannot mount a tmpfs for btrfs"
fi

# --- the probe writes only where the runs wrote ----------------------------------------
# A disk full of a pattern; runs of 16 blocks of 4 KiB: every byte after the first 64 KiB
# is the pattern still, and the probe was made (within those 64 KiB).
yes vbench-pattern-0123456789 | head -c 67108864 >"$SCRATCH/pattern.img"
cp "$SCRATCH/pattern.img" "$SCRATCH/patterned.img"
L=$(losetup -f --show "$SCRATCH/patterned.img") && add_loop "$L"
run_vb --no-progress --force --check-flush -f json bs=4k count=16 "$L"
expect_rc 0 "vbench --check-flush bs=4k count=16 on a 64 MiB disk"
calls=$(json_member "$OUT" calls)
check "the probe was made within the runs' 64 KiB ($calls calls)" [ "${calls:-0}" -gt 0 ]
losetup -d "$L"
check "every byte past the runs' 64 KiB is unchanged" \
	cmp -s -i 65536 "$SCRATCH/pattern.img" "$SCRATCH/patterned.img"
rm -f "$SCRATCH/pattern.img" "$SCRATCH/patterned.img"

# --- the blkio throttle on a direct-io loop device: a steady rate, no knee --------------
cg=/sys/fs/cgroup/blkio
if [ -w "$cg/cgroup.procs" ] && [ -e "$cg/blkio.throttle.write_bps_device" ]; then
	truncate -s 128m "$SCRATCH/steady.img"
	L=$(losetup --direct-io=on -f --show "$SCRATCH/steady.img") && add_loop "$L"
	mm=$(lsblk -dno MAJ:MIN "$L" | tr -d ' ')
	g=$cg/vbench-lies-$$
	mkdir "$g"
	# The group goes however this file ends (once empty: its process has ended).
	trap 'rmdir "$g" 2>/dev/null; finish' EXIT
	# Well below what the disk does even on a busy machine, so the throttle sets the rate.
	rate=8388608    # 8 MiB/s
	echo "$mm $rate" >"$g/blkio.throttle.write_bps_device"
	# The shell moves itself into the group, then becomes vbench; the worker follows.
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$g" \
		"$VBENCH" --no-progress --force --direct -f json -l throttled bs=1M count=48 runs=1 \
		"$L" >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
	OUT=$(cat "$SCRATCH/out")
	ERR=$(cat "$SCRATCH/err")
	echo $$ >"$cg/cgroup.procs" 2>/dev/null
	rmdir "$g" 2>/dev/null
	trap finish EXIT
	expect_rc 0 "vbench under the blkio throttle"
	checked=$(json_member "$OUT" runs_checked)
	found=$(json_member "$OUT" runs_with_knee)
	check "a throttled steady rate is checked for a knee (runs_checked $checked)" [ "$checked" = 1 ]
	check "and has none (runs_with_knee $found)" [ "$found" = 0 ]
	mean=$(json_member "$OUT" mean)
	check "the rate is the throttle's ($mean bytes/s against $rate)" \
		awk -v m="$mean" -v r="$rate" 'BEGIN { exit !(m > 0.8 * r && m < 1.1 * r) }'
else
	skip "no writable cgroup v1 blkio hierarchy"
fi
