#!/bin/sh
# bankc build's pictures (NAME.svg) rendered to PNG with rsvg-convert
# (Debian: librsvg2-bin): each renders, at the size its SVG gives, with
# nothing cut at an edge (every drawn pixel a margin inside, so no title
# or label runs out of the picture), and holds its parts: the legend, the
# layout picture of both layouts, a bank axis, and each access's totals.
# The tiles: long names, cp.async and ldmatrix, a swizzle in boxes of a wide tile,
# 64 banks and 1 bank.  PICTURES=DIR keeps the PNGs in DIR for a look.
# usage: run_pictures.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
if ! have rsvg-convert || ! have python3; then
	missing "the pictures (no rsvg-convert or python3: make deps)"
	summary pictures
	exit
fi
keep=${PICTURES:-}
[ -z "$keep" ] || mkdir -p "$keep"

# picture NAME DIR/TILE.svg: render, and check it
picture() {
	svg=$2 png=$tmp/$1.png
	if ! rsvg-convert "$svg" -o "$png" 2>"$tmp/rsvg.err"; then
		bad "$1: rsvg-convert failed: $(head -n 1 "$tmp/rsvg.err")"
		return
	fi
	[ -z "$keep" ] || cp "$png" "$keep/$1.png"
	set -- "$1" $(python3 tests/pictures/png_extent.py "$png")
	w=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1/p' "$svg")
	h=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\2/p' "$svg")
	if [ "$2" = "$w" ] && [ "$3" = "$h" ]; then ok; else bad "$1: a $2 x $3 PNG of a $w x $h SVG"; fi
	if [ "$4" = - ]; then
		bad "$1: an empty picture"
	elif [ "$4" -ge 4 ] && [ "$5" -ge 4 ] && [ "$6" -le $(($2 - 5)) ] && [ "$7" -le $(($3 - 5)) ]; then
		ok
	else
		bad "$1: drawn up to the edge of its $2 x $3 picture (box $4,$5 to $6,$7): cut off"
	fi
	for part in 'a bank serving several words: a conflict' 'the layout: the bank of each element' \
		'>bank</text>' 'all of them: row-major '; do
		grep -q "$part" "$svg" && ok || bad "$1: no '$part'"
	done
	n=$(grep -c 'all of them: row-major ' "$svg")
	a=$(grep -c '<text [^>]*class="t">access ' "$svg")
	[ "$n" -eq "$a" ] && [ "$n" -gt 0 ] && ok || bad "$1: $a accesses, $n with totals"
}

"$bankc" build tests/pictures/long_names.tile specs/seeds.tile specs/gemm.tile -o "$tmp/p" ||
	bad "build failed"
for t in very_long_tile_name_very_long_tile_name_very_long_tile_name_very_long_tile_name_very_long_tile_name_x \
	transpose_f32 column_read gemm_a_f16; do
	picture "$t" "$tmp/p/$t.svg"
done
"$bankc" build specs/kernels.tile -o "$tmp/k" && picture epilogue_bf16 "$tmp/k/epilogue_bf16.svg"
"$bankc" build --banks 64 specs/seeds.tile -o "$tmp/b64" && picture banks64 "$tmp/b64/transpose_f32.svg"
"$bankc" build --banks 1 specs/seeds.tile -o "$tmp/b1" && picture banks1 "$tmp/b1/column_read.svg"
# the layout picture names the window of a tile larger than it shows
grep -q "rows 0-31 and columns 0-31 of 128 x 32 shown" "$tmp/p/gemm_a_f16.svg" && ok ||
	bad "gemm_a_f16: the window of the layout picture not named"

summary pictures
