#!/bin/sh
# End-to-end test of vbench in a real guest: "make vmtest".
#
# Usage: sh tests/vm/run.sh [--help]        (or: make vmtest, which builds first)
#
# Settings (environment variables; docs/vmtest.md says more):
#   VMTEST_BUSES    the buses to test, from "virtio ide scsi nvme" (the default);
#                   "virtio ide" is the virtio-against-IDE comparison alone
#   VMTEST_RUNS     measured runs per configuration (default 5)
#   VMTEST_WARMUP   warm-up runs before them, left out of the figures (default 1)
#   VMTEST_COUNT, VMTEST_BS   blocks per run and block size (default 32 and 1M;
#                   the disks are 64 MiB, so COUNT x BS must stay below 60 MiB)
#   VMTEST_OUT      the directory the results are kept in (default ./vmtest-out):
#                   vbench.csv (every guest run), report.md (its report), and the
#                   bus comparison: bus.csv, bus.txt, bus.svg (the chart)
#   VMTEST_BASELINE the bus the others are compared with (default ide when tested,
#                   else the first of VMTEST_BUSES)
#   VMTEST_ACCEL    tcg, kvm, or auto (the default: KVM only when /dev/kvm exists and
#                   a probe boot finishes in time; nested KVM can hang, so the probe
#                   has its own short time limit)
#   VMTEST_TIMEOUT  seconds the guest may take before it is killed and the test fails
#                   (default 600; a TCG run takes a few minutes on a busy machine)
#   VMTEST_CACHE    QEMU's cache mode for the images (default: none where the host's
#                   filesystem supports O_DIRECT, else writeback)
#   VMTEST_FLUSH_MODES  the cache modes of the flush disks, from "unsafe none
#                   writethrough writeback" (the default); "-" for none
#   VMTEST_SESSIONS the --check-flush sessions on each flush disk (default 5)
#   VMTEST_FLUSH_FORMAT  human (the default) or json: what the flush sessions print on
#                   the console (json carries the probe's pairs)
#   VMTEST_FLUSH_DIR    where the flush disks' images go (default /var/tmp: the
#                   host's disk, not a tmpfs)
#   VMTEST_KERNEL   the kernel image (default: the newest /boot/vmlinuz-* that has
#                   modules under /lib/modules)
#   VBENCH_STATIC   the static binary to put in the guest (default ./vbench-static)
#
# The last lines printed are the bus comparison's verdict (each bus's raw device at
# QD 1 against the baseline's); a failed check that is not about the buses (the
# blkdebug fault, the nbdkit disks) is listed apart, above it, and also makes the
# exit status 1.
#
# How it works:
# vbench is meant to be copied into a virtual machine and compare its disks, so this
# test does exactly that. It builds a small initramfs (busybox, the static vbench, and
# the kernel modules the disks need, taken from Debian's linux-image-amd64), boots it in
# qemu-system-x86_64 with several small raw disk images on different buses (virtio-blk,
# IDE, virtio-scsi, NVMe), and inside the guest:
#   - runs vbench on each raw device with --force --direct, once with one write in
#     flight and once with eight (--qd 8), then makes an ext2
#     filesystem on it and runs vbench on that, all appending to one CSV file with
#     labels such as "virtio-raw" and "ide-ext2";
#   - records, from /sys, the driver the guest kernel really bound to each disk, so that
#     the host can compare it with the driver column vbench wrote;
#   - runs vbench on one more virtio disk that QEMU's blkdebug driver makes fail with
#     EIO once the first run has been flushed, and records vbench's exit status and
#     output;
#   - runs vbench on five disks that nbdkit serves, whose behaviour the test made: one
#     whose flushes are dropped (the fua filter, fuamode=discard), one whose flushes
#     take 10 ms (tests/vm/lies-disk.c, through nbdkit's cc plugin), one whose writes
#     take 1 ms (the delay filter) and flushes 1.3 ms (the plugin), one whose writes
#     take 10 ms and flushes 1 ms (a write no yardstick for a flush), and one whose rate
#     falls after 16 MiB (the same plugin); the stats filter counts the flushes that
#     really arrived, less those that a sixth disk, never written, receives anyway;
#   - runs the --check-flush session five times on each disk whose flushes are judged:
#     those nbdkit disks, and raw images on the host's disk (under /var/tmp, not a
#     tmpfs) with cache=unsafe, none, writethrough and writeback; QMP's
#     query-blockstats gives the host's count and time of the guest's flushes on each,
#     and its latency histograms of writes and flushes (tests/vm/blockstats.py); the
#     verdicts must agree with what a flush costs the host beyond a write (vbench's own
#     yardstick) or say they cannot tell, and where that cost is clearly above or below
#     vbench's margin at least four of five must decide (on the disk whose writes cost
#     ten flushes: never "no work", and "cannot tell" says why);
#   - prints all of that on the serial console between marker lines and powers off.
# The host then checks the results (the flush verdicts and counts, the knee), prints "vbench report --format markdown" of the CSV
# and the time taken, and exits non-zero on any failure.
#
# No disk of the host is ever touched: the guest's disks are image files in a temporary
# directory, which is removed however the script ends.
set -eu

case ${1:-} in
-h | --help)
	sed -n '2,/^# How it works:$/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
"") ;;
*)
	echo "vmtest: unknown argument '$1' (settings are environment variables; see --help)" >&2
	exit 1
	;;
esac

