#!/bin/sh
# /init of the vbench test guest; see tests/vm/run.sh on the host for the whole story.
# It runs as PID 1 in an initramfs; every disk it writes is an image file on the host.

/bin/busybox --install -s /bin
PATH=/bin
export PATH

# Refuse to run anywhere but as the init of the test guest, so that this script can
# never overwrite a disk by mistake.
if [ "$$" != 1 ] || [ ! -f /vmtest.conf ]; then
	echo "vmtest init: not PID 1 of the test initramfs; refusing to touch any disk" >&2
	exit 1
fi

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
hostname vmtest-guest
. /vmtest.conf

say() { echo "vmtest-guest: $*"; }

# Ends the guest. The pause lets the serial port send out what is still buffered
# before the power goes.
finish() {
	sleep 1
	poweroff -f
	sleep 10
}

# The host boots once with "vmtest=probe" to find out whether KVM works at all.
if grep -q 'vmtest=probe' /proc/cmdline; then
	echo "=====VMTEST-PROBE-OK====="
	finish
fi

while read -r m; do
	insmod "/lib/modules/$m.ko" || say "insmod $m failed"
done </lib/modules/load-order

# From here on only emergencies reach the console, so that kernel messages (such as
# the I/O errors of the blkdebug disk) cannot cut into the lines the host parses.
dmesg -n 1

# sys_driver NAME: the driver of block device NAME as /sys tells it: the first device
# with a driver on the way from the disk up to the root of the device tree, and for a
# SCSI disk, whose own driver is always "sd", also the host adapter's: "sd/ata_piix".
sys_driver() {
	d=$(readlink -f "/sys/block/$1/device")
	first=""
	while [ -n "$d" ] && [ "$d" != / ] && [ "$d" != /sys/devices ]; do
		if [ -e "$d/driver" ]; then
			n=$(basename "$(readlink -f "$d/driver")")
			if [ -z "$first" ]; then
				first=$n
				[ "$n" = sd ] || break
			else
				first=$first/$n
				break
			fi
		fi
		d=$(dirname "$d")
	done
	echo "${first:-none}"
}

# find_disks: sets dev_BUS and drv_BUS for each disk, naming the bus from the kind
# of device and, for SCSI disks, from the host adapter's driver. The blkdebug disk is
# the virtio disk with serial number "vbfault".
find_disks() {
	for p in /sys/block/*; do
		n=${p##*/}
		case $n in
		vd* | sd* | hd* | nvme*) ;;
		*) continue ;;
		esac
		drv=$(sys_driver "$n")
		case $n in
		vd*)
			s=$(cat "$p/serial" 2>/dev/null)
			case $s in
			vbfault) bus=fault ;;
			vbdiscard | vbslowflush | vbdelay | vbslowwrite | vbcache | vbidle) bus=${s#vb} ;;
			vbq*) bus=${s#vb} ;;
			*) bus=virtio ;;
			esac
			;;
		nvme*) bus=nvme ;;
		*)
			case $drv in
			*/ata_piix | */ata_generic | */pata_*) bus=ide ;;
			*/virtio_scsi | */sym53c8xx | */mptspi | */megaraid*) bus=scsi ;;
			*) bus=other ;;
			esac
			;;
		esac
		eval "dev_$bus=\$n drv_$bus=\$drv"
	done
}

# Disks on SCSI buses are found asynchronously; wait until every expected one is there.
tries=0
while :; do
	find_disks
	all=1
	for b in $BUSES fault $LIES $QMODES; do
		eval "[ -n \"\${dev_$b:-}\" ]" || all=0
	done
	[ "$all" = 1 ] && break
	tries=$((tries + 1))
	[ "$tries" -ge 60 ] && break
	sleep 1
done
for b in $BUSES fault $LIES $QMODES; do
	eval "say \"$b disk: \${dev_$b:-MISSING} \${drv_$b:-}\""
done

csv=/tmp/vbench.csv
: >/tmp/expect
for b in $BUSES; do
	eval "n=\${dev_$b:-} drv=\${drv_$b:-}"
	if [ -z "$n" ]; then
		say "no disk found for bus $b"
		echo "$b-raw MISSING - -" >>/tmp/expect
		echo "$b-raw-qd8 MISSING - -" >>/tmp/expect
		echo "$b-ext2 MISSING - -" >>/tmp/expect
		continue
	fi

	say "$b: vbench on the raw device /dev/$n"
	vbench --force --direct --no-progress -q -b "$BS" -c "$COUNT" -r "$RUNS" \
		--warmup "$WARMUP" -l "$b-raw" --csv-append "$csv" "/dev/$n"
	echo "$b-raw /dev/$n $drv $?" >>/tmp/expect

	say "$b: vbench on the raw device /dev/$n, 8 writes in flight"
	vbench --force --direct --no-progress -q --qd 8 -b "$BS" -c "$COUNT" -r "$RUNS" \
		--warmup "$WARMUP" -l "$b-raw-qd8" --csv-append "$csv" "/dev/$n"
	echo "$b-raw-qd8 /dev/$n $drv $?" >>/tmp/expect

	say "$b: vbench on ext2 on /dev/$n"
	mkdir -p "/mnt/$b"
	if mke2fs -F "/dev/$n" >/tmp/mkfs.log 2>&1 && mount -t ext2 "/dev/$n" "/mnt/$b"; then
		vbench --no-progress -q -b "$BS" -c "$COUNT" -r "$RUNS" \
			--warmup "$WARMUP" -l "$b-ext2" --csv-append "$csv" "/mnt/$b"
		echo "$b-ext2 /dev/$n $drv $?" >>/tmp/expect
		umount "/mnt/$b"
	else
		cat /tmp/mkfs.log
		say "$b: cannot make or mount ext2 on /dev/$n"
		echo "$b-ext2 /dev/$n $drv mkfs-failed" >>/tmp/expect
	fi
