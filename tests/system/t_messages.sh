# Messages that help (issue 37): a mistyped option or operand is answered in one line
# with the one meant; memory is given in GiB; warnings are whole sentences that say what
# to do; a file system in memory is said to be, with --direct too; in a chroot the file
# system is still named.
. "$(dirname "$0")/lib.sh"

# --- a mistyped option or operand ---------------------------------------------------------
d=$(new_dir)
run_vb --dirct "$d"
expect_rc 1 "--dirct"
check "--dirct: one line, with the option meant ($ERR)" \
	[ "$ERR" = "vbench: unknown option '--dirct': did you mean --direct?" ]
run_vb cout=5 "$d"
expect_rc 1 "cout=5"
check "cout=5: one line, with the operand meant ($ERR)" \
	[ "$ERR" = "vbench: unknown operand 'cout=' in 'cout=5': did you mean count=?" ]
run_vb --frobnicate "$d"
check "an option near none: one line that points to --help ($ERR)" \
	[ "$ERR" = "vbench: unknown option '--frobnicate' (see vbench --help)" ]

# --- the header: memory in GiB, block sizes in bytes ---------------------------------------
run_vb --no-progress bs=64k count=4 runs=1 "$d"
expect_rc 0 "a run into a directory"
expect_out '^# host .*, RAM [0-9]+\.[0-9]{1,2} GiB(,|$)' "the header gives the memory in GiB"
check "and not in bytes" sh -c '! printf "%s\n" "$1" | grep -q "RAM [0-9]* bytes"' _ "$OUT"
if has "$OUT" '^# host .*block size [0-9]'; then
	expect_out '^# host .*, block size [0-9]+ logical / [0-9]+ physical bytes$' \
		"block sizes stay in bytes"
fi
# every warning is a line of its own: none continues the one before it
expect_no_err '^vbench: warning: [^:]*: and ' "no warning line continues another"

# --- runs appended by two invocations: the CSV says which, report says so, with dates ----
c="$d/fs.csv"
"$VBENCH" -q --no-progress -l ext4 bs=64k count=4 runs=2 --csv-append "$c" "$d" >/dev/null 2>&1
"$VBENCH" -q --no-progress -l xfs bs=64k count=4 runs=2 --csv-append "$c" "$d" >/dev/null 2>&1
run_vb report "$c"
expect_rc 0 "report of one session per label"
expect_no_err 'sessions' "one session per label: no note"
"$VBENCH" -q --no-progress -l ext4 bs=64k count=4 runs=2 --csv-append "$c" "$d" >/dev/null 2>&1
tr -d '\r' <"$c" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["session"] " " $c["session_start"] }' >"$SCRATCH/sessions"
check "each row names its session and start" \
	sh -c '[ "$(wc -l <"$1")" = 6 ] && ! grep -Evq "^[0-9a-f]{16} 20[0-9-]{8}T[0-9:]{8}Z$" "$1"' _ "$SCRATCH/sessions"
check "three invocations, three sessions" [ "$(cut -d' ' -f1 "$SCRATCH/sessions" | sort -u | wc -l)" = 3 ]
run_vb report "$c"
expect_rc 0 "report of a label appended to twice"
expect_err '^vbench report: note: label "ext4" holds runs of 2 sessions, (all )?started 20[0-9T:-]+Z( and 20[0-9T:-]+Z)?: runs appended to one file at different times are mixed in; remove the file before a new series \(rm -f\) to keep them apart$' \
	"the note says the label mixes 2 sessions, with their dates"
expect_no_err 'label "xfs" holds' "and not for the label of one session"

need_linux "tmpfs, ramfs and a chroot"
need_root "mount tmpfs and ramfs, and chroot"

# --- a file system in memory: said, with --direct too --------------------------------------
for fs in tmpfs ramfs; do
	m=$(new_dir)
	if ! mount -t "$fs" -o size=64m "vbtest-$fs" "$m" 2>/dev/null; then
		skip "cannot mount $fs here"
		continue
	fi
	add_mount "$m"
	run_vb -q --no-progress -l "mem-$fs" bs=64k count=16 runs=2 "$m"
	expect_rc 0 "a run on $fs"
	expect_err "^vbench: warning: mem-$fs: $fs keeps its files in memory: these figures are of RAM, not of a disk, with --direct too\$" \
		"$fs: a note that the file system is memory"
	check "$fs: one line of it" [ "$(printf '%s\n' "$ERR" | grep -c 'keeps its files in memory')" = 1 ]
done
m=$(new_dir)
if mount -t tmpfs -o size=64m vbtest-tmpfs "$m" 2>/dev/null; then
	add_mount "$m"
	run_vb -q --no-progress --direct -l mem-direct bs=64k count=16 runs=2 "$m"
	if [ "$RC" = 0 ]; then
		expect_err '^vbench: warning: mem-direct: tmpfs keeps its files in memory: .*with --direct too$' \
			"tmpfs with --direct: the note too"
	else
		skip "tmpfs refuses O_DIRECT on this kernel (before 6.6): --direct case"
	fi
fi

# --- a chroot: the mount is not listed, statfs's magic names the file system --------------
c=$(new_dir)/root
mkdir -p "$c/proc" "$c/sys" "$c/dev" "$c/tmp"
cp "$VBENCH" "$c/vbench"
libs_ok=1
for l in $(ldd "$VBENCH" 2>/dev/null | grep -o '/[^ ]*'); do
	mkdir -p "$c$(dirname "$l")" && cp "$l" "$c$l" || libs_ok=0
done
if [ "$libs_ok" = 1 ] && mount -t proc proc "$c/proc" && add_mount "$c/proc" &&
	mount --bind /sys "$c/sys" && add_mount "$c/sys" &&
	mount --bind /dev "$c/dev" && add_mount "$c/dev" &&
	chroot "$c" /vbench --version >/dev/null 2>&1; then
	host_fs=$(findmnt -n -o FSTYPE -T "$c" 2>/dev/null)
	case $host_fs in
	ext2 | ext3 | ext4) want=ext2/3/4 ;;
	*) want=$host_fs ;;
	esac
	chroot "$c" /vbench --no-progress -q -f csv bs=64k count=4 runs=1 /tmp \
		>"$SCRATCH/chroot.csv" 2>"$SCRATCH/chroot.err"
	RC=$? ERR=$(cat "$SCRATCH/chroot.err")
	expect_rc 0 "a run in a chroot on $host_fs"
	got=$(tr -d '\r' <"$SCRATCH/chroot.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 { print $c["fs"] "|" $c["mount"] }')
	check "in a chroot the file system is named by its magic: '$want' (got '${got%|*}')" \
		[ "${got%|*}" = "$want" ]
	check "and the mount point stays unknown (got '${got#*|}')" [ "${got#*|}" = unknown ]
else
	skip "cannot build a chroot with the binary and its libraries here"
fi
