/* viewer/viewer.js: dgsql --serve's page (dgsql/serve.h).
 *
 * The server bins each view to the canvas's cells (/grid: the cells
 * --plot-data writes for the same view); this draws them and turns the
 * wheel and the mouse into the next view: an address range and an
 * instruction-count range.  Text from the trace goes into the page as
 * text (textContent), never as markup.
 *
 * Written by dgsql --snapshot, the page has no server: snapshot.js, read
 * first, sets window.DG_SNAPSHOT to the answers for the whole trace, and
 * each view is binned here from the snapshot's cells (snapshotGrid);
 * what only the server knows (the accesses under the mouse, other
 * filters) says so.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
'use strict';

const canvas = document.getElementById('picture');
const ctx = canvas.getContext('2d');
const el = (id) => document.getElementById(id);

/* The view asked for (null: the whole trace on that axis) and the grid
   the server answered with. */
let view = { addr: null, icount: null };
let grid = null;
let cellAt = new Map();         /* row * w + col -> [reads, writes] */
let pending = 0;                /* the latest request's number */
let topTimer = null;
const snap = window.DG_SNAPSHOT || null;
/* The filter the page asks for: the boxes' text once /meta has said
   what dgsql was started with (null until then: the server's). */
let filter = { events: null, ranges: null };

const hex = (n) => '0x' + Math.max(0, Math.floor(n)).toString(16);

function rangeParam(name, r) {
  return r ? '&' + name + '=' + encodeURIComponent(Math.floor(r[0]) + ':' + Math.ceil(r[1])) : '';
}

function filterParams() {
  return (filter.events !== null ? '&events=' + encodeURIComponent(filter.events) : '') +
    (filter.ranges !== null ? '&ranges=' + encodeURIComponent(filter.ranges) : '');
}

/* An address range wide enough for 256 bytes a column goes out to page
   boundaries: the server can then draw it from its per-chunk cells
   (lib/dgplot.c) instead of decoding every access in it. */
function pageAligned(r) {
  if (!r || r[1] - r[0] < canvas.width * 256)
    return r;
  return [Math.floor(r[0] / 4096) * 4096, Math.ceil(r[1] / 4096) * 4096];
}

/* Where column position c (fractional) of the snapshot's grid starts. */
function snapAddr(c) {
  const g = snap.grid, k = Math.min(Math.floor(c), g.w - 1);
  return c >= g.w ? g.cols[g.w] : g.cols[k] + (c - k) * (g.cols[k + 1] - g.cols[k]);
}

/* The column position (fractional) of address a in the snapshot's grid. */
function snapCol(a) {
  const c = snap.grid.cols;
  let lo = 0, hi = snap.grid.w;
  if (a <= c[0])
    return 0;
  if (a >= c[hi])
    return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (c[mid] <= a) lo = mid; else hi = mid;
  }
  return lo + (a - c[lo]) / Math.max(1, c[lo + 1] - c[lo]);
}

/* A view of the snapshot: its cells in the view's ranges spread over (or
   summed into) the canvas's cells, in /grid's form. */
function snapshotGrid(addr, icount) {
  const g = snap.grid, W = canvas.width, H = canvas.height;
  const span = (g.yhi - g.ylo) / g.h;
  const c0 = addr ? snapCol(addr[0]) : 0, c1 = Math.max(addr ? snapCol(addr[1]) : g.w, c0 + 1e-9);
  const r0 = icount ? Math.max(0, (icount[0] - g.ylo) / span) : 0;
  const r1 = Math.max(icount ? Math.min(g.h, (icount[1] - g.ylo) / span) : g.h, r0 + 1e-9);
  const reads = new Float64Array(W * H), writes = new Float64Array(W * H);
  const to = (v, v0, v1, n) => Math.floor((v - v0) * n / (v1 - v0));
  const c = g.cells;
  for (let i = 0; i + 3 < c.length; i += 4) {
    const col = c[i], row = c[i + 1];
    if (col + 1 <= c0 || col >= c1 || row + 1 <= r0 || row >= r1)
      continue;
    const x0 = Math.max(0, to(col, c0, c1, W)), x1 = Math.min(W, Math.max(x0 + 1, to(col + 1, c0, c1, W)));
    const y0 = Math.max(0, to(row, r0, r1, H)), y1 = Math.min(H, Math.max(y0 + 1, to(row + 1, r0, r1, H)));
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        reads[y * W + x] += c[i + 2];
        writes[y * W + x] += c[i + 3];
      }
  }
  const out = { w: W, h: H, from: 'snapshot', cols: [], cells: [],
                ylo: Math.floor(g.ylo + r0 * span), yhi: Math.ceil(g.ylo + r1 * span) };
  for (let x = 0; x <= W; x++)
    out.cols.push(Math.floor(snapAddr(c0 + x * (c1 - c0) / W)));
  for (let k = 0; k < W * H; k++)
    if (reads[k] || writes[k])
      out.cells.push(k % W, Math.floor(k / W), reads[k], writes[k]);
  return out;
}

