'use strict';
// Plateau's browser page: the game list (a server-side search), one game
// stepped through with its variations, the opening tree of the position on
// the board and the other games reaching it, and an explorer board that is
// not tied to a stored game. Every position comes from the server
// (placements, side to move, notation, legal moves), so this file knows no
// rules: it draws the geometry it is sent. Text from records is only ever
// set as text (textContent, text nodes), never parsed as HTML.

const $ = s => document.querySelector(s);
const SVG = 'http://www.w3.org/2000/svg';

let games = [];     // summaries of the list page
let game = null;    // the open game (a Detail, or an explorer board)
let at = 0;         // current node
let moveEls = {};   // node id -> span in the move list
let flipped = false;
let selected = null; // click-to-move: {from} or {kind} chosen on the board
// hooks of the other scripts (edit.js): the URL a game is read from, and
// what to do when a game is shown and when the board goes to a node.
const hooks = { gameURL: n => 'api/games/' + n, shown: [], moved: [] };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
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

async function getJSON(url) {
  const r = await fetch(url);
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: 'bad answer from the server' }; }
  if (!r.ok) throw new Error((j && j.error) || r.statusText);
  return j;
}

function toast(msg) {
  const t = $('#toast');
  t.textContent = msg;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.textContent = ''; }, 2500);
}

// ---- game list ----

// The server filters, sorts and pages the list (a database may hold
// millions of games); the page asks for one page at a time.
const PAGE = 100;
let listOffset = 0, listTotal = 0, listMore = false, rulesetsShown = false;
// The cursors of the page shown (a database's): ▶ and ◀ read the next and
// previous pages from them (a seek, however deep the page), a page jump by
// its offset.
let listNext = '', listPrev = '', listCursor = null;
let sort = { col: 'id', desc: false };
let posSearch = null; // {game, fen, label}: the list is a position search

// criteriaFields are the form's fields of the database's search criteria.
function criteriaFields() { return document.querySelectorAll('#more [data-param]'); }

function listParams() {
  const p = new URLSearchParams();
  const set = (k, v) => { if (v) p.set(k, v.trim()); };
  set('q', $('#filter').value);
  set('game', $('#gamefilter').value);
  set('valid', $('#validfilter').value);
  // The database's criteria: each field names its parameter (data-param).
  for (const f of criteriaFields()) set(f.dataset.param, f.value);
  if (posSearch) {
    p.set('game', posSearch.game);
    p.set('position', posSearch.fen);
  }
  if (sort.col !== 'id') p.set('sort', sort.col);
  if (sort.desc) p.set('desc', '1');
  return p;
}

let listSeq = 0;
async function loadList() {
  const p = listParams();
  $('#export').href = 'api/export?' + p;
  p.set('offset', listOffset);
  p.set('limit', PAGE);
  const cur = listCursor;
  listCursor = null;
  if (cur && cur.after) p.set('after', cur.after);
  if (cur && cur.before) p.set('before', cur.before);
  const seq = ++listSeq;
  let j;
  try {
    j = await getJSON('api/games?' + p);
  } catch (e) {
    if (seq !== listSeq) return;
    games = [];
    $('#list tbody').replaceChildren();
    $('#count').textContent = e.message;
    showListNotice('');
    return;
  }
  if (seq !== listSeq) return;
  showListNotice(j.notice || '');
  games = j.games || [];
  listNext = j.next || '';
  listPrev = j.prev || '';
  listTotal = j.total;
  listMore = !!j.more;
  if (!rulesetsShown || (j.rulesets || []).length + 1 !== $('#gamefilter').options.length) {
    const cur = $('#gamefilter').value;
    $('#gamefilter').replaceChildren(el('option', { value: '' }, 'all games'),
      ...(j.rulesets || []).map(id => el('option', { value: id }, id)));
    $('#gamefilter').value = cur;
    rulesetsShown = true;
  }
  renderList();
}

// showListNotice shows above the list what the server says may be missing
// from it (a text query answered from a text index that lacks games), or
// hides the notice ('').
function showListNotice(text) {
  $('#listnotice').textContent = text ? '⚠ ' + text : '';
  $('#listnotice').hidden = !text;
}

let filterTimer = 0;
function filterChanged() {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => { listOffset = 0; loadList(); }, 250);
}

function turnPage(dir) {
  const next = listOffset + dir * PAGE;
  if (next < 0 || (dir > 0 && !hasNext())) return;
  listOffset = next;
  if (next > 0 && dir > 0 && listNext) listCursor = { after: listNext };
  if (next > 0 && dir < 0 && listPrev) listCursor = { before: listPrev };
  loadList();
}

function hasNext() {
  if (listTotal < 0 || listMore) return games.length >= PAGE || listMore;
  return listOffset + games.length < listTotal;
}

function jumpTo(page) {
  const last = listTotal > 0 ? Math.max(1, Math.ceil(listTotal / PAGE)) : Infinity;
  page = Math.min(Math.max(1, page | 0), last);
  listOffset = (page - 1) * PAGE;
  loadList();
}

// num writes a count with thousands separators (1,000,000).
function num(n) { return Number(n).toLocaleString('en'); }

function sideNames(g) { return (g.sides && g.sides[0]) ? g.sides : ['White', 'Black']; }

// LIST_COLUMNS are the list's columns by key: the heading, the sort its
// click asks the server for (none: not sortable), a class of its cells,
// and the text of a game's cell; a cell's class is also c-<key>.
const LIST_COLUMNS = {
  n: { head: '#', sort: 'id', cls: 'num', text: g => String(g.n) },
  ply: { head: 'at ply', cls: 'num plycol', title: 'the ply at which the game matches',
    text: g => g.matchPly === undefined ? '' : String(g.matchPly) + (g.variation ? ' var' : '') },
  game: { head: 'game', sort: 'game', text: g => g.game || '?' },
  white: { head: 'white', sort: 'white', id: 'h-white', text: g => g.players[0] || '?' },
  elo0: { head: 'Elo', cls: 'num', text: g => (g.elo && g.elo[0]) || '' },
  black: { head: 'black', sort: 'black', id: 'h-black', text: g => g.players[1] || '?' },
  elo1: { head: 'Elo', cls: 'num', text: g => (g.elo && g.elo[1]) || '' },
  result: { head: 'result', sort: 'result', text: g => g.result },
  opening: { head: 'opening', sort: 'opening', cls: g => g.opening ? 'oname' : 'oname own', title: 'the deepest named position the game reaches (plateau openings import), else the record\u2019s own ECO and Opening tags; sorted by name, the games without one last', text: g => g.opening || ownOpening(g) },
  event: { head: 'event', sort: 'event', text: g => g.event || '' },
  round: { head: 'round', text: g => g.round || '' },
  date: { head: 'date', sort: 'date', text: g => g.date || '' },
  plies: { head: 'plies', sort: 'plies', cls: 'num', text: g => String(g.plies) },
  valid: { head: '', cls: g => g.valid ? 'ok' : 'bad', text: g => g.valid ? '✓' : '✗' },
};

// ownOpening is the record's own ECO and Opening tags of a list line
// (given when no listed name matches the game), as the header writes them.
function ownOpening(g) { return [g.ownEco, g.ownOpening].filter(x => x).join(' '); }

// listColumns orders the columns for the list shown, what the search is
// about first: a position or pattern search gives each game's ply second;
// a list of one ruleset has no game column (its sides head the players'),
// a page without ratings no Elo columns, a page without a named opening no
// opening column (unless the list is sorted by it); a list sorted or
// filtered by opening has the opening second, where a narrow list shows it.
function listColumns(withPly, oneRuleset, elo, opening, openingFirst) {
  let order = withPly
    ? ['n', 'ply', 'white', 'elo0', 'black', 'elo1', 'result', 'opening', 'date', 'event', 'round', 'plies', 'game', 'valid']
    : ['n', 'game', 'white', 'elo0', 'black', 'elo1', 'result', 'opening', 'event', 'round', 'date', 'plies', 'valid'];
  if (openingFirst && !withPly) order = ['n', 'opening', ...order.filter(k => k !== 'n' && k !== 'opening')];
  return order.filter(k => (k !== 'game' || !oneRuleset) && (elo || !k.startsWith('elo')) && (opening || k !== 'opening'));
}

