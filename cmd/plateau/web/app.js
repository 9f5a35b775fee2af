'use strict';
// Plateau's browser page: the game list, and one game stepped through.
// Every position comes from the server (placements, side to move, notation),
// so this file knows no rules: it draws the geometry it is sent.

const $ = s => document.querySelector(s);
const SVG = 'http://www.w3.org/2000/svg';

let games = [];   // summaries
let game = null;  // the open game (Detail)
let at = 0;       // current node
let moveEls = {}; // node id -> span in the move list

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- game list ----

// The server filters and pages the list (a database may hold millions of
// games); the page asks for one page at a time.
const PAGE = 500;
let listOffset = 0, listTotal = 0, rulesetsShown = false;

async function loadList() {
  const p = new URLSearchParams();
  const q = $('#filter').value.trim(), id = $('#gamefilter').value, valid = $('#validfilter').value;
  if (q) p.set('q', q);
  if (id) p.set('game', id);
  if (valid) p.set('valid', valid);
  p.set('offset', listOffset);
  p.set('limit', PAGE);
  const r = await fetch('api/games?' + p);
  const j = await r.json();
  if (!r.ok) {
    $('#count').textContent = j.error || 'list unavailable';
    return;
  }
  games = j.games || [];
  listTotal = j.total;
  if (!rulesetsShown) {
    for (const id of j.rulesets || []) $('#gamefilter').append(el('option', { value: id }, id));
    rulesetsShown = true;
  }
  renderList();
}

let filterTimer = 0;
function filterChanged() {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => { listOffset = 0; loadList(); }, 200);
}

function turnPage(dir) {
  const next = listOffset + dir * PAGE;
  if (next < 0 || next >= listTotal) return;
  listOffset = next;
  loadList();
}

function renderList() {
  const tb = $('#list tbody');
  const rows = [];
  for (const g of games) {
    const tr = el('tr', { 'data-n': g.n, title: g.file + ' game ' + g.index + (g.error ? '\n' + g.error : '') },
      el('td', {}, String(g.n)),
      el('td', {}, g.game || '?'),
      el('td', {}, (g.players[0] || '?') + ' – ' + (g.players[1] || '?')),
      el('td', {}, g.result),
      el('td', {}, g.event || ''),
      el('td', {}, g.date || ''),
      el('td', { class: g.valid ? 'ok' : 'bad' }, g.valid ? '✓' : '✗'));
    if (game && game.n === g.n) tr.classList.add('open');
    tr.addEventListener('click', () => openGame(g.n, 0));
    rows.push(tr);
  }
  tb.replaceChildren(...rows);
  $('#count').textContent = games.length === 0 ? 'no game of ' + listTotal
    : (listOffset + 1) + '–' + (listOffset + games.length) + ' of ' + listTotal + ' games';
  $('#p-prev').disabled = listOffset === 0;
  $('#p-next').disabled = listOffset + games.length >= listTotal;
}

// ---- one game ----

async function openGame(n, node) {
  const r = await fetch('api/games/' + n);
  if (!r.ok) return;
  game = await r.json();
  for (const tr of document.querySelectorAll('#list tbody tr')) {
    tr.classList.toggle('open', +tr.dataset.n === n);
    if (+tr.dataset.n === n) {
      const lb = $('#listbox');
      if (tr.offsetTop < lb.scrollTop || tr.offsetTop > lb.scrollTop + lb.clientHeight - tr.offsetHeight) {
        lb.scrollTop = tr.offsetTop - lb.clientHeight / 3;
      }
    }
  }
  $('#empty').hidden = true;
  $('#game').hidden = false;
  renderHeader();
  renderMoves();
  renderTags();
  go(node < game.nodes.length ? node : 0);
}

function renderHeader() {
  const g = game;
  const players = g.sides[0] + ' ' + (g.players[0] || '?') + ' – ' + g.sides[1] + ' ' + (g.players[1] || '?');
  const meta = [g.gameName || g.game, g.event, g.site, g.date, g.round && 'round ' + g.round]
    .filter(x => x).join(' · ');
  let res = g.result;
  if (g.termination) res += ' (' + g.termination + ')';
  $('#title').replaceChildren(
    el('div', { class: 'players' }, players + '   ' + res),
    el('div', { class: 'meta' }, meta + ' · ' + g.file + ' game ' + g.index));
  const eb = $('#errorbox');
  if (g.valid) {
    eb.hidden = true;
  } else {
    eb.hidden = false;
    eb.textContent = 'Invalid record' + (g.errorLine ? ' (line ' + g.errorLine + ')' : '') + ': ' + (g.error || '');
  }
  $('#notes').replaceChildren(...(g.notes || []).map(t => el('div', {}, 'note: ' + t)));
}