done

echo "=====VBENCH-CSV-BEGIN====="
cat "$csv" 2>/dev/null
echo "=====VBENCH-CSV-END====="
echo "=====VBENCH-EXPECT-BEGIN====="
cat /tmp/expect
echo "=====VBENCH-EXPECT-END====="

# The fault case: the blkdebug disk fails every write once the first run has been
# flushed, so run 1 completes and run 2 fails. A time limit turns a hang into a failure.
if [ -n "${dev_fault:-}" ]; then
	say "fault: vbench on /dev/$dev_fault, which fails with EIO after the first run"
	timeout 300 vbench --force --direct --no-progress -b "$BS" -c "$COUNT" -r "$RUNS" \
		-l virtio-blkdebug --csv-append /tmp/fault.csv "/dev/$dev_fault" >/tmp/fault.out 2>&1
	rc=$?
else
	echo "no blkdebug disk found" >/tmp/fault.out
	rc=none
fi
echo "=====VBENCH-FAULT-BEGIN====="
echo "exit=$rc"
cat /tmp/fault.out
echo "=====VBENCH-FAULT-END====="
echo "=====VBENCH-FAULT-CSV-BEGIN====="
cat /tmp/fault.csv 2>/dev/null
echo "=====VBENCH-FAULT-CSV-END====="

# flush_sessions DEV LABEL: the --check-flush session on /dev/DEV, $SESSIONS times, each
# followed by its exit status; then the flushes the guest's kernel completed in all, to
# tell its flushes from QEMU's. Only the lines about flushes are shown (all of the JSON
# document with FLUSH_FORMAT=json, which holds the probe's pairs).
flush_sessions() {
	f0=$(awk '{ print $16 }' "/sys/block/$1/stat")
	fmt=""
	[ "$FLUSH_FORMAT" = json ] && fmt="-f json"
	i=1
	while [ "$i" -le "$SESSIONS" ]; do
		timeout 300 vbench --force --direct --check-flush --no-progress $fmt -b 1M -c 12 \
			-r 1 -l "$2" --csv-append /tmp/lies.csv "/dev/$1" >/tmp/lies.out 2>&1
		rc=$?
		if [ -n "$fmt" ]; then
			cat /tmp/lies.out
		else
			grep -E '^# (flush|guest)|^vbench: (error|warning: [^:]*: .*flush)' /tmp/lies.out
		fi
		echo "exit=$rc"
		i=$((i + 1))
	done
	echo "guest-flushes=$(($(awk '{ print $16 }' "/sys/block/$1/stat") - f0))"
}

# The nbdkit disks: the flush sessions on the one that drops flushes, the one whose
# flushes take 10 ms and the one whose writes take 1 ms and flushes 1.3 ms, and a run
# long enough for a knee on the one whose rate falls after 16 MiB; then the flush
# sessions on QEMU's cache modes. The CSV holds the verdicts, the probe's count of sync
# calls and the knee.
for b in $LIES $QMODES; do
	eval "n=\${dev_$b:-}"
	echo "=====VBENCH-LIES-$b-BEGIN====="
	if [ -z "$n" ]; then
		echo "no $b disk found"
	elif [ "$b" = idle ]; then
		echo "untouched: what QEMU and the kernel flush on their own"
	elif [ "$b" = cache ]; then
		timeout 300 vbench --force --direct --no-progress --interval 0.1 -b 1M -c 32 -r 1 \
			-l "nbd-$b" --csv-append /tmp/lies.csv "/dev/$n" >/tmp/lies.out 2>&1
		rc=$?
		cat /tmp/lies.out
		echo "exit=$rc"
	else
		case $b in
		q*) label=qemu-${b#q} ;;
		*) label=nbd-$b ;;
		esac
		flush_sessions "$n" "$label"
	fi
	echo "=====VBENCH-LIES-$b-END====="
done
echo "=====VBENCH-LIES-CSV-BEGIN====="
cat /tmp/lies.csv 2>/dev/null
echo "=====VBENCH-LIES-CSV-END====="

echo "=====VMTEST-DONE====="
finish
