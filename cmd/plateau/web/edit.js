'use strict';
// Writing games from the page (issue 43): annotate a stored game (comments,
// NAGs, variations made on the board, promoted or deleted; tags in a form)
// and save it as a new revision; save a board of the explorer as a new
// game; paste records to import them; correct an invalid game from the
// legal moves of its broken move's position. The server writes the record
// (PUT /api/games/{n}/record, POST /api/games: replay/web's write.go) from
// the tree sent here, in the record package's canonical form.
//
// The server's token comes in the page's address (?token=…, the link the
// server prints when it starts); it is kept in sessionStorage, taken out
// of the address, and sent in the X-Plateau-Token header of every write.

const edit = {
  on: false,      // the server writes games
  why: '',        // why it does not
  token: '',
  dirty: false,   // the open game was changed since it was read
  tagsOpen: false,
};

// readToken moves ?token= from the address into sessionStorage.
function readToken() {
  const q = new URLSearchParams(location.search);
  const t = q.get('token');
  if (t) {
    sessionStorage.setItem('plateau-token', t);
    q.delete('token');
    const rest = q.toString();
    history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  }
  return sessionStorage.getItem('plateau-token') || '';
}

// send makes a write request with the token; it returns {status, body}.
async function send(method, url, body) {
  const r = await fetch(url, {
    method, body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'X-Plateau-Token': edit.token },
  });
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: r.statusText }; }
  return { status: r.status, body: j };
}

// ---- the record sent ----

// lineOf is the moves of the line from node first, as RecordJSON moves.
function lineOf(first) {
  const out = [];
  for (let id = first; id >= 0; id = game.nodes[id].next) {
    const n = game.nodes[id];
    const m = { move: n.move };
    if (n.nags) m.nags = n.nags;
    if ((n.before || []).length) m.before = n.before;
    if ((n.after || []).length) m.after = n.after;
    const vars = (n.vars || []).map(lineOf).filter(v => v.length);
    if (vars.length) m.vars = vars;
    out.push(m);
  }
  return out;
}

// recordOf is the open game as the server's RecordJSON: its tags (the
// FEN tag of an explorer board only when not the standard start), the
// comments before the first move, the move tree, and the moves of an
// invalid record that were not played, after its main line.
function recordOf() {
  let tags = game.tags || [];
  if (game.explorer) tags = tags.filter(([k]) => k !== 'FEN' || stripCount(game.nodes[0].fen) !== stripCount(startOf(game.game)));
  const moves = game.nodes.length ? lineOf(game.nodes[0].next) : [];
  for (const t of game.rest || []) moves.push({ move: t });
  return { tags, intro: game.intro || [], moves, result: game.result || '*' };
}

// ---- editing the tree ----

const QUALITY = ['!', '?', '!!', '??', '!?', '?!'];
const SIGNS = [['', 'position: —'], ['$10', '= equal'], ['$13', '∞ unclear'], ['$14', '⩲ slight edge, first side'],
  ['$15', '⩱ slight edge, second side'], ['$16', '± first side better'], ['$17', '∓ second side better'],
  ['$18', '+− first side winning'], ['$19', '−+ second side winning']];
const SIGN_NAGS = new Set(SIGNS.map(s => s[0]).filter(s => s));

function nagList(n) { return (n.nags || '').split(/\s+/).filter(t => t); }

// setNAG puts nag in the place of the node's NAG of its kind (a move's
// quality, or a position sign); the same again removes it.
function setNAG(n, nag, kind) {
  const of = kind === 'quality' ? t => QUALITY.includes(t) : t => SIGN_NAGS.has(t);
  const had = nagList(n);
  const keep = had.filter(t => !of(t));
  if (nag && !had.includes(nag)) keep.push(nag);
  else if (nag && kind === 'sign') keep.push(nag);
  n.nags = keep.join(' ');
  changed();
}

// lineStart is the first node of the line holding node id: its
// variation's first move, or the main line's (whose parent is 0).
function lineStart(id) {
  while (game.nodes[id].parent > 0 && game.nodes[game.nodes[id].parent].next === id) id = game.nodes[id].parent;
  return id;
}

// isVariation reports whether node s (a line's start) begins a variation.
function isVariation(s) {
  const p = game.nodes[s].parent;
  return p >= 0 && game.nodes[p].next !== s;
}