function renderTags() {
  $('#tags').replaceChildren(...game.tags.map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, v))));
}

function renderMoves() {
  moveEls = {};
  const box = $('#moves');
  box.replaceChildren();
  for (const c of game.intro || []) box.append(el('span', { class: 'cmt' }, '{' + c + '}'), ' ');
  if (game.nodes.length) line(box, game.nodes[0].next);
  for (const [i, t] of (game.rest || []).entries()) {
    box.append(el('span', { class: 'rest', title: i === 0 ? 'not played: ' + (game.error || '') : 'not played' }, t), ' ');
  }
  box.append(el('span', { class: 'result' }, game.result));
}

// line writes the moves from node id to the end of its line, with their
// variations in parentheses.
function line(box, id) {
  let needNum = true, lastNum = '';
  while (id >= 0) {
    const n = game.nodes[id];
    for (const c of n.before || []) box.append(el('span', { class: 'cmt' }, '{' + c + '}'), ' ');
    const black = n.number.endsWith('...');
    // a huff shares its number with the move that follows it
    if ((!black || needNum) && n.number !== lastNum) box.append(el('span', { class: 'num' }, n.number), ' ');
    lastNum = n.number;
    const m = el('span', { class: 'move', 'data-id': id }, n.move + (n.nags ? ' ' + n.nags : ''));
    m.addEventListener('click', () => go(id));
    moveEls[id] = m;
    box.append(m, ' ');
    needNum = false;
    for (const c of n.after || []) {
      box.append(el('span', { class: 'cmt' }, '{' + c + '}'), ' ');
      needNum = true;
    }
    for (const v of n.vars || []) {
      const span = el('span', { class: 'var' }, '( ');
      line(span, v);
      span.append(')');
      box.append(span, ' ');
      needNum = true;
    }
    id = n.next;
  }
}

function go(id) {
  if (game && game.nodes.length === 0) {
    $('#board').replaceChildren(el('p', {}, 'No position to show: the record has no readable start.'));
    $('#status').textContent = $('#fen').textContent = $('#comment').textContent = '';
    return;
  }
  if (!game || id < 0 || id >= game.nodes.length) return;
  at = id;
  const n = game.nodes[id];
  drawBoard(n);
  for (const e of document.querySelectorAll('#moves .cur')) e.classList.remove('cur');
  const m = moveEls[id];
  if (m) {
    m.classList.add('cur');
    // scroll the move list only, not the page
    const box = $('#moves');
    if (m.offsetTop < box.scrollTop || m.offsetTop + m.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = m.offsetTop - box.clientHeight / 2;
    }
  }
  let st = 'ply ' + n.ply + ' · ' + game.sides[n.toMove] + ' to move';
  if (n.depth > 0) st += ' · variation (depth ' + n.depth + ')';
  if (n.over) st += ' · game over: ' + n.over;
  if (id > 0) st = 'after ' + n.number + ' ' + n.move + ' · ' + st;
  $('#status').textContent = st;
  $('#fen').textContent = n.fen;
  const c = [...(n.after || [])];
  if (n.note) c.push('(' + n.note + ')');
  $('#comment').textContent = c.join(' ');
  history.replaceState(null, '', '#' + game.n + '/' + id);
}

function step(d) {
  if (!game) return;
  const n = game.nodes[at];
  if (d > 0) go(n.next);
  else go(n.parent);
}

function toEnd() {
  if (!game) return;
  let id = at;
  while (game.nodes[id].next >= 0) id = game.nodes[id].next;
  go(id);
}

// ---- board ----

