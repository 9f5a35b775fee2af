'use strict';
// The position set-up editor (issue 43): place and remove pieces on the
// board of any ruleset, fill an Ōgi hand, say whose turn it is, and keep
// the position string in step both ways; then start a game or a position
// search from the position set up.
//
// The page never writes nor judges a position: each change is sent to
// POST /api/setup (replay/web's setup.go), where the game's rules write
// the string of the pieces (or read the pieces of a string typed) and say
// what is wrong with a position they refuse (a side without its King, too
// many pieces of a kind, a pawn on its own goal…). The state the pieces do
// not say (a move number, escape flags, a board size) is kept from the last
// valid position, the base.
//
// A click on a square puts the chosen piece there; a click on a piece of
// the same kind, or with the remove tool, takes it away.

const su = {
  game: '',
  pieces: [],     // [{sq, side, kind, promoted, count}], sq '' for a hand
  toMove: 0,
  position: '',   // the string shown
  base: '',       // the last valid string
  valid: true,
  error: '',
  tool: null,     // {side, kind, promoted}, or {remove: true}
  seq: 0,         // answers older than the last request are dropped
};

function suRuleset() { return rulesets.find(r => r.id === su.game) || null; }

async function suPost(body) {
  const seq = ++su.seq;
  const r = await fetch('api/setup', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: 'bad answer from the server' }; }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return seq === su.seq ? j : null;
}

// openSetup shows the editor on ruleset id at position fen (its start
// when empty).
async function openSetup(id, fen) {
  if (typeof leavePeople === 'function') leavePeople();
  su.game = id;
  su.tool = null;
  const r = suRuleset();
  $('#su-game').replaceChildren(...rulesets.filter(x => x.setup).map(x => el('option', { value: x.id }, x.name)));
  $('#su-game').value = id;
  $('#setup').hidden = false;
  $('#game').hidden = true;
  $('#empty').hidden = true;
  if (r && r.pieces.length) su.tool = { side: 0, kind: r.pieces[0].kind, promoted: !r.pieces[0].plain };
  await suRead(fen || '', true);
  if (ONE_COLUMN.matches) $('#setup').scrollIntoView();
}

function closeSetup() {
  $('#setup').hidden = true;
  if (game) $('#game').hidden = false; else $('#empty').hidden = false;
}

// suRead reads a position string into the editor; an invalid one is
// named, and the board keeps its pieces.
async function suRead(text, force) {
  let v;
  try { v = await suPost({ game: su.game, position: text }); } catch (e) { suSay(e.message, 'bad'); return; }
  if (!v) return;
  if (!v.valid && !force) {
    su.position = text;
    su.valid = false;
    su.error = v.error;
    suRender(false);
    return;
  }
  if (!v.valid) { suSay(v.error, 'bad'); return; }
  suTake(v);
  suRender(!force);
}

// suCompose asks the rules for the string of the pieces set up.
async function suCompose() {
  let v;
  try { v = await suPost({ game: su.game, position: su.base, pieces: su.pieces, toMove: su.toMove }); } catch (e) { suSay(e.message, 'bad'); return; }
  if (!v) return;
  if (v.valid) suTake(v);
  else Object.assign(su, { position: v.position, valid: false, error: v.error });
  suRender(false);
}

function suTake(v) {
  Object.assign(su, { pieces: v.pieces, toMove: v.toMove, position: v.position, base: v.position, valid: true, error: '' });
}

function suSay(msg, cls) {
  const m = $('#su-msg');
  m.className = cls || '';
  m.textContent = msg;
}

// ---- editing ----

const suSame = (p, t) => p.side === t.side && p.kind === t.kind && !!p.promoted === !!t.promoted;

function suSquare(sq) {
  const t = su.tool;
  const i = su.pieces.findIndex(p => p.sq === sq);
  if (i >= 0 && (!t || t.remove || suSame(su.pieces[i], t))) su.pieces.splice(i, 1);
  else if (t && !t.remove) {
    const p = { sq, side: t.side, kind: t.kind, promoted: !!t.promoted, count: 1 };
    if (i >= 0) su.pieces[i] = p; else su.pieces.push(p);
  } else return;
  suRender(false);
  suCompose();
}

