#!/usr/bin/env python3
"""viewer_check.py: what t1576 needs to check dgsql --serve.

  get URL [COOKIE]        print the reply's status (0: no connection), then
                          its body
  plot GRID.json DATA     compare /grid's JSON with --plot-data's file of the
                          same view: print "SAME N" (N cells) or what differs
  browse URL GRID.json OUT [COL ROW]
                          open URL in headless Chromium (report_check.py's
                          WebDriver client), wait for the picture, read the
                          canvas's pixels back and compare them with the
                          cells of GRID.json (fetched for the same canvas):
                          print "SAME N" or what differs; with COL ROW, then
                          hover over that cell and click it: OUT/page.json
                          gets the side panel's text ("info"), the clicked
                          table's rows ("picked") and the SQL shown ("sql");
                          OUT/shot.png and OUT/page.json (console,
                          resources, status, the event bands' painted
                          pixels "banded", the address bands' "abanded",
                          the busiest-in-view panel's functions "topfns").
  browse URL GRID.json OUT COL ROW TYPED EVENTS GRID2.json [SNAPDIR]
                          the same, then type TYPED in the events box:
                          page.json's "completions" are the options the
                          page offers; then replace it by EVENTS and press
                          Enter: a second line compares the canvas with
                          GRID2.json's cells ("FILTERED SAME N"); with
                          SNAPDIR, then `snapshot SNAPDIR OUT` in the same
                          browser, its line prefixed "SNAPSHOT ".
                          Exit 77 when Chromium cannot run here.
  snapshot DIR OUT        open DIR/index.html (dgsql --snapshot) from the disk in
                          headless Chromium: print "SAME N" when the canvas
                          shows the snapshot's cells two by two (its grid is
                          twice the canvas each way), or what differs; then
                          zoom in with the wheel at the middle: OUT/snap.json
                          gets the status and lit pixels before and after,
                          the address axis's ends, the console and what
                          was fetched
  load URL N              N requests at once (N threads); print how many got
                          200, then whether the server answers afterwards

Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
"""
import base64
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_check import NoChrome, chrome_session  # noqa: E402


def fetch(url, cookie=None):
    req = urllib.request.Request(url, headers={'Cookie': cookie} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode('utf-8', 'replace'), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode('utf-8', 'replace'), e.headers


def get(url, cookie=None):
    try:
        status, body, _ = fetch(url, cookie)
    except OSError as e:
        status, body = 0, 'no connection: %s\n' % e
    print(status)
    print(body, end='')
    return 0


def cells_of(grid):
    c = grid['cells']
    return {(c[i], c[i + 1]): (c[i + 2], c[i + 3]) for i in range(0, len(c), 4)}


def plot(grid_path, data_path):
    """The --plot-data line of cell (col, row) is 'cols[col] y reads writes'
    with y = ylo + row (yhi - ylo) / h, as dgplot.c computes it."""
    g = json.load(open(grid_path))
    want = {}
    for (col, row), (r, w) in cells_of(g).items():
        y = int(g['ylo'] + float(row) * (float(g['yhi']) - float(g['ylo'])) / g['h'])
        want[(g['cols'][col], y)] = (r, w)
    got, head = {}, ''
    for line in open(data_path):
        if line.startswith('# x:'):
            head = line
        if line.startswith('#') or not line.strip():
            continue
        x, y, r, w = line.split()
        got[(int(x, 16), int(y))] = (int(r), int(w))
    if '(cells %d x %d)' % (g['w'], g['h']) not in head:
        print('the plot data is for another grid: %s' % head.strip())
        return 0
    bad = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
    print('SAME %d' % len(want) if not bad else
          'DIFFER %d of %d, e.g. %s: grid %s, plot %s' % (
              len(bad), len(want), hex(bad[0][0]), want.get(bad[0]), got.get(bad[0])))
    return 0


READ_CANVAS = r"""
const c = document.getElementById('picture');
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
const lit = [];
for (let i = 0; i < d.length; i += 4)
  if (d[i] || d[i + 1] || d[i + 2])
    lit.push([(i / 4) % c.width, Math.floor(i / 4 / c.width), d[i], d[i + 1], d[i + 2]]);
const b = document.getElementById('bands');
const bd = b.getContext('2d').getImageData(0, 0, b.width, b.height).data;
let banded = 0;
for (let i = 3; i < bd.length; i += 4)
  banded += bd[i] ? 1 : 0;
const ab = document.getElementById('abands');
const abd = ab.getContext('2d').getImageData(0, 0, ab.width, ab.height).data;
let abanded = 0;
for (let i = 3; i < abd.length; i += 4)
  abanded += abd[i] ? 1 : 0;
return {w: c.width, h: c.height, lit: lit, banded: banded, abanded: abanded,
        status: document.getElementById('status').textContent,
        topfns: Array.from(document.querySelectorAll('#topfns tbody tr')).map(
          r => Array.from(r.cells).map(c => c.textContent)),
        trace: document.getElementById('trace').textContent,
        resources: performance.getEntriesByType('resource').map(e => e.name)};
"""


HOVER = r"""
return {info: document.getElementById('info').textContent,
        info_cell: document.getElementById('info').dataset.cell || '',
        picked: Array.from(document.querySelectorAll('#picked tbody tr')).map(
          r => Array.from(r.cells).map(c => c.textContent)),
        sql: document.getElementById('sql').textContent};
"""


def pointer(d, sid, canvas, col, row, click):
    """Move the mouse to the middle of cell (col, row) of the canvas (its
    CSS size is its pixel size), and click there if asked."""
    acts = [{'type': 'pointerMove', 'duration': 0,
             'origin': {'element-6066-11e4-a52e-4f735466cecf': canvas},
             'x': int(col) - 450, 'y': int(row) - 300}]
    if click:
        acts += [{'type': 'pointerDown', 'button': 0}, {'type': 'pointerUp', 'button': 0}]
    d.call('POST', '/session/%s/actions' % sid, {'actions': [
        {'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'},
         'actions': acts}]})