function drawBoard(n) {
  const G = game.geometry;
  const box = $('#board');
  if (!G || !G.cells) { box.replaceChildren(el('p', {}, 'No board (the record names no game Plateau plays).')); return; }
  const handW = G.hands ? 2.2 * handLayout(G).cols : 0;
  const m = 0.8;
  const root = svg('svg', { viewBox: [-m, -m, G.w + 2 * m + handW, G.h + 2 * m].join(' '), role: 'img' });
  const lastCells = new Set([n.from, n.to].filter(x => x));
  const centre = {};
  if (G.shape === 'ring') drawRing(root, G, lastCells, centre); else drawGrid(root, G, lastCells, centre);
  for (const l of G.labels || []) {
    root.append(svg('text', { x: l.x, y: l.y, class: 'lbl', 'font-size': 0.32, 'text-anchor': 'middle',
      'dominant-baseline': 'central', fill: '#555' }, l.text));
  }
  for (const p of n.pieces) {
    if (!p.sq) continue;
    const c = centre[p.sq];
    if (c) root.append(piece(G, p, c[0], c[1], 1));
  }
  if (G.hands) drawHands(root, G, n);
  box.replaceChildren(root);
}

function drawGrid(root, G, last, centre) {
  const shogi = G.style === 'shogi';
  root.append(svg('rect', { x: -0.06, y: -0.06, width: G.w + 0.12, height: G.h + 0.12, fill: '#5a3d1e' }));
  for (const c of G.cells) {
    let fill = c.dark ? '#b58863' : '#f0d9b5';
    if (shogi) fill = '#e9c77b';
    if (c.goal) fill = '#8fb8de';
    root.append(svg('rect', { x: c.x, y: c.y, width: 1, height: 1, fill,
      stroke: shogi ? '#6b4a1c' : 'none', 'stroke-width': 0.025 }));
    if (last.has(c.name)) {
      root.append(svg('rect', { x: c.x, y: c.y, width: 1, height: 1, fill: 'rgba(255,220,0,0.45)' }));
    }
    if (c.label) {
      root.append(svg('text', { x: c.x + 0.06, y: c.y + 0.22, 'font-size': 0.2, fill: '#f3e2c4' }, c.label));
    }
    if (c.name) centre[c.name] = [c.x + 0.5, c.y + 0.5];
  }
}

function drawRing(root, G, last, centre) {
  const cx = G.w / 2, cy = G.h / 2;
  root.append(svg('circle', { cx, cy, r: 4.45, fill: '#2b3a4a' }));
  root.append(svg('circle', { cx, cy, r: 3.0, fill: 'none', stroke: '#6f8aa3', 'stroke-width': 0.04 }));
  root.append(svg('circle', { cx, cy, r: 1.15, fill: 'none', stroke: '#6f8aa3', 'stroke-width': 0.04 }));
  for (let k = 0; k < 12; k++) {
    const a = (k + 0.5) * Math.PI / 6;
    root.append(svg('line', { x1: cx + 1.15 * Math.sin(a), y1: cy - 1.15 * Math.cos(a),
      x2: cx + 4.45 * Math.sin(a), y2: cy - 4.45 * Math.cos(a), stroke: '#6f8aa3', 'stroke-width': 0.04 }));
  }
  for (const c of G.cells) {
    root.append(svg('circle', { cx: c.x, cy: c.y, r: c.r || 0.5, fill: c.dark ? '#4a6580' : '#5d7d9b',
      stroke: last.has(c.name) ? '#ffd400' : '#9fb6cc', 'stroke-width': last.has(c.name) ? 0.1 : 0.03 }));
    root.append(svg('text', { x: c.x, y: c.y + (c.r || 0.5) - 0.12, 'font-size': 0.18, 'text-anchor': 'middle',
      fill: '#b9cbdc' }, c.name));
    centre[c.name] = [c.x, c.y];
  }
}

// piece draws one piece centred on x, y, scaled by s.
function piece(G, p, x, y, s) {
  const g = svg('g', { transform: `translate(${x} ${y}) scale(${s})` });
  const fill = G.colors[p.side];
  const ink = contrast(fill);
  let text = (G.glyphs && G.glyphs[p.side + p.kind]) || '';
  if (G.style === 'shogi') {
    // The tile points at the opponent (Gote's turned round, and darker);
    // the letter stays upright to be read.
    g.append(svg('polygon', { points: '0,-0.42 0.3,-0.28 0.36,0.4 -0.36,0.4 -0.3,-0.28',
      transform: p.side === 1 ? 'rotate(180)' : '', fill: p.side === 1 ? '#d9b26a' : fill,
      stroke: '#5a3d1e', 'stroke-width': 0.03 }));
    g.append(svg('text', { x: 0, y: p.side === 1 ? -0.02 : 0.06, 'font-size': 0.42, 'text-anchor': 'middle',
      'dominant-baseline': 'central', 'font-weight': 700, fill: p.promoted ? '#c00' : '#111',
      'text-decoration': p.side === 1 ? 'underline' : '' }, (p.promoted ? '+' : '') + p.kind));
    return g;
  }
  g.append(svg('circle', { r: 0.38, fill, stroke: ink === '#fff' ? '#000' : '#333', 'stroke-width': 0.04 }));
  if (G.style === 'letter' && !text) text = p.kind;
  if (p.promoted && G.style === 'disc') {
    g.append(svg('circle', { r: 0.22, fill: 'none', stroke: ink, 'stroke-width': 0.06 }));
    if (!text) text = '♔';
  }
  if (text) {
    g.append(svg('text', { x: 0, y: 0.02, 'font-size': 0.4, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      'font-weight': 700, fill: ink }, text));
  }
  return g;
}