start=$(date +%s)
top=$(cd "$(dirname "$0")/../.." && pwd)
# The results directory is named relative to where the user started, not to $top.
out=${VMTEST_OUT:-vmtest-out}
case $out in
/*) ;;
*) out=$PWD/$out ;;
esac
cd "$top"

accel_req=${VMTEST_ACCEL:-auto}
limit=${VMTEST_TIMEOUT:-600}
buses=${VMTEST_BUSES:-virtio ide scsi nvme}
runs=${VMTEST_RUNS:-5}
warmup=${VMTEST_WARMUP:-1}
count=${VMTEST_COUNT:-32}
bs=${VMTEST_BS:-1M}
disk_mib=64
# The nbdkit disks whose behaviour is known (see "Disks served by nbdkit" below).
lies="discard slowflush delay slowwrite cache idle"
flush_modes=${VMTEST_FLUSH_MODES:-unsafe none writethrough writeback}
[ "$flush_modes" = - ] && flush_modes=""
sessions=${VMTEST_SESSIONS:-5}
flush_format=${VMTEST_FLUSH_FORMAT:-human}
# What a flush costs the host beyond a write for vbench to call it work (its margin,
# VB_FLUSH_MARGIN_NS in include/common/vb_flushverdict.h), in ns.
margin_ns=20000
vbench_bin=${VBENCH_STATIC:-$top/vbench-static}

say() { echo "vmtest: $*"; }
die() {
	echo "vmtest: FAIL: $*" >&2
	exit 1
}
elapsed() { echo $(($(date +%s) - start)); }

for b in $buses; do
	case $b in
	virtio | ide | scsi | nvme) ;;
	*) die "unknown bus '$b' in VMTEST_BUSES (known: virtio ide scsi nvme)" ;;
	esac
done
baseline=${VMTEST_BASELINE:-}
if [ -z "$baseline" ]; then
	case " $buses " in
	*" ide "*) baseline=ide ;;
	*) baseline=${buses%% *} ;;
	esac
fi
case " $buses " in
*" $baseline "*) ;;
*) die "VMTEST_BASELINE '$baseline' is not one of VMTEST_BUSES ($buses)" ;;
esac
# Results of an earlier run are removed first, so that nothing old is read as new.
mkdir -p "$out" || die "cannot create the results directory $out (VMTEST_OUT)"
rm -f "$out/vbench.csv" "$out/report.md" "$out/bus.csv" "$out/bus.txt" "$out/bus.svg"
for m in $flush_modes; do
	case $m in
	unsafe | none | writethrough | writeback) ;;
	*) die "unknown cache mode '$m' in VMTEST_FLUSH_MODES" ;;
	esac
done
case $flush_format in
human | json) ;;
*) die "VMTEST_FLUSH_FORMAT must be human or json" ;;
esac

# --- Tools and packages --------------------------------------------------------------

# find_kernel: prints the newest /boot/vmlinuz-VERSION whose modules are installed.
find_kernel() {
	if [ -n "${VMTEST_KERNEL:-}" ]; then
		echo "$VMTEST_KERNEL"
		return
	fi
	for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V -r); do
		if [ -f "/lib/modules/${k#/boot/vmlinuz-}/modules.dep" ]; then
			echo "$k"
			return
		fi
	done
}

# static_busybox: prints the path of a statically linked busybox, if there is one. The
# initramfs has no shared libraries, so a dynamically linked busybox would not start.
static_busybox() {
	for bb in /bin/busybox /usr/bin/busybox; do
		[ -x "$bb" ] || continue
		if command -v file >/dev/null 2>&1; then
			case $(file -L -b "$bb") in
			*"statically linked"* | *"static-pie linked"*) echo "$bb"; return ;;
			esac
		elif ! ldd "$bb" >/dev/null 2>&1; then
			echo "$bb"
			return
		fi
	done
}

# missing_packages: prints the Debian packages whose files this test cannot find.
missing_packages() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || printf '%s ' qemu-system-x86
	[ -n "$(find_kernel)" ] || printf '%s ' linux-image-amd64
	[ -n "$(static_busybox)" ] || printf '%s ' busybox-static
	command -v cpio >/dev/null 2>&1 || printf '%s ' cpio
	command -v gzip >/dev/null 2>&1 || printf '%s ' gzip
	command -v nbdkit >/dev/null 2>&1 || printf '%s ' nbdkit
	# the cc plugin compiles tests/vm/lies-disk.c against this header
	[ -f /usr/include/nbdkit-plugin.h ] || printf '%s ' nbdkit-plugin-dev
}

missing=$(missing_packages)
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing $missing"
		DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
		# $missing is a list of package names, split on purpose.
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null
		missing=$(missing_packages)
		[ -z "$missing" ] || die "still missing after apt-get install: $missing"
	else
		echo "vmtest: missing packages: $missing" >&2
		echo "vmtest: install them first, for example: sudo apt-get install $missing" >&2
		exit 1
	fi
fi

kernel=$(find_kernel)
kver=${kernel##*/vmlinuz-}
moddir=/lib/modules/$kver
busybox=$(static_busybox)
[ -r "$kernel" ] || die "cannot read $kernel (on some systems only root may)"
[ -f "$moddir/modules.dep" ] || die "no $moddir/modules.dep for kernel $kernel"

if [ ! -x "$vbench_bin" ]; then
	say "$vbench_bin is missing; building it"
	sh tests/vm/build-static.sh
fi

# --- Temporary directory, always cleaned up --------------------------------------------