// listHead writes the list's heading for columns cols (kept when they
// are the same).
function listHead(cols) {
  const tr = $('#list thead tr');
  if (tr.dataset.cols === cols.join()) return;
  tr.dataset.cols = cols.join();
  tr.replaceChildren(...cols.map(k => {
    const c = LIST_COLUMNS[k];
    const th = el('th', { class: 'c-' + k + (k === 'ply' ? ' plycol' : ''), id: c.id, title: c.title, 'data-sort': c.sort }, c.head);
    if (c.sort) th.addEventListener('click', () => sortBy(c.sort));
    return th;
  }));
}

function listRow(g, cols) {
  const title = (g.gameName || g.game || '?') + (g.error ? '\n' + g.error : '');
  return el('tr', { 'data-n': g.n, title }, ...cols.map(k => {
    const c = LIST_COLUMNS[k];
    const cls = typeof c.cls === 'function' ? c.cls(g) : c.cls;
    return el('td', { class: 'c-' + k + (cls ? ' ' + cls : '') }, c.text(g));
  }));
}

function renderList() {
  const tb = $('#list tbody');
  const rows = [];
  const withPly = !!posSearch || !!$('#f-pattern').value.trim();
  $('#list').classList.toggle('nosort', withPly);
  const elo = games.some(g => g.elo && (g.elo[0] || g.elo[1]));
  const byOpening = sort.col === 'opening' || !!$('#f-opening').value.trim();
  const cols = listColumns(withPly, !!(posSearch || $('#gamefilter').value), elo, byOpening || games.some(g => g.opening || ownOpening(g)), byOpening);
  listHead(cols);
  for (const g of games) {
    const tr = listRow(g, cols);
    if (game && game.n === g.n) tr.classList.add('open');
    tr.addEventListener('click', () => openGame(g.n, g.matchPly !== undefined ? { ply: g.matchPly, variation: g.variation, fen: posSearch && posSearch.fen } : null));
    rows.push(tr);
  }
  tb.replaceChildren(...rows);
  let count;
  if (games.length === 0) count = listTotal > 0 ? 'no game on this page of ' + num(listTotal) : 'no game';
  else {
    const of = listTotal < 0 ? 'many' : num(listTotal) + (listMore ? '+' : '');
    count = num(listOffset + 1) + '–' + num(listOffset + games.length) + ' of ' + of;
  }
  $('#count').textContent = count;
  $('#p-prev').disabled = listOffset === 0;
  $('#p-next').disabled = !hasNext();
  $('#p-jump').value = Math.floor(listOffset / PAGE) + 1;
  for (const th of document.querySelectorAll('#list th[data-sort]')) {
    th.classList.toggle('sorted', !withPly && th.dataset.sort === sort.col);
    th.classList.toggle('desc', th.dataset.sort === sort.col && sort.desc);
  }
  // The side names of the games listed head the player columns.
  const id = $('#gamefilter').value || (posSearch && posSearch.game);
  const first = games.find(g => g.game === id) || (id ? null : games[0]);
  const names = first && games.every(g => g.game === first.game) ? sideNames(first) : ['white / side 1', 'black / side 2'];
  $('#h-white').textContent = names[0].toLowerCase();
  $('#h-black').textContent = names[1].toLowerCase();
  const si = $('#searchinfo');
  si.hidden = !posSearch;
  if (posSearch) $('#searchtext').textContent = 'Games with the position ' + posSearch.label;
}

function sortBy(col) {
  if (posSearch || $('#f-pattern').value.trim()) return; // in game and ply order
  if (sort.col === col) sort.desc = !sort.desc; else sort = { col, desc: false };
  listOffset = 0;
  loadList();
}

function searchPosition() {
  if (!game || !game.nodes.length) return;
  const n = game.nodes[at];
  posSearch = { game: game.game, fen: n.fen, label: (at > 0 ? 'after ' + n.number + ' ' + n.move : 'at the start') + ' (' + game.game + ')' };
  listOffset = 0;
  loadList();
}

// ---- loading files (serve FILE…) ----

async function watchLoading() {
  let st;
  try { st = await getJSON('api/status'); } catch (e) { return; }
  const box = $('#loading');
  if (!st.loading) {
    if (!box.hidden) { box.hidden = true; loadList(); }
    if (st.error) { box.hidden = false; $('#loadtext').textContent = 'loading stopped: ' + st.error; }
    return;
  }
  box.hidden = false;
  $('#loadbar').max = Math.max(st.totalBytes, 1);
  $('#loadbar').value = st.bytes;
  $('#loadtext').textContent = ' loading: ' + st.records + ' records, ' + st.stored + ' games stored (' + st.invalid + ' invalid)';
  if (!watchLoading.lastList || Date.now() - watchLoading.lastList > 3000) {
    watchLoading.lastList = Date.now();
    loadList();
  }
  setTimeout(watchLoading, 500);
}

// ---- one game ----

// openGame shows game n; at: {ply, variation, fen} of a position to open
// at (a position search), or a node id.
async function openGame(n, where) {
  let d;
  try { d = await getJSON(hooks.gameURL(n)); } catch (e) { toast(e.message); return; }
  game = d;
  selected = null;
  for (const tr of document.querySelectorAll('#list tbody tr')) {
    tr.classList.toggle('open', +tr.dataset.n === n);
  }
  showGame();
  let node = 0;
  if (typeof where === 'number') node = where < game.nodes.length ? where : 0;
  else if (where) node = findNode(where);
  go(node);
  toBoard();
}

// ONE_COLUMN is true where the page is one column (style.css's phone
// breakpoint).
const ONE_COLUMN = matchMedia('(max-width: 760px)');

// toBoard scrolls a one-column page (a phone) to the board just opened,
// which is under the list (once drawn: the page must be long enough).
function toBoard() { if (ONE_COLUMN.matches) $('#game').scrollIntoView(); }

// findNode is the node at a ply of a position search: on the main line or
// in a variation as the hit says, with the searched position when given.
function findNode(w) {
  const cands = game.nodes.map((n, i) => [n, i]).filter(([n]) => n.ply === w.ply);
  const same = f => c => !w.fen || stripCount(c[0].fen) === stripCount(f);
  const pick = cands.find(c => (c[0].depth > 0) === !!w.variation && same(w.fen)(c)) ||
    cands.find(same(w.fen)) || cands.find(c => (c[0].depth > 0) === !!w.variation) || cands[0];
  return pick ? pick[1] : 0;
}

// stripCount drops a trailing move number from a position string (the same
// position reached by a transposition may carry another).
function stripCount(fen) { return (fen || '').replace(/\s+\d+\s*$/, ''); }

function showGame() {
  if (typeof leavePeople === 'function') leavePeople();
  $('#empty').hidden = true;
  $('#game').hidden = false;
  renderHeader();
  renderMoves();
  renderTags();
  for (const f of hooks.shown) f();
}

function renderHeader() {
  const g = game;
  const s = sideNames(g);
  const elo = i => (g.elo && g.elo[i]) ? ' (' + g.elo[i] + ')' : '';
  // A name opens the player's page, the event its crosstable (people.js).
  const name = i => g.players[i] ? el('span', { class: 'pname', 'data-player': g.players[i], title: 'the page of ' + g.players[i] }, g.players[i]) : '?';
  const players = el('span', {}, s[0] + ' ', name(0), elo(0) + ' – ' + s[1] + ' ', name(1), elo(1));
  const meta = el('span', {}, ...[g.gameName || g.game, g.opening ? openingLink(g) : recordOpening(g), g.event && el('span', { class: 'pname', 'data-event': g.event, title: 'the crosstable of ' + g.event }, g.event),
    g.site, g.date, g.round && 'round ' + g.round].filter(x => x).flatMap((x, i) => i ? [' · ', x] : [x]));
  let res = g.result;
  if (g.termination) res += ' (' + g.termination + ')';
  const where = g.explorer ? 'explorer board' : (g.file === 'database' ? 'game ' + g.n : g.file + ' game ' + g.index);
  $('#title').replaceChildren(
    el('div', { class: 'players' }, ...(g.explorer ? [(g.gameName || g.game) + ': explorer'] : [players, '   ' + res])),
    el('div', { class: 'meta' }, ...(g.explorer ? ['a board of your own: play moves on it or from the tree'] : [meta, ' · ' + where])));
  const eb = $('#errorbox');
  if (g.valid || g.explorer) {
    eb.hidden = true;
  } else {
    eb.hidden = false;
    eb.textContent = 'Invalid record' + (g.errorLine ? ' (line ' + g.errorLine + ')' : '') + ': ' + (g.error || '');
  }
  $('#notes').replaceChildren(...(g.notes || []).map(t => el('div', {}, 'note: ' + t)));
}

