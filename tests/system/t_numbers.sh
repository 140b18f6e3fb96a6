# Numbers that must be their own (issue 24, class 4): each CSV row's rate is its own
# bytes over its own seconds, and --sync fdatasync puts the data on the device before
# the clock stops, as the device itself counts it (no strace needed).
. "$(dirname "$0")/lib.sh"

# rows_consistent FILE: every run row's bytes_per_sec is its bytes / secs (to the rounding
# of the six decimals of secs), found by the header's column names. The flush check's row
# (status "flush", there when the short check was worth its time) is not a run.
rows_consistent() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["status"] == "flush" { next }
	{
		b = $col["bytes"]; s = $col["secs"]; r = $col["bytes_per_sec"]
		if (s <= 0) { bad++; next }
		want = b / s
		d = r - want; if (d < 0) d = -d
		# secs has six decimals: allow its rounding (b / (s - 0.0000005) at most) and
		# one for bytes_per_sec
		if (d > 1 + want * (0.0000005 / (s - 0.0000005))) { bad++; printf "row %d: %s bytes / %s s is not %s\n", NR, b, s, r }
		rows++
	}
	END { exit !(rows > 0 && bad == 0) }' "$1"
}

d=$(new_dir)
run_vb --no-progress -f csv bs=64k count=64 runs=5 "$d"
expect_rc 0 "a CSV session of five runs"
printf '%s\n' "$OUT" >"$SCRATCH/rows.csv"
check "each CSV row's bytes_per_sec is its own bytes over its own secs" rows_consistent "$SCRATCH/rows.csv"
run_vb --no-progress bs=64k count=64 runs=5 --csv-append "$d/../rows-appended.csv" "$d"
check "so is each row of the --csv-append file" rows_consistent "$d/../rows-appended.csv"

# ---------------------------------------------------------------------------------------
need_root "a loop device, to count what reaches the device"
need_linux "the loop device's statistics"

# sectors_written DEV: what the block layer counts as written to DEV (field 7 of stat).
sectors_written() { awk '{print $7}' "/sys/block/$1/stat"; }

d=$(new_dir)
truncate -s 128M "$d/n.img"
mkfs.ext4 -q "$d/n.img"
mkdir "$d/m"
L=$(losetup -f --show "$d/n.img") && add_loop "$L"
# (noauto_da_alloc: ext4 would otherwise start writeback itself when a file emptied by
# truncation is closed, as every run's is)
if mount -o noauto_da_alloc "$L" "$d/m"; then
	add_mount "$d/m"
	n=${L#/dev/}
	# Writeback of dirty pages waits tens of seconds (dirty_expire_centisecs): what reaches
	# the device within the session was synced by vbench.
	for mode in fdatasync fsync; do
		sync
		before=$(sectors_written "$n")
		run_vb --no-progress --keep --sync $mode bs=1M count=16 runs=1 "$d/m/$mode.img"
		after=$(sectors_written "$n")
		expect_rc 0 "--sync $mode on ext4 over a loop device"
		check "--sync $mode: the run's 16 MiB reached the device before vbench ended ($(((after - before) / 2048)) MiB)" [ $((after - before)) -ge 32768 ]
		rm -f "$d/m/$mode.img"
	done
	umount "$d/m"
else
	skip "cannot mount ext4 on a loop device"
fi