work=$(mktemp -d "${TMPDIR:-/tmp}/vbench-vmtest.XXXXXX")
# The flush disks' images are on the host's disk: their flushes reach it.
fdir=$(mktemp -d "${VMTEST_FLUSH_DIR:-/var/tmp}/vbench-vmtest-flush.XXXXXX")
qpid=""
nbd_pids=""
spid=""
cleanup() {
	# Stop a guest that is still running (only the one this script started), and the
	# nbdkit servers it started, then remove the images, the initramfs and the logs.
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	for p in $nbd_pids $spid; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$work" "$fdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# QEMU's -drive syntax separates options with commas, and a blkdebug file name
# separates the rules file from the image with a colon; neither may appear in the path.
case $work$fdir in
*,* | *:*) die "the temporary directory $work or $fdir contains a comma or colon; set TMPDIR" ;;
esac

# --- Kernel modules --------------------------------------------------------------------

# The disk drivers and ext2 support that the guest needs. Whatever this kernel has built
# in is skipped; everything else is copied with its dependencies and loaded in order.
# crc32c_generic is not a hard dependency of ext4 but ext4 and jbd2 ask for a "crc32c"
# implementation at run time, and the guest has no modprobe to find one.
wanted="virtio_pci virtio_blk ext4 crc32c_generic"
for b in $buses; do
	case $b in
	ide) wanted="$wanted ata_piix sd_mod" ;;
	scsi) wanted="$wanted virtio_scsi sd_mod" ;;
	nvme) wanted="$wanted nvme" ;;
	esac
done
optional="crc32c_generic"

# Prints the modules' paths relative to $moddir, dependencies first, one a line. The
# dependency lists in modules.dep are already transitive, but their order is not a load
# order, so each dependency is visited depth first before the module that needs it.
# Names are compared with "-" and "_" treated alike, as the kernel does.
resolve_modules() {
	awk -v wanted="$wanted" -v optional="$optional" '
	function modname(p,   n) {
		n = p
		sub(/^.*\//, "", n)
		sub(/\.ko(\.(xz|zst|gz))?$/, "", n)
		gsub(/-/, "_", n)
		return n
	}
	function visit(n,   list, k, i) {
		if (n in done)
			return
		done[n] = 1
		if (n in builtin)
			return
		if (!(n in path)) {
			if (!(n in opt))
				missing = missing " " n
			return
		}
		k = split(deps[n], list, " ")
		for (i = 1; i <= k; i++)
			visit(modname(list[i]))
		print path[n]
	}
	FILENAME ~ /modules\.builtin$/ { builtin[modname($0)] = 1; next }
	{
		p = $0
		sub(/:.*$/, "", p)
		d = $0
		sub(/^[^:]*:[ \t]*/, "", d)
		n = modname(p)
		path[n] = p
		deps[n] = d
	}
	END {
		split(optional, o, " ")
		for (i in o)
			opt[o[i]] = 1
		k = split(wanted, w, " ")
		for (i = 1; i <= k; i++)
			visit(w[i])
		if (missing != "") {
			print "missing:" missing > "/dev/stderr"
			exit 1
		}
	}' "$moddir/modules.builtin" "$moddir/modules.dep"
}

root=$work/root
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/mnt" "$root/tmp" "$root/lib/modules"
: >"$root/lib/modules/load-order"
modlist=$(resolve_modules) || die "kernel $kver lacks modules the test needs (see above)"
for rel in $modlist; do
	name=$(basename "$rel")
	base=${name%%.ko*}
	src=$moddir/$rel
	# Compressed modules are unpacked here, on the host, so that the guest's busybox
	# insmod does not need to understand the compression.
	case $name in
	*.ko) cp "$src" "$root/lib/modules/$base.ko" ;;
	*.ko.xz) xz -dc "$src" >"$root/lib/modules/$base.ko" || die "cannot unpack $src (install xz-utils)" ;;
	*.ko.zst) zstd -q -dc "$src" >"$root/lib/modules/$base.ko" || die "cannot unpack $src (install zstd)" ;;
	*.ko.gz) gzip -dc "$src" >"$root/lib/modules/$base.ko" ;;
	*) die "unexpected module file $src" ;;
	esac
	echo "$base" >>"$root/lib/modules/load-order"
done
say "kernel $kver; modules: $(tr '\n' ' ' <"$root/lib/modules/load-order")"

# --- The guest ---------------------------------------------------------------------------

cp "$busybox" "$root/bin/busybox"
# The kernel starts /init through its "#!/bin/sh" line, before /init has installed the
# other busybox links, so this one link must already be in the archive.
ln -s busybox "$root/bin/sh"
cp "$vbench_bin" "$root/bin/vbench"
chmod 755 "$root/bin/busybox" "$root/bin/vbench"

# Settings the guest reads; the guest script itself is fixed text.
qmodes=""
for m in $flush_modes; do qmodes="$qmodes q$m"; done
cat >"$root/vmtest.conf" <<EOF
BUSES="$buses"
RUNS="$runs"
WARMUP="$warmup"
COUNT="$count"
BS="$bs"
LIES="$lies"
QMODES="$qmodes"
SESSIONS="$sessions"
FLUSH_FORMAT="$flush_format"
EOF

# The guest's /init is fixed text, in a file of its own (guest-init.sh).
cp "$top/tests/vm/guest-init.sh" "$root/init"
chmod 755 "$root/init"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"
say "initramfs: $(wc -c <"$work/initrd.gz" | tr -d ' ') bytes"

# --- Disks -----------------------------------------------------------------------------

