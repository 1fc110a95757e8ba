#!/usr/bin/env python3
"""report_check.py: what t1570 needs to read a dgsql --report directory.

  browse INDEX.html OUT   open the page in headless Chromium through
                          chromedriver's WebDriver API (a client over the
                          standard library: chromedriver on a free port of
                          127.0.0.1); write OUT/dom.json (the tables as the
                          page shows them, each figure's SVG size, the
                          resources it fetched, the browser's console
                          messages) and OUT/shot.png.  Exit 77 when Chromium
                          cannot run here.
  cell FILE TABLE KEY COL the cell of TABLE (its id, "t-" dropped) in the row
                          whose first cell is KEY, column COL (a name);
                          FILE is dom.json or report.json
  at FILE TABLE ROW COL   the cell of TABLE in row number ROW (0 first),
                          column COL; "all" as ROW: every row's, one a line
  same dom.json report.json
                          the number of table cells that differ between the
                          page and the JSON (numbers compared as numbers)
  md report.md            "TABLES BAD": Markdown tables and malformed lines
                          (a row whose cell count differs from its header,
                          a separator row that is not --- cells)

Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
"""
import base64
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

GATHER = r"""
const tables = {};
for (const t of document.querySelectorAll('table')) {
  const rows = Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.textContent));
  tables[t.id.replace(/^t-/, '')] = {columns: rows[0], rows: rows.slice(1)};
}
return {
  tables: tables,
  figures: Array.from(document.querySelectorAll('figure')).map(f => {
    const s = f.querySelector('svg');
    const r = s ? s.getBoundingClientRect() : {width: 0, height: 0};
    return {caption: f.querySelector('figcaption').textContent,
            width: r.width, height: r.height,
            images: s ? Array.from(s.querySelectorAll('image')).map(
              i => (i.getAttribute('href') || i.getAttribute('xlink:href') || '').slice(0, 5)) : []};
  }),
  resources: performance.getEntriesByType('resource').map(e => e.name),
  scripts: document.querySelectorAll('script').length,
  warnings: Array.from(document.querySelectorAll('p.warning')).map(p => p.textContent),
  first_section: (document.querySelector('section') || {}).id,
  first_item: ((document.querySelector('section h2') || {}).nextElementSibling || {}).className,
  title: document.title
};
"""


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Driver:
    def __init__(self, port):
        self.base = 'http://127.0.0.1:%d' % port

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read().decode())['value']
        except urllib.error.HTTPError as e:
            raise RuntimeError('%s %s: %s' % (method, path, e.read().decode()[:300]))


