#!/bin/sh
# t0010-layers: the modules of lib/, tool/, importer/, dgsql/ and dump/ keep
# to the layers README.md's "## Layers" lists: each includes only modules
# of lower layers (and lib/), so no circle of files can come back, and the
# list names every module (tests/layers.py).  And the checker can fail: a
# README whose list puts a module below one it includes, or leaves one out,
# is refused.
. "$DG_TESTS/lib.sh"
need_cmd python3

python3 "$DG_TESTS/layers.py" "$DG_TOP" >layers.out 2>&1
check_eq "the code keeps to README.md's layers" "0 ok" "$? $(cat layers.out)" ||
	diag_file layers.out 30

# The same list with dgsql's shell and commands swapped (the shell includes
# commands.h, so the shell below the commands is a breach), and without
# dg_main.
sed -n '/^## Layers/,$p' "$DG_TOP/README.md" >all.md
awk '/^### `dgsql\/`/ { d = 1 } /^### / && !/dgsql/ { d = 0 }
     d && /`shell`/ { sub(/`shell`/, "`SHELL`") }
     d && /`commands`/ { sub(/`commands`/, "`shell`") }
     d && /`SHELL`/ { sub(/`SHELL`/, "`commands`") } { print }' all.md >swapped.md
python3 "$DG_TESTS/layers.py" "$DG_TOP" swapped.md >swapped.out 2>&1
check_eq "shell listed below commands: refused (exit 1)" 1 "$?"
check_ge "shell listed below commands: the breach is named" 1 \
	"$(grep -c '^dgsql/shell (layer [0-9]*) includes commands.h' swapped.out)"
sed 's/`dg_main`//' all.md >missing.md
python3 "$DG_TESTS/layers.py" "$DG_TOP" missing.md >missing.out 2>&1
check_eq "dg_main left out: refused (exit 1)" 1 "$?"
check_eq "dg_main left out: named" "tool/dg_main: a module the layer list does not name" \
	"$(cat missing.out)"
printf '# no layers here\n' >none.md
python3 "$DG_TESTS/layers.py" "$DG_TOP" none.md >none.out 2>&1
check_eq "a README without the section: exit 2" 2 "$?"
finish