# Raw images, allocated up front where the host's filesystem can, so that the first run
# on each disk does not also measure the host allocating blocks for a sparse file. The
# guest's writes are the only data they ever hold.
for b in $buses fault; do
	fallocate -l "${disk_mib}M" "$work/$b.img" 2>/dev/null || truncate -s "${disk_mib}M" "$work/$b.img"
done

# The blkdebug rules: the state starts at 1; the first flush that follows writes
# ("flush_to_disk", which vbench's fsync at the end of run 1 causes) moves it to 2; in
# state 2 every write request fails with errno 5, EIO. Counting flushes rather than
# write requests makes this independent of how the guest kernel splits writes.
cat >"$work/fault.cfg" <<'EOF'
[set-state]
event = "flush_to_disk"
state = "1"
new_state = "2"

[inject-error]
event = "write_aio"
state = "2"
errno = "5"
once = "off"
EOF

# QEMU opens the images with O_DIRECT (cache=none) where the host's filesystem allows it,
# so that the host's page cache does not make some runs far faster than others; on a
# filesystem without O_DIRECT, such as tmpfs, it falls back to QEMU's default.
cache=${VMTEST_CACHE:-}
if [ -z "$cache" ]; then
	if dd if=/dev/zero of="$work/direct.probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
		cache=none
	else
		cache=writeback
	fi
	rm -f "$work/direct.probe"
fi
raw="format=raw,cache=$cache"

disk_args=""
for b in $buses; do
	img=$work/$b.img
	case $b in
	virtio) disk_args="$disk_args -drive file=$img,$raw,if=virtio" ;;
	ide) disk_args="$disk_args -drive file=$img,$raw,if=ide" ;;
	scsi) disk_args="$disk_args -device virtio-scsi-pci,id=vscsi -drive file=$img,$raw,if=none,id=dscsi -device scsi-hd,drive=dscsi,bus=vscsi.0" ;;
	nvme) disk_args="$disk_args -drive file=$img,$raw,if=none,id=dnvme -device nvme,drive=dnvme,serial=vbnvme" ;;
	esac
done
# The fault disk is a virtio disk too; its serial number tells the guest which one it is.
disk_args="$disk_args -drive file=blkdebug:$work/fault.cfg:$work/fault.img,$raw,if=none,id=dfault"
disk_args="$disk_args -device virtio-blk-pci,drive=dfault,serial=vbfault"

# --- Disks served by nbdkit ---------------------------------------------------------------

# Each server is a child of this script (and ends with it); the stats filter, closest to
# QEMU, counts every flush that arrived and writes the count when nbdkit exits.
# start_nbd NAME ARGS...: serves ARGS on $work/NAME.sock.
start_nbd() {
	n_name=$1
	shift
	nbdkit -f --exit-with-parent -U "$work/$n_name.sock" --filter=stats "$@" \
		statsfile="$work/stats-$n_name.txt" >"$work/nbdkit-$n_name.log" 2>&1 &
	nbd_pids="$nbd_pids $!"
}
start_nbd discard --filter=fua memory 64M fuamode=discard
start_nbd slowflush cc "$top/tests/vm/lies-disk.c" size=64M flush_ms=10
# a write costs 1 ms, a flush 0.3 ms more: work on any host, however fast its own disk
start_nbd delay --filter=delay cc "$top/tests/vm/lies-disk.c" size=64M flush_us=1300 \
	delay-write=1ms
# a write costs 10 ms, a flush 1 ms: the flush works, and a write is no yardstick for it
start_nbd slowwrite --filter=delay cc "$top/tests/vm/lies-disk.c" size=64M flush_ms=1 \
	delay-write=10ms
# The knee's two rates are ones a loaded host still serves steadily: each 1 MiB write
# takes 125 ms, then 1 s, so that a vCPU or nbdkit kept waiting tens of milliseconds
# (TCG, other work on the host) blurs neither level into the other.
cache_slow=1048576
start_nbd cache cc "$top/tests/vm/lies-disk.c" size=64M fast_bytes=16M fast_rate=8M \
	slow_rate=$cache_slow
# never written by the guest: the flushes it receives are the ones nobody asked for
start_nbd idle memory 1M
for b in $lies; do
	i=0
	while [ ! -S "$work/$b.sock" ]; do
		[ $i -lt 300 ] || { cat "$work/nbdkit-$b.log" >&2; die "nbdkit for $b did not start"; }
		sleep 0.1
		i=$((i + 1))
	done
	disk_args="$disk_args -drive file=nbd+unix:///?socket=$work/$b.sock,format=raw,if=none,id=d$b"
	disk_args="$disk_args -device virtio-blk-pci,drive=d$b,serial=vb$b"
done

# --- Disks whose flushes the host makes: QEMU's cache modes --------------------------------

# One raw image per mode, on the host's disk; each a virtio disk whose serial number
# (vbqMODE) tells the guest which it is, and whose drive id (dqMODE) names it in QMP.
fs_type=$(stat -f -c %T "$fdir" 2>/dev/null || echo unknown)
[ "$fs_type" = tmpfs ] && say "note: $fdir is on a tmpfs: the host's flushes cost nothing there"
for m in $flush_modes; do
	fallocate -l "${disk_mib}M" "$fdir/q$m.img" 2>/dev/null || truncate -s "${disk_mib}M" "$fdir/q$m.img"
	disk_args="$disk_args -drive file=$fdir/q$m.img,format=raw,cache=$m,if=none,id=dq$m"
	disk_args="$disk_args -device virtio-blk-pci,drive=dq$m,serial=vbq$m"