/* What a snapshot answers for path: the whole trace's lists; null where
   only the server can answer. */
function snapshotAnswer(path) {
  const u = new URL(path, 'http://snapshot/'), p = u.searchParams;
  const range = (name) => p.has(name) ? p.get(name).split(':').map(Number) : null;
  switch (u.pathname) {
  case '/grid': return snapshotGrid(range('addr'), range('icount'));
  case '/meta': return snap.meta;
  case '/events': return snap.events;
  case '/regions': return snap.regions;
  case '/top': return Object.assign({}, snap.top, { whole: !p.has('addr') && !p.has('icount') });
  default: return null;
  }
}

/* The server's answer to path as JSON, or the snapshot's; an HTTP error
   throws its status and message. */
async function ask(path) {
  if (snap)
    return snapshotAnswer(path);
  const r = await fetch(path, { credentials: 'same-origin' });
  if (!r.ok)
    throw new Error('error ' + r.status + ': ' + (await r.text()));
  return r.json();
}

async function load() {
  const me = ++pending;
  const url = '/grid?w=' + canvas.width + '&h=' + canvas.height +
    rangeParam('addr', pageAligned(view.addr)) + rangeParam('icount', view.icount) + filterParams();
  el('status').textContent = 'binning';
  const t0 = performance.now();
  let g;
  try {
    g = await ask(url);
  } catch (e) {
    if (me === pending)
      el('status').textContent = e.message;
    return;
  }
  if (me !== pending)
    return;                     /* a newer view was asked for meanwhile */
  grid = g;
  grid.whole = !view.addr && !view.icount;
  draw();
  loadEvents();
  loadRegions();
  /* the panel scans the view's accesses: only once the view stays */
  clearTimeout(topTimer);
  topTimer = setTimeout(loadTop, 400);
  el('status').textContent = grid.cells.length / 4 + ' cells in ' +
    Math.round(performance.now() - t0) + ' ms (' + grid.from + ')';
}

function draw() {
  const img = ctx.createImageData(canvas.width, canvas.height);
  const px = img.data;
  const c = grid.cells;
  cellAt = new Map();
  for (let i = 0; i < px.length; i += 4)
    px[i + 3] = 255;           /* black */
  for (let i = 0; i + 3 < c.length; i += 4) {
    const col = c[i], row = c[i + 1], reads = c[i + 2], writes = c[i + 3];
    if (col >= canvas.width || row >= canvas.height)
      continue;
    const k = (row * canvas.width + col) * 4;
    px[k] = writes ? 255 : 0;  /* red: writes; green: reads; both: yellow */
    px[k + 1] = reads ? 255 : 0;
    px[k + 2] = 0;
    cellAt.set(row * grid.w + col, [reads, writes]);
  }
  ctx.putImageData(img, 0, 0);
  el('xleft').textContent = hex(grid.cols[0]);
  el('xright').textContent = hex(grid.cols[grid.w]);
  el('ytop').textContent = String(grid.ylo);
  el('ybottom').textContent = String(grid.yhi);
}

/* Where a canvas point falls: its column's first address, its row's
   first instruction count. */
function addrAt(col) {
  col = Math.min(Math.max(col, 0), grid.w);
  return grid.cols[Math.floor(col)];
}
function icountAt(row) {
  return grid.ylo + (grid.yhi - grid.ylo) * row / grid.h;
}
function point(ev) {
  const b = canvas.getBoundingClientRect();
  return [(ev.clientX - b.left) * canvas.width / b.width,
          (ev.clientY - b.top) * canvas.height / b.height];
}

