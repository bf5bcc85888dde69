# Hostile names and interrupted commits around bankc build's outputs;
# sourced by run_faults.sh (its $bankc, $tmp, ok, bad, failed,
# expect_fail).  Each case: what a folder, a spec path or a kill could
# do to the outputs, and that bankc refuses it before writing or repairs
# it on the next build.

o=$tmp/o
# snapshot DIR FILE: every file of DIR with its bytes' checksum
snapshot() { (cd "$1" && find . -type f ! -name .bankc-lock | LC_ALL=C sort | xargs -d '\n' md5sum) >"$2" 2>/dev/null; }
# unchanged NAME DIR SNAP: DIR as SNAP recorded it, and no temporary
unchanged() {
	snapshot "$2" "$tmp/snap.now"
	if cmp -s "$3" "$tmp/snap.now"; then ok; else failed "$1: the folder changed"; diff "$3" "$tmp/snap.now" | head -5 | indent; fi
	if ls -A "$2" | grep -q 'bankc-tmp\|\.tmp'; then failed "$1: a temporary left"; else ok; fi
}

# 1. a spec path that closes the header's comment, or starts a line
if have cc; then
	d1="$tmp/x*/int injected = 1;/*"
	d2="$tmp/n
#define INJECTED 1
"
	mkdir -p "$d1" "$d2"
	cp specs/seeds.tile "$d1/s.tile"
	cp specs/seeds.tile "$d2/s.tile"
	printf '#include "column_read.cuh"\ntypedef int injected;\n#ifdef INJECTED\n#error injected\n#endif\n' >"$tmp/inc.c"
	for d in "$d1" "$d2"; do
		rm -rf "$o"
		"$bankc" build "$d/s.tile" -o "$o" 2>"$tmp/err" || failed "build of a hostile path"
		if cc -fsyntax-only -I"$o" "$tmp/inc.c" 2>"$tmp/err"; then ok
		else failed "a spec path injects code into the header"; fi
	done
else
	skip "no cc: the header injection cases"
fi

# 2. the manifest: a spec path with a tab and a line break made a line
#    that gave a file bankc never wrote to another spec, whose next build
#    removed it
m="$tmp/m"
mkdir -p "$m/a	victim.cuh
"
cp specs/seeds.tile "$m/a	victim.cuh
/s.tile"
rm -rf "$o" && mkdir -p "$o" && echo mine >"$o/victim.cuh"
"$bankc" build "$m/a	victim.cuh
/s.tile" -o "$o" 2>"$tmp/err" || failed "build of a spec path with a tab"
lines=$(grep -vc '^#' "$o/.bankc-manifest")
[ "$lines" -eq "$(ls "$o" | grep -vc victim)" ] && ok || failed "manifest: $lines lines for $(ls "$o" | wc -l) outputs"
printf 'tile other { shape 32 x 32; dtype f32; arch sm_90; access a: load along row; }\n' >"$m/a"
"$bankc" build "$m/a" -o "$o" 2>"$tmp/err" || failed "build of the other spec"
[ "$(cat "$o/victim.cuh" 2>/dev/null)" = mine ] && ok || failed "a spec path's line in the manifest removed a user's file"

# 3. -MF naming an output, the manifest, an input, a folder: refused,
#    nothing written
cp specs/seeds.tile "$tmp/s.tile"
rm -rf "$o" && "$bankc" build "$tmp/s.tile" -o "$o" -MD || failed "build for -MF"
snapshot "$o" "$tmp/snap"
sed 's/shape 32 x 32;/shape 32 x 64;/' specs/seeds.tile >"$tmp/s.tile"
expect_fail "-MF an output" "would replace the output" -- "$bankc" build "$tmp/s.tile" -o "$o" -MD -MF "$o/column_read.cuh"
unchanged "-MF an output" "$o" "$tmp/snap"
expect_fail "-MF the manifest" "would replace the manifest" -- "$bankc" build "$tmp/s.tile" -o "$o" -MD -MF "$o/.bankc-manifest"
unchanged "-MF the manifest" "$o" "$tmp/snap"
expect_fail "-MF the input" "would replace an input" -- "$bankc" build "$tmp/s.tile" -o "$o" -MD -MF "$tmp/s.tile"
unchanged "-MF the input" "$o" "$tmp/snap"
mkdir -p "$tmp/mfdir"
expect_fail "-MF a folder" "is a folder" -- "$bankc" build "$tmp/s.tile" -o "$o" -MD -MF "$tmp/mfdir"
unchanged "-MF a folder" "$o" "$tmp/snap"
# an output's name held by a folder: no output replaced before it fails
rm "$o/transpose_f32.svg" && mkdir "$o/transpose_f32.svg"
snapshot "$o" "$tmp/snap"
expect_fail "an output held by a folder" "transpose_f32.svg': it is a folder" -- "$bankc" build "$tmp/s.tile" -o "$o" -MD
unchanged "an output held by a folder" "$o" "$tmp/snap"