def find(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


class NoChrome(Exception):
    """Chromium or chromedriver is missing, or Chromium cannot run here."""


@contextlib.contextmanager
def chrome_session(height):
    """A headless Chromium session, 1280 x height, driven by chromedriver
    on a free port of 127.0.0.1: yields (driver, session id); everything
    stopped and its profile removed afterwards.  NoChrome when it cannot
    start."""
    chrome = find(['chromium', 'chromium-browser', 'google-chrome'])
    driver = find(['chromedriver'])
    if not chrome or not driver:
        raise NoChrome('chromium or chromedriver not installed')
    port = free_port()
    profile = tempfile.mkdtemp(prefix='dgchrome.')
    proc = subprocess.Popen([driver, '--port=%d' % port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = Driver(port)
    try:
        for _ in range(100):
            try:
                if d.call('GET', '/status').get('ready'):
                    break
            except (OSError, RuntimeError):
                time.sleep(0.1)
        caps = {'capabilities': {'alwaysMatch': {
            'browserName': 'chrome',
            'goog:chromeOptions': {'binary': chrome, 'args': [
                '--headless', '--no-sandbox', '--disable-gpu',
                '--disable-dev-shm-usage', '--window-size=1280,%d' % height,
                '--user-data-dir=' + profile]},
            'goog:loggingPrefs': {'browser': 'ALL'}}}}
        try:
            sid = d.call('POST', '/session', caps)['sessionId']
        except (OSError, RuntimeError) as e:
            raise NoChrome('chromium cannot run here: %s' % e)
        yield d, sid
        d.call('DELETE', '/session/%s' % sid)
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def browse(index, out):
    try:
        with chrome_session(3000) as (d, sid):
            d.call('POST', '/session/%s/url' % sid,
                   {'url': 'file://' + os.path.abspath(index)})
            dom = d.call('POST', '/session/%s/execute/sync' % sid,
                         {'script': GATHER, 'args': []})
            dom['console'] = d.call('POST', '/session/%s/se/log' % sid,
                                    {'type': 'browser'})
            png = base64.b64decode(d.call('GET', '/session/%s/screenshot' % sid))
            with open(os.path.join(out, 'shot.png'), 'wb') as f:
                f.write(png)
            with open(os.path.join(out, 'dom.json'), 'w') as f:
                json.dump(dom, f, indent=1)
    except NoChrome as e:
        print(e, file=sys.stderr)
        return 77
    return 0


def tables_of(path):
    doc = json.load(open(path))
    if 'sections' not in doc:
        return doc['tables']
    out = {}
    for s in doc['sections']:
        for it in s['items']:
            if it['type'] == 'table':
                out[it['id']] = {'columns': it['columns'], 'rows': it['rows']}
    return out


def shown(s):
    """s as the page shows trace text (lib/dgesc's text flavour): controls
    and bytes outside valid UTF-8 as \\xHH, a backslash doubled."""
    out = []
    for ch in s.encode('utf-8', 'surrogateescape').decode('utf-8', 'surrogateescape'):
        o = ord(ch)
        if 0xdc80 <= o <= 0xdcff:
            out.append('\\x%02x' % (o - 0xdc00))
        elif o < 0x20 or 0x7f <= o <= 0x9f:
            out.extend('\\x%02x' % b for b in ch.encode('utf-8'))
        elif ch == '\\':
            out.append('\\\\')
        else:
            out.append(ch)
    return ''.join(out)


def text(v):
    if v is None:
        return ''
    if isinstance(v, float):
        return '%.6g' % v
    if isinstance(v, str):
        return shown(v)
    return str(v)


def cell(path, table, key, col):
    t = tables_of(path)[table]
    c = t['columns'].index(col)
    for r in t['rows']:
        if text(r[0]) == key:
            print(text(r[c]))
            return 0
    print('no-row')
    return 1


def at(path, table, row, col):
    t = tables_of(path)[table]
    c = t['columns'].index(col)
    rows = t['rows'] if row == 'all' else t['rows'][int(row):int(row) + 1]
    for r in rows:
        print(text(r[c]))
    return 0


def same(dom, js):
    a, b = tables_of(dom), tables_of(js)
    bad = 0 if set(a) == set(b) else 1000
    for k in set(a) & set(b):
        ra, rb = a[k]['rows'], b[k]['rows']
        bad += abs(len(ra) - len(rb))
        for x, y in zip(ra, rb):
            bad += sum(1 for p, q in zip(x, y) if p != text(q))
    print(bad)
    return 0


def md_cells(line):
    # cells between unescaped pipes; "\|" is text
    parts = re.split(r'(?<!\\)\|', line.strip())
    return parts[1:-1]


def md(path):
    lines = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    tables = bad = i = 0
    while i < len(lines):
        if not lines[i].startswith('|'):
            i += 1
            continue
        tables += 1
        head = md_cells(lines[i])
        sep = md_cells(lines[i + 1]) if i + 1 < len(lines) else []
        if not lines[i].endswith('|') or len(sep) != len(head) or \
                any(c.strip() != '---' for c in sep):
            bad += 1
        i += 2
        while i < len(lines) and lines[i].startswith('|'):
            if not lines[i].endswith('|') or len(md_cells(lines[i])) != len(head):
                bad += 1
            i += 1
        if i < len(lines) and lines[i] != '':
            bad += 1    # a table must end at a blank line
    print(tables, bad)
    return 0


def main(argv):
    cmds = {'browse': (browse, 2), 'cell': (cell, 4), 'at': (at, 4), 'same': (same, 2), 'md': (md, 1)}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) - 2 != cmds[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[1]][0](*argv[2:])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