canvas.addEventListener('wheel', (ev) => {
  if (!grid)
    return;
  ev.preventDefault();
  const [x, y] = point(ev);
  const f = ev.deltaY < 0 ? 0.5 : 2;
  if (!ev.altKey) {             /* address: the columns around the mouse */
    const lo = x - x * f, hi = x + (grid.w - x) * f;
    const a0 = lo <= 0 ? grid.cols[0] - (grid.cols[grid.w] - grid.cols[0]) * -lo / grid.w : addrAt(lo);
    const a1 = hi >= grid.w ? grid.cols[grid.w] + (grid.cols[grid.w] - grid.cols[0]) * (hi - grid.w) / grid.w
                            : addrAt(hi);
    view.addr = f > 1 && a0 <= 0 ? null : [Math.max(0, a0), Math.max(a0 + 1, a1)];
  }
  if (!ev.shiftKey) {           /* time: the rows around the mouse */
    const i = icountAt(y), span = (grid.yhi - grid.ylo) * f;
    const lo = i - (i - grid.ylo) * f;
    view.icount = [Math.max(0, lo), Math.max(lo + 1, lo + span)];
  }
  load();
}, { passive: false });

let drag = null;
canvas.addEventListener('mousedown', (ev) => { if (grid) drag = point(ev); });
window.addEventListener('mouseup', (ev) => {
  if (!drag || !grid)
    return;
  const [x, y] = point(ev);
  const dx = x - drag[0], dy = y - drag[1];
  drag = null;
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2)
    return;
  /* pan: the same span, moved by what the mouse moved */
  const aspan = grid.cols[grid.w] - grid.cols[0], ispan = grid.yhi - grid.ylo;
  const a0 = Math.max(0, grid.cols[0] - aspan * dx / grid.w);
  const i0 = Math.max(0, grid.ylo - ispan * dy / grid.h);
  view.addr = [a0, a0 + aspan];
  view.icount = [i0, i0 + ispan];
  load();
});
canvas.addEventListener('dblclick', () => { view = { addr: null, icount: null }; load(); });
el('reset').addEventListener('click', () => { view = { addr: null, icount: null }; load(); });

/* A cell's address and instruction-count ranges, as /at takes them. */
function cellRanges(col, row) {
  const a0 = grid.cols[col], a1 = Math.max(grid.cols[col + 1], a0 + 1);
  const i0 = Math.floor(icountAt(row)), i1 = Math.max(Math.floor(icountAt(row + 1)), i0 + 1);
  return [a0, a1, i0, i1];
}

async function at(col, row) {
  const [a0, a1, i0, i1] = cellRanges(col, row);
  const j = await ask('/at?addr=' + a0 + ':' + a1 + '&icount=' + i0 + ':' + i1 + filterParams()).catch(() => null);
  return j ? j.rows : [];
}

let hoverTimer = null, hoverCell = -1;
canvas.addEventListener('mousemove', (ev) => {
  if (!grid)
    return;
  const [x, y] = point(ev);
  const col = Math.floor(x), row = Math.floor(y);
  const v = cellAt.get(row * grid.w + col);
  el('hover').textContent = 'address ' + hex(addrAt(col)) + '  icount ' +
    Math.floor(icountAt(row)) + (v ? '  reads ' + v[0] + '  writes ' + v[1] : '');
  if (!v || row * grid.w + col === hoverCell || snap)
    return;
  hoverCell = row * grid.w + col;
  clearTimeout(hoverTimer);
  hoverTimer = setTimeout(async () => {
    const rows = await at(col, row);
    if (hoverCell !== row * grid.w + col)
      return;
    const [a0, a1, i0, i1] = cellRanges(col, row);
    el('info').dataset.cell = a0 + ':' + a1 + ' ' + i0 + ':' + i1;
    el('info').textContent = rows.map((r) =>
      (r.function || hex(r.pc)) + '  ' + (r.file ? r.file + ':' + r.line : '') +
      '\n  reads ' + r.reads + '  writes ' + r.writes +
      (r.field ? '\n  field ' + r.field : '') +
      (r.block !== undefined ? '\n  heap block ' + r.block + ' (' + r.block_size + ' bytes, from ' + (r.site || '?') + ')' : '') +
      (r.stack ? '\n  ' + r.stack.split('\n').join('\n    < ') : '')).join('\n\n') || 'nothing here';
  }, 200);
});