done
# The host's count and time of each drive's flushes, read over QMP while the guest runs.
disk_args="$disk_args -qmp unix:$work/qmp.sock,server=on,wait=off"

# --- Boot --------------------------------------------------------------------------------

# boot ACCEL SECONDS CMDLINE-EXTRA [DISKS...]: boots the guest, its serial console going
# to $work/console.log (shown live when GNU tail is there), and waits for it to power
# off. Sets qrc to QEMU's exit status, which is 124 when the time limit killed it.
boot() {
	b_accel=$1 b_secs=$2 b_extra=$3
	shift 3
	: >"$work/console.log"
	# -k: if QEMU ignores the polite signal at the time limit, kill it 10 s later.
	timeout -k 10 "$b_secs" qemu-system-x86_64 -machine "pc,accel=$b_accel" -m 512M -smp 1 \
		-display none -monitor none -no-reboot -serial "file:$work/console.log" \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet $b_extra" "$@" \
		</dev/null >"$work/qemu.out" 2>&1 &
	qpid=$!
	if [ -z "$b_extra" ]; then
		python3 "$top/tests/vm/blockstats.py" "$work/qmp.sock" "$work/blockstats.txt" &
		spid=$!
	fi
	# The live copy of the console runs in the background too, so that the shell waits
	# in "wait", which a signal interrupts at once (running the cleanup), rather than
	# in a foreground pipeline, which would delay the signal until QEMU exits. GNU tail
	# stops by itself once QEMU's process has gone.
	tpid=""
	if [ -z "$b_extra" ] && tail --version 2>/dev/null | grep -q GNU; then
		tail -n +1 -f --pid="$qpid" "$work/console.log" | tr -d '\r' &
		tpid=$!
	fi
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=""
	if [ -n "$tpid" ]; then
		wait "$tpid" || true
	fi
	if [ -n "$spid" ]; then
		wait "$spid" || true
		spid=""
	fi
}

accel=tcg
case $accel_req in
tcg) ;;
kvm) accel=kvm ;;
auto)
	# Nested KVM can exist yet hang, so KVM is used only after a probe boot powers off
	# within a short limit.
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		boot kvm 30 vmtest=probe
		if [ "$qrc" -eq 0 ] && grep -q '=====VMTEST-PROBE-OK=====' "$work/console.log"; then
			accel=kvm
		else
			say "/dev/kvm is there but a probe boot did not work; using TCG"
		fi
	fi
	;;
*) die "VMTEST_ACCEL must be tcg, kvm or auto" ;;
esac

say "booting the guest ($accel, cache=$cache, time limit ${limit} s)"
# $disk_args holds whole options separated by spaces; the paths have none (checked).
# shellcheck disable=SC2086
boot_start=$(date +%s)
boot "$accel" "$limit" "" $disk_args
boot_secs=$(($(date +%s) - boot_start))

# --- Checks ------------------------------------------------------------------------------

tr -d '\r' <"$work/console.log" >"$work/console.txt"
failures=0
# Checks of the blkdebug fault and of the nbdkit disks are not about the buses: when
# one fails, the bus comparison still stands, and the summary says which failed.
others=0
others_list=""
fail() {
	echo "vmtest: FAIL: $*" >&2
	case $1 in
	*nbd-* | *nbdkit* | blkdebug:*)
		others=$((others + 1))
		others_list="$others_list
vmtest:   $*"
		;;
	*) failures=$((failures + 1)) ;;
	esac
}

# section NAME: the lines between =====NAME-BEGIN===== and =====NAME-END=====.
section() {
	sed -n "/^=====$1-BEGIN=====\$/,/^=====$1-END=====\$/p" "$work/console.txt" | sed '1d;$d'
}

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail "the guest did not power off within $limit s"
elif [ "$qrc" -ne 0 ]; then
	cat "$work/qemu.out" >&2
	fail "QEMU exited with status $qrc"
fi
if ! grep -q '^=====VMTEST-DONE=====$' "$work/console.txt"; then
	fail "the guest did not finish its script (no =====VMTEST-DONE===== on the console)"
	echo "--- last lines of the console:" >&2
	tail -n 40 "$work/console.txt" >&2
	cat "$work/qemu.out" >&2
fi

section VBENCH-CSV >"$work/vbench.csv"
section VBENCH-EXPECT >"$work/expect.txt"
section VBENCH-FAULT >"$work/fault.txt"
section VBENCH-FAULT-CSV >"$work/fault.csv"

# csv_where FILE LABEL STATUS COLUMNS: prints the COLUMNS (names, separated by spaces) of
# each row of LABEL whose status is STATUS (any status when it is "", any other with
# "!STATUS"), finding the columns by their names in the header. Quoted fields (RFC 4180)
# are understood.
csv_where() {
	awk -v want="$2" -v st="$3" -v cols="$4" '
	function parse(line,   i, c, q, f, n) {
		n = 0; f = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = 0
				} else f = f c
			} else if (c == "\"") q = 1
			else if (c == ",") { fld[++n] = f; f = "" }
			else f = f c
		}
		fld[++n] = f
		return n
	}
	{ sub(/\r$/, "") }
	NR == 1 { n = parse($0); for (i = 1; i <= n; i++) col[fld[i]] = i; k = split(cols, name, " "); next }
	{
		parse($0)
		s = fld[col["status"]]
		if (fld[col["label"]] != want || (st ~ /^!/ ? s == substr(st, 2) : st != "" && s != st))
			next
		out = ""
		for (j = 1; j <= k; j++)
			out = out (j > 1 ? " " : "") fld[col[name[j]]]
		print out
	}' "$1"
}

