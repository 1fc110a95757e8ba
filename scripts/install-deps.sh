#!/bin/sh
# install-deps.sh: install the Debian packages Datagrind needs, and only those
# that are missing.  Says what it installs; uses sudo when not root.
# Exit status: 0 when everything is present afterwards, 1 otherwise.
set -u

# package            what for
PACKAGES="
build-essential      compiler, make, libc headers
pkg-config           locating valgrind's static libraries
valgrind             the core and its tool headers and static libraries
libsqlite3-dev       dg-import and dgsql store and query traces in SQLite
libdw-dev            dg-import resolves code addresses with elfutils' libdw
libcapstone-dev      dg-import decodes accessing instructions to type struct fields
libreadline-dev      dgsql's line editing and history
libmicrohttpd-dev    dgsql --serve: the viewer's HTTP server on 127.0.0.1
gnuplot-nox          dgsql's plots (run as a program)
sqlite3              the stock shell, used by tests against our databases
g++                  the C++ test program
debuginfod           the symbol tests serve debug files with a real debuginfod server
iproute2             brings up loopback in the network namespace that keeps the test debuginfod off other interfaces
xz-utils             the symbol benchmarks trace Debian's stripped xz (and its liblzma)
dwarves              pahole: the field tests compare the layouts dg-import reads from DWARF with pahole's
chromium             the report test opens dgsql --report's page in headless Chromium
chromium-driver      ... and drives it over WebDriver (chromedriver) from python3's stdlib
npm                  fetches DuckDB's C library (dgsql's columnar engine), which Debian does not package
"

missing=""
for p in $(printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }'); do
	# npm may come with another Node.js build than Debian's: the command is what counts
	[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
# DuckDB, pinned, from npm (scripts/install-duckdb.sh says why and how).
duckdb() {
	sh "$(dirname "$0")/install-duckdb.sh"
}
[ -z "$missing" ] && { duckdb; exit $?; }

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: missing Debian packages:$missing" >&2
	echo "install-deps: not root and no sudo; install them and run again" >&2
	exit 1
fi

echo "install-deps: installing missing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || exit 1
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
duckdb
