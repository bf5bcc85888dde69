#!/bin/sh
# The docs' sample outputs, run and compared, so the docs cannot drift
# from the program: the samples of README.md and of every docs/*.md.  A
# sample is an indented code block whose lines start with "$ COMMAND";
# the lines after each command, up to the next command or the end of the
# block, are its expected output (stdout and stderr together).  Commands
# run in the repository root with the bankc under test first on PATH.  A
# failure names the file and line of its command.  A command shown in the
# docs that cannot run here (one that needs a GPU) is written without the
# "$ "; one that scans a .cu file is a skip where nvcc is missing.
# usage: run_readme.sh BANKC [FILE...]
. "$(dirname "$0")/lib.sh"
bankc=$(cd "$(dirname "${1:-./bankc}")" && pwd)/$(basename "${1:-./bankc}")
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- README.md docs/*.md
mkdir "$tmp/bin" "$tmp/s"
ln -s "$bankc" "$tmp/bin/bankc"

# Split the samples into NUM.cmd / NUM.out files, NUM.where holding the
# command's FILE:LINE.
awk -v dir="$tmp/s" '
function flush() { if (n) close(dir "/" n ".out") }
FNR == 1 { insample = 0 }
/^    \$ / {
	flush(); n++
	print substr($0, 7) > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
	printf "" > (dir "/" n ".out")
	printf "%s:%d\n", FILENAME, FNR > (dir "/" n ".where"); close(dir "/" n ".where")
	insample = 1; next
}
insample && /^    / { print substr($0, 5) >> (dir "/" n ".out"); next }
insample && /^$/ { print "" >> (dir "/" n ".out"); next }
{ insample = 0 }
END { flush() }' "$@"

for n in $(ls "$tmp/s" | sed -n 's/\.cmd$//p' | sort -n); do
	k=$tmp/s/$n
	# blank lines that ended the block are not output
	sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}' "$k.out" >"$k.want"
	# scanning a .cu runs nvcc: without it such a sample is a skip
	if grep -q 'scan .*\.cu\b' "$k.cmd" && ! have "${NVCC:-nvcc}"; then
		skip "$(cat "$k.where"): needs nvcc"
		continue
	fi
	PATH="$tmp/bin:$PATH" sh -c "$(cat "$k.cmd")" >"$k.got" 2>&1
	if diff "$k.want" "$k.got" >"$k.diff"; then
		ok
	else
		bad "$(cat "$k.where"): \$ $(cat "$k.cmd")"
		head -n 20 "$k.diff" | sed 's/^/    /'
	fi
done
[ "$pass" -gt 0 ] || [ "$skipped" -gt 0 ] || bad "no samples found in $*"
summary "doc samples"