# 4. another spec's outputs: a build of spec B does not replace spec A's
#    foo.cuh, nor define A's macros, in a shared folder
rm -rf "$o"
cp specs/seeds.tile "$tmp/a.tile" && cp specs/seeds.tile "$tmp/b.tile"
"$bankc" build "$tmp/a.tile" -o "$o" || failed "build of a.tile"
snapshot "$o" "$tmp/snap"
expect_fail "another spec's output" "column_read.cuh would replace the output of another spec: $tmp/a.tile made it, $tmp/b.tile makes it" -- \
	"$bankc" build "$tmp/b.tile" -o "$o"
unchanged "another spec's output" "$o" "$tmp/snap"
T='shape 32 x 32; dtype f32; arch sm_90; access a: load along row;'
echo "tile foo { $T }" >"$tmp/a.tile"
echo "tile foo_stage { $T }" >"$tmp/b.tile"
rm -rf "$o" && "$bankc" build "$tmp/a.tile" -o "$o" || failed "build of foo"
snapshot "$o" "$tmp/snap"
expect_fail "another spec's macro" "would define FOO_STAGE_ELEMS, which $o/foo.cuh (of $tmp/a.tile)" -- \
	"$bankc" build "$tmp/b.tile" -o "$o"
unchanged "another spec's macro" "$o" "$tmp/snap"
# the outputs of a spec that is gone are anyone's
rm "$tmp/a.tile" && echo "tile foo { $T }" >"$tmp/b.tile"
"$bankc" build "$tmp/b.tile" -o "$o" 2>"$tmp/err" && ok || failed "the outputs of a removed spec stay held"
grep -q "a.tile" "$o/.bankc-manifest" && failed "the manifest keeps a removed spec's outputs taken over" || ok

# 5. all or nothing: a failure at every step of the commit (each backup,
#    rename, removal) leaves the folder as it was
printf 'tile one { %s }\ntile two { %s }\n' "$T" "$T" >"$tmp/v1.tile"
printf 'tile two { shape 32 x 64; dtype f32; arch sm_90; access a: load along col; }\ntile three { %s }\n' "$T" >"$tmp/v2.tile"
rm -rf "$o" "$tmp/fresh"
cp "$tmp/v2.tile" "$tmp/s.tile" && "$bankc" build "$tmp/s.tile" -o "$tmp/fresh" || failed "fresh build"
sed -i "s|$tmp/fresh|DIR|" "$tmp/fresh/.bankc-manifest"
snapshot "$tmp/fresh" "$tmp/snap.fresh"
n=1
while [ $n -lt 100 ]; do
	rm -rf "$o" && cp "$tmp/v1.tile" "$tmp/s.tile" && "$bankc" build "$tmp/s.tile" -o "$o" || failed "build v1"
	snapshot "$o" "$tmp/snap"
	cp "$tmp/v2.tile" "$tmp/s.tile"
	BANKC_TEST_COMMIT=fail:$n "$bankc" build "$tmp/s.tile" -o "$o" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && break
	unchanged "a failure at step $n" "$o" "$tmp/snap"
	grep -q "Input/output error" "$tmp/err" && ok || failed "failure at step $n: no message"
	n=$((n + 1))
