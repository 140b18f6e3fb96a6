# The attack pass of issue 9, reproduced (signals and limits): a stop, a pause, a
# file-size or address-space limit must end vbench with its summary and its cleanup, as
# the signal would. Each case fails on a vbench that does not defend against it.
. "$(dirname "$0")/lib.sh"
ulimit -c 0   # a process that dies of SIGQUIT must not leave a core file here

# signum NAME: the number of signal NAME ("kill -l NAME" is not POSIX: dash refuses it).
signum() {
	_n=1
	while [ $_n -lt 128 ]; do
		[ "$(kill -l $_n 2>/dev/null)" = "$1" ] && { echo $_n; return 0; }
		_n=$((_n + 1))
	done
	return 1
}

# --- SIGSTOP during a run: the pause is in the run's time, and vbench says so -----------
# On a throttled device, so that the run is still writing when the stop comes however
# loaded the machine; lifted once the run is continued, it then ends at once.
if slow_disk 131072; then
	slow_vbench "$SCRATCH/p.out" "$SCRATCH/p.err" --progress --force --direct --sync dsync \
		bs=4k count=4096 runs=1 "$SLOW"
	pid=$VB_PID
	if wait_for ETA "$SCRATCH/p.err" "$pid"; then
		vb_stop "$pid"
		sleep 1
		vb_cont "$pid"
		slow_lift
		wait_pid "$pid" 60
		check "a paused run is marked" grep -q "^# run 1 of 1 (paused" "$SCRATCH/p.out"
		check "and a warning says its time includes the pause" grep -q "was paused" "$SCRATCH/p.err"
	else
		not_started "the paused run" "$pid"
	fi
	# A pause longer than --timeout + 2 s is not a stuck call: each 1 MiB write is held
	# 1 s by the throttle, so the whole pause falls inside one; the run must complete,
	# marked paused, with no stall, timeout or give-up said.
	# paused_past_timeout WHAT PAUSE: PAUSE PID stops and continues the run's processes.
	paused_past_timeout() {
		echo "$SLOW_DEV 1048576" >"$SLOW_GROUP/blkio.throttle.write_bps_device"
		slow_vbench "$SCRATCH/q.out" "$SCRATCH/q.err" --progress --force --direct \
			--timeout 3 bs=1M count=8 runs=1 "$SLOW"
		if ! wait_for ETA "$SCRATCH/q.err" "$VB_PID"; then
			not_started "$1" "$VB_PID"
			return
		fi
		$2 "$VB_PID"
		slow_lift
		wait_pid "$VB_PID" 60
		check "$1: the run completes (exit 0)" [ "$WAIT_RC" = 0 ]
		check "$1: no call is said to be stuck" \
			sh -c '! grep -qiE "stuck|timeout|stall" "$1"' _ "$SCRATCH/q.err"
		check "$1: the run is marked paused" grep -q "^# run 1 of 1 (paused" "$SCRATCH/q.out"
	}
	# Everything stopped, the watcher continued first (as a shell may).
	watcher_first() {
		kill -STOP "$1"
		vb_stop "$1"
		sleep 6
		kill -CONT "$1"
		sleep 0.3
		vb_cont "$1"
	}
	# The session's child alone (a debugger, a stray kill -STOP): the watcher sees it
	# stopped.
	child_alone() {
		_kid=$(children_of "$1")
		kill -STOP $_kid
		sleep 6
		kill -CONT $_kid
	}
	paused_past_timeout "a pause past --timeout, the watcher continued first" watcher_first
	paused_past_timeout "the child alone stopped past --timeout" child_alone
else
	skip "$slow_why: the paused run is not tried"
fi

