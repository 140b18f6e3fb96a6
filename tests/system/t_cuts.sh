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

need_linux "a tmpfs with a long source"
need_root "mount a tmpfs"

# A tmpfs whose source (301 bytes) is longer than the 255 vbench keeps, on a mount point
# of 2-byte characters longer than the 1,023 it keeps, twice, one byte apart: one of the
# two would have its cut inside a character.
src="$(printf 'src%.0s' $(seq 1 100))X"
for pad in "" x; do
	m=$(new_dir)/m$pad
	for i in 1 2 3 4 5 6; do m="$m/$(printf 'ä%.0s' $(seq 1 100))"; done
	mkdir -p "$m"
	if ! mount -t tmpfs -o size=16m "$src" "$m" 2>/dev/null; then
		skip "cannot mount a tmpfs with a long source here"
		continue
	fi
	add_mount "$m"

	run_vb --no-progress bs=4k count=4 runs=1 "$m"
	expect_rc 0 "a run on a tmpfs with a long source and mount point ('$pad')"
	expect_out '^# label .* on (src)+s?r?\.\.\.\(cut\) \(driver none\), mounted on .*ä\.\.\.\(cut\)' \
		"the header marks both cuts, each after a whole character"
	check "the header shows no invalid byte" sh -c '! printf "%s\n" "$1" | grep -qF "\\x"' _ "$OUT"

	run_vb --no-progress -q -f csv bs=4k count=4 runs=1 "$m"
	printf '%s' "$OUT" >"$SCRATCH/cut.csv"
	check "the CSV is UTF-8 throughout" valid_utf8 "$SCRATCH/cut.csv"
	got=$(printf '%s\n' "$OUT" | tr -d '\r' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 { print $c["device"] "|" $c["mount"] }')
	case ${got%|*} in
	src*'...(cut)') ok "the CSV's device is marked as cut" ;;
	*) not_ok "the CSV's device is marked as cut: '${got%|*}'" ;;
	esac
	case ${got#*|} in
	*'ä...(cut)') ok "the CSV's mount is cut after a whole character, marked" ;;
	*) not_ok "the CSV's mount is cut after a whole character, marked: '${got#*|}'" ;;
	esac

	run_vb --no-progress -q -f json bs=4k count=4 runs=1 "$m"
	printf '%s' "$OUT" >"$SCRATCH/cut.json"
	check "the JSON is UTF-8 throughout" valid_utf8 "$SCRATCH/cut.json"
	if command -v python3 >/dev/null 2>&1; then
		check "the JSON's device and mount are marked as cut, with no U+FFFD" python3 -c '
import json, sys
e = json.load(open(sys.argv[1], encoding="utf-8"))["environment"]
ok = e["device"].startswith("src") and e["device"].endswith("...(cut)") and \
	e["mount"].endswith("\u00e4...(cut)") and "\ufffd" not in e["mount"] + e["device"]
sys.exit(0 if ok else 1)' "$SCRATCH/cut.json"
	fi
done