# csv_rows FILE LABEL: prints "run driver status qd" for each run of LABEL (not the row
# of the flush probe that may follow them).
csv_rows() {
	csv_where "$1" "$2" "!flush" "run driver status qd"
}

if [ ! -s "$work/vbench.csv" ]; then
	fail "no CSV came back from the guest"
else
	header=$(head -n 1 "$work/vbench.csv")
	for c in label run driver status bytes_per_sec qd; do
		case ",$header," in
		*",$c,"*) ;;
		*) fail "the CSV header lacks the column $c" ;;
		esac
	done
fi

for b in $buses; do
	for kind in raw raw-qd8 ext2; do
		label=$b-$kind
		line=$(grep "^$label " "$work/expect.txt" || true)
		if [ -z "$line" ]; then
			fail "$label: the guest did not report this case"
			continue
		fi
		# The expect line is "LABEL DEVICE DRIVER-FROM-SYS EXIT-STATUS".
		set -- $line
		dev=$2 sysdrv=$3 rc=$4
		if [ "$dev" = MISSING ]; then
			fail "$label: the guest found no $b disk"
			continue
		fi
		[ "$rc" = 0 ] || fail "$label: vbench on $dev exited with $rc"
		csv_rows "$work/vbench.csv" "$label" >"$work/rows.txt"
		i=1
		while [ "$i" -le "$runs" ]; do
			grep -q "^$i " "$work/rows.txt" || fail "$label: run $i is missing from the CSV"
			i=$((i + 1))
		done
		want_qd=1
		[ "$kind" = raw-qd8 ] && want_qd=8
		while read -r run drv status qd; do
			[ "$status" = ok ] || fail "$label: run $run has status '$status'"
			[ "$qd" = "$want_qd" ] || fail "$label: run $run has qd '$qd', not $want_qd"
			[ "$drv" = "$sysdrv" ] ||
				fail "$label: vbench reports driver '$drv', the guest's /sys says '$sysdrv'"
			if [ "$b" = virtio ] && [ "$drv" != virtio_blk ]; then
				fail "$label: vbench reports driver '$drv' for the virtio disk, not virtio_blk"
			fi
		done <"$work/rows.txt"
		if [ "$kind" = raw ]; then
			say "$b disk $dev: the guest binds $sysdrv; vbench reports $(cut -d' ' -f2 "$work/rows.txt" | sort -u | tr '\n' ' ')"
		fi
	done
done

# The fault case must end with exit status 3 (I/O error), having summarised the run
# that completed before the error: its dd lines and the statistics.
fault_rc=$(sed -n 's/^exit=//p' "$work/fault.txt")
if [ "$fault_rc" != 3 ]; then
	fail "blkdebug: vbench exited with '$fault_rc', not 3"
fi
grep -q 'bytes transferred in' "$work/fault.txt" ||
	fail "blkdebug: no completed run in vbench's output"
grep -q '^mean ' "$work/fault.txt" ||
	fail "blkdebug: no summary (mean ...) in vbench's output"
csv_rows "$work/fault.csv" virtio-blkdebug >"$work/fault-rows.txt" 2>/dev/null || true
awk '$3 == "ok" { f = 1 } END { exit !f }' "$work/fault-rows.txt" ||
	fail "blkdebug: no run with status ok in the CSV"
awk '$3 == "error" { f = 1 } END { exit !f }' "$work/fault-rows.txt" ||
	fail "blkdebug: no run with status error in the CSV"

# --- The nbdkit disks: verdicts, flush counts, the knee -----------------------------------

# The servers write their statistics when they exit, which they do once QEMU is gone.
for p in $nbd_pids; do
	kill "$p" 2>/dev/null || true
	wait "$p" 2>/dev/null || true
done
nbd_pids=""
section VBENCH-LIES-CSV >"$work/lies.csv"

# lies_field LABEL STATUS COLUMN: the COLUMN of the first row of LABEL with STATUS.
lies_field() {
	csv_where "$work/lies.csv" "$1" "$2" "$3" | head -n 1
}

# flushes_arrived NAME: the flush requests nbdkit's stats filter counted (0 when none).
flushes_arrived() {
	awk '/^flush:/ { n = $2 } END { print n + 0 }' "$work/stats-$1.txt" 2>/dev/null
}

# flush_truth DRIVE: "OPS NS WRITE-P50 FLUSH-P50" of DRIVE (QMP): the count and total time
# of its flushes, the median write and flush in ns (-1: no histogram); "0 0 -1 -1" when none.
flush_truth() {
	awk -v d="$1" '$1 == d { print $2, $3, $4, $5; f = 1 } END { if (!f) print 0, 0, -1, -1 }' \
		"$work/blockstats.txt" 2>/dev/null
}

# nbd_flush_ns NAME: what nbdkit took per flush of disk NAME, in ns (its stats filter,
# closest to QEMU: the work behind a flush, without the socket's round trip).
nbd_flush_ns() {
	awk '/^flush:/ { gsub(",", ""); n = $2; s = $4 } END { printf "%d\n", (n > 0 ? s * 1e9 / n : 0) }' \
		"$work/stats-$1.txt" 2>/dev/null
}