# --- signals whose default action ends the process: summary, cleanup, the same death ----
for sig in QUIT USR2 ALRM XCPU VTALRM PROF; do
	num=$(signum "$sig") || continue
	d=$(new_dir)
	# A command the shell runs in the background has SIGQUIT ignored, which vbench keeps
	# (as it keeps an ignored SIGINT); GNU env(1) gives it its default action back.
	dfl=""
	if [ "$sig" = QUIT ]; then
		if ! env --default-signal=QUIT true 2>/dev/null; then
			skip "SIGQUIT: no env --default-signal (GNU coreutils 8.31) to undo the ignoring"
			continue
		fi
		dfl="env --default-signal=QUIT"
	fi
	rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
	$dfl "$VBENCH" --progress --sync dsync bs=4k count=200000 runs=3 "$d" >"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
	pid=$!
	watch_run "$SCRATCH/s.out" "$SCRATCH/s.err"
	if ! wait_for ETA "$SCRATCH/s.err" "$pid"; then
		not_started "SIG$sig: the run" "$pid"
		continue
	fi
	kill -s "$sig" "$pid"
	wait_pid "$pid" 30
	check "SIG$sig: dies of the signal (status $WAIT_RC, want $((128 + num)))" [ "$WAIT_RC" = $((128 + num)) ]
	check "SIG$sig: the summary is printed" grep -q "^mean " "$SCRATCH/s.out"
	check "SIG$sig: the created file is removed" empty_dir "$d"
	if [ "$sig" = ALRM ]; then
		check "an outside SIGALRM is not taken for --timeout" sh -c '! grep -q "timeout" "$1"' _ "$SCRATCH/s.err"
	fi
done

# --- SIGTERM while the session's child is stopped: it is continued to clean up ---------
d=$(new_dir)
rm -f "$SCRATCH/s.out" "$SCRATCH/s.err"
"$VBENCH" --progress --sync dsync bs=4k count=200000 runs=3 "$d" >"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
pid=$!
watch_run "$SCRATCH/s.out" "$SCRATCH/s.err"
if wait_for ETA "$SCRATCH/s.err" "$pid"; then
	kill -STOP $(children_of "$pid")
	sleep 0.5
	kill -TERM "$pid"
	wait_pid "$pid" 30
	check "SIGTERM, the child stopped: dies of it (status $WAIT_RC)" [ "$WAIT_RC" = 143 ]
	check "SIGTERM, the child stopped: the summary is printed" grep -q "^mean " "$SCRATCH/s.out"
	check "SIGTERM, the child stopped: the created file is removed" empty_dir "$d"
	check "SIGTERM, the child stopped: it is continued, not given up on" \
		sh -c '! grep -q "did not stop within" "$1"' _ "$SCRATCH/s.err"
else
	not_started "SIGTERM to a stopped child: the run" "$pid"
fi

# --- SIGTERM while standard output is a full pipe nobody reads ------------------------------
# (the reader holds the FIFO open and never reads; the signal comes once vbench's output
# has filled it and a vbench process waits to write; a hang waits for the reader's 60 s)
if [ "$(uname -s)" = Linux ]; then
	d=$(new_dir)
	mkfifo "$SCRATCH/full"
	sleep 60 <"$SCRATCH/full" &
	rd=$!
	"$VBENCH" --no-progress bs=4k count=1 runs=20000 "$d" >"$SCRATCH/full" 2>"$SCRATCH/f.err" &
	pid=$!
	watch_run "$SCRATCH/full" "$SCRATCH/f.err"
	SEEN="$SCRATCH/f.err"
	if wait_wchan "$pid" pipe_write; then
		kill -TERM "$pid"
		bound=2
		under_tool && bound=10   # (each process's exit under a tool takes seconds)
		wait_pid "$pid" $bound
		check "full stdout pipe, SIGTERM: vbench ends within $bound s (status $WAIT_RC)" [ "$WAIT_RC" != 137 ]
		check "full stdout pipe, SIGTERM: dies of it (status $WAIT_RC)" [ "$WAIT_RC" = 143 ]
		wait_pid "$pid" 30
		check "full stdout pipe, SIGTERM: the created file is removed" empty_dir "$d"
	else
		not_started "the run writing into a full pipe" "$pid"
	fi
	kill "$rd" 2>/dev/null
	wait "$rd" 2>/dev/null
	rm -f "$SCRATCH/full"
else
	skip "not Linux: the wait for a full pipe reads /proc/PID/wchan"
fi