canvas.addEventListener('click', async (ev) => {
  if (!grid)
    return;
  const [x, y] = point(ev);
  const col = Math.floor(x), row = Math.floor(y);
  if (!cellAt.get(row * grid.w + col) || snap)
    return;
  const [a0, a1, i0, i1] = cellRanges(col, row);
  const body = el('picked').tBodies[0];
  body.replaceChildren();
  for (const r of await at(col, row)) {
    const tr = document.createElement('tr');
    for (const t of [r.function || hex(r.pc), r.file ? r.file + ':' + r.line : '', r.reads, r.writes,
                     r.block !== undefined ? String(r.block) : ''])
      tr.appendChild(document.createElement('td')).textContent = String(t);
    body.appendChild(tr);
  }
  /* numbers only, but for the filter (quoted as .filter reads it): the
     SQL is the view's, to paste into dgsql */
  el('sql').textContent = filterCommand() +
    'SELECT f.name, p.file, p.line, sum(NOT a.is_write) AS reads, sum(a.is_write) AS writes, a.block_id\n' +
    'FROM filtered_accesses a LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id\n' +
    'LEFT JOIN functions f ON f.id = p.function_id\n' +
    'WHERE a.addr >= ' + a0 + ' AND a.addr < ' + a1 + ' AND a.icount >= ' + i0 + ' AND a.icount < ' + i1 + '\n' +
    'GROUP BY a.pc, a.module_id, a.block_id ORDER BY count(*) DESC;';
});

/* The dgsql command that sets the page's filter, a line of its own. */
function filterCommand() {
  const ev = filter.events || '', rg = filter.ranges || '';
  const q = (t) => t.includes("'") ? (t.includes('"') ? null : '"' + t + '"') : "'" + t + "'";
  if (!ev && !rg)
    return '.filter off\n';
  if ((ev && q(ev) === null) || (rg && q(rg) === null))
    return '-- set the filter the page shows with .filter (it has both quote characters)\n';
  return '.filter' + (ev ? ' --events ' + q(ev) : '') + (rg ? ' --ranges ' + q(rg) : '') + '\n';
}

/* User events as bands along the time axis, a colour by label. */
const bands = document.getElementById('bands');
let events = [];

function hue(label) {
  let h = 0;
  for (const ch of label || '')
    h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

/* What path says about grid g, or null if it failed or the view moved
   on meanwhile. */
async function fetchFor(g, path) {
  const j = await ask(path).catch(() => null);
  return g === grid ? j : null;
}

async function loadEvents() {
  const g = grid;
  const j = await fetchFor(g, '/events?icount=' + g.ylo + ':' + g.yhi);
  if (!j)
    return;
  events = j.events;
  const b = bands.getContext('2d');
  b.clearRect(0, 0, bands.width, bands.height);
  for (const e of events) {
    const y0 = (e.start - g.ylo) * g.h / (g.yhi - g.ylo);
    const y1 = ((e.end === null ? g.yhi : e.end) - g.ylo) * g.h / (g.yhi - g.ylo);
    b.fillStyle = 'hsl(' + hue(e.label) + ', 70%, 55%)';
    b.fillRect(2, Math.max(0, Math.floor(y0)), bands.width - 4, Math.max(1, Math.ceil(y1 - y0)));
  }
}

bands.addEventListener('mousemove', (ev) => {
  if (!grid)
    return;
  const b = bands.getBoundingClientRect();
  const i = icountAt((ev.clientY - b.top) * grid.h / b.height);
  const here = events.filter((e) => e.start <= i && (e.end === null || i < e.end));
  el('hover').textContent = here.length ? 'event ' + here.map((e) => e.label + ' (thread ' + e.thread +
    ', ' + e.start + '..' + (e.end === null ? 'end' : e.end) + ')').join(', ') : '';
});

/* Tracked ranges and heap blocks as bands along the address axis: the
   columns their addresses fall in (pages squeezed out as in the picture). */
const abands = document.getElementById('abands');
let regions = [];

function colOf(addr) {
  const c = grid.cols;
  let lo = 0, hi = grid.w;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (c[mid] <= addr) lo = mid; else hi = mid;
  }
  return lo;
}

/* Grid g's address and instruction-count ranges, as the server takes them. */
function gridRanges(g) {
  return 'addr=' + g.cols[0] + ':' + Math.max(g.cols[g.w], g.cols[0] + 1) +
    '&icount=' + g.ylo + ':' + Math.max(g.yhi, g.ylo + 1);
}