// recordOpening is the record's own ECO and Opening tags (with its
// Variation), shown when no listed name matches the game (the server
// gives them only then: ownEco, ownOpening); null when it has neither.
function recordOpening(g) {
  const text = ownOpening(g);
  return text ? el('span', { class: 'opening own', title: 'the record’s own Opening and ECO tags (no listed name matches the game)' }, text) : null;
}

// openingLink is a game's opening in its header: a click lists the games
// of that opening (the opening criterion: its deeper names too), of the
// game's ruleset.
function openingLink(g) {
  const a = el('span', { class: 'opening olink', title: 'the opening: the deepest named position the game reaches; click to list the games of this opening' }, g.opening);
  a.addEventListener('click', () => {
    $('#more').open = true;
    $('#f-opening').value = g.opening;
    if ([...$('#gamefilter').options].some(o => o.value === g.game)) $('#gamefilter').value = g.game;
    filterChanged();
  });
  return a;
}

function renderTags() {
  $('#tags').replaceChildren(...(game.tags || []).map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, v))));
}

function renderMoves() {
  moveEls = {};
  const box = $('#moves');
  box.replaceChildren();
  for (const c of game.intro || []) box.append(el('span', { class: 'cmt' }, c), ' ');
  if (game.nodes.length) line(box, game.nodes[0].next, true);
  for (const [i, t] of (game.rest || []).entries()) {
    box.append(el('span', { class: 'rest', title: i === 0 ? 'not played: ' + (game.error || '') : 'not played' }, t), ' ');
  }
  if (!game.explorer) box.append(el('span', { class: 'result' }, game.result));
  if (moveEls[at]) moveEls[at].classList.add('cur');
}

