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
	# Setup refuses after creating the file: it goes, or it is named.
	chattr +a "$d/m/a"
	run_vb --no-progress --direct bs=1000 count=1 runs=1 "$d/m/a/new.img"
	expect_rc 2 "refused after creating the file (--direct, bs not aligned)"
	expect_err "new.img, the file vbench created, could not be removed: Operation not permitted; it is left behind" "refused after creating it: the file left behind is named"
	run_vb --no-progress --direct --keep bs=1000 count=1 runs=1 "$d/m/a"
	expect_rc 2 "refused after creating its file in the directory (--keep)"
	expect_err "/vbench-[a-z0-9]{8}\.tmp, the file vbench created, could not be removed: Operation not permitted" "--keep, refused: the file left behind is named"
	run_vb --no-progress bs=64k count=100000 runs=1 "$d/m/a/big.img"
	expect_rc 2 "refused for want of space after creating the file"
	expect_err "nothing was written" "no space: says why"
	expect_err "big.img, the file vbench created, could not be removed: Operation not permitted" "no space: the file left behind is named"
	# The flush probe's own file, beside a file target, cannot be removed either: it is
	# named, and its name is new every session.
	names=""
	for k in 1 2; do
		run_vb --no-progress --keep --check-flush bs=4k count=16 runs=1 "$d/m/a/p$k.img"
		expect_rc 3 "--keep --check-flush: the probe's file cannot be removed ($k)"
		expect_err "/m/a/vbench-[a-z0-9]{8}\.tmp, the flush probe's file, could not be removed: Operation not permitted; it is left behind" \
			"the probe's file left behind is named ($k)"
		names="$names $(printf '%s\n' "$ERR" | grep -o "vbench-[a-z0-9]*\.tmp, the flush probe's" | cut -d, -f1)"
	done
	distinct=$(printf '%s\n' $names | sort -u | grep -c .)
	check "the probe's files have names of their own ($names)" [ "$distinct" = 2 ]
	chattr -a "$d/m/a"
	rm -f "$d/m/a/"*
else
	skip "chattr +a is not available"
fi
mkdir "$d/m/c"
run_vb --no-progress --direct --keep bs=1000 count=1 runs=1 "$d/m/c"
expect_rc 2 "--keep, refused before any write"
check "--keep, refused before any write: the empty file is not kept" empty_dir "$d/m/c"

# --- output files: none is created for a session that refuses its target --------------------
echo "label,run" >"$d/m/c/old.csv"
run_vb --no-progress --csv-append "$d/m/c/new.csv" --trace "$d/m/c/new.trace" /nonexistent/x
expect_rc 2 "a target that does not exist"
check "no empty --csv-append file is left" [ ! -e "$d/m/c/new.csv" ]
check "no empty --trace file is left" [ ! -e "$d/m/c/new.trace" ]
run_vb --no-progress --csv-append "$d/m/c/old.csv" --force bs=4k count=1 runs=1 /nonexistent/x
check "an existing CSV file is kept as it was" [ "$(cat "$d/m/c/old.csv")" = "label,run" ]
run_vb --no-progress --csv-append "$d/m/c/x.img" bs=4k count=1 runs=1 "$d/m/c/x.img"
expect_rc 2 "the target is the --csv-append file"
check "the target is the --csv-append file: nothing is left" [ ! -e "$d/m/c/x.img" ]
# ... nor for one that refuses an output file after creating another
run_vb --no-progress --csv-append "$d/m/c/new.csv" --trace /nonexistent/t bs=4k count=1 runs=1 "$d/m/c"
expect_rc 2 "a --trace file that cannot be created"
check "the --csv-append file created before it is removed again" [ ! -e "$d/m/c/new.csv" ]
run_vb --no-progress --csv-append "$d/m/c/new.csv" --trace "$d/m/c/new.csv" bs=4k count=1 runs=1 "$d/m/c"
expect_rc 2 "--csv-append and --trace the same new file"
check "--csv-append and --trace the same new file: it is removed again" [ ! -e "$d/m/c/new.csv" ]
: >"$d/m/c/empty.csv"
run_vb --no-progress --csv-append "$d/m/c/empty.csv" --trace /nonexistent/t bs=4k count=1 runs=1 "$d/m/c"
check "an existing empty CSV file is never removed" [ -f "$d/m/c/empty.csv" ]
run_vb --no-progress --csv-append "$d/m/c/old.csv" --trace /nonexistent/t bs=4k count=1 runs=1 "$d/m/c"
check "an existing CSV file is kept as it was, whatever refuses" [ "$(cat "$d/m/c/old.csv")" = "label,run" ]
if command -v chattr >/dev/null 2>&1 && chattr +a "$d/m/a"; then
	run_vb --no-progress --csv-append "$d/m/a/new.csv" --trace /nonexistent/t bs=4k count=1 runs=1 "$d/m/c"
	expect_rc 2 "a --trace file that cannot be created, the CSV file in an append-only directory"
	expect_err "--csv-append .*/a/new\.csv, the empty file vbench created, could not be removed: Operation not permitted; it is left behind" "the empty CSV file that cannot be removed is named"
	chattr -a "$d/m/a"
	rm -f "$d/m/a/"*