// promote makes the variation holding the current move the line it
// replaces; that line becomes its first variation.
function promote() {
  const s = lineStart(at);
  if (!isVariation(s)) return;
  const p = game.nodes[s].parent, r = game.nodes[p].next;
  const rn = game.nodes[r], sn = game.nodes[s];
  const others = (rn.vars || []).filter(v => v !== s);
  sn.vars = [r, ...others, ...(sn.vars || [])];
  rn.vars = [];
  game.nodes[p].next = s;
  changed(at);
}

// deleteVariation deletes the variation holding the current move.
function deleteVariation() {
  const s = lineStart(at);
  if (!isVariation(s)) return;
  const p = game.nodes[s].parent, r = game.nodes[game.nodes[p].next];
  r.vars = (r.vars || []).filter(v => v !== s);
  changed(p);
}

// deleteFrom deletes the current move and the moves after it in its line
// (its first variation, if it has one, takes its place).
function deleteFrom() {
  if (at <= 0) return;
  const c = game.nodes[at], p = game.nodes[c.parent];
  const vars = c.vars || [];
  if (p.next === at) {
    p.next = vars.length ? vars[0] : -1;
    if (vars.length) game.nodes[vars[0]].vars = vars.slice(1);
  } else {
    const r = game.nodes[p.next];
    r.vars = (r.vars || []).filter(v => v !== at);
  }
  changed(c.parent);
}

// redepth numbers the depth of every node from the tree.
function redepth() {
  const walk = (first, d) => {
    for (let id = first; id >= 0; id = game.nodes[id].next) {
      game.nodes[id].depth = d;
      for (const v of game.nodes[id].vars || []) walk(v, d + 1);
    }
  };
  if (game.nodes.length) walk(game.nodes[0].next, 0);
}

// changed marks the game edited and shows it again, at node to when given.
function changed(to) {
  edit.dirty = true;
  redepth();
  renderMoves();
  if (to !== undefined) go(to); else renderEdit();
}

// ---- the panel ----

function editable() { return game && (game.explorer || game.file === 'database'); }

function renderEdit() {
  const box = $('#editbox');
  if (!edit.on || !editable() || !game.nodes.length) { box.hidden = true; return; }
  box.hidden = false;
  const n = game.nodes[at];
  const kids = [];
  kids.push(el('h2', {}, game.explorer ? 'New game' : 'Annotate · revision ' + (game.revision || '?')));
  if (at > 0) {
    const q = el('div', { class: 'ed-nags' }, el('span', {}, n.number + ' ' + n.move + ': '));
    for (const g of QUALITY) {
      const b = el('button', { type: 'button', class: 'ed-nag' + (nagList(n).includes(g) ? ' on' : ''), 'data-nag': g }, g);
      b.addEventListener('click', () => setNAG(n, g, 'quality'));
      q.append(b);
    }
    const sel = el('select', { id: 'ed-sign', title: 'position sign' }, ...SIGNS.map(([v, t]) => el('option', { value: v }, t)));
    sel.value = nagList(n).find(t => SIGN_NAGS.has(t)) || '';
    sel.addEventListener('change', () => setNAG(n, sel.value, 'sign'));
    q.append(sel);
    kids.push(q);
  }
  if (at === 0) {
    kids.push(commentField('Comment before the first move', game.intro || [], v => { game.intro = v; }));
  } else {
    if (lineStart(at) === at && isVariation(at)) {
      kids.push(commentField('Comment before this move', n.before || [], v => { n.before = v; }, 'ed-before'));
    }
    kids.push(commentField('Comment after this move', n.after || [], v => { n.after = v; }, 'ed-after'));
  }
  const btns = el('div', { class: 'formbtns' });
  const inVar = at > 0 && isVariation(lineStart(at));
  const button = (id, text, fn, enabled = true) => {
    const b = el('button', { type: 'button', id }, text);
    b.disabled = !enabled;
    b.addEventListener('click', fn);
    btns.append(b);
  };
  button('ed-promote', 'Promote variation', promote, inVar);
  button('ed-delvar', 'Delete variation', deleteVariation, inVar);
  button('ed-delfrom', 'Delete from here', deleteFrom, at > 0);
  button('ed-tagsbtn', 'Tags…', () => { edit.tagsOpen = !edit.tagsOpen; renderEdit(); });
  if (!game.explorer) button('ed-history', 'History', showHistory);
  button('ed-save', game.explorer ? 'Save as a new game' : 'Save', save, edit.dirty || hasLocal() || game.explorer);
  kids.push(btns);
  if (edit.tagsOpen) kids.push(tagsForm());
  kids.push(fixBox());
  kids.push(el('div', { id: 'ed-status' }, edit.token ? '' : 'To save, open the page with the link the server printed when it started (…/?token=…).'));
  kids.push(el('ol', { id: 'ed-revisions', hidden: '' }));
  box.replaceChildren(...kids);
}