// line writes the moves from node first to the end of its line, with
// their variations in parentheses.
function line(box, first, main) {
  let needNum = true, lastNum = '';
  for (let id = first; id >= 0; id = game.nodes[id].next) {
    const n = game.nodes[id];
    const node = id; // one binding per move: each click goes to its own move
    for (const c of n.before || []) box.append(el('span', { class: 'cmt' }, c), ' ');
    const black = n.number.endsWith('...');
    // a huff shares its number with the move that follows it
    if ((!black || needNum) && n.number !== lastNum) box.append(el('span', { class: 'num' }, n.number), ' ');
    lastNum = n.number;
    const m = el('span', { class: 'move' + (n.local ? ' local' : ''), 'data-id': node }, n.move);
    if (n.nags) m.append(el('span', { class: 'nag' }, ' ' + n.nags));
    m.addEventListener('click', () => go(node));
    moveEls[node] = m;
    box.append(m, ' ');
    needNum = false;
    if ((n.after || []).length || n.note) {
      for (const c of n.after || []) box.append(el('span', { class: 'cmt' }, c), ' ');
      needNum = true;
    }
    for (const v of n.vars || []) {
      const span = el('span', { class: 'var' + (main ? ' v1' : '') }, '(');
      line(span, v, false);
      span.append(')');
      box.append(span, ' ');
      needNum = true;
    }
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
  selected = null;
  $('#chooser').hidden = true;
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
  const s = sideNames(game);
  let st = 'ply ' + n.ply + ' · ' + s[n.toMove] + ' to move';
  if (n.depth > 0) st += ' · variation (depth ' + n.depth + ')';
  if (n.over) st += ' · game over: ' + n.over;
  if (id > 0) st = 'after ' + n.number + ' ' + n.move + ' · ' + st;
  $('#status').textContent = st;
  // The position wraps after a comma or a colon, never inside a square
  // ("c6" cut into "c" and "6" on a Turkish board).
  $('#fen').replaceChildren(...n.fen.split(/(?<=[,:])/).flatMap((t, i) => i ? [el('wbr'), t] : [t]));
  const c = [...(n.after || [])];
  if (n.note) c.push('(' + n.note + ')');
  $('#comment').textContent = c.join(' ');
  if (game.explorer) history.replaceState(null, '', '#explore/' + game.game + '/' + encodeURIComponent(n.fen));
  else history.replaceState(null, '', '#' + game.n + '/' + id);
  positionChanged();
  for (const f of hooks.moved) f(id);
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

// isVarStart: node id begins a variation (its parent continues otherwise).
function isVarStart(id) {
  const n = game.nodes[id];
  return id > 0 && n.parent >= 0 && game.nodes[n.parent].next !== id;
}

// replaced is the move a variation's first node stands in for.
function replaced(v) { return game.nodes[game.nodes[v].parent].next; }

// down enters a variation: the first one of the current move, or of the
// next move; at the first move of a variation, the next sibling variation.
function down() {
  if (!game) return;
  const n = game.nodes[at];
  if (isVarStart(at)) {
    const sibs = game.nodes[replaced(at)].vars || [];
    const i = sibs.indexOf(at);
    if (i >= 0 && i + 1 < sibs.length) { go(sibs[i + 1]); return; }
  }
  if ((n.vars || []).length) { go(n.vars[0]); return; }
  if (n.next >= 0 && (game.nodes[n.next].vars || []).length) go(game.nodes[n.next].vars[0]);
}

// up leaves the variation the current move is in, for the move it stands in
// for, one level up.
function up() {
  if (!game) return;
  let id = at;
  while (id > 0 && !isVarStart(id)) id = game.nodes[id].parent;
  if (id > 0) go(replaced(id));
}

// ---- playing moves (explorer, tree, board clicks) ----

// play plays a move (its text) from the current node: an existing move of
// the tree is followed; a new one is added as a local variation (or, at
// the end of a line, continues it).
async function play(move) {
  if (!game || !game.nodes.length) return;
  const from = at, cur = game.nodes[from];
  const kids = [];
  if (cur.next >= 0) kids.push(cur.next, ...(game.nodes[cur.next].vars || []));
  for (const k of kids) if (game.nodes[k].move === move) { go(k); return; }
  let v;
  try {
    v = await getJSON('api/position?' + new URLSearchParams({ game: game.game, fen: cur.fen, move, ply: cur.ply }));
  } catch (e) { toast(e.message); return; }
  const n = v.node;
  if (game.nodes[from] !== cur) return;
  n.parent = from;
  n.next = -1;
  n.depth = cur.depth;
  n.local = true;
  n.legal = null;
  const id = game.nodes.length;
  game.nodes.push(n);
  if (cur.next < 0) cur.next = id;
  else {
    const r = game.nodes[cur.next];
    r.vars = [...(r.vars || []), id];
    n.depth = r.depth + 1;
  }
  if (game._hands) game._hands = null;
  renderMoves();
  go(id);
}

async function legalMoves(n) {
  if (n.legal) return n.legal;
  const v = await getJSON('api/position?' + new URLSearchParams({ game: game.game, fen: n.fen }));
  n.legal = v.legal || [];
  return n.legal;
}

async function squareClicked(sq) {
  if (!game || game.nodes.length === 0) return;
  const n = game.nodes[at];
  let legal;
  try { legal = await legalMoves(n); } catch (e) { toast(e.message); return; }
  if (selected) {
    const moves = legal.filter(m => m.to === sq && (selected.kind ? m.kind === selected.kind && !m.from : m.from === selected.from));
    if (moves.length === 1) { selected = null; play(moves[0].move); return; }
    if (moves.length > 1) { choose(moves); return; }
  }
  const from = legal.filter(m => m.from === sq);
  selected = from.length ? { from: sq } : null;
  drawBoard(n);
}

function handClicked(kind, side) {
  if (!game) return;
  const n = game.nodes[at];
  if (side !== n.toMove) return;
  legalMoves(n).then(() => {
    selected = { kind };
    drawBoard(n);
  }).catch(e => toast(e.message));
}

// choose asks which of several moves between the same squares (promote or
// not, capture paths) to play.
function choose(moves) {
  const box = $('#chooser');
  box.replaceChildren(el('span', {}, 'Which move? '), ...moves.map(m => {
    const b = el('button', { type: 'button' }, m.move);
    b.addEventListener('click', () => { box.hidden = true; selected = null; play(m.move); });
    return b;
  }));
  box.hidden = false;
}

// targets are the squares the selection can move to.
function targets(n) {
  if (!selected || !n.legal) return new Set();
  return new Set(n.legal.filter(m => selected.kind ? (!m.from && m.kind === selected.kind) : m.from === selected.from).map(m => m.to));
}

// ---- explorer ----

let rulesets = [];

async function loadRulesets() {
  try { rulesets = await getJSON('api/rulesets'); } catch (e) { rulesets = []; }
  $('#x-game').replaceChildren(...rulesets.map(r => el('option', { value: r.id }, r.name)));
  const want = game && game.explorer ? game.game : 'ogi';
  if (rulesets.some(r => r.id === want)) $('#x-game').value = want;
}

// explore opens an explorer board on a position of ruleset id (its start
// when fen is empty; moves from the start are accepted too).
async function explore(id, fen) {
  let v;
  try {
    v = await getJSON('api/position?' + new URLSearchParams({ game: id, fen: fen || '' }));
  } catch (e) {
    // not a position: perhaps moves from the start
    try {
      v = await getJSON('api/position?' + new URLSearchParams({ game: id, fen: '' }));
      const moves = (fen || '').split(/\s+/).filter(t => t && !/^\d+\.+$/.test(t));
      game = newExplorer(v);
      showGame();
      go(0);
      toBoard();
      for (const m of moves) await play(m);
      return;
    } catch (e2) { toast(e.message); return; }
  }
  game = newExplorer(v);
  showGame();
  go(0);
  toBoard();
}

function newExplorer(v) {
  if (rulesets.some(r => r.id === v.game)) $('#x-game').value = v.game;
  const n = v.node;
  n.parent = -1; n.next = -1; n.depth = 0; n.legal = v.legal;
  return {
    explorer: true, n: 0, game: v.game, gameName: v.gameName, sides: v.sides, players: ['', ''],
    geometry: v.geometry, nodes: [n], tags: [['Game', v.game], ['FEN', n.fen]], result: '*', valid: true,
  };
}

// pdn writes the record of the board (an explorer board, or a game with
// local moves) in the record format: its tags, the start position when not
// the standard one, and the moves with their variations.
function pdn() {
  const tags = game.tags.filter(([k]) => k !== 'FEN' || game.nodes[0].fen !== startOf(game.game));
  const out = tags.map(([k, v]) => '[' + k + ' "' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"]');
  const toks = [];
  const comment = c => '{' + c.replace(/}/g, ')') + '}';
  const walk = (first) => {
    let needNum = true;
    for (let id = first; id >= 0; id = game.nodes[id].next) {
      const n = game.nodes[id];
      for (const c of n.before || []) toks.push(comment(c));
      if (!n.number.endsWith('...') || needNum) toks.push(n.number);
      toks.push(n.move + (n.nags ? ' ' + n.nags : ''));
      needNum = false;
      for (const c of n.after || []) { toks.push(comment(c)); needNum = true; }
      for (const v of n.vars || []) { toks.push('('); walk(v); toks.push(')'); needNum = true; }
    }
  };
  for (const c of game.intro || []) toks.push(comment(c));
  if (game.nodes.length) walk(game.nodes[0].next);
  toks.push(game.result || '*');
  let text = '', col = 0;
  for (const t of toks) {
    const glue = t === ')' || (text.endsWith('(') && col > 0);
    if (!glue && col > 0 && col + 1 + t.length > 80) { text += '\n'; col = 0; }
    else if (!glue && col > 0) { text += ' '; col++; }
    text += t; col += t.length;
  }
  return out.join('\n') + '\n\n' + text + '\n';
}

function startOf(id) { const r = rulesets.find(r => r.id === id); return r ? r.start : ''; }

function hasLocal() { return game.nodes.some(n => n.local); }

async function recordText() {
  if (game.explorer || hasLocal()) return pdn();
  const r = await fetch('api/games/' + game.n + '/record');
  if (!r.ok) throw new Error('record unavailable');
  return r.text();
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const ta = el('textarea', { class: 'offscreen' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    if (!ok) { toast('could not copy'); return; }
  }
  toast(what + ' copied');
}

async function download() {
  if (!game) return;
  if (!game.explorer && !hasLocal()) {
    const a = el('a', { href: 'api/games/' + game.n + '/record?download=1', download: 'game-' + game.n + '.pdn' });
    document.body.append(a); a.click(); a.remove();
    return;
  }
  const url = URL.createObjectURL(new Blob([pdn()], { type: 'application/x-pdn' }));
  const a = el('a', { href: url, download: (game.explorer ? 'explorer' : 'game-' + game.n) + '.pdn' });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---- opening tree and games with this position ----

let treeSeq = 0, posOffset = 0;
const POSPAGE = 10;

function positionChanged() {
  posOffset = 0;
  // Busy until the new position's tree is shown (renderTree, or its error).
  $('#tree').setAttribute('aria-busy', 'true');
  clearTimeout(positionChanged.timer);
  positionChanged.timer = setTimeout(() => { loadTree(); loadPositionGames(); }, 60);
}

async function loadTree() {
  const n = game.nodes[at];
  const seq = ++treeSeq;
  let moves;
  try {
    const q = new URLSearchParams({ game: game.game, fen: n.fen });
    // The filter bar's criteria (treefilter.js), kept while stepping.
    if (typeof treeFilterParams === 'function') for (const [k, v] of treeFilterParams()) q.set(k, v);
    loadOpeningName(game.game, at, seq);
    moves = await getJSON('api/tree?' + q);
  } catch (e) {
    if (seq === treeSeq) { $('#tree tbody').replaceChildren(el('tr', {}, el('td', { colspan: 6 }, e.message))); $('#treesum').textContent = ''; $('#tree').removeAttribute('aria-busy'); }
    return;
  }
  if (seq !== treeSeq) return;
  renderTree(moves);
}

// openingNames keeps the names of positions read (api/openings), by
// ruleset and position: '' for a position without one.
const openingNames = new Map();

async function openingName(id, fen) {
  const k = id + '\n' + fen;
  if (!openingNames.has(k)) {
    let names = [];
    try { names = await getJSON('api/openings?' + new URLSearchParams({ game: id, fen })); } catch (e) { names = []; }
    openingNames.set(k, names.length ? names[0].name : '');
  }
  return openingNames.get(k);
}

// loadOpeningName shows above the tree the opening of the line to node
// id, as lichess does: the name of the deepest named position on the way
// (the position itself or one of the 60 before it), unless another
// position's tree was asked for since.
async function loadOpeningName(gameId, id, seq) {
  const path = [];
  for (let i = id; i >= 0 && path.length <= 60; i = game.nodes[i].parent) path.push(game.nodes[i]);
  const names = await Promise.all(path.map(n => openingName(gameId, n.fen)));
  if (seq !== treeSeq) return;
  const k = names.findIndex(x => x);
  const name = k >= 0 ? names[k] : '';
  $('#treename').textContent = name;
  $('#treename').title = k > 0 ? 'the opening of this line: named ' + k + (k === 1 ? ' ply' : ' plies') + ' back' : 'this position\u2019s name';
  $('#treename').hidden = !name;
}

// The tree's numbers are from the first side's view (side 0: lichess
// shows white / draw / black), whichever side is to move, so that the bars
// keep their order while stepping: a bar of the scored games that side 0
// won, drew and lost, and side 0's share of the points, the ruleset's own
// (a Dejarik series scores 3-0 or 1-1, a draughts win 2-0).

function renderTree(moves) {
  const names = sideNames(game);
  treeHead(names);
  const total = moves.reduce((a, m) => a + m.games, 0);
  const rows = moves.flatMap(m => {
    const tr = el('tr', { class: 'tmove' + (m.opening ? ' named' : ''), title: 'play ' + m.move },
      el('td', { class: 'mv' }, m.move),
      el('td', { class: 'num' }, num(m.games), total ? el('span', { class: 'share' }, ' ' + pctText(m.games / total)) : null),
      el('td', { class: 't-bar' }, resultBar(m, names)),
      el('td', { class: 'num t-score', title: scoreTitle(m, names) }, pctText(share(m.score[0], m.score[0] + m.score[1]))),
      el('td', { class: 't-dates' }, m.first === m.last ? (m.first || '') : (m.first || '?') + '–' + (m.last || '?')),
      topPlayers(m));
    tr.addEventListener('click', () => play(m.move));
    if (!m.opening) return [tr];
    // The name of the position the move leads to, on a line of its own.
    const name = el('tr', { class: 'tname', title: 'play ' + m.move }, el('td', { colspan: 6 }, m.opening));
    name.addEventListener('click', () => play(m.move));
    return [tr, name];
  });
  if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: 6, class: 'none' }, 'No game of the database continues from here.')));
  $('#tree tbody').replaceChildren(...rows);
  $('#treesum').textContent = total ? '· ' + moves.length + ' moves, ' + num(total) + ' games' : '';
  $('#tree').removeAttribute('aria-busy');
}

