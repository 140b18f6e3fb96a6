# The attack pass of issue 9, reproduced (what vbench writes): a hostile local user and a
# careless root user try to make vbench overwrite what it did not create through its
# output files, or forge its output. Each case fails on a vbench that does not defend
# against it. (The other scenarios: t_attack_signals.sh, t_attack_paths.sh,
# t_attack_disks.sh.)
. "$(dirname "$0")/lib.sh"

# --- --csv-append: links, FIFOs, hard links, opened before the target -----------------
d=$(new_dir)
t=$(new_dir)
printf 'secret\n' >"$d/victim"
chmod 600 "$d/victim"
ln -s "$d/victim" "$d/link.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/link.csv" "$t"
expect_rc 2 "--csv-append through a symbolic link is refused"
expect_err "symbolic link" "and the message says why"
check "the linked file is untouched" [ "$(cat "$d/victim")" = secret ]
check "nothing was written to the target first" empty_dir "$t"
ln -s "$d/nonexistent.csv" "$d/dangling.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/dangling.csv" "$t"
expect_rc 2 "--csv-append through a dangling link is refused"
check "the dangling link's target is not created" [ ! -e "$d/nonexistent.csv" ]
ln "$d/victim" "$d/hard.csv"
run_vb --no-progress bs=4k count=1 runs=1 --csv-append "$d/hard.csv" "$t"
expect_rc 2 "--csv-append to a file with another name is refused"
check "the hard-linked file is untouched" [ "$(cat "$d/victim")" = secret ]
mkfifo "$d/fifo.csv"
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/fifo.csv" "$t" >/dev/null 2>"$SCRATCH/fifo.err" &
pid=$!
check "--csv-append to a FIFO does not hang" wait_pid "$pid" 10
check "and is refused (exit $WAIT_RC)" [ "$WAIT_RC" = 2 ]
check "before the target was created" empty_dir "$t"

# --- descriptors 0, 1 and 2 closed: the CSV file never receives the human output ------
d=$(new_dir)
"$VBENCH" --no-progress bs=4k count=2 runs=2 --csv-append "$d/runs.csv" "$d" >&- 2>/dev/null
check "stdout closed, the rows in the CSV file: exit 0 (got $?)" [ $? = 0 ]
check "stdout closed: the CSV file starts with its header" [ "$(head -c 6 "$d/runs.csv")" = "label," ]
check "stdout closed: no human line in the CSV file" sh -c '! grep -q "^#\|records out\|^mean" "$1"' _ "$d/runs.csv"
rm -f "$d/runs.csv"
"$VBENCH" --no-progress bs=4k count=2 runs=2 --csv-append "$d/runs.csv" "$d" 2>&- >/dev/null
check "stderr closed: the CSV file holds only rows" [ "$(grep -c '' "$d/runs.csv")" = 3 ]
"$VBENCH" --no-progress bs=4k count=1 runs=1 --csv-append "$d/runs.csv" "$d" <&- >/dev/null 2>&1
check "stdin closed: still only rows" [ "$(grep -c '' "$d/runs.csv")" = 4 ]

# --- concurrent appenders never duplicate the header or interleave rows ----------------
d=$(new_dir)
bad=0
i=0
while [ $i -lt 30 ]; do
	rm -f "$d/c.csv"
	"$VBENCH" -q --no-progress bs=4k count=1 runs=2 -l a --csv-append "$d/c.csv" /dev/null >/dev/null 2>&1 &
	p1=$!
	"$VBENCH" -q --no-progress bs=4k count=1 runs=2 -l b --csv-append "$d/c.csv" /dev/null >/dev/null 2>&1 &
	p2=$!
	wait_pid "$p1" 20
	wait_pid "$p2" 20
	h=$(grep -c '^label,run,' "$d/c.csv")
	rows=$(grep -c '^[ab],[12],' "$d/c.csv")
	[ "$h" = 1 ] && [ "$rows" = 4 ] || bad=$((bad + 1))
	i=$((i + 1))
done
check "30 pairs of concurrent appenders: one header, four whole rows each time ($bad bad)" [ $bad = 0 ]

# --- text from the environment is escaped: a label cannot forge a dd line ---------------
d=$(new_dir)
run_vb --no-progress bs=4k count=2 runs=2 -l "$(printf 'x\n4096 bytes transferred in 1.000000 secs (4096 bytes/sec)')" "$d"
check "a newline in a label does not start a line" [ "$(printf '%s\n' "$OUT" | grep -c '^[0-9]* bytes transferred in')" = 2 ]
printf '%s\n' "$OUT" >"$SCRATCH/label.log"
run_vb report "$SCRATCH/label.log"
check "report counts only the real runs of that log" [ "$(printf '%s\n' "$OUT" | grep -c '^run ')" = 2 ]