// commentField is a text box of comments (one per paragraph) that set
// gets as they are typed.
function commentField(label, comments, set, id) {
  const ta = el('textarea', { rows: 2, id: id || 'ed-intro' });
  ta.value = comments.join('\n\n');
  ta.addEventListener('input', () => {
    set(ta.value.split(/\n\s*\n/).map(s => s.trim()).filter(s => s));
    edit.dirty = true;
    renderMoves();
    const s = $('#ed-save');
    if (s) s.disabled = false;
  });
  return el('label', { class: 'ed-comment' }, label, ta);
}

// ---- tags ----

const TAG_FIELDS = ['Event', 'Site', 'Date', 'Round'];

function tagValue(name) { const t = (game.tags || []).find(([k]) => k === name); return t ? t[1] : ''; }

function tagsForm() {
  const s = sideNames(game);
  const fixed = [...s, ...TAG_FIELDS, 'Result'];
  const f = el('form', { id: 'ed-tags', class: 'grid', autocomplete: 'off' });
  const field = (name, placeholder) => {
    const i = el('input', { 'data-tag': name, value: tagValue(name), placeholder: placeholder || '' });
    f.append(el('label', {}, name, i));
  };
  field(s[0], 'player'); field(s[1], 'player');
  for (const t of TAG_FIELDS) field(t, t === 'Date' ? 'YYYY.MM.DD' : '');
  field('Result', '1-0, 0-1, 1/2-1/2, *');
  for (const [k] of game.tags || []) if (!fixed.includes(k) && k !== 'Game' && k !== 'FEN') field(k);
  const nk = el('input', { id: 'ed-newtag', placeholder: 'new tag name' }), nv = el('input', { id: 'ed-newval', placeholder: 'value' });
  f.append(el('label', {}, 'Other', nk), el('label', {}, 'value', nv));
  const ok = el('button', { type: 'submit', id: 'ed-tagsok' }, 'Apply the tags');
  f.append(el('div', { class: 'formbtns' }, ok));
  f.addEventListener('submit', e => { e.preventDefault(); applyTags(f); });
  return f;
}

// applyTags sets the game's tags from the form (an emptied field removes
// its tag; the Date is checked here and normalised by the server).
function applyTags(f) {
  const tags = (game.tags || []).map(t => [...t]);
  const set = (k, v) => {
    const i = tags.findIndex(t => t[0] === k);
    if (i >= 0) tags[i][1] = v; else if (v) tags.push([k, v]);
  };
  for (const i of f.querySelectorAll('[data-tag]')) set(i.dataset.tag, i.value.trim());
  const nk = $('#ed-newtag').value.trim();
  if (nk) set(nk, $('#ed-newval').value.trim());
  const d = tags.find(t => t[0] === 'Date');
  if (d && d[1] && !/^(\d{4}|\?{4})([.\-/](\d{1,2}|\?\?)){0,2}$/.test(d[1])) {
    status('Date ' + JSON.stringify(d[1]) + ': write it YYYY.MM.DD (?? for an unknown part).');
    return;
  }
  game.tags = tags.filter(t => t[1] !== '' || t[0] === 'Result');
  const s = sideNames(game);
  game.players = [tagValue(s[0]), tagValue(s[1])];
  for (const k of TAG_FIELDS) game[k.toLowerCase()] = tagValue(k);
  game.result = tagValue('Result') || game.result;
  edit.dirty = true;
  edit.tagsOpen = false;
  renderHeader();
  renderTags();
  renderMoves();
  renderEdit();
}