[ -s "$work/blockstats.txt" ] || fail "QMP gave no block statistics (tests/vm/blockstats.py)"
# Each flush disk: NAME (the guest's), LABEL (vbench's), DRIVE (QEMU's).
summary=""
for d in discard:nbd-discard:ddiscard slowflush:nbd-slowflush:dslowflush \
	delay:nbd-delay:ddelay slowwrite:nbd-slowwrite:dslowwrite $(for m in $flush_modes; do printf 'q%s:qemu-%s:dq%s ' $m $m $m; done); do
	name=${d%%:*} rest=${d#*:}
	label=${rest%%:*} drive=${rest#*:}
	section "VBENCH-LIES-$name" >"$work/lies-$name.txt"
	n_ok=$(grep -c '^exit=0$' "$work/lies-$name.txt" || true)
	[ "$n_ok" = "$sessions" ] || fail "$label: $n_ok of $sessions sessions exited 0"
	set -- $(flush_truth "$drive")
	ops=$1 wp50=$3 fp50=$4
	# The oracle is what a flush cost the host beyond a write, not the mode's name, as
	# vbench times a flush against a write: QEMU's median flush less its median write
	# (QMP's histograms; with cache=none a write waits for the host's disk too), or for
	# an nbdkit disk the server's time per flush (its writes go to memory; QMP's time
	# there includes the socket's round trip, which a write pays too), whose count must
	# be QMP's.
	cost=0 where="QEMU's, QMP"
	if [ "$ops" != 0 ]; then
		[ "$wp50" -ge 0 ] && [ "$fp50" -ge 0 ] ||
			fail "$label: QMP gave no latency histogram of its writes and flushes"
		cost=$((fp50 - wp50))
		where="beyond a write, QEMU's medians (QMP): flush $((fp50 / 1000)) us, write $((wp50 / 1000)) us"
	fi
	case $name in
	discard | slowflush | delay | slowwrite)
		arrived=$(($(flushes_arrived "$name") - $(flushes_arrived idle)))
		[ "$arrived" = "$ops" ] || fail "$label: QMP counted $ops flushes, nbdkit $arrived"
		cost=$(nbd_flush_ns "$name") where="nbdkit's time per flush"
		;;
	esac
	# Work when the cost is well over vbench's margin, none when under it; near it,
	# either verdict is right.
	if [ "$ops" = 0 ]; then
		truth="none sent" allowed="no-work undecided"
		grep -q -e '^# guest: the kernel believes the disk has no volatile write cache' \
			-e '"write_cache": "write through"' "$work/lies-$name.txt" ||
			fail "$label: the host saw no flush, and vbench does not say the guest sends none"
	elif [ "$cost" -ge $((4 * margin_ns)) ]; then
		truth=work allowed="works undecided"
	elif [ "$cost" -lt "$margin_ns" ]; then
		truth="no work" allowed="no-work undecided"
	else
		truth="near the margin" allowed="works no-work undecided"
	fi
	# by construction, a flush of the delay disk costs 1.3 ms on every host, slowwrite's 1 ms
	case $name in delay | slowwrite) [ "$truth" = work ] ||
		fail "$label: the host measured $cost ns a flush, not the ms nbdkit takes" ;;
	esac
	verdicts=$(csv_where "$work/lies.csv" "$label" flush flush_verdict | tr '\n' ' ')
	decided=0 total=0 wrong=""
	for v in $verdicts; do
		total=$((total + 1))
		[ "$v" = undecided ] || decided=$((decided + 1))
		case " $allowed " in *" $v "*) ;; *) wrong="$wrong $v" ;; esac
	done
	[ "$total" = "$sessions" ] || fail "$label: $total flush rows, not $sessions"
	[ -z "$wrong" ] || fail "$label: verdicts '$verdicts' against the host's $truth ($ops flushes, a flush $cost ns: $where)"
	if [ "$name" = slowwrite ]; then
		# A write of 10 ms is no yardstick for a flush of 1 ms: each undecided session
		# says so.
		why=$(grep -c '^# flush (fsync): cannot tell: .* a write costs [0-9]*x a flush here, so it is no yardstick' \
			"$work/lies-$name.txt" || true)
		[ "$why" -ge $((total - decided)) ] ||
			fail "$label: $((total - decided)) sessions could not tell, $why of them because a write is no yardstick"
	elif [ "$truth" != "near the margin" ]; then
		# near vbench's margin, an honest probe may not be able to tell
		[ "$decided" -ge $((sessions - 1)) ] || fail "$label: only $decided of $total sessions decided"
	fi
	line="$label: host $ops flushes (QMP), $((cost / 1000)) us a flush ($where): $truth; vbench: $verdicts($decided of $total decided)"
	say "$line"
	summary="$summary$line
"
done

# The nbdkit disks that count: every flush vbench says it made reached nbdkit.
for b in discard slowflush delay slowwrite; do
	calls=$(csv_where "$work/lies.csv" "nbd-$b" flush flush_calls | awk '{ s += $1 + 1 } END { print s + 0 }')
	# QEMU itself flushes every disk when the guest starts and stops, written or not:
	# the untouched disk says how often.
	arrived=$(($(flushes_arrived "$b") - $(flushes_arrived idle)))
	guest=$(sed -n 's/^guest-flushes=//p' "$work/lies-$b.txt")
	# Each session: one run, ended by one fsync, then the probe's calls.
	if [ "$calls" = 0 ] || [ "$arrived" != "$calls" ] || [ "$guest" != "$calls" ]; then
		fail "nbd-$b: nbdkit counted $arrived flushes beyond the idle disk's, the guest's kernel $guest; vbench says it sent $calls"
	else
		say "nbd-$b: nbdkit counted $arrived flushes beyond the idle disk's, the guest's kernel $guest; vbench sent $calls"
	fi