# --- SIGTERM while the pipe is full, its reader taking everything at once after it ----
# Nothing is lost: every run's lines arrive, in order, and no write is said to have failed.
# Then the same once the session has ended and only its output is left, held for the
# reader (350 runs: more than the FIFO holds, less than it and the pipe behind it): still
# a stop, not exit 0.
if [ "$(uname -s)" = Linux ]; then
	for when in mid end; do
		d=$(new_dir)
		rm -f "$SCRATCH/full" "$SCRATCH/go" "$SCRATCH/r.out"
		mkfifo "$SCRATCH/full"
		sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec cat' _ "$SCRATCH/go" \
			<"$SCRATCH/full" >"$SCRATCH/r.out" &
		rd=$!
		n=20000 csv=""
		[ $when = end ] && n=350 csv="--csv-append $SCRATCH/end.csv"
		rm -f "$SCRATCH/end.csv"
		"$VBENCH" --no-progress $csv bs=4k count=1 runs=$n "$d" >"$SCRATCH/full" 2>"$SCRATCH/r.err" &
		pid=$!
		watch_run "$SCRATCH/r.out" "$SCRATCH/r.err"
		ok=0
		if [ $when = mid ]; then
			wait_wchan "$pid" pipe_write && ok=1
		else
			# (every run's row is in the CSV file, and the session, vbench's child, has
			# ended; vbench holds its output)
			_i=0
			while kill -0 "$pid" 2>/dev/null && [ $_i -lt 600 ]; do
				[ "$(wc -l <"$SCRATCH/end.csv" 2>/dev/null || echo 0)" -gt $n ] &&
					[ -z "$(worker_of "$pid")" ] && { ok=1; break; }
				sleep 0.1
				_i=$((_i + 1))
			done
		fi
		if [ $ok = 1 ]; then
			kill -TERM "$pid"
			touch "$SCRATCH/go"
			wait_pid "$pid" 30
			wait "$rd"
			check "full pipe read after SIGTERM ($when): dies of it (status $WAIT_RC)" [ "$WAIT_RC" = 143 ]
			check "full pipe read after SIGTERM ($when): every run's lines arrive, in order" \
				sh -c 'grep "^# run [0-9]* of" "$1" | awk "{ if (NR > 1 && \$3 != p + 1) bad = 1; p = \$3 } END { exit bad + (NR == 0) }"' _ "$SCRATCH/r.out"
			check "full pipe read after SIGTERM ($when): and the summary" grep -q "^mean " "$SCRATCH/r.out"
			check "full pipe read after SIGTERM ($when): no write is said to have failed" \
				sh -c '! grep -q "could not all be written" "$1"' _ "$SCRATCH/r.err"
			check "full pipe read after SIGTERM ($when): the created file is removed" empty_dir "$d"
		else
			not_started "the run ($when) writing into a full pipe" "$pid"
			touch "$SCRATCH/go"
			wait "$rd"
		fi
		rm -f "$SCRATCH/full" "$SCRATCH/go"
	done
else
	skip "not Linux: the wait for a full pipe reads /proc/PID/wchan"
fi

# --- standard output and error into one pipe: in the order vbench wrote them -------------
# (the warning on the label comes before the header; five tries, since an order left to
# chance is right about half the time)
d=$(new_dir)
bad=0
for i in 1 2 3 4 5; do
	"$VBENCH" --no-progress -l xfs bs=4k count=1 runs=1 "$d" 2>&1 | cat >"$SCRATCH/o.out"
	first=$(grep -n "^# vbench\|warning: xfs: the label names xfs" "$SCRATCH/o.out" | head -n 1)
	case $first in *warning*) ;; *) bad=$((bad + 1)) ;; esac
done
SEEN="$SCRATCH/o.out"
if grep -q "warning: xfs: the label names xfs" "$SCRATCH/o.out"; then
	check "2>&1 | cat: the label's warning comes before the header ($bad of 5 wrong)" [ $bad = 0 ]
else
	skip "the directory is on xfs here: the label's warning is not printed"
fi