// topPlayers is the cell of a move's most frequent players: one line, cut
// short, whole in its title.
function topPlayers(m) {
  const text = (m.top || []).map(p => p.name + ' (' + p.games + ')').join(', ');
  // Each name opens the player's page (people.js).
  const names = (m.top || []).flatMap((p, i) => [i ? ', ' : '',
    el('span', { class: 'pname', 'data-player': p.name }, p.name), ' (' + p.games + ')']);
  return el('td', { class: 't-top' }, el('div', { class: 'clip', title: text }, ...names));
}

// treeHead names the sides in the tree's heading and colours the bars'
// segments as the sides' pieces (light and dark when both sides' pieces
// are one colour, as Ōgi's tiles).
function treeHead(names) {
  $('#t-bar').textContent = names[0] + ' · draw · ' + names[1];
  $('#t-score').title = names[0] + '’s share of the points (the ruleset’s own: 2-0 in draughts, Dejarik series)';
  const G = game.geometry || {};
  const c = G.colors && G.colors[0] !== G.colors[1] ? G.colors : ['#f4f4f4', '#333333'];
  const t = $('#tree');
  for (const i of [0, 1]) {
    t.style.setProperty('--c' + i, c[i]);
    t.style.setProperty('--i' + i, contrast(c[i]));
  }
}

// share is a / total, or null when total is 0 (no point was scored: a
// 0-0 Dejarik series).
function share(a, total) { return total > 0 ? a / total : null; }

function pctText(x) { return x === null ? '–' : Math.round(100 * x) + '%'; }

// outcomes are a tree move's scored games as [won by side 0, drawn, won by
// side 1] (the side with more points won), or null when the server does
// not give them (a database of an older layout, read-only).
function outcomes(m) {
  if (!m.wins) return null;
  return [m.wins[0], m.scored - m.wins[0] - m.wins[1], m.wins[1]];
}

// percents rounds the shares of counts to whole percentages that add up
// to 100 (the largest remainders are rounded up).
function percents(counts) {
  const total = counts.reduce((a, b) => a + b, 0);
  const exact = counts.map(c => 100 * c / total);
  const out = exact.map(Math.floor);
  let left = 100 - out.reduce((a, b) => a + b, 0);
  for (const i of exact.map((x, i) => i).sort((a, b) => (exact[b] - out[b]) - (exact[a] - out[a]))) {
    if (left-- <= 0) break;
    out[i]++;
  }
  return out;
}

// resultBar is a move's bar: three segments (side 0 won, drawn, side 1
// won), each as wide as its share of the scored games, or, without
// outcomes, two (each side's points); empty when nothing scored.
function resultBar(m, names) {
  const o = outcomes(m);
  const parts = o
    ? [[o[0], 'w0', names[0] + ' won'], [o[1], 'dr', 'drawn'], [o[2], 'w1', names[1] + ' won']]
    : [[m.score[0], 'w0', names[0] + '’s points'], [m.score[1], 'w1', names[1] + '’s points']];
  const bar = el('span', { class: 'wdl' });
  const counts = parts.map(p => p[0]);
  if (!counts.some(c => c > 0)) {
    bar.classList.add('empty');
    bar.append(el('span', { class: 'seg' }, m.scored ? 'no points' : 'no result'));
    bar.title = m.scored ? m.scored + ' scored games, no points (0-0)' : 'no scored game';
    return bar;
  }
  const pc = percents(counts);
  const tip = [];
  parts.forEach(([n, cls, what], i) => {
    tip.push(what + ' ' + fmtPoints(n) + ' (' + pc[i] + '%)');
    if (n <= 0) return;
    const seg = el('span', { class: 'seg ' + cls, 'data-n': n, 'data-pct': pc[i] }, pc[i] >= 15 ? pc[i] + '%' : '');
    seg.style.flexGrow = n;
    bar.append(seg);
  });
  const unscored = m.games - m.scored;
  bar.title = tip.join(', ') + (unscored ? '; ' + unscored + ' without a result' : '');
  return bar;
}

function scoreTitle(m, names) {
  if (!m.scored) return 'no scored game';
  return names[0] + ' ' + fmtPoints(m.score[0]) + ' – ' + names[1] + ' ' + fmtPoints(m.score[1]) + ' points in ' + m.scored + ' scored games';
}

function fmtPoints(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1); }

let posSeq = 0;
async function loadPositionGames() {
  const n = game.nodes[at];
  const seq = ++posSeq;
  let j;
  try {
    j = await getJSON('api/games?' + new URLSearchParams({ game: game.game, position: n.fen, offset: posOffset, limit: POSPAGE, brief: 1 }));
  } catch (e) {
    if (seq === posSeq) { $('#posgames tbody').replaceChildren(el('tr', {}, el('td', {}, e.message))); $('#poscount').textContent = ''; }
    return;
  }
  if (seq !== posSeq) return;
  const rows = (j.games || []).map(g => {
    const self = !game.explorer && g.n === game.n;
    const tr = el('tr', { class: 'pgame' + (self ? ' self' : ''), 'data-n': g.n, title: self ? 'this game' : 'open at ply ' + g.matchPly },
      el('td', { class: 'num' }, String(g.n)),
      el('td', { class: 'pl' }, (g.players[0] || '?') + ' – ' + (g.players[1] || '?')),
      el('td', {}, g.result),
      el('td', { class: 'p-date' }, g.date || ''),
      el('td', { class: 'num' }, 'ply ' + g.matchPly),
      el('td', {}, g.variation ? el('span', { class: 'flag' }, 'variation') : (self ? el('span', { class: 'flag self' }, 'this game') : '')));
    tr.addEventListener('click', () => openGame(g.n, { ply: g.matchPly, variation: g.variation, fen: n.fen }));
    return tr;
  });
  if (!rows.length) rows.push(el('tr', {}, el('td', { class: 'none' }, 'No stored game reaches this position.')));
  $('#posgames tbody').replaceChildren(...rows);
  const total = j.total < 0 ? '?' : num(j.total) + (j.more ? '+' : '');
  $('#poscount').textContent = '· ' + total + (j.total === 1 ? ' occurrence' : ' occurrences');
  $('#pp-text').textContent = j.games.length ? (posOffset + 1) + '–' + (posOffset + j.games.length) : '';
  $('#pp-prev').disabled = posOffset === 0;
  $('#pp-next').disabled = j.more ? false : posOffset + j.games.length >= j.total;
}

// ---- board ----