// suHand adds d (1 or -1) pieces of a kind to a side's hand.
function suHand(side, kind, promoted, d) {
  const t = { side, kind, promoted };
  const h = su.pieces.find(p => !p.sq && suSame(p, t));
  if (h) h.count = Math.max(0, h.count + d);
  else if (d > 0) su.pieces.push({ sq: '', side, kind, promoted, count: d });
  su.pieces = su.pieces.filter(p => p.sq || p.count > 0);
  suRender(false);
  suCompose();
}

function handCount(side, kind, promoted) {
  const h = su.pieces.find(p => !p.sq && suSame(p, { side, kind, promoted }));
  return h ? h.count : 0;
}

// ---- drawing ----

// suForms lists the pieces of the palette: each kind plain and promoted
// as the game has them; a kind the legend (G) gives no promoted form
// (Ōgi's King) only plain.
function suForms(kinds, G) {
  const out = [];
  for (const k of kinds) {
    const legend = G && (G.pieces || []).find(p => p.letter === k.kind);
    if (k.plain) out.push({ kind: k.kind, promoted: false });
    if (k.promoted && !(k.plain && legend && !legend.promoted)) out.push({ kind: k.kind, promoted: true });
  }
  return out;
}

function suPieceName(G, f) {
  const p = (G.pieces || []).find(x => x.letter === f.kind);
  if (!p) return (f.promoted ? '+' : '') + f.kind;
  return f.promoted && p.promoted ? p.promoted : p.name;
}

function suMini(G, f, side) {
  const s = svg('svg', { viewBox: '0 0 1 1', width: 26, height: 26, 'aria-hidden': 'true' });
  s.append(piece(G, { side, kind: f.kind, promoted: f.promoted }, 0.5, 0.5, 1.1, false));
  return s;
}

// suRender draws the editor; keepField leaves the string field as typed.
function suRender(keepField) {
  const r = suRuleset();
  if (!r) return;
  const G = r.geometry;
  const names = r.sides;
  suBoard(G, r);
  // The palette: every piece of each side, and the remove tool.
  const pal = [];
  for (const side of [0, 1]) {
    const row = el('div', { class: 'su-row' }, el('span', { class: 'su-side' }, names[side]));
    for (const f of suForms(r.pieces, G)) {
      const on = su.tool && !su.tool.remove && suSame(su.tool, { side, ...f });
      const b = el('button', { type: 'button', class: 'su-pc' + (on ? ' on' : ''), 'data-side': side, 'data-kind': f.kind,
        'data-promoted': f.promoted ? '1' : '0', title: names[side] + ': ' + suPieceName(G, f) }, suMini(G, f, side));
      b.addEventListener('click', () => { su.tool = { side, ...f }; suRender(true); });
      row.append(b);
    }
    pal.push(row);
  }
  const rm = el('button', { type: 'button', id: 'su-remove', class: 'su-tool' + (su.tool && su.tool.remove ? ' on' : ''),
    title: 'click pieces to take them off' }, '✕ remove');
  rm.addEventListener('click', () => { su.tool = { remove: true }; suRender(true); });
  pal.push(el('div', { class: 'su-row' }, rm));
  $('#su-palette').replaceChildren(...pal);
  suHands(r, names);
  // Side to move.
  const tm = [el('span', {}, 'To move:')];
  for (const side of [0, 1]) {
    const i = el('input', { type: 'radio', name: 'su-tomove', value: side, id: 'su-tomove-' + side });
    i.checked = su.toMove === side;
    i.addEventListener('change', () => { su.toMove = side; suCompose(); });
    tm.push(el('label', {}, i, ' ' + names[side]));
  }
  $('#su-tomove').replaceChildren(...tm);
  if (!keepField || document.activeElement !== $('#su-fen')) $('#su-fen').value = su.position;
  if (su.valid) suSay('A position of ' + r.name + '.', 'ok'); else suSay(su.error, 'bad');
  $('#su-play').disabled = !su.valid;
  $('#su-search').disabled = !su.valid;
}