# --- a file-size limit: known at setup, refused there, not death by SIGXFSZ ---------------
d=$(new_dir)
(ulimit -f 64 && exec "$VBENCH" --no-progress bs=64k count=100 runs=2 "$d/big") >"$SCRATCH/f.out" 2>"$SCRATCH/f.err"
rc=$?
check "ulimit -f: exit 2 at setup (got $rc), not death by SIGXFSZ" [ "$rc" = 2 ]
check "ulimit -f: the limit is named" grep -q "this process may put in a file (ulimit -f)" "$SCRATCH/f.err"
check "ulimit -f: no file is left" [ ! -e "$d/big" ]

# --- little address space: the supervision needs no thread, --timeout still works -------
if under_tool; then
	skip "ulimit -v: a sanitizer or valgrind needs more address space than the limit"
else
	d=$(new_dir)
	(ulimit -v 20000 && exec "$VBENCH" --no-progress --timeout 5 bs=64k count=16 runs=2 "$d") >"$SCRATCH/v.out" 2>"$SCRATCH/v.err"
	rc=$?
	check "ulimit -v 20000: runs with --timeout (exit $rc)" [ "$rc" = 0 ]
fi

# --- a stop during the flush probe: as during the runs ------------------------------------
# With --sync dsync the runs make no fdatasync and the probe's are its only ones: strace
# holds the first back (delay_enter, in us), so that the signal, or --timeout, comes
# while the probe waits in it. The signal is sent once strace's log shows that call
# entered (strace writes the entry before the delay), however slow the setup before it.
if command -v strace >/dev/null 2>&1; then
	for s in TERM:15 HUP:1; do
		sig=${s%:*} num=${s#*:}
		d=$(new_dir)
		rm -f "$SCRATCH/s.trace"
		strace -f -qq -e signal=none -o "$SCRATCH/s.trace" -e trace=fdatasync \
			-e inject=fdatasync:delay_enter=4000000:when=1 \
			"$VBENCH" --no-progress --sync dsync --check-flush bs=4k count=16 runs=1 "$d" \
			>"$SCRATCH/s.out" 2>"$SCRATCH/s.err" &
		spid=$!
		watch_run "$SCRATCH/s.out" "$SCRATCH/s.err"
		if ! wait_for "fdatasync\(" "$SCRATCH/s.trace" "$spid"; then
			not_started "SIG$sig during the flush probe: the probe" "$spid"
			continue
		fi
		pid=$(pgrep -P "$spid" | head -n 1)
		kill -s "$sig" "${pid:-$spid}"
		wait_pid "$spid" 60
		check "SIG$sig during the flush probe: dies of the signal (status $WAIT_RC, want $((128 + num)))" \
			[ "$WAIT_RC" = $((128 + num)) ]
		check "SIG$sig during the flush probe: the summary says the probe was stopped" \
			grep -q "^# flush: not checked: stopped$" "$SCRATCH/s.out"
		check "SIG$sig during the flush probe: the file is removed" empty_dir "$d"
	done
	# a flush that outlasts --timeout, and returns within the 2 s of grace: a timeout,
	# exit 3. (A second on each side of the flush's 4 s; the --timeout of 3 s also bounds
	# each of the runs' writes, which a busy disk must not make a timeout of its own.)
	# (LeakSanitizer cannot work under ptrace and would fail the exit: make asan checks
	# the rest of AddressSanitizer's findings here)
	d=$(new_dir)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -o /dev/null -e trace=fdatasync -e inject=fdatasync:delay_enter=4000000:when=1 \
		"$VBENCH" --no-progress --timeout 3 --sync dsync --check-flush bs=4k count=16 runs=1 "$d" \
		>"$SCRATCH/t.out" 2>"$SCRATCH/t.err"
	rc=$?
	SEEN="$SCRATCH/t.out $SCRATCH/t.err" SEEN_RC=$rc
	check "a probe's flush outlasting --timeout: exit 3 (got $rc)" [ "$rc" = 3 ]
	check "it is named as a timeout on stderr" grep -q "flush probe outlasted --timeout 3" "$SCRATCH/t.err"
	check "and in the summary" grep -q "^# flush: not checked: stopped: a call outlasted --timeout" "$SCRATCH/t.out"
else
	skip "no strace: signals and --timeout during the flush probe"
fi
