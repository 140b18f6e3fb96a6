# The attack pass of issue 9, reproduced (paths swapped under vbench): the directory a
# target is in is renamed or replaced by a link during the session; vbench still removes
# only what it created. Each case fails on a vbench that follows names instead of held
# descriptors.
. "$(dirname "$0")/lib.sh"
exchange=$(helper exchange)

# --- the parent directory renamed during the session: its file is still removed --------
d=$(new_dir)
mkdir "$d/sub"
rm -f "$SCRATCH/r.out"
"$VBENCH" --no-progress --sync dsync bs=4k count=200 runs=10 "$d/sub/file" >"$SCRATCH/r.out" 2>&1 &
pid=$!
check "renamed directory: run 1 completes" wait_for "^# run 1 of 10" "$SCRATCH/r.out"
mv "$d/sub" "$d/moved"
wait_pid "$pid" 60
check "renamed directory: the session goes on (exit $WAIT_RC)" [ "$WAIT_RC" = 0 ]
check "renamed directory: the file vbench created is gone" empty_dir "$d/moved"

# --- cleanup with a parent swapped for a link, over and over ------------------------------
if [ -n "$exchange" ]; then
	d=$(new_dir)
	mkdir "$d/dir" "$d/victim"
	ln -s "$d/victim" "$d/alt"
	i=0
	while [ $i -lt 200 ]; do printf 'root %s\n' $i >"$d/victim/f$i.img"; i=$((i + 1)); done
	"$exchange" "$d/dir" "$d/alt" 8 >"$SCRATCH/x.out" 2>&1 &
	xp=$!
	i=0
	while [ $i -lt 200 ] && kill -0 "$xp" 2>/dev/null; do
		"$VBENCH" -q --no-progress bs=4k count=1 runs=1 "$d/dir/f$i.img" >/dev/null 2>&1
		i=$((i + 1))
	done
	wait_pid "$xp" 20
	left=$(ls "$d/victim" | grep -c '^f[0-9]*\.img$')
	check "$i cleanups while the parent was swapped for a link: all 200 of root's files kept ($left)" [ "$left" = 200 ]
	intact=0
	j=0
	while [ $j -lt 200 ]; do
		[ "$(cat "$d/victim/f$j.img" 2>/dev/null)" = "root $j" ] && intact=$((intact + 1))
		j=$((j + 1))
	done
	check "and none was overwritten ($intact intact)" [ "$intact" = 200 ]
else
	skip "cannot build the exchange helper (apt-get install build-essential): the swapped-parent race is not tried"
fi

# --- a path longer than PATH_MAX: refused, for the reason it has -------------------------
# The kernel cannot name the file (/proc/self/fd gives ENAMETOOLONG), so nothing can be
# compared with it; the message must say that, not that /proc is missing.
d=$(new_dir)
if (cd "$d" && i=0 && while [ $i -lt 24 ]; do
	n=$(printf 'd%0200d' $i) && mkdir "$n" && cd -P "$n" || exit 1
	i=$((i + 1))
done && head -c 65536 /dev/zero >img &&
	"$VBENCH" --no-progress --force bs=4k count=1 runs=1 img >"$SCRATCH/deep.out" 2>"$SCRATCH/deep.err"
	echo $? >"$SCRATCH/deep.rc"); [ -s "$SCRATCH/deep.rc" ]; then
	check "a file deeper than PATH_MAX is refused (exit $(cat "$SCRATCH/deep.rc"))" [ "$(cat "$SCRATCH/deep.rc")" = 2 ]
	check "for its long name, not for a missing /proc" grep -q "File name too long" "$SCRATCH/deep.err"
else
	skip "cannot make a directory deeper than PATH_MAX here"
fi
