# Files left behind (issue 24, class 3): every file vbench created and could not remove
# is named on stderr with the reason, and the exit status says the run did not end
# clean. Each case fails on a vbench that leaves the file without a word.
. "$(dirname "$0")/lib.sh"
need_root "append-only directories and filesystems shut down need root"
need_linux "chattr and EXT4_IOC_SHUTDOWN are Linux's"

d=$(new_dir)
truncate -s 256M "$d/e.img"
mkfs.ext4 -q "$d/e.img"
mkdir "$d/m"
if ! mount -o loop "$d/e.img" "$d/m"; then
	skip "cannot loop-mount an ext4 image"
	exit 0
fi
add_mount "$d/m"

# --- an append-only directory: the unlink at the end fails -------------------------------
mkdir "$d/m/a"
if command -v chattr >/dev/null 2>&1 && chattr +a "$d/m/a"; then
	run_vb --no-progress bs=4k count=16 runs=2 "$d/m/a/f.img"
	expect_rc 3 "a file that cannot be removed at the end: the run did not end clean"
	expect_err "f.img, the file vbench created, could not be removed: Operation not permitted" "the file is named with the reason"
	chattr -a "$d/m/a"
	rm -f "$d/m/a/f.img"
	run_vb --no-progress --keep bs=4k count=16 runs=1 "$d/m/a/k.img"
	expect_rc 0 "a file kept as asked is no leftover"
	rm -f "$d/m/a/k.img"
else
	skip "chattr +a is not available"
fi

# --- the filesystem shut down under the run (an I/O error at cleanup) -----------------------
if [ -n "$(helper shutdown)" ]; then
	rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
	"$VBENCH" --no-progress --sync dsync bs=4k count=4000 runs=20 "$d/m/big.img" >"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
	pid=$!
	if wait_for "^# run 1 of 20" "$SCRATCH/s.out"; then
		"$SCRATCH/shutdown" "$d/m"
		wait_pid "$pid" 60
		check "shut down: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
		check "shut down: the file left behind is named, with the reason" grep -q "big.img, the file vbench created, could not be removed: Input/output error" "$SCRATCH/s.err"
	else
		not_ok "the run on the filesystem to shut down never got under way" "$(cat "$SCRATCH/s.err")"
		kill "$pid"
	fi
else
	skip "cannot build the shutdown helper"
fi