function drawBoard(n) {
  const G = game.geometry;
  const box = $('#board');
  if (!G || !G.cells) { box.replaceChildren(el('p', {}, 'No board (the record names no game Plateau plays).')); return; }
  const handW = G.hands ? 2.2 * handLayout(G).cols : 0;
  const m = 0.8;
  const vw = G.w + 2 * m + handW, vh = G.h + 2 * m;
  const root = svg('svg', { viewBox: [-m, -m, vw, vh].join(' '), role: 'img',
    'aria-label': (game.gameName || game.game) + ' board' });
  // The page sizes the board from its shape (style.css: --ratio).
  $('#game').style.setProperty('--ratio', (vw / vh).toFixed(3));
  const lastCells = new Set([n.from, n.to].filter(x => x));
  const centre = {};
  const tg = targets(n);
  const marks = { last: lastCells, targets: tg, selected: selected && selected.from };
  if (G.shape === 'ring') drawRing(root, G, marks, centre); else drawGrid(root, G, marks, centre);
  for (const l of G.labels || []) {
    const [x, y] = flipped ? [G.w - l.x, G.h - l.y] : [l.x, l.y];
    root.append(svg('text', { x, y, class: 'lbl', 'font-size': 0.32, 'text-anchor': 'middle',
      'dominant-baseline': 'central', fill: '#555' }, l.text));
  }
  for (const p of n.pieces) {
    if (!p.sq) continue;
    const c = centre[p.sq];
    if (c) {
      const g = piece(G, p, c[0], c[1], 1);
      g.classList.add('pc');
      g.addEventListener('click', () => squareClicked(p.sq));
      root.append(g);
    }
  }
  for (const sq of tg) {
    const c = centre[sq];
    if (c) root.append(svg('circle', { cx: c[0], cy: c[1], r: 0.14, fill: 'rgba(20,110,40,0.75)', 'pointer-events': 'none' }));
  }
  if (G.hands) drawHands(root, G, n);
  box.replaceChildren(root);
  drawLegend(G);
}

// drawLegend fills the piece legend under the board (geometry.pieces: what
// each letter stands for, '+' before a promoted form), once per board; a
// game without one hides it.
function drawLegend(G) {
  const box = $('#legend');
  if (box._g === G) return;
  box._g = G;
  if (!G || !G.pieces) { box.hidden = true; box.replaceChildren(); return; }
  const name = (letter, n, mark) => el('li', {}, el('span', { class: 'pl' }, letter), ' ' + n + (mark ? ' ' + mark : ''));
  const items = [];
  for (const p of G.pieces) {
    items.push(name(p.letter, p.name, p.mark));
    if (p.promoted) items.push(name('+' + p.letter, p.promoted, p.promotedMark));
  }
  box.replaceChildren(el('summary', {}, 'Pieces'), el('ul', {}, ...items));
  box.hidden = false;
}

function cellXY(G, c, grid, flip = flipped) {
  if (!flip) return [c.x, c.y];
  return grid ? [G.w - 1 - c.x, G.h - 1 - c.y] : [G.w - c.x, G.h - c.y];
}

// drawGrid draws a board of square cells; click(name) is called for a
// click on a named cell.
function drawGrid(root, G, marks, centre, click = squareClicked, flip = flipped) {
  const shogi = G.style === 'shogi';
  root.append(svg('rect', { x: -0.06, y: -0.06, width: G.w + 0.12, height: G.h + 0.12, fill: '#5a3d1e' }));
  for (const c of G.cells) {
    const [x, y] = cellXY(G, c, true, flip);
    let fill = c.dark ? '#b58863' : '#f0d9b5';
    if (shogi) fill = '#e9c77b';
    if (c.goal) fill = '#8fb8de';
    const r = svg('rect', { x, y, width: 1, height: 1, fill, stroke: shogi ? '#6b4a1c' : 'none', 'stroke-width': 0.025 });
    if (c.name) {
      r.classList.add('sq');
      r.dataset.sq = c.name;
      r.addEventListener('click', () => click(c.name));
    }
    root.append(r);
    if (marks.last.has(c.name)) {
      root.append(svg('rect', { x, y, width: 1, height: 1, fill: 'rgba(255,220,0,0.45)', 'pointer-events': 'none' }));
    }
    if (marks.selected && marks.selected === c.name) {
      root.append(svg('rect', { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, fill: 'none', stroke: '#1a7a30', 'stroke-width': 0.08, 'pointer-events': 'none' }));
    }
    if (c.label) {
      root.append(svg('text', { x: x + 0.06, y: y + 0.22, 'font-size': 0.2, fill: '#f3e2c4', 'pointer-events': 'none' }, c.label));
    }
    if (c.name) centre[c.name] = [x + 0.5, y + 0.5];
  }
}

function drawRing(root, G, marks, centre, click = squareClicked, flip = flipped) {
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
    const [x, y] = cellXY(G, c, false, flip);
    const hot = marks.last.has(c.name) || marks.selected === c.name;
    const circ = svg('circle', { cx: x, cy: y, r: c.r || 0.5, fill: c.dark ? '#4a6580' : '#5d7d9b',
      stroke: marks.selected === c.name ? '#3fcf5f' : (hot ? '#ffd400' : '#9fb6cc'), 'stroke-width': hot ? 0.1 : 0.03 });
    circ.classList.add('sq');
    circ.dataset.sq = c.name;
    circ.addEventListener('click', () => click(c.name));
    root.append(circ);
    root.append(svg('text', { x, y: y + (c.r || 0.5) - 0.12, 'font-size': 0.18, 'text-anchor': 'middle',
      fill: '#b9cbdc', 'pointer-events': 'none' }, c.name));
    centre[c.name] = [x, y];
  }
}