async function loadRegions() {
  const g = grid;
  const j = await fetchFor(g, '/regions?' + gridRanges(g));
  if (!j)
    return;
  regions = j.regions;
  const b = abands.getContext('2d');
  b.clearRect(0, 0, abands.width, abands.height);
  for (const x of regions) {
    const c0 = colOf(x.addr), c1 = colOf(x.addr + x.size - 1);
    b.fillStyle = x.kind === 'range' ? 'rgba(90, 140, 255, 0.9)' : 'rgba(180, 180, 180, 0.45)';
    b.fillRect(c0, x.kind === 'range' ? 0 : 7, Math.max(1, c1 - c0 + 1), 7);
  }
}

abands.addEventListener('mousemove', (ev) => {
  if (!grid)
    return;
  const b = abands.getBoundingClientRect();
  const a = addrAt(Math.floor((ev.clientX - b.left) * grid.w / b.width));
  const here = regions.filter((x) => x.addr <= a + 1 && a < x.addr + x.size + (grid.cols[1] - grid.cols[0]));
  el('hover').textContent = here.slice(0, 4).map((x) => x.kind === 'range'
    ? 'range ' + (x.name || '') + (x.what ? ' (' + x.what + ')' : '') + ' ' + hex(x.addr) + ', ' + x.size + ' bytes'
    : 'block ' + x.name + ', ' + x.size + ' bytes from ' + (x.what || '?') + ', ' + x.accesses + ' accesses').join('; ');
});

/* The functions and heap blocks with the most accesses in the view: the
   whole trace counted exactly, a zoomed one from its first accesses. */
async function loadTop() {
  const g = grid;
  const j = await fetchFor(g, '/top?' + (g.whole ? '' : gridRanges(g)) + filterParams());
  if (!j)
    return;
  const fill = (id, rows, cells) => {
    const body = el(id).tBodies[0];
    body.replaceChildren();
    for (const r of rows) {
      const tr = document.createElement('tr');
      for (const t of cells(r))
        tr.appendChild(document.createElement('td')).textContent = String(t);
      body.appendChild(tr);
    }
  };
  fill('topfns', j.top.filter((r) => r.kind === 'fn'), (r) => [r.name || '?', r.reads, r.writes]);
  fill('topblocks', j.top.filter((r) => r.kind === 'block'),
       (r) => [r.name, r.size, r.site || '?', r.reads, r.writes]);
  const sc = j.top.find((r) => r.kind === 'scanned');
  el('topnote').textContent = snap && !j.whole ? '(of the whole trace: a snapshot)'
    : j.exact ? '(every access)' : sc && sc.reads >= sc.writes
    ? '(its first ' + sc.reads + ' accesses)' : '(' + (sc ? sc.reads : 0) + ' accesses)';
}

/* Completion in the filter boxes: the names the trace has for the
   condition being typed (after the last comma), as whole box values. */
function complete(box, list) {
  let timer = null;
  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const v = box.value, cut = v.lastIndexOf(',') + 1;
      const head = v.slice(0, cut) + (cut ? ' ' : ''), text = v.slice(cut).trim();
      const j = await ask('/names?list=' + list + '&text=' + encodeURIComponent(text)).catch(() => null);
      if (!j || box.value !== v)
        return;
      const dl = el(list + '-names');
      dl.replaceChildren();
      for (const n of j.names)
        dl.appendChild(document.createElement('option')).value = head + n;
    }, 120);
  });
}

el('filterform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  filter = { events: el('events').value.trim(), ranges: el('ranges').value.trim() };
  load();
});
complete(el('events'), 'events');
complete(el('ranges'), 'ranges');

async function meta() {
  const m = await ask('/meta').catch(() => null);
  if (!m)
    return;
  el('trace').textContent = (m.trace || '') + (m.accesses ? '  ' + m.accesses + ' accesses' : '');
  el('events').value = m.events || '';
  el('ranges').value = m.ranges || '';
}

/* The page's URL carries the token once; the cookie carries it after. */
if (location.search)
  history.replaceState(null, '', location.pathname);
if (snap) {                     /* the filter it was written with, fixed */
  el('events').disabled = el('ranges').disabled = true;
  el('filterform').querySelector('button').disabled = true;
  el('info').textContent = 'a snapshot (dgsql --snapshot): the accesses under the mouse need the ' +
    'server, dgsql DB --serve';
}
meta();
load();