def wait_drawn(run):
    """Until the picture is drawn and the side panel's busiest functions
    (asked for once the view stays) are listed."""
    for _ in range(300):
        status = run("return document.getElementById('status').textContent")
        if 'error' in status:
            return
        if 'cells in' in status and run(
                "return document.querySelectorAll('#topfns tbody tr').length"):
            return
        time.sleep(0.1)


def type_filter(d, sid, run, typed, events):
    """Types typed in the events box and collects the completions offered,
    then types events instead and presses Enter; the filtered page."""
    box = list(d.call('POST', '/session/%s/element' % sid,
                      {'using': 'css selector', 'value': '#events'}).values())[0]
    d.call('POST', '/session/%s/element/%s/clear' % (sid, box), {})
    d.call('POST', '/session/%s/element/%s/value' % (sid, box), {'text': typed})
    opts = []
    for _ in range(50):
        opts = run("return Array.from(document.querySelectorAll('#events-names option'))"
                   ".map(o => o.value)")
        if opts:
            break
        time.sleep(0.1)
    d.call('POST', '/session/%s/element/%s/clear' % (sid, box), {})
    run("document.getElementById('status').textContent = '';"
        "document.querySelector('#topfns tbody').replaceChildren()")
    d.call('POST', '/session/%s/element/%s/value' % (sid, box), {'text': events + '\ue007'})
    wait_drawn(run)
    page = run(READ_CANVAS)
    page['completions'] = opts
    return page


def look(d, sid, url, col, row, typed=None, events=None):
    """The page at url once its picture is drawn: the canvas read back, and
    with col and row what hovering over that cell and clicking it show;
    with typed and events, the page filtered (type_filter) as 'filtered'."""
    run = lambda script: d.call('POST', '/session/%s/execute/sync' % sid,
                                {'script': script, 'args': []})
    d.call('POST', '/session/%s/url' % sid, {'url': url})
    wait_drawn(run)
    page = run(READ_CANVAS)
    if col is not None:
        canvas = d.call('POST', '/session/%s/element' % sid,
                        {'using': 'css selector', 'value': '#picture'})
        canvas = list(canvas.values())[0]
        pointer(d, sid, canvas, col, row, False)
        for _ in range(50):
            h = run(HOVER)
            if not h['info'].startswith('hover over'):
                break
            time.sleep(0.1)
        page['info'], page['info_cell'] = h['info'], h['info_cell']
        pointer(d, sid, canvas, col, row, True)
        for _ in range(50):
            h = run(HOVER)
            if h['sql']:
                break
            time.sleep(0.1)
        page['picked'], page['sql'] = h['picked'], h['sql']
    page['console'] = d.call('POST', '/session/%s/se/log' % sid, {'type': 'browser'})
    if typed is not None:
        page['filtered'] = type_filter(d, sid, run, typed, events)
        # the console since, less the warning this script's own repeated
        # canvas readbacks earn (getImageData without willReadFrequently)
        page['console'] += [m for m in d.call('POST', '/session/%s/se/log' % sid,
                                              {'type': 'browser'})
                            if 'willReadFrequently' not in m.get('message', '')]
    return page


def same_cells(page, g, word):
    """SAME N when the canvas read back shows exactly grid g's cells."""
    if (page['w'], page['h']) != (g['w'], g['h']):
        return 'the canvas is %dx%d, the grid %dx%d' % (page['w'], page['h'], g['w'], g['h'])
    want = {k: (255 if w else 0, 255 if r else 0, 0) for k, (r, w) in cells_of(g).items()}
    got = {(x, y): (r, gr, b) for x, y, r, gr, b in page['lit']}
    bad = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
    return ('%sSAME %d' % (word, len(want)) if not bad else
            '%sDIFFER %d of %d, e.g. %s: grid %s, canvas %s' % (
                word, len(bad), len(want), bad[0], want.get(bad[0]), got.get(bad[0])))