// piece draws one piece centred on x, y, scaled by s.
function piece(G, p, x, y, s, flip = flipped) {
  const g = svg('g', { transform: `translate(${x} ${y}) scale(${s})` });
  const fill = G.colors[p.side];
  const ink = contrast(fill);
  let text = (G.glyphs && G.glyphs[p.side + p.kind]) || '';
  if (G.style === 'shogi') {
    // The tile points at the opponent (the far side's turned round, and
    // darker); the letter stays upright to be read.
    const far = (p.side === 1) !== flip;
    g.append(svg('polygon', { points: '0,-0.42 0.3,-0.28 0.36,0.4 -0.36,0.4 -0.3,-0.28',
      transform: far ? 'rotate(180)' : '', fill: p.side === 1 ? '#d9b26a' : fill,
      stroke: '#5a3d1e', 'stroke-width': 0.03 }));
    g.append(svg('text', { x: 0, y: far ? -0.02 : 0.06, 'font-size': 0.42, 'text-anchor': 'middle',
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

// drawHands shows the far side's hand at the top right, the near side's at
// the bottom right, one piece per kind with its count.
function drawHands(root, G, n) {
  const x0 = G.w + 0.9;
  const { per } = handLayout(G);
  for (const side of [1, 0]) {
    const hand = n.pieces.filter(p => !p.sq && p.side === side);
    const top = (side === 1) !== flipped;
    root.append(svg('text', { x: x0 + 0.6, y: top ? -0.3 : G.h + 0.5, 'font-size': 0.3, 'text-anchor': 'middle',
      fill: '#555' }, sideNames(game)[side]));
    hand.forEach((p, i) => {
      const x = x0 + Math.floor(i / per) * 2.2, row = i % per;
      const y = top ? 0.5 + row * 0.95 : G.h - 0.5 - row * 0.95;
      const g = piece(G, p, x + 0.4, y, 0.85);
      g.classList.add('pc');
      if (selected && selected.kind === p.kind && side === n.toMove) {
        root.append(svg('circle', { cx: x + 0.4, cy: y, r: 0.45, fill: 'none', stroke: '#1a7a30', 'stroke-width': 0.08 }));
      }
      g.addEventListener('click', () => handClicked(p.kind, side));
      root.append(g);
      if (p.count > 1) {
        root.append(svg('text', { x: x + 1.05, y, 'font-size': 0.36, 'dominant-baseline': 'central', fill: '#222' },
          '×' + p.count));
      }
    });
  }
}

// ---- pattern form ----

// The form edits the terms of a pattern in the syntax of search --pattern
// (index.ParsePattern) and writes them into the pattern field, which stays
// the query; what is typed into the field is read back into the form
// (a term the form cannot show is kept as written). Terms:
//   {type: 'sq', side, piece, squares}  a piece on one of the squares
//   {type: 'empty', squares}             every one of the squares empty
//   {type: 'count', side, piece, where, op, n}  material on the board or in hand
//   {type: 'raw', text}                  anything else, as typed
// side is -1 (either side), 0 or 1; piece is '*' or a letter, '+' before it
// for a promoted piece, '-' for an unpromoted one.
const pf = { game: '', terms: [] };
const OPS = ['>=', '<=', '=', '!=', '>', '<'];

function pfRuleset() { return rulesets.find(r => r.id === pf.game) || null; }

function pfSideText(side, r) {
  if (side < 0) return '';
  const name = r.sides[side];
  return (/^[^\s:]+$/.test(name) ? name : String(side)) + ':';
}

function termText(t, r) {
  switch (t.type) {
    case 'sq': return pfSideText(t.side, r) + t.piece + '@' + t.squares.join(',');
    case 'empty': return 'empty@' + t.squares.join(',');
    case 'count': return pfSideText(t.side, r) + t.piece + (t.where === 'hand' ? '@hand' : '') + t.op + t.n;
  }
  return t.text;
}

function patternText() {
  const r = pfRuleset();
  return r ? pf.terms.filter(t => t.type !== 'sq' && t.type !== 'empty' || t.squares.length).map(t => termText(t, r)).join(' ') : '';
}

// parseTerm reads one term as index.ParsePattern does; null when the form
// cannot show it.
function parseTerm(tok, r) {
  let m = tok.match(/^empty@(.+)$/i);
  if (m) return { type: 'empty', squares: m[1].split(',').filter(x => x) };
  let side = -1, rest = tok;
  const c = tok.indexOf(':');
  if (c >= 0) {
    const name = tok.slice(0, c).toLowerCase();
    if (name === '0' || name === '1') side = +name;
    else {
      const hits = r.sides.map((s, i) => [s, i]).filter(([s]) => s.toLowerCase().startsWith(name));
      if (hits.length !== 1) return null;
      side = hits[0][1];
    }
    rest = tok.slice(c + 1);
  }
  const piece = (sign, k) => sign + (k === '*' ? '*' : k.toUpperCase());
  m = rest.match(/^([+-]?)([A-Za-z*])@hand(?:(==|!=|<=|>=|=|<|>)(\d+))?$/i);
  if (m) return { type: 'count', side, piece: piece(m[1], m[2]), where: 'hand', op: m[3] ? m[3].replace('==', '=') : '>=', n: m[4] ? +m[4] : 1 };
  m = rest.match(/^([+-]?)([A-Za-z*])@(.+)$/);
  if (m) return { type: 'sq', side, piece: piece(m[1], m[2]), squares: m[3].split(',').filter(x => x) };
  m = rest.match(/^([+-]?)([A-Za-z*])(==|!=|<=|>=|=|<|>)(\d+)$/);
  if (m) return { type: 'count', side, piece: piece(m[1], m[2]), where: 'board', op: m[3].replace('==', '='), n: +m[4] };
  return null;
}

function readPattern(text) {
  const r = pfRuleset();
  pf.terms = text.trim().split(/\s+/).filter(x => x).map(tok => (r && parseTerm(tok, r)) || { type: 'raw', text: tok });
}

// writePattern puts the form's pattern into the field and searches, in
// the form's game (a pattern is searched in one ruleset).
function writePattern() {
  const text = patternText();
  $('#f-pattern').value = text;
  if (text && $('#gamefilter').value !== pf.game) {
    if (![...$('#gamefilter').options].some(o => o.value === pf.game)) $('#gamefilter').append(el('option', { value: pf.game }, pf.game));
    $('#gamefilter').value = pf.game;
  }
  renderPatternForm();
  filterChanged();
}

function pieceOptions(r, withEmpty) {
  const opts = [];
  if (withEmpty) opts.push(['empty', 'empty square']);
  opts.push(['*', 'any piece']);
  for (const k of r.pieces) {
    if (k.plain && k.promoted) opts.push([k.kind, k.kind + ' (either)'], ['-' + k.kind, k.kind + ' unpromoted'], ['+' + k.kind, '+' + k.kind + ' promoted']);
    else opts.push([k.kind, k.kind + (k.promoted ? ' (promoted)' : '')]);
  }
  return opts.map(([v, label]) => el('option', { value: v }, label));
}

function sideOptions(r) {
  return [el('option', { value: '-1' }, 'either side'), ...r.sides.map((s, i) => el('option', { value: String(i) }, s))];
}

// openPatternForm fills the form's selects for its game (the list's game
// filter, else the board's game, else Ōgi) and reads the field.
function openPatternForm() {
  if (!rulesets.length) return;
  if (!$('#pf-game').options.length) {
    $('#pf-game').replaceChildren(...rulesets.map(r => el('option', { value: r.id }, r.name)));
  }
  const want = $('#gamefilter').value || (game && game.game) || 'ogi';
  setPatternGame(rulesets.some(r => r.id === want) ? want : rulesets[0].id);
  readPattern($('#f-pattern').value);
  renderPatternForm();
}

function setPatternGame(id) {
  pf.game = id;
  const r = pfRuleset();
  $('#pf-game').value = id;
  $('#pf-side').replaceChildren(...sideOptions(r));
  $('#pf-piece').replaceChildren(...pieceOptions(r, true));
  $('#pf-piece').value = r.pieces.length ? r.pieces[0].kind : '*';
}

function pfBrush() {
  const piece = $('#pf-piece').value || '*';
  return piece === 'empty' ? { empty: true } : { side: +$('#pf-side').value, piece };
}

const sameSq = (a, b) => a.toLowerCase() === b.toLowerCase();
const dropSq = (list, sq) => list.filter(x => !sameSq(x, sq));

// patternSquare applies the brush (side and piece, or empty) to a square:
// a piece there is asked for, or no longer asked for when it already was.
function patternSquare(sq) {
  const b = pfBrush();
  const terms = pf.terms;
  if (b.empty) {
    let et = terms.find(t => t.type === 'empty');
    if (et && et.squares.some(x => sameSq(x, sq))) et.squares = dropSq(et.squares, sq);
    else {
      for (const t of terms) if (t.type === 'sq') t.squares = dropSq(t.squares, sq);
      if (!et) { et = { type: 'empty', squares: [] }; terms.push(et); }
      et.squares.push(sq);
    }
  } else {
    const same = t => t.type === 'sq' && t.side === b.side && t.piece === b.piece;
    const hit = terms.find(t => same(t) && t.squares.some(x => sameSq(x, sq)));
    if (hit) hit.squares = dropSq(hit.squares, sq);
    else {
      for (const t of terms) if (t.type === 'empty') t.squares = dropSq(t.squares, sq);
      const last = terms[terms.length - 1];
      if ($('#pf-oneof').checked && last && same(last)) last.squares.push(sq);
      else terms.push({ type: 'sq', side: b.side, piece: b.piece, squares: [sq] });
    }
  }
  pf.terms = terms.filter(t => (t.type !== 'sq' && t.type !== 'empty') || t.squares.length);
  writePattern();
}

function renderPatternForm() {
  const r = pfRuleset();
  if (!r) return;
  // The board, with the pieces asked for.
  const G = r.geometry, m = 0.6;
  const box = $('#pf-board');
  if (!G || !G.cells) { box.replaceChildren(); return; }
  const root = svg('svg', { viewBox: [-m, -m, G.w + 2 * m, G.h + 2 * m].join(' '), role: 'img', 'aria-label': r.name + ' pattern board' });
  const centre = {};
  const marks = { last: new Set(), targets: new Set(), selected: null };
  if (G.shape === 'ring') drawRing(root, G, marks, centre, patternSquare, false);
  else drawGrid(root, G, marks, centre, patternSquare, false);
  for (const l of G.labels || []) {
    root.append(svg('text', { x: l.x, y: l.y, 'font-size': 0.32, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#555' }, l.text));
  }
  const at = sq => centre[Object.keys(centre).find(k => sameSq(k, sq))];
  for (const t of pf.terms) {
    if (t.type !== 'sq' && t.type !== 'empty') continue;
    for (const sq of t.squares) {
      const c = at(sq);
      if (!c) continue;
      let g;
      if (t.type === 'empty') {
        g = svg('text', { x: c[0], y: c[1], 'font-size': 0.55, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#c02020', class: 'pfmark' }, '✕');
      } else {
        const kind = t.piece.replace(/^[+-]/, '');
        const kinfo = r.pieces.find(k => k.kind === kind);
        const promoted = t.piece.startsWith('+') || (!!kinfo && kinfo.promoted && !kinfo.plain);
        if (t.side >= 0 && kind !== '*') {
          g = piece(G, { side: t.side, kind, promoted }, c[0], c[1], 0.8, false);
        } else {
          g = svg('g', {});
          g.append(svg('circle', { cx: c[0], cy: c[1], r: 0.32, fill: '#ddd', stroke: '#555', 'stroke-width': 0.04 }));
          g.append(svg('text', { x: c[0], y: c[1] + 0.02, 'font-size': 0.34, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-weight': 700, fill: '#222' }, t.piece));
        }
        g.classList.add('pfmark');
        if (t.squares.length > 1) {
          root.append(svg('circle', { cx: c[0], cy: c[1], r: 0.46, fill: 'none', stroke: '#2f6fb0', 'stroke-width': 0.06, 'stroke-dasharray': '0.12 0.08', 'pointer-events': 'none' }));
        }
      }
      g.setAttribute('pointer-events', 'none');
      root.append(g);
    }
  }
  box.replaceChildren(root);
  // Material counts, one row each.
  const rows = [];
  pf.terms.forEach((t, i) => {
    if (t.type !== 'count') return;
    const side = el('select', {}, ...sideOptions(r));
    side.value = String(t.side);
    const pc = el('select', {}, ...pieceOptions(r, false));
    if (![...pc.options].some(o => o.value === t.piece)) pc.append(el('option', { value: t.piece }, t.piece));
    pc.value = t.piece;
    const where = el('select', {}, el('option', { value: 'board' }, 'on the board'), r.hands || t.where === 'hand' ? el('option', { value: 'hand' }, 'in hand') : null);
    where.value = t.where;
    const op = el('select', {}, ...OPS.map(o => el('option', { value: o }, o)));
    op.value = t.op;
    const n = el('input', { type: 'number', min: '0', value: String(t.n) });
    const del = el('button', { type: 'button', title: 'remove this count' }, '✕');
    const update = () => {
      Object.assign(t, { side: +side.value, piece: pc.value, where: where.value, op: op.value, n: Math.max(0, +n.value | 0) });
      writePattern();
    };
    for (const e of [side, pc, where, op]) e.addEventListener('change', update);
    n.addEventListener('change', update);
    del.addEventListener('click', () => { pf.terms.splice(i, 1); writePattern(); });
    rows.push(el('div', { class: 'pf-count' }, side, pc, where, op, n, del));
  });
  $('#pf-material').replaceChildren(...rows);
  // Every term, removable.
  $('#pf-terms').replaceChildren(...pf.terms.map((t, i) => {
    const b = el('button', { type: 'button', title: 'remove this term' }, '✕');
    b.addEventListener('click', () => { pf.terms.splice(i, 1); writePattern(); });
    return el('span', { class: 'pf-term' + (t.type === 'raw' ? ' raw' : '') }, termText(t, r), b);
  }));
}

$('#patform').addEventListener('toggle', () => { if ($('#patform').open) openPatternForm(); });
$('#pf-game').addEventListener('change', () => {
  setPatternGame($('#pf-game').value);
  pf.terms = [];
  writePattern();
});
$('#pf-addmat').addEventListener('click', () => {
  const r = pfRuleset();
  if (!r) return;
  pf.terms.push({ type: 'count', side: 0, piece: r.pieces.length ? r.pieces[r.pieces.length - 1].kind : '*', where: 'board', op: '>=', n: 1 });
  writePattern();
});
$('#pf-clear').addEventListener('click', () => { pf.terms = []; writePattern(); });
$('#f-pattern').addEventListener('input', () => {
  if ($('#patform').open) { readPattern($('#f-pattern').value); renderPatternForm(); }
});

// ---- wiring ----

function fromHash() {
  if (typeof peopleRoute === 'function' && peopleRoute(location.hash)) return;
  const x = location.hash.match(/^#explore\/([^/]+)\/(.*)$/);
  if (x) { explore(x[1], decodeURIComponent(x[2])); return; }
  const m = location.hash.match(/^#(\d+)(?:\/(\d+))?$/);
  if (m) openGame(+m[1], m[2] ? +m[2] : 0);
}

window.addEventListener('hashchange', fromHash);
$('#filter').addEventListener('input', filterChanged);
for (const f of criteriaFields()) f.addEventListener(f.tagName === 'SELECT' ? 'change' : 'input', filterChanged);
for (const id of ['#gamefilter', '#validfilter']) $(id).addEventListener('change', filterChanged);
$('#filters').addEventListener('submit', e => { e.preventDefault(); listOffset = 0; loadList(); });
$('#f-reset').addEventListener('click', () => {
  $('#filter').value = '';
  for (const f of criteriaFields()) f.value = '';
  pf.terms = [];
  if ($('#patform').open) renderPatternForm();
  filterChanged();
});
$('#p-prev').addEventListener('click', () => turnPage(-1));
$('#p-next').addEventListener('click', () => turnPage(1));
$('#p-jump').addEventListener('change', () => jumpTo(+$('#p-jump').value));
$('#s-clear').addEventListener('click', () => { posSearch = null; listOffset = 0; loadList(); });
$('#b-home').addEventListener('click', () => go(0));
$('#b-prev').addEventListener('click', () => step(-1));
$('#b-next').addEventListener('click', () => step(1));
$('#b-end').addEventListener('click', toEnd);
$('#b-flip').addEventListener('click', () => { flipped = !flipped; if (game) drawBoard(game.nodes[at]); });
$('#a-copyfen').addEventListener('click', () => { if (game && game.nodes.length) copy(game.nodes[at].fen, 'position'); });
$('#a-copypdn').addEventListener('click', () => { if (game) recordText().then(t => copy(t, 'record'), e => toast(e.message)); });
$('#a-download').addEventListener('click', download);
$('#a-search').addEventListener('click', searchPosition);
$('#pp-prev').addEventListener('click', () => { posOffset = Math.max(0, posOffset - POSPAGE); loadPositionGames(); });
$('#pp-next').addEventListener('click', () => { posOffset += POSPAGE; loadPositionGames(); });
$('#x-go').addEventListener('click', () => explore($('#x-game').value, $('#x-fen').value.trim()));
$('#x-fen').addEventListener('keydown', e => { if (e.key === 'Enter') explore($('#x-game').value, $('#x-fen').value.trim()); });
document.addEventListener('keydown', e => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  switch (e.key) {
    case 'ArrowRight': step(1); break;
    case 'ArrowLeft': step(-1); break;
    case 'ArrowDown': down(); break;
    case 'ArrowUp': up(); break;
    case 'Home': go(0); break;
    case 'End': toEnd(); break;
    case 'f': flipped = !flipped; if (game) drawBoard(game.nodes[at]); break;
    case 'Escape': selected = null; $('#chooser').hidden = true; if (game) drawBoard(game.nodes[at]); break;
    default: return;
  }
  e.preventDefault();
});
{
  const q = new URLSearchParams(location.search);
  if (q.get('q')) $('#filter').value = q.get('q');
  if (q.get('valid')) $('#validfilter').value = q.get('valid');
  if (q.get('game')) {
    $('#gamefilter').append(el('option', { value: q.get('game') }, q.get('game')));
    $('#gamefilter').value = q.get('game');
  }
  loadRulesets();
  watchLoading();
  loadList().then(fromHash);
}
