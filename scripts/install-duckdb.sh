#!/bin/sh
# install-duckdb.sh: put DuckDB's C library and its header in DIR
# (default .deps/duckdb), from npm, at one pinned version.
#
# Debian has no DuckDB package.  npm does: the shared library libduckdb.so
# comes in @duckdb/node-bindings-linux-x64 (the build DuckDB's own Node
# bindings load), and the C header duckdb.h of the same release in the
# `duckdb` package's sources.  Both are fetched with `npm pack` (npm checks
# each tarball against the registry's sha512), never installed as Node
# packages and never run: no install script, no dependency tree.  Only
# duckdb.h, libduckdb.so and DuckDB's MIT licence are kept.
#
# Nothing here runs at run time: dgsql links the library found in DIR.
# Usage: sh scripts/install-duckdb.sh [DIR]
# Exit status: 0 when DIR holds the pinned version afterwards, 1 otherwise.
set -u

# The pinned release; the two packages must be the same DuckDB version.
DUCKDB_VERSION=1.4.4
PKG_LIB="@duckdb/node-bindings-linux-x64@1.4.4-r.4"
PKG_HDR="duckdb@1.4.4"

DIR=${1:-.deps/duckdb}
STAMP="$DIR/VERSION"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$DUCKDB_VERSION" ] \
   && [ -f "$DIR/include/duckdb.h" ] && [ -f "$DIR/lib/libduckdb.so" ]; then
	exit 0
fi
case $(uname -m) in
x86_64) ;;
*) echo "install-duckdb: npm ships DuckDB's C library for x86-64 Linux here, not for $(uname -m); dgsql will use SQLite alone" >&2
   exit 1 ;;
esac
if ! command -v npm >/dev/null 2>&1; then
	echo "install-duckdb: npm is missing (Debian package 'npm'; make deps installs it)" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dg-duckdb.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "install-duckdb: fetching DuckDB $DUCKDB_VERSION's C library and header from npm ($PKG_LIB, $PKG_HDR)" >&2
if ! (cd "$tmp" && npm pack --silent "$PKG_LIB" "$PKG_HDR" >names 2>npm.err); then
	cat "$tmp/npm.err" >&2
	echo "install-duckdb: npm pack failed" >&2
	exit 1
fi
mkdir -p "$tmp/lib" "$tmp/hdr" || exit 1
tar -xzf "$tmp"/duckdb-node-bindings-linux-x64-*.tgz -C "$tmp/lib" package/libduckdb.so package/LICENSE &&
tar -xzf "$tmp"/duckdb-"$DUCKDB_VERSION".tgz -C "$tmp/hdr" package/src/duckdb/src/include/duckdb.h || {
	echo "install-duckdb: the npm tarballs do not hold libduckdb.so and duckdb.h where expected" >&2
	exit 1
}
rm -rf "$DIR.new" && mkdir -p "$DIR.new/include" "$DIR.new/lib" || exit 1
cp "$tmp/lib/package/libduckdb.so" "$DIR.new/lib/" &&
cp "$tmp/lib/package/LICENSE" "$DIR.new/LICENSE" &&
cp "$tmp/hdr/package/src/duckdb/src/include/duckdb.h" "$DIR.new/include/" &&
echo "$DUCKDB_VERSION" >"$DIR.new/VERSION" || exit 1
rm -rf "$DIR" && mv "$DIR.new" "$DIR" || exit 1
echo "install-duckdb: DuckDB $DUCKDB_VERSION in $DIR" >&2