done
section VBENCH-LIES-cache >"$work/lies-cache.txt"
grep -q '^exit=0$' "$work/lies-cache.txt" || fail "nbd-cache: vbench did not exit 0"
at=$(lies_field nbd-cache ok knee_at_bytes)
sustained=$(lies_field nbd-cache ok knee_sustained_bytes_per_sec)
# The rate falls at 16 MiB to 1 MiB/s: the knee within a few samples of it.
if [ -z "$at" ] || ! awk -v a="$at" -v s="$sustained" -v r="$cache_slow" 'BEGIN {
	exit !(a > 0.75 * 16777216 && a < 1.25 * 16777216 && s > 0.7 * r && s < 1.2 * r) }'; then
	fail "nbd-cache: knee at '${at:-none}' bytes, sustained '${sustained:-none}' B/s; expected 16 MiB and $cache_slow B/s"
	# what vbench measured, sample by sample
	grep '^# interval' "$work/lies-cache.txt" | sed 's/^/vmtest:   /' >&2
else
	say "nbd-cache: knee at $at bytes, then $sustained B/s sustained"
fi
# vbench report reads the verdicts and the knee back from the CSV.
"$vbench_bin" report "$work/lies.csv" >"$work/lies-report.txt" 2>&1 ||
	fail "vbench report failed on the nbdkit disks' CSV"
grep -q '^  nbd-discard: flushes do no work' "$work/lies-report.txt" ||
	fail "vbench report does not say that nbd-discard's flushes do no work"
grep -q '^  nbd-slowflush: flushes take time' "$work/lies-report.txt" ||
	fail "vbench report does not say that nbd-slowflush's flushes take time"
grep -q '^  nbd-cache: run 1: burst' "$work/lies-report.txt" ||
	fail "vbench report does not show nbd-cache's knee"
for b in $lies $qmodes; do
	echo
	echo "--- $b:"
	section "VBENCH-LIES-$b" | sed '/^exit=/d; /^# interval/d'
done
echo
echo "--- the flush verdicts against the host's counts:"
printf '%s' "$summary"

echo
echo "--- vbench report of the nbdkit disks:"
cat "$work/lies-report.txt"
echo
echo "--- blkdebug case (EIO injected after the first run), exit status $fault_rc:"
sed '/^exit=/d' "$work/fault.txt"
echo

# The bus comparison: each bus's raw device at QD 1, against the baseline's.
bus_lines=""
if [ -s "$work/vbench.csv" ]; then
	cp "$work/vbench.csv" "$out/vbench.csv"
	echo "--- vbench report --format markdown (guest CSV, $accel):"
	echo
	"$vbench_bin" report --format markdown "$out/vbench.csv" >"$out/report.md" ||
		fail "vbench report --format markdown failed on the guest's CSV"
	cat "$out/report.md"
	echo
	awk -F, 'NR == 1 || $1 ~ /^[a-z]+-raw$/' "$out/vbench.csv" >"$out/bus.csv"
	if "$vbench_bin" report --baseline "$baseline-raw" --svg "$out/bus.svg" "$out/bus.csv" \
		>"$out/bus.txt" 2>&1; then
		# label, ratio, its interval and the verdict, from the report's own CSV
		bus_lines=$("$vbench_bin" report --format csv --baseline "$baseline-raw" "$out/bus.csv" |
			awk -v base="$baseline-raw" '
			function parse(line,   i, ch, q, f, n) {
				n = 0; f = ""; q = 0
				for (i = 1; i <= length(line); i++) {
					ch = substr(line, i, 1)
					if (q) {
						if (ch == "\"") {
							if (substr(line, i + 1, 1) == "\"") { f = f ch; i++ } else q = 0
						} else f = f ch
					} else if (ch == "\"") q = 1
					else if (ch == ",") { fld[++n] = f; f = "" }
					else f = f ch
				}
				fld[++n] = f
				return n
			}
			{ sub(/\r$/, "") }
			NR == 1 { n = parse($0); for (i = 1; i <= n; i++) c[fld[i]] = i; next }
			{
				parse($0)
				if (fld[c["label"]] == base)
					next
				printf "vmtest:   %s against %s: %.2fx (95%% CI %.2f to %.2f): %s\n",
					fld[c["label"]], base, fld[c["ratio"]], fld[c["ratio_lo"]],
					fld[c["ratio_hi"]], fld[c["verdict"]]
			}')
	else
		cat "$out/bus.txt" >&2
		fail "vbench report failed on the bus comparison's CSV"
	fi
fi

total=$(elapsed)
say "results in $out: vbench.csv, report.md; the bus comparison: bus.txt, bus.svg"
if [ "$others" -ne 0 ]; then
	say "$others check(s) NOT about the buses failed (the bus comparison below still stands):$others_list"
fi
if [ "$failures" -ne 0 ]; then
	say "FAILED: $failures problem(s) with the buses' own runs; guest $boot_secs s, total $total s ($accel)"
	say "the bus comparison below is NOT valid"
else
	say "PASS: guest runs on $(echo $buses | tr ' ' ',') (raw and ext2); guest $boot_secs s, total $total s ($accel)"
fi
say "bus comparison: raw device, QD 1, $runs runs of $count x $bs after $warmup warm-up, against $baseline:"
if [ -n "$bus_lines" ]; then
	echo "$bus_lines"
else
	say "  (no comparison: fewer than two buses, or no CSV)"
fi
[ "$failures" -eq 0 ] && [ "$others" -eq 0 ]
