# library_prefix.sh: sourced by check_library.sh and bench_library.sh.
#
# library_prefix LOG: the installed tree the library's programs build
# against, as a user's would.  With PREFIX (a tree `make install` made
# already: a GPU machine without re2c or cmocka builds nothing) that tree
# as it is; else this checkout built and installed into $out/prefix, its
# output in LOG.  Sets prefix and lib_cflags (pkg-config --cflags
# bankc-templates of that tree); the caller defines die and out.
library_prefix() {
	if [ -n "${PREFIX:-}" ]; then
		prefix=$(cd "$PREFIX" && pwd) || die "no folder $PREFIX"
		echo "installed tree: $PREFIX" >"$1"
	else
		prefix=$out/prefix
		{ make && make install prefix="$prefix"; } >"$1" 2>&1 ||
			{ tail -n 20 "$1"; die "make install failed ($(basename "$1"))"; }
	fi
	lib_cflags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags bankc-templates) ||
		die "no bankc-templates in $prefix"
}
