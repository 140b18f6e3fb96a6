# Waits nobody watches (issue 24, class 2): every call that can block on a filesystem
# or a device is made where the watchdog sees it, and nothing waits for a reader or a
# stuck process. Each case fails on a vbench that hangs or misreports.
. "$(dirname "$0")/lib.sh"

# --- --timeout: the shortest value honoured, the value given printed as given ------------
d=$(new_dir)
run_vb --no-progress --timeout 0.0001 bs=4k count=1 runs=1 "$d"
expect_rc 1 "--timeout below 0.1 s is refused"
expect_err "0.0001: shorter than 0.1 s" "the message quotes the value given and the shortest one"
run_vb --no-progress --timeout 0 bs=4k count=1 runs=1 "$d"
expect_rc 0 "--timeout 0 means no timeout"

# --- a named file swapped for a FIFO between runs: the next open does not wait ---------------
d=$(new_dir)
rm -f "$SCRATCH/f.out" "$SCRATCH/f.err"
"$VBENCH" --no-progress --sync dsync bs=4k count=500 runs=20 "$d/f.img" >"$SCRATCH/f.out" 2>"$SCRATCH/f.err" &
pid=$!
if wait_for "^# run 1 of 20" "$SCRATCH/f.out"; then
	rm -f "$d/f.img"
	mkfifo "$d/f.img"
	wait_pid "$pid" 20
	check "a FIFO in place of the file: vbench does not wait for a reader (exit $WAIT_RC)" [ "$WAIT_RC" = 3 ]
	check "and says the name no longer holds its file" grep -q "no longer names the file vbench created" "$SCRATCH/f.err"
	check "the FIFO is left alone" [ -p "$d/f.img" ]
else
	not_ok "the FIFO case never got under way" "$(cat "$SCRATCH/f.err")"
	kill "$pid"
fi