# --- CSV outputs escape text too: a label cannot forge a line in a file that is `cat` ----
# only_ascii FILE: printable ASCII and line ends, nothing a terminal acts on.
only_ascii() { [ -z "$(LC_ALL=C tr -d '\040-\176\r\n' <"$1")" ]; }
# crlf_only FILE: every CR ends a line, every line ends with CR (the rows' ends).
crlf_only() {
	[ "$(tr -cd '\r' <"$1" | wc -c)" = "$(tr -cd '\n' <"$1" | wc -c)" ] &&
		! LC_ALL=C grep -qv "$(printf '\r')\$" "$1"
}
# no_fake_dd FILE: no line of FILE looks like a dd result line (vbench printed none).
no_fake_dd() { ! LC_ALL=C grep -q '^[0-9]* bytes transferred in' "$1"; }
d=$(new_dir)
lab=$(printf 'x\033[2J\r\n16384 bytes transferred in 0.000001 secs (16384 bytes/sec)\n\377\302\233z')
shown='x\\x1b\[2J\\x0d\\x0a16384 bytes transferred in 0\.000001 secs \(16384 bytes/sec\)\\x0a\\xff\\xc2\\x9bz'
run_vb -q --no-progress -f csv bs=4k count=4 runs=2 --interval 0.01 -l "$lab" \
	--csv-append "$d/runs.csv" --trace "$d/trace.csv" "$d"
expect_rc 0 "-f csv, --csv-append and --trace with a hostile label"
cp "$SCRATCH/out" "$d/stdout.csv"
for f in stdout runs trace; do
	check "$f.csv: no control byte, no byte that is not ASCII" only_ascii "$d/$f.csv"
	check "$f.csv: CR only at the end of each row" crlf_only "$d/$f.csv"
	check "$f.csv: no forged dd line" no_fake_dd "$d/$f.csv"
	check "$f.csv: the label as vbench shows it" has "$(cat "$d/$f.csv")" "^$shown,[12],"
done
run_vb report "$d/runs.csv"
expect_rc 0 "report reads the escaped label"
check "report shows the label escaped, as it was shown" has "$OUT" "^bytes/sec +$shown\$"
check "and prints no control byte" only_ascii "$SCRATCH/out"
check "and no forged dd line" no_fake_dd "$SCRATCH/out"
run_vb report -f csv "$d/runs.csv"
check "report -f csv: no control byte" only_ascii "$SCRATCH/out"
check "report -f csv: CR only at the end of each row" crlf_only "$SCRATCH/out"
check "report -f csv: the label as it was shown" has "$OUT" "^$shown,2,"
run_vb report "$d/trace.csv"
expect_rc 0 "report reads the escaped --trace file"
check "and shows its label escaped" has "$OUT" "^$shown run 1: "

# --- --help and --version fail when they cannot be written ------------------------------
"$VBENCH" --help >&- 2>/dev/null
check "--help with stdout closed fails (exit $?)" [ $? -ne 0 ]
"$VBENCH" --version >&- 2>/dev/null
check "--version with stdout closed fails" [ $? -ne 0 ]
"$VBENCH" report --help >&- 2>/dev/null
check "report --help with stdout closed fails" [ $? -ne 0 ]

# --- report: control bytes from an input never reach the terminal raw -------------------
printf 'label,run,bytes,secs,bytes_per_sec\n\033[31mred\a,x,1,1,1\n' >"$SCRATCH/esc.csv"
run_vb report "$SCRATCH/esc.csv"
expect_rc 1 "report refuses the bad row"
check "its message holds no escape byte" sh -c '! printf "%s" "$1" | grep -q "$(printf "\033")"' _ "$ERR"
check "and no bell" sh -c '! printf "%s" "$1" | grep -q "$(printf "\a")"' _ "$ERR"

# --- report --svg: never its own input, never through a link, never a stranger's file ---
d=$(new_dir)
printf 'label,run,bytes,secs,bytes_per_sec\na,1,10,1,10\na,2,12,1,12\n' >"$d/data.csv"
sum=$(cksum <"$d/data.csv")
run_vb report --svg "$d/data.csv" "$d/data.csv"
expect_rc 1 "report --svg over its own input is refused"
check "the input is unchanged" [ "$(cksum <"$d/data.csv")" = "$sum" ]
printf 'mine\n' >"$d/victim"
mkdir "$d/sticky" && chmod 1777 "$d/sticky"
ln -s "$d/victim" "$d/sticky/chart.svg"
run_vb report --force --svg "$d/sticky/chart.svg" "$d/data.csv"
expect_rc 1 "a link planted where the chart goes is refused, even with --force"
check "the link's target is unchanged" [ "$(cat "$d/victim")" = mine ]
printf 'a drawing\n' >"$d/other.svg"
run_vb report --svg "$d/other.svg" "$d/data.csv"
expect_rc 1 "a file vbench report did not write is not replaced without --force"
check "it is unchanged" [ "$(cat "$d/other.svg")" = "a drawing" ]
run_vb report --svg "$d/new.svg" "$d/data.csv"
expect_rc 0 "a new chart is written"
run_vb report --svg "$d/new.svg" "$d/data.csv"
expect_rc 0 "and its own chart is replaced"
check "no temporary file is left" [ -z "$(ls -A "$d" | grep vbench-svg)" ]