done
steps=$((n - 1))
[ $steps -ge 10 ] && ok || failed "the commit has $steps steps"

# 6. SIGKILL at every step: the next build leaves exactly what a build
#    into an empty folder does
n=1
while [ $n -le $((steps + 1)) ]; do
	rm -rf "$o" && cp "$tmp/v1.tile" "$tmp/s.tile" && "$bankc" build "$tmp/s.tile" -o "$o" || failed "build v1"
	cp "$tmp/v2.tile" "$tmp/s.tile"
	{ BANKC_TEST_COMMIT=kill:$n "$bankc" build "$tmp/s.tile" -o "$o"; } 2>/dev/null
	"$bankc" build "$tmp/s.tile" -o "$o" 2>"$tmp/err" || failed "the build after a kill at step $n"
	sed -i "s|$o|DIR|" "$o/.bankc-manifest"
	snapshot "$o" "$tmp/snap"
	if cmp -s "$tmp/snap" "$tmp/snap.fresh"; then ok; else failed "kill at step $n: the next build does not repair"; diff "$tmp/snap.fresh" "$tmp/snap" | indent; fi
	n=$((n + 1))
done

# ... and real kill -9 at random moments (30 runs, a few seconds)
for r in $(seq 30); do
	rm -rf "$o" && cp "$tmp/v1.tile" "$tmp/s.tile" && "$bankc" build "$tmp/s.tile" -o "$o" || failed "build v1"
	cp "$tmp/v2.tile" "$tmp/s.tile"
	{ "$bankc" build "$tmp/s.tile" -o "$o" & pid=$!
	  sleep "0.0$((RANDOM % 10))"; kill -9 $pid; wait $pid; } 2>/dev/null
	"$bankc" build "$tmp/s.tile" -o "$o" 2>"$tmp/err" || failed "the build after kill -9 run $r"
	snapshot "$o" "$tmp/snap"
	cmp -s "$tmp/snap" "$tmp/snap.fresh" && ok || failed "kill -9 run $r: the next build does not repair"
	ls -A "$o" | grep -q bankc-tmp && failed "kill -9 run $r: a temporary left" || ok
done

