#!/bin/sh
# bench/sym.sh -- speed of the symbolizer (lib/dgsym.c): 10^6 distinct code
# addresses of real files, each symbolized once as dg-import does.
#
# Copyright (C) 2026 the Datagrind authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: sh bench/sym.sh [N] [FILE...]
#   N      distinct addresses (default 1000000)
#   FILE   ELF files to spread them over (default: libc, with its Debian debug
#          file when libc6-dbg is installed; stripped liblzma, xz and sort)
# Builds bench/symbench.c into build/bench/symbench and runs it once; prints
# its figures.  Asserts nothing about time.
set -u
cd "$(dirname "$0")/.." || exit 2
N=${1:-1000000}
[ $# -gt 0 ] && shift
L=/usr/lib/x86_64-linux-gnu
[ $# -gt 0 ] || set -- $L/libc.so.6 $L/liblzma.so.5 /usr/bin/xz /usr/bin/sort
make -s build/obj/libdg.a || exit 1
mkdir -p build/bench
cc -std=gnu11 -O2 -g -Wall -Wextra -Ilib -D_GNU_SOURCE -o build/bench/symbench \
	bench/symbench.c build/obj/libdg.a -ldw -lelf -lstdc++ || exit 1
build/bench/symbench "$N" "$@"