function contrast(fill) {
  const h = fill.replace('#', '');
  const v = h.length === 3 ? h.split('').map(c => parseInt(c + c, 16)) : [0, 2, 4].map(i => parseInt(h.substr(i, 2), 16));
  return (v[0] * 299 + v[1] * 587 + v[2] * 114) / 1000 > 140 ? '#111' : '#fff';
}

// handLayout: each side's hand has half the board's height, one kind a row;
// a hand of more kinds than rows wraps into more columns, as many as the
// fullest hand of the game needs (so that the board keeps its size).
function handLayout(G) {
  if (game._hands && game._hands.G === G) return game._hands;
  const per = Math.max(1, Math.floor(G.h / 2 / 0.95));
  let most = 0;
  for (const n of game.nodes) {
    for (const side of [0, 1]) most = Math.max(most, n.pieces.filter(p => !p.sq && p.side === side).length);
  }
  game._hands = { G, per, cols: Math.max(1, Math.ceil(most / per)) };
  return game._hands;
}

// drawHands shows side 1's hand at the top right, side 0's at the bottom
// right, one piece per kind with its count.
function drawHands(root, G, n) {
  const x0 = G.w + 0.9;
  const { per } = handLayout(G);
  for (const side of [1, 0]) {
    const hand = n.pieces.filter(p => !p.sq && p.side === side);
    const top = side === 1;
    root.append(svg('text', { x: x0 + 0.6, y: top ? -0.3 : G.h + 0.5, 'font-size': 0.3, 'text-anchor': 'middle',
      fill: '#555' }, game.sides[side]));
    hand.forEach((p, i) => {
      const x = x0 + Math.floor(i / per) * 2.2, row = i % per;
      const y = top ? 0.5 + row * 0.95 : G.h - 0.5 - row * 0.95;
      root.append(piece(G, p, x + 0.4, y, 0.85));
      if (p.count > 1) {
        root.append(svg('text', { x: x + 1.05, y, 'font-size': 0.36, 'dominant-baseline': 'central', fill: '#222' },
          '×' + p.count));
      }
    });
  }
}

// ---- wiring ----

function fromHash() {
  const m = location.hash.match(/^#(\d+)(?:\/(\d+))?$/);
  if (m) openGame(+m[1], m[2] ? +m[2] : 0);
}

$('#filter').addEventListener('input', filterChanged);
$('#gamefilter').addEventListener('change', filterChanged);
$('#validfilter').addEventListener('change', filterChanged);
$('#p-prev').addEventListener('click', () => turnPage(-1));
$('#p-next').addEventListener('click', () => turnPage(1));
$('#b-home').addEventListener('click', () => go(0));
$('#b-prev').addEventListener('click', () => step(-1));
$('#b-next').addEventListener('click', () => step(1));
$('#b-end').addEventListener('click', toEnd);
document.addEventListener('keydown', e => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  switch (e.key) {
    case 'ArrowRight': step(1); break;
    case 'ArrowLeft': step(-1); break;
    case 'Home': go(0); break;
    case 'End': toEnd(); break;
    default: return;
  }
  e.preventDefault();
});
{
  const q = new URLSearchParams(location.search);
  if (q.get('q')) $('#filter').value = q.get('q');
  if (q.get('valid')) $('#validfilter').value = q.get('valid');
  loadList().then(() => {
    if (q.get('game')) {
      $('#gamefilter').value = q.get('game');
      filterChanged();
    }
    fromHash();
  });
}