def browse(url, grid_path, out, col=None, row=None, typed=None, events=None, grid2=None,
           snap_dir=None):
    snap = None
    try:
        with chrome_session(900) as (d, sid):
            page = look(d, sid, url, col, row, typed, events)
            with open(os.path.join(out, 'shot.png'), 'wb') as f:
                f.write(base64.b64decode(d.call('GET', '/session/%s/screenshot' % sid)))
            if snap_dir:        # the same browser: one start fewer
                snap = look_snapshot(d, sid, snap_dir)
    except NoChrome as e:
        print(e, file=sys.stderr)
        return 77
    print(same_cells(page, json.load(open(grid_path)), ''))
    if grid2:
        print(same_cells(page['filtered'], json.load(open(grid2)), 'FILTERED '))
        page['filtered'].pop('lit')
    page.pop('lit')
    with open(os.path.join(out, 'page.json'), 'w') as f:
        json.dump(page, f, indent=1)
    if snap:
        print('SNAPSHOT ' + snap[0])
        with open(os.path.join(out, 'snap.json'), 'w') as f:
            json.dump(snap[1], f, indent=1)
    return 0


def snapshot(d_dir, out):
    try:
        with chrome_session(900) as (d, sid):
            line, res = look_snapshot(d, sid, d_dir)
    except NoChrome as e:
        print(e, file=sys.stderr)
        return 77
    print(line)
    with open(os.path.join(out, 'snap.json'), 'w') as f:
        json.dump(res, f, indent=1)
    return 0


def look_snapshot(d, sid, d_dir):
    """The snapshot's page opened from the disk: the line comparing its
    canvas with the snapshot's cells two by two, and what snap.json holds."""
    js = open(os.path.join(d_dir, 'snapshot.js')).read()
    snap = json.loads(js[js.index('=') + 1:].strip().rstrip(';'))
    g = snap['grid']
    half = {}
    for (col, row), (r, w) in cells_of(g).items():
        k = (col // 2, row // 2)
        pr, pw = half.get(k, (0, 0))
        half[k] = (pr + r, pw + w)
    flat = [v for (col, row), (r, w) in half.items() for v in (col, row, r, w)]
    want = {'w': g['w'] // 2, 'h': g['h'] // 2, 'cells': flat}
    axis = "return [document.getElementById('xleft').textContent, " \
           "document.getElementById('xright').textContent]"
    run = lambda script: d.call('POST', '/session/%s/execute/sync' % sid,
                                {'script': script, 'args': []})
    d.call('POST', '/session/%s/se/log' % sid, {'type': 'browser'})    # the console so far
    d.call('POST', '/session/%s/url' % sid,
           {'url': 'file://' + os.path.abspath(os.path.join(d_dir, 'index.html'))})
    wait_drawn(run)
    page = run(READ_CANVAS)
    res = {'status': page['status'], 'lit': len(page['lit']), 'axis': run(axis),
           'trace': page['trace'], 'topfns': page['topfns']}
    line = same_cells(page, want, '')
    canvas = list(d.call('POST', '/session/%s/element' % sid,
                         {'using': 'css selector', 'value': '#picture'}).values())[0]
    run("document.getElementById('status').textContent = ''")
    d.call('POST', '/session/%s/actions' % sid, {'actions': [
        {'type': 'wheel', 'id': 'wheel', 'actions': [
            {'type': 'scroll', 'x': 0, 'y': 0, 'deltaX': 0, 'deltaY': -100,
             'origin': {'element-6066-11e4-a52e-4f735466cecf': canvas}}]}]})
    wait_drawn(run)
    zoomed = run(READ_CANVAS)
    res.update({'zoomed_status': zoomed['status'], 'zoomed_lit': len(zoomed['lit']),
                'zoomed_axis': run(axis), 'resources': zoomed['resources'],
                'console': [m for m in d.call('POST', '/session/%s/se/log' % sid,
                                              {'type': 'browser'})
                            if 'willReadFrequently' not in m.get('message', '')]})
    return line, res


def load(url, n):
    n = int(n)
    codes = []
    lock = threading.Lock()

    def one():
        try:
            status = fetch(url)[0]
        except OSError:
            status = 0
        with lock:
            codes.append(status)

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    print(sum(1 for c in codes if c == 200), fetch(url)[0])
    return 0


def main(argv):
    cmds = {'get': (get, (1, 2)), 'plot': (plot, (2,)), 'browse': (browse, (3, 5, 8, 9)),
            'load': (load, (2,)), 'snapshot': (snapshot, (2,))}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) - 2 not in cmds[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[1]][0](*argv[2:])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
