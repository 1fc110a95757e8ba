#!/usr/bin/env python3
"""viewer_session.py: a scripted session of dgsql --serve's viewer, timed.

Usage: viewer_session.py URL [VIEWS] [SEED]

URL is what dgsql --serve printed.  VIEWS (100) requests of /grid for a
900 x 600 canvas, as the page asks them (viewer/viewer.js): the whole
trace, then wheel zooms by 2 on both axes centred on a lit cell of the
current picture (chosen with SEED, 1), pans by a third of the view, a
zoom out now and then, back to the whole trace when a view comes back
empty or every 25 views.  Prints each request's seconds and path, then
the p50, p95 and maximum (the server's time plus the loopback, as the page
sees it).  Figures only: it asserts nothing.

Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
"""
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

W, H = 900, 600


def aligned(r):
    if r is None or r[1] - r[0] < W * 256:
        return r
    return [r[0] // 4096 * 4096, -(-r[1] // 4096) * 4096]


def ask(base, token, view):
    q = {'token': token, 'w': W, 'h': H}
    a = aligned(view['addr'])
    if a:
        q['addr'] = '%d:%d' % (a[0], a[1])
    if view['icount']:
        q['icount'] = '%d:%d' % (view['icount'][0], view['icount'][1])
    url = base + '/grid?' + urllib.parse.urlencode(q)
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=600) as r:
            g = json.loads(r.read())
    except urllib.error.HTTPError as e:
        g = {'error': e.read().decode()[:100]}
    return time.monotonic() - t0, g, q


def zoom(g, view, col, row, f):
    """As viewer.js's wheel handler: the columns and rows around (col, row)."""
    lo, hi = col - col * f, col + (g['w'] - col) * f
    cols = g['cols']
    span = cols[-1] - cols[0]
    a0 = cols[0] - span * -lo / g['w'] if lo <= 0 else cols[int(lo)]
    a1 = cols[-1] + span * (hi - g['w']) / g['w'] if hi >= g['w'] else cols[int(hi)]
    view['addr'] = [max(0, int(a0)), max(int(a0) + 1, int(a1))]
    i = g['ylo'] + (g['yhi'] - g['ylo']) * row / g['h']
    ilo = i - (i - g['ylo']) * f
    view['icount'] = [max(0, int(ilo)), max(int(ilo) + 1, int(ilo + (g['yhi'] - g['ylo']) * f))]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    url = argv[1]
    n = int(argv[2]) if len(argv) > 2 else 100
    rnd = random.Random(int(argv[3]) if len(argv) > 3 else 1)
    base, token = url.split('/?token=')
    view = {'addr': None, 'icount': None}
    times = []
    g = None
    for k in range(n):
        if k % 25 == 0 or not g or 'error' in g or not g['cells']:
            view = {'addr': None, 'icount': None}
        elif rnd.random() < 0.2:        # pan a third of the view
            span = g['cols'][-1] - g['cols'][0]
            a0 = max(0, g['cols'][0] + int(span * rnd.choice((-1, 1)) / 3))
            i0 = max(0, g['ylo'] + int((g['yhi'] - g['ylo']) * rnd.choice((-1, 1)) / 3))
            view = {'addr': [a0, a0 + span], 'icount': [i0, i0 + g['yhi'] - g['ylo']]}
        else:
            c = g['cells']
            j = rnd.randrange(len(c) // 4) * 4
            zoom(g, view, c[j], c[j + 1], 2 if rnd.random() < 0.15 else 0.5)
        dt, g, q = ask(base, token, view)
        times.append(dt)
        print('%.3f %s %s %s' % (dt, g.get('from', g.get('error', '?')).strip(),
                                 q.get('addr', '-'), q.get('icount', '-')))
    times.sort()
    pick = lambda p: times[min(len(times) - 1, int(p * len(times)))]
    print('views %d  p50 %.3f s  p95 %.3f s  max %.3f s' % (len(times), pick(0.5), pick(0.95), times[-1]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