fi
rm -f "$d/m/c/"*

# --- results that could not be written: never exit 0 -----------------------------------------
for f in "" -q --json; do
	"$VBENCH" --no-progress $f bs=64k count=16 runs=3 "$d/m/c" >/dev/full 2>"$SCRATCH/full.err"
	rc=$?
	check "standard output full (${f:-human}): exit 3 (got $rc)" [ "$rc" = 3 ]
	check "standard output full (${f:-human}): said so" grep -q "the results could not all be written to standard output: No space left on device" "$SCRATCH/full.err"
done
mkdir "$d/t"
if mount -t tmpfs -o size=64k tmpfs "$d/t"; then
	add_mount "$d/t"
	head -c 65536 /dev/zero >"$d/t/fill" 2>/dev/null
	"$VBENCH" --no-progress bs=64k count=16 runs=3 "$d/m/c" >"$d/t/out" 2>"$SCRATCH/full.err"
	rc=$?
	check "standard output on a full tmpfs: exit 3 (got $rc)" [ "$rc" = 3 ]
	check "standard output on a full tmpfs: said so" grep -q "could not all be written to standard output" "$SCRATCH/full.err"
else
	skip "cannot mount a tmpfs"
fi

# --- the session killed from outside: the file it leaves is named ------------------------------
rm -f "$SCRATCH/k.out" "$SCRATCH/k.err"
"$VBENCH" --no-progress --sync dsync bs=4k count=3000 runs=10 "$d/m/c/k.img" >"$SCRATCH/k.out" 2>"$SCRATCH/k.err" &
pid=$!
if wait_for "^# run 2 of 10" "$SCRATCH/k.out"; then
	kill -9 $(children_of "$pid" | head -n 1)
	wait_pid "$pid" 30
	check "session killed: the run that completed is summed up" grep -q "^# summary of [1-9][0-9]* completed run" "$SCRATCH/k.out"
	check "session killed: exit 3, not death by its signal (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
	check "session killed: says so" grep -q "the process running the session died of signal 9" "$SCRATCH/k.err"
	check "session killed: names the file left behind" grep -q "k.img, the file vbench created, is left behind" "$SCRATCH/k.err"
else
	not_ok "the run whose session is killed never got under way" "$(cat "$SCRATCH/k.err")"
	kill "$pid"
fi
sleep 1
rm -f "$d/m/c/"*

# --- the session killed while its JSON document waits for a slow reader: one document ------
if [ -d /proc/self ]; then
	rm -f "$SCRATCH/j.out" "$SCRATCH/j.err" "$SCRATCH/j.fifo"
	mkfifo "$SCRATCH/j.fifo"
	"$VBENCH" --no-progress --json bs=4k count=10 runs=1000 "$d/m/c" >"$SCRATCH/j.fifo" 2>"$SCRATCH/j.err" &
	pid=$!
	exec 7<"$SCRATCH/j.fifo"
	# (nothing is read until the session's own pipe is full: it waits in pipe_write)
	if wait_wchan "$pid" pipe_write; then
		kill -9 $(children_of "$pid" | head -n 1)
		cat <&7 >"$SCRATCH/j.out"
		exec 7<&-
		wait_pid "$pid" 30
		check "session killed while printing JSON: exit 3 (got $WAIT_RC)" [ "$WAIT_RC" = 3 ]
		check "session killed while printing JSON: one document begun, never a second" [ "$(grep -c '"schema_version"' "$SCRATCH/j.out")" -le 1 ]
	else
		exec 7<&-
		not_started "the JSON document never waited for its reader" "$pid"
	fi
	rm -f "$SCRATCH/j.fifo"
fi

# --- vbench report --svg: its temporary file, when it cannot be removed, is named ---------------
if command -v chattr >/dev/null 2>&1; then
	"$VBENCH" --no-progress --csv-append "$d/r.csv" bs=4k count=4 runs=2 "$d/m/c" >/dev/null 2>&1
	mkdir "$d/m/b"
	chattr +a "$d/m/b"
	run_vb report --svg "$d/m/b/chart.svg" "$d/r.csv"
	expect_rc 3 "report --svg, the chart not put in place and its temporary file left"
	expect_err "cannot put it in place: Operation not permitted" "report --svg: why the chart is missing"
	expect_err "/\.vbench-svg-[A-Za-z0-9]+\.tmp, the temporary file vbench report created, could not be removed: Operation not permitted; it is left behind" "report --svg: the temporary file left behind is named"
	chattr -a "$d/m/b"
	rm -rf "$d/m/b"
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
