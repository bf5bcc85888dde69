#!/bin/sh
# The README's sample outputs, run and compared, so the docs cannot drift
# from the program.  A sample is an indented code block whose lines start
# with "$ COMMAND"; the lines after each command, up to the next command
# or the end of the block, are its expected output (stdout and stderr
# together).  Commands run in the repository root with the bankc under
# test first on PATH.
# usage: run_readme.sh BANKC [README]
bankc=$(cd "$(dirname "${1:-./bankc}")" && pwd)/$(basename "${1:-./bankc}")
readme=${2:-README.md}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$bankc" "$tmp/bin/bankc"

# Split the samples into NUM.cmd / NUM.out files.
awk -v dir="$tmp" '
function flush() { if (n) close(dir "/" n ".out") }
/^    \$ / {
	flush(); n++
	print substr($0, 7) > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
	printf "" > (dir "/" n ".out")
	printf "%d\n", NR > (dir "/" n ".line"); close(dir "/" n ".line")
	insample = 1; next
}
insample && /^    / { print substr($0, 5) >> (dir "/" n ".out"); next }
insample && /^$/ { print "" >> (dir "/" n ".out"); next }
{ insample = 0 }
END { flush() }' "$readme"

for cmd in "$tmp"/*.cmd; do
	[ -e "$cmd" ] || break
	k=${cmd%.cmd}
	# blank lines that ended the block are not output
	sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}' "$k.out" >"$k.want"
	PATH="$tmp/bin:$PATH" sh -c "$(cat "$cmd")" >"$k.got" 2>&1
	if diff "$k.want" "$k.got" >"$k.diff"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $readme:$(cat "$k.line"): \$ $(cat "$cmd")"
		head -n 20 "$k.diff" | sed 's/^/    /'
	fi
done
echo "readme samples: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
