#!/usr/bin/env python3
"""layers.py: the README's layer list against the code's includes.

    python3 tests/layers.py TOP [README]

README.md's section "## Layers" lists, for each directory of C code, its
modules in layers, the bottom one first: a line `N. `mod` `mod` ...` per
layer under a heading `### `DIR/``.  A module is a .c and its .h (or either
alone) named alike.  The code must keep to it:

  - every module of DIR is listed once, and nothing else;
  - a module includes (and so calls) only modules of lower layers of its
    own directory, and of lib/; lib/ includes nothing of the programs.

A circle of files cannot be laid out so, which is the point.  Prints one
line per breach, "ok" when there is none; exit status 1 on a breach, 2 on
a README without the section.

Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
"""
import os
import re
import sys

DIRS = ('lib', 'tool', 'importer', 'dgsql', 'dump')
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def modules(top, d):
    """{module: {included basenames}} of directory d."""
    mods = {}
    for f in sorted(os.listdir(os.path.join(top, d))):
        if not f.endswith(('.c', '.h')):
            continue
        inc = mods.setdefault(f.rsplit('.', 1)[0], set())
        with open(os.path.join(top, d, f), errors='replace') as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if m:
                    inc.add(os.path.basename(m.group(1)))
    return mods


def readme_layers(path):
    """{dir: {module: layer}} from the README's "## Layers" section."""
    text = open(path, errors='replace').read()
    m = re.search(r'^## Layers\n(.*?)(?=^## |\Z)', text, re.S | re.M)
    if not m:
        return None
    out, cur = {}, None
    for line in m.group(1).splitlines():
        h = re.match(r'### `([a-z]+)/`', line)
        if h:
            cur = out.setdefault(h.group(1), {})
            continue
        l = re.match(r'(\d+)\. (.*)', line)
        if l and cur is not None:
            for name in re.findall(r'`([^`]+)`', l.group(2)):
                name = re.sub(r'\.[ch]$', '', name)
                if name in cur:
                    cur[name] = None        # listed twice
                else:
                    cur[name] = int(l.group(1))
    return out


def main():
    top = sys.argv[1]
    readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(top, 'README.md')
    layers = readme_layers(readme)
    if layers is None:
        print('%s: no "## Layers" section' % readme)
        return 2
    bad = []
    for d in DIRS:
        mods = modules(top, d)
        lay = layers.get(d, {})
        for m in sorted(set(mods) - set(lay)):
            bad.append('%s/%s: a module the layer list does not name' % (d, m))
        for m in sorted(set(lay) - set(mods)):
            bad.append('%s/%s: in the layer list, not in the code' % (d, m))
        for m in sorted(k for k, v in lay.items() if v is None):
            bad.append('%s/%s: listed more than once' % (d, m))
        for m, incs in sorted(mods.items()):
            for f in sorted(incs):
                y = f.rsplit('.', 1)[0]
                here = os.path.exists(os.path.join(top, d, f))
                if d == 'lib' and not here and any(
                        os.path.exists(os.path.join(top, o, f)) for o in DIRS[1:]):
                    bad.append('lib/%s includes %s of a program' % (m, f))
                if not here or y == m:
                    continue
                lm, ly = lay.get(m), lay.get(y)
                if lm is not None and ly is not None and ly >= lm:
                    bad.append('%s/%s (layer %d) includes %s (layer %d): not below it'
                               % (d, m, lm, f, ly))
    for b in bad:
        print(b)
    if not bad:
        print('ok')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
