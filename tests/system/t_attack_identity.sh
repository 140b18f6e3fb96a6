# The third attack pass (issue 34), identity: one storage is known by device and inode
# together, never by inode number alone and never by the name it is given. Two files of
# inode 2 on two tmpfs mounts are two files; a target named through a symlinked
# directory is still the target. Each case fails on a vbench that compares inode
# numbers alone (mutation Z1) or names (Z2).
. "$(dirname "$0")/lib.sh"
need_root "the cases with tmpfs mounts"
need_linux "the cases with tmpfs mounts"

# --- inode 2 here and inode 2 there: different files, vbench runs ---------------------------
# (on a fresh tmpfs the first file made gets inode 2; the target is one, with --force)
d=$(new_dir)
for m in a b c; do
	mkdir "$d/$m"
	mount -t tmpfs -o size=16m tmpfs "$d/$m" && add_mount "$d/$m"
done
: >"$d/a/z.img"
: >"$d/b/r.csv"
: >"$d/c/t.csv"
set -- $(stat -c '%d:%i' "$d/a/z.img" "$d/b/r.csv" "$d/c/t.csv" 2>/dev/null)
if [ $# = 3 ] && [ "${1#*:}" = 2 ] && [ "${2#*:}" = 2 ] && [ "${3#*:}" = 2 ] &&
	[ "${1%:*}" != "${2%:*}" ] && [ "${2%:*}" != "${3%:*}" ]; then
	run_vb --no-progress --force bs=4k count=4 runs=2 --csv-append "$d/b/r.csv" \
		--trace "$d/c/t.csv" "$d/a/z.img"
	expect_rc 0 "target, --csv-append and --trace all inode 2 on three tmpfs mounts: vbench runs"
	check "the rows went to the --csv-append file" [ "$(grep -c '' "$d/b/r.csv")" = 3 ]
	check "the trace went to the --trace file" [ -s "$d/c/t.csv" ]
	check "the target holds the last run" [ "$(size_of "$d/a/z.img")" = 16384 ]
else
	skip "the files did not get inode 2 on each mount here ($*)"
fi
for m in a b c; do umount "$d/$m"; done

# --- the target through a symlinked directory ---------------------------------------------
d=$(new_dir)
mkdir "$d/real"
ln -s real "$d/alias"
for opt in --csv-append --trace; do
	run_vb --no-progress bs=4k count=4 runs=1 $opt "$d/alias/z.img" "$d/real/z.img"
	expect_rc 2 "$opt alias/z.img with target real/z.img (alias -> real) is refused"
	expect_err "^vbench: $d/real/z.img is where vbench writes its results \(the $opt file: it is the same file\)" \
		"$opt: the message says they are one file"
	check "$opt: nothing is left (the file vbench created for it is removed)" empty_dir "$d/real"
	# and the other way round: the target through the link, the output by its own name
	run_vb --no-progress bs=4k count=4 runs=1 $opt "$d/real/z.img" "$d/alias/z.img"
	expect_rc 2 "$opt real/z.img with target alias/z.img is refused"
	check "$opt: nothing is left" empty_dir "$d/real"
done