function suBoard(G, r) {
  const box = $('#su-board');
  if (!G || !G.cells) { box.replaceChildren(); return; }
  const m = 0.8;
  const root = svg('svg', { viewBox: [-m, -m, G.w + 2 * m, G.h + 2 * m].join(' '), role: 'img', 'aria-label': r.name + ' set-up board' });
  const centre = {};
  const marks = { last: new Set(), targets: new Set(), selected: null };
  if (G.shape === 'ring') drawRing(root, G, marks, centre, suSquare, false);
  else drawGrid(root, G, marks, centre, suSquare, false);
  for (const l of G.labels || []) {
    root.append(svg('text', { x: l.x, y: l.y, 'font-size': 0.32, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#555' }, l.text));
  }
  for (const p of su.pieces) {
    const c = p.sq && centre[p.sq];
    if (!c) continue;
    const g = piece(G, p, c[0], c[1], 1, false);
    g.classList.add('su-on');
    g.dataset.on = p.sq;
    g.setAttribute('pointer-events', 'none');
    root.append(g);
  }
  box.replaceChildren(root);
}

// suHands shows each side's hand, a count per piece with − and +.
function suHands(r, names) {
  const box = $('#su-hands');
  const kinds = suForms(r.handPieces || [], r.geometry);
  if (!kinds.length) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const rows = [];
  for (const side of [0, 1]) {
    const row = el('div', { class: 'su-hand', 'data-side': side }, el('span', { class: 'su-side' }, names[side] + ' holds'));
    for (const f of kinds) {
      const n = handCount(side, f.kind, f.promoted);
      const id = side + (f.promoted ? '+' : '') + f.kind;
      const minus = el('button', { type: 'button', 'data-hand': id, 'data-d': '-1', title: 'one less' }, '−');
      const plus = el('button', { type: 'button', 'data-hand': id, 'data-d': '1', title: 'one more' }, '+');
      minus.disabled = n === 0;
      minus.addEventListener('click', () => suHand(side, f.kind, f.promoted, -1));
      plus.addEventListener('click', () => suHand(side, f.kind, f.promoted, 1));
      row.append(el('span', { class: 'su-slot' + (n ? ' some' : ''), title: suPieceName(r.geometry, f) },
        suMini(r.geometry, f, side), el('b', { 'data-count': id }, String(n)), minus, plus));
    }
    rows.push(row);
  }
  box.replaceChildren(...rows);
}

// ---- from the set-up ----

// suPlay opens the explorer board on the position set up, where a game is
// entered and saved (edit.js) with its FEN and SetUp tags.
async function suPlay() {
  if (!su.valid) return;
  const fen = su.position, id = su.game;
  $('#setup').hidden = true;
  await explore(id, fen);
  if (game && game.explorer && stripCount(fen) !== stripCount(startOf(id)) && !game.tags.some(t => t[0] === 'SetUp')) {
    game.tags.push(['SetUp', '1']);
    renderTags();
  }
}

// suSearch lists the stored games that reach the position set up.
function suSearch() {
  if (!su.valid) return;
  posSearch = { game: su.game, fen: su.position, label: 'set up (' + su.game + ')' };
  listOffset = 0;
  loadList();
  if (ONE_COLUMN.matches) $('#side').scrollIntoView();
}

// ---- wiring ----

let suTyping = 0;
$('#su-open').addEventListener('click', () => {
  const id = game && game.nodes && game.nodes.length && rulesets.some(r => r.id === game.game && r.setup) ? game.game : $('#x-game').value;
  const fen = game && game.game === id && game.nodes.length ? game.nodes[at].fen : '';
  openSetup(id || 'ogi', fen);
});
$('#su-game').addEventListener('change', () => openSetup($('#su-game').value, ''));
$('#su-startpos').addEventListener('click', () => { su.base = ''; suRead('', true); });
$('#su-clear').addEventListener('click', () => { su.pieces = []; suRender(false); suCompose(); });
$('#su-close').addEventListener('click', closeSetup);
$('#su-fen').addEventListener('input', () => {
  clearTimeout(suTyping);
  suTyping = setTimeout(() => suRead($('#su-fen').value.trim(), false), 250);
});
$('#su-fen').addEventListener('change', () => { clearTimeout(suTyping); suRead($('#su-fen').value.trim(), false); });
$('#su-play').addEventListener('click', suPlay);
$('#su-search').addEventListener('click', suSearch);
hooks.shown.push(() => { $('#setup').hidden = true; });
// A page of players, events or statistics (people.js) takes the view's
// place as a game does.
new MutationObserver(() => { if (!$('#people').hidden) $('#setup').hidden = true; })
  .observe($('#people'), { attributes: true, attributeFilter: ['hidden'] });