function status(msg, cls) {
  const s = $('#ed-status');
  if (!s) { toast(msg); return; }
  s.className = cls || '';
  s.replaceChildren(...(Array.isArray(msg) ? msg : [msg]));
}

// ---- saving ----

// save stores the game: a stored game as its next revision (from the one
// read), an explorer board as a new game; then it is read again.
async function save() {
  const rec = recordOf();
  if (game.explorer) {
    const r = await send('POST', 'api/games', { record: rec });
    if (r.status !== 200) { status('Not saved: ' + r.body.error, 'bad'); return; }
    const a = r.body[0];
    edit.dirty = false;
    loadList();
    await openGame(a.n, 0);
    status((a.dup ? 'Already stored as game ' : 'Saved as game ') + a.n + (a.valid ? '.' : ' (invalid: ' + a.error + ').'), a.valid ? 'ok' : 'bad');
    return;
  }
  if (!game.revision) { status('This game was read without its revision: open it again to save.', 'bad'); return; }
  const n = game.nodes[at];
  const where = { ply: n.ply, variation: n.depth > 0, fen: n.fen };
  const r = await send('PUT', 'api/games/' + game.n + '/record', { base: game.revision, record: rec });
  if (r.status === 409) {
    const b = el('button', { type: 'button', id: 'ed-reload' }, 'Reload revision ' + r.body.current);
    b.addEventListener('click', () => { edit.dirty = false; openGame(game.n, where); });
    status([r.body.error + ' ', b], 'bad');
    return;
  }
  if (r.status !== 200) { status('Not saved: ' + r.body.error, 'bad'); return; }
  const s = r.body;
  edit.dirty = false;
  await openGame(game.n, where);
  let msg = s.changed ? 'Saved as revision ' + s.revision + (s.note ? ' (' + s.note + ')' : '') + '.' : 'Nothing changed: the stored record is the same.';
  if (!s.valid) msg += ' The record is invalid: ' + s.error + (s.move ? ' (move ' + s.move + ')' : '') + '.';
  status(msg, s.valid ? 'ok' : 'bad');
}

async function showHistory() {
  const box = $('#ed-revisions');
  let revs;
  try { revs = await getJSON('api/games/' + game.n + '/revisions'); } catch (e) { status(e.message, 'bad'); return; }
  box.replaceChildren(...revs.map(r => el('li', { class: r.current ? 'cur' : '' },
    el('a', { href: 'api/games/' + game.n + '/revisions/' + r.n, target: '_blank' }, 'revision ' + r.n),
    ' · ' + [r.time ? r.time.replace('T', ' ').replace('Z', ' UTC') : '', r.valid ? 'valid' : 'invalid', r.note].filter(x => x).join(' · '))));
  box.hidden = false;
}

// ---- correcting an invalid game ----

// closeness scores a legal move against the broken move's text: the same
// move, target and piece first.
function closeness(m, text) {
  let s = 0;
  if (m.move === text) s += 100;
  if (m.to && text.includes(m.to)) s += 10;
  if (m.from && text.includes(m.from)) s += 5;
  if (m.move[0] === text[0]) s += 3;
  return s;
}

// fixBox offers, at the end of an invalid game's main line, the legal
// moves in place of its broken move; or, when every move was played and
// the game is over with another result than its Result tag's, that
// result (resultFix).
function fixBox() {
  const box = el('div', { id: 'ed-fix' });
  const rest = game.rest || [];
  if (game.explorer || game.nodes[at].next >= 0 || game.nodes[at].depth > 0) return box;
  if (!rest.length) return resultFix(box);
  box.append(el('p', {}, 'The record breaks here at ', el('b', {}, rest[0]), ': ' + (game.error || '') + '. Play the move meant instead:'));
  const list = el('div', { class: 'ed-legal' });
  box.append(list);
  legalMoves(game.nodes[at]).then(legal => {
    const ranked = [...legal].sort((a, b) => closeness(b, rest[0]) - closeness(a, rest[0]) || a.move.localeCompare(b.move));
    list.replaceChildren(...ranked.slice(0, 24).map(m => {
      const b = el('button', { type: 'button', class: 'ed-fixmove' }, m.move);
      b.addEventListener('click', () => correct(m.move));
      return b;
    }));
  }).catch(e => list.replaceChildren(e.message));
  return box;
}

