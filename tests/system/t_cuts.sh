# Text vbench did not write, too long for where it goes: cut at a whole UTF-8 character,
# with a marker ("...(cut)"), and the reason of an error never lost behind a long path.
. "$(dirname "$0")/lib.sh"

# valid_utf8 FILE: FILE is UTF-8 throughout (python3; true without it, said by a skip).
valid_utf8() {
	if ! command -v python3 >/dev/null 2>&1; then
		skip "python3 not installed: the UTF-8 check of $1"
		return 0
	fi
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" 2>/dev/null
}

# A path of about 3,000 bytes of 2-byte characters in a directory that does not exist,
# twice, one byte apart: one of the two would have its cut inside a character.
for pad in "" x; do
	d=$(new_dir)
	long="$d/nodir$pad"
	for i in $(seq 1 750); do long="$long/ä"; done
	long="$long/f"

	run_vb --no-progress bs=4k count=1 runs=1 "$long"
	expect_rc 2 "a target in a missing directory of a 3,000-byte path ('$pad')"
	expect_err ': its directory does not exist$' "the reason survives the long path"
	expect_err '\.\.\.\(cut\)\.\.\.' "and a marker says the path was cut"
	expect_no_err '\\x' "nothing shown as an invalid byte"

	run_vb report "$long"
	expect_rc 1 "report of a missing file of a 3,000-byte path ('$pad')"
	expect_err ': No such file or directory$' "report: the reason survives the long path"
	expect_err '\.\.\.\(cut\)\.\.\.' "report: a marker says the path was cut"
	expect_no_err '\\x' "report: nothing shown as an invalid byte"
done