# 7. a spec path that is not UTF-8: valid JSON, the byte as U+FFFD
mkdir -p "$tmp/$(printf 'l\377')"
cp specs/seeds.tile "$tmp/$(printf 'l\377')/s.tile"
rm -rf "$o" && "$bankc" build "$tmp/$(printf 'l\377')/s.tile" -o "$o" || failed "build of a Latin-1 path"
if grep -q "\"spec\": \"$tmp/l$(printf '\357\277\275')/s.tile\"" "$o/column_read.json"; then ok
else failed "a non-UTF-8 spec path: $(head -c 80 "$o/column_read.json")"; fi
# ... and every other JSON document of that spec whole: dump's "file",
# compare's and explain's "spec" with U+FFFD, all three tiles there (an
# empty "tiles" with status 0 once made the CMake module build nothing)
l1="$tmp/$(printf 'l\377')/s.tile" u8="$tmp/l$(printf '\357\277\275')/s.tile"
for c in "dump --json:file" "compare --json:spec" "compare --json --top 1:spec" "explain --json:spec"; do
	cmd=${c%:*} key=${c##*:}
	# shellcheck disable=SC2086
	"$bankc" $cmd "$l1" >"$tmp/out" 2>"$tmp/err" || { failed "$cmd of a Latin-1 path: status $?"; continue; }
	n=$(grep -c "^      \"name\": \"\(transpose_f32\|column_read\|set_row_read_col\)\"" "$tmp/out")
	k=$(grep -c "\"$key\": \"$u8\"" "$tmp/out")
	if [ "$n" -eq 3 ] && [ "$k" -ge 1 ] && tail -n 1 "$tmp/out" | grep -qx '}'; then ok
	else failed "$cmd of a Latin-1 path: $n of 3 tiles, $k \"$key\"s with U+FFFD"; fi
	if have python3; then
		if python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert len(d["tiles"]) == 3' "$tmp/out" 2>"$tmp/err"; then ok
		else failed "$cmd of a Latin-1 path: not a whole JSON document"; fi
	fi
done

# 8. an old lock file's name as a dangling symlink: the folder itself is
# locked, the link removed, nothing made through it
rm -rf "$o" && mkdir -p "$o" && ln -s "$tmp/planted" "$o/.bankc-lock"
"$bankc" build "$tmp/s.tile" -o "$o" >/dev/null 2>&1 && ok || failed "a build beside a planted lock symlink"
[ ! -e "$tmp/planted" ] && [ ! -L "$o/.bankc-lock" ] && ok || failed "the lock was made through a symlink"

# 9. scan --emit-spec: names that differ only in what is not a letter
#    (a$b, a_b) get two specs, and a planted symlink is not written through
cat >"$tmp/k.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.visible .entry a$b()
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 buf[128];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, buf;
	add.s32 %r3, %r3, %r2;
	st.shared.u32 [%r3], %r1;
	ret;
}
.visible .entry a_b()
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 buf[128];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, buf;
	add.s32 %r3, %r3, %r2;
	st.shared.u32 [%r3], %r1;
	ret;
}
PTX
rm -rf "$o" && mkdir -p "$o" && echo outside >"$tmp/outside"
ln -s "$tmp/outside" "$o/a_b_buf.tile.tmp"
"$bankc" scan "$tmp/k.ptx" --block 32 --emit-spec "$o" >/dev/null 2>"$tmp/err" || failed "scan --emit-spec"
[ "$(ls "$o"/*.tile | wc -l)" -eq 2 ] && ok || failed "kernels a\$b and a_b: $(ls "$o")"
[ "$(cat "$tmp/outside")" = outside ] && ok || failed "--emit-spec wrote through a planted symlink"
for s in "$o"/*.tile; do "$bankc" check "$s" >/dev/null 2>&1 && ok || failed "$s does not check"; done

# 10. the limit of tiles per file, as docs/robustness.md lists it
awk -v t="$T" 'BEGIN { for (i = 0; i < 1025; i++) printf "tile t%d { %s }\n", i, t }' >"$tmp/many.tile"
expect_fail "1025 tiles" "many.tile:1025:1: error: too many tiles in one file (limit 1024)" -- "$bankc" check "$tmp/many.tile"

# 11. explain --json streams: 65536 instructions (one access of the limits
#     file) in a 150 MB address space, where the document built whole took
#     320 MB (docs/robustness.md has the figures for the whole file)
sed -n '3,5p' tests/data/limits.tile >"$tmp/one.tile" && echo '}' >>"$tmp/one.tile"
bash -c "ulimit -v 150000; exec '$bankc' explain --json '$tmp/one.tile'" >"$tmp/one.json" 2>"$tmp/err"
st=$?
if [ $st -eq 0 ] && [ "$(tail -n 1 "$tmp/one.json")" = "}" ] && grep -q '"index": 65535,' "$tmp/one.json"; then ok
else failed "explain --json of 65536 instructions in 150 MB: status $st"; fi
# and a later file's error leaves no partial document
expect_fail "explain --json, a bad second file" "no-such.tile" -- "$bankc" explain --json specs/seeds.tile no-such.tile
[ ! -s "$tmp/out" ] && ok || failed "explain --json wrote a partial document"

# 12. the depfile: names with a space, '$' and '#' read back by make as
#     the files they are
if have make; then
	d="$tmp/a b\$c#d"
	mkdir -p "$d" && cp specs/seeds.tile "$d/s.tile"
	"$bankc" build "$d/s.tile" -o "$tmp/o u\$t#" -MD || failed "build with a depfile of odd names"
	touch -d '+1 minute' "$d/s.tile" 2>/dev/null || touch "$d/s.tile"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -d -q -f "$tmp/o u\$t#/bankc.d" "$tmp/o u\$t#/column_read.cuh" >"$tmp/make.log" 2>/dev/null
	if grep -qF "Prerequisite '$d/s.tile' is newer than target '$tmp/o u\$t#/column_read.cuh'" "$tmp/make.log"; then ok
	else failed "make does not read the depfile's names back"; fi
fi