// resultFix fills box, at the end of an invalid game that ends over (the
// rules give its result) with another Result, with that result to set.
function resultFix(box) {
  const over = game.nodes[at].over || '';
  const res = over.split(' ')[0];
  const cur = tagValue('Result') || game.result || '*';
  if (game.valid || !/^[0-9]/.test(res) || res === cur) return box;
  const b = el('button', { type: 'button', id: 'ed-fixresult' }, 'Set the Result to ' + res);
  b.addEventListener('click', () => {
    const t = game.tags.find(t => t[0] === 'Result');
    if (t) t[1] = res; else game.tags.push(['Result', res]);
    game.result = res;
    edit.dirty = true;
    renderHeader();
    renderTags();
    renderEdit();
    status('The Result is now ' + res + '. Save to store it.', 'ok');
  });
  box.append(el('p', {}, 'The Result says ', el('b', {}, cur), ', but the game is over here: ', el('b', {}, over), '. '), b);
  return box;
}

// correct plays move in place of the broken one, then the rest of the
// record as far as it reads, and says how far that is.
async function correct(move) {
  const rest = game.rest.slice(1);
  game.rest = [];
  await play(move);
  let played = 0, stop = '';
  for (const t of rest) {
    const n = game.nodes[at];
    try {
      await getJSON('api/position?' + new URLSearchParams({ game: game.game, fen: n.fen, move: t, ply: n.ply }));
    } catch (e) { stop = t + ': ' + e.message; break; }
    await play(t);
    played++;
  }
  game.rest = rest.slice(played);
  edit.dirty = true;
  renderMoves();
  go(at);
  status(stop ? 'The record now reads ' + played + ' more moves, then stops at ' + stop + '.' :
    'The record now reads to its end (' + played + ' more moves). Save to store it.', stop ? 'bad' : 'ok');
}

// ---- entering: drag and drop, paste ----

// squareAt is the board square under a pointer event.
function squareAt(e) {
  for (const x of document.elementsFromPoint(e.clientX, e.clientY)) if (x.dataset && x.dataset.sq) return x.dataset.sq;
  return null;
}

let drag = null;
$('#board').addEventListener('pointerdown', e => {
  if (e.button !== 0 || selected || !game) return;
  const sq = squareAt(e);
  if (!sq) return;
  drag = { from: sq, ready: squareClicked(sq) };
});
$('#board').addEventListener('pointerup', async e => {
  const d = drag;
  drag = null;
  if (!d) return;
  const to = squareAt(e);
  if (!to || to === d.from) return; // a click: its own handler does it
  await d.ready;
  if (selected) squareClicked(to);
});

async function importPasted() {
  const text = $('#ed-pastetext').value;
  const out = $('#ed-pasteout');
  if (!text.trim()) return;
  const r = await send('POST', 'api/games', { text });
  if (r.status !== 200) { out.replaceChildren('Not imported: ' + r.body.error); out.className = 'bad'; return; }
  out.className = '';
  out.replaceChildren(...r.body.map(a => {
    const link = el('a', { href: '#' + a.n + '/0' }, 'game ' + a.n);
    return el('div', { class: a.valid ? 'ok' : 'bad' }, 'line ' + a.line + ': ', a.dup ? 'already stored as ' : 'stored as ', link,
      a.valid ? '' : ' (invalid: ' + a.error + ')');
  }));
  loadList();
}

// ---- start ----

hooks.shown.push(() => {
  edit.dirty = false;
  edit.tagsOpen = false;
  // A game read before the page knew it could write has no revision.
  if (edit.on && !game.explorer && game.file === 'database' && !game.revision && !game._reread) {
    game._reread = true;
    const where = at;
    openGame(game.n, where);
  }
});
hooks.moved.push(() => renderEdit());

(async () => {
  edit.token = readToken();
  let v;
  try { v = await getJSON('api/edit'); } catch (e) { return; }
  edit.on = v.enabled;
  edit.why = v.why || '';
  if (!edit.on) return;
  hooks.gameURL = n => 'api/games/' + n + '/edit';
  $('#ed-paste').hidden = false;
  $('#ed-paste').addEventListener('click', () => { $('#pastebox').hidden = !$('#pastebox').hidden; });
  $('#ed-import').addEventListener('click', importPasted);
  if (game) renderEdit();
})();
