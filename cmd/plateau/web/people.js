'use strict';
// Plateau's pages about people and the whole database, beside the game
// view: a player's page (#player/NAME, or #player/NAME?from=F&to=T over
// a period), an event's crosstable and
// standings (#event/NAME, optionally /GAME), the database's statistics
// (#stats) and its named openings (#openings). Each is read from the JSON API (docs/api.md) and drawn here;
// the plots are SVG drawn by hand. It uses app.js's helpers (el, svg,
// getJSON, num, explore, openGame, loadList…), and app.js calls
// peopleRoute (from its hash routing) and leavePeople (when a game is
// shown). Text from records is only ever set as text.

// peopleRoute shows the page of a hash it knows and reports whether it did.
function peopleRoute(hash) {
  let m = hash.match(/^#player\/([^?]+)(?:\?(.*))?$/);
  if (m) {
    const q = new URLSearchParams(m[2] || '');
    playerPage(decodeURIComponent(m[1]), { from: q.get('from') || '', to: q.get('to') || '' });
    return true;
  }
  m = hash.match(/^#event\/([^/]+)(?:\/([^/]+))?$/);
  if (m) { eventPage(decodeURIComponent(m[1]), m[2] ? decodeURIComponent(m[2]) : ''); return true; }
  if (hash === '#stats') { statsPage(); return true; }
  if (hash === '#openings') { openingsPage(); return true; }
  return false;
}

// openPlayer, openEvent and openStats go to a page (a hash: the browser's
// back button returns).
function openPlayer(name, period) {
  if (!name) return;
  const q = new URLSearchParams();
  if (period && period.from) q.set('from', period.from);
  if (period && period.to) q.set('to', period.to);
  location.hash = '#player/' + encodeURIComponent(name) + (q.size ? '?' + q : '');
}
function openEvent(event, gameId) {
  if (event) location.hash = '#event/' + encodeURIComponent(event) + (gameId ? '/' + encodeURIComponent(gameId) : '');
}
function openStats() { location.hash = '#stats'; }

// showPeople puts a page in the view instead of the game.
function showPeople(...kids) {
  $('#empty').hidden = true;
  $('#game').hidden = true;
  const p = $('#people');
  p.hidden = false;
  p.replaceChildren(...kids);
  p.scrollTop = 0;
  return p;
}

// leavePeople hides the page when a game is shown (and forgets its hash,
// so that a reload shows the game's view).
function leavePeople() {
  $('#people').hidden = true;
  if (/^#(player|event)\/|^#(stats|openings)$/.test(location.hash)) history.replaceState(null, '', location.pathname + location.search);
}

function pct(score, games) { return games > 0 ? Math.round(100 * score / games) + '%' : '–'; }
function pts(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1).replace(/\.0$/, ''); }
function sideName(gameId, side) {
  const r = (typeof rulesets !== 'undefined' ? rulesets : []).find(r => r.id === gameId);
  return r ? r.sides[side] : (side === 0 ? 'first side' : 'second side');
}
function gameName(gameId) {
  const r = (typeof rulesets !== 'undefined' ? rulesets : []).find(r => r.id === gameId);
  return r ? r.name : gameId;
}

// link is a button that looks like a link.
function link(text, onclick, title) {
  const a = el('button', { type: 'button', class: 'plink', title }, text);
  a.addEventListener('click', onclick);
  return a;
}

// playerLink is a player's name that opens their page.
function playerLink(name) { return name ? link(name, () => openPlayer(name), 'the page of ' + name) : '?'; }

function table(head, rows, cls) {
  return el('table', { class: 'ptable' + (cls ? ' ' + cls : '') },
    el('thead', {}, el('tr', {}, ...head.map(h => el('th', {}, h)))),
    el('tbody', {}, ...rows));
}

function tallyCells(t) {
  return [el('td', { class: 'num' }, num(t.games)), el('td', { class: 'num' }, num(t.wins)),
    el('td', { class: 'num' }, num(t.draws)), el('td', { class: 'num' }, num(t.losses)),
    el('td', { class: 'num' }, pct(t.score, t.scored))];
}
const TALLY_HEAD = ['games', 'won', 'drawn', 'lost', 'score'];

// listGamesOf shows a player's games in the list (the player filter; a
// ruleset when given; the period's dates, none when not given).
function listGamesOf(name, gameId, period) {
  $('#more').open = true;
  $('#f-player').value = name;
  $('#f-from').value = (period && period.from) || '';
  $('#f-to').value = (period && period.to) || '';
  if (gameId !== undefined) {
    if (![...$('#gamefilter').options].some(o => o.value === gameId)) $('#gamefilter').append(el('option', { value: gameId }, gameId));
    $('#gamefilter').value = gameId;
  }
  filterChanged();
}

// playerTree opens the explorer at the start of a ruleset (or after
// moves) with the tree of the player's games on a side, when the page has
// the tree's filter bar (treefilter.js: setTreeFilter).
function playerTree(name, gameId, side, moves, period) {
  const f = { player: name, side: String(side) };
  if (period && period.from) f.from = period.from;
  if (period && period.to) f.to = period.to;
  if (typeof setTreeFilter === 'function') setTreeFilter(f);
  explore(gameId, moves || '');
}

// ---- a player ----

// periodForm narrows the page of a player to a period: dates or their
// beginnings ("1990", "1990.05"), as the list's Date from and to.
function periodForm(name, period) {
  const from = el('input', { id: 'p-from', placeholder: 'from: 1990 or 1990.05.01', value: period.from });
  const to = el('input', { id: 'p-to', placeholder: 'to: 2026', value: period.to });
  const form = el('form', { class: 'pperiod', id: 'p-period' }, el('label', {}, 'Period '), from, ' – ', to,
    el('button', { type: 'submit' }, 'Apply'),
    period.from || period.to ? link('all dates', () => openPlayer(name), 'the whole career') : '');
  form.addEventListener('submit', e => {
    e.preventDefault();
    openPlayer(name, { from: from.value.trim(), to: to.value.trim() });
  });
  return form;
}

async function playerPage(name, period) {
  period = period || { from: '', to: '' };
  const box = showPeople(el('h2', {}, name), el('p', { class: 'pnote' }, 'reading…'));
  let p;
  const q = new URLSearchParams({ name });
  if (period.from) q.set('from', period.from);
  if (period.to) q.set('to', period.to);
  try { p = await getJSON('api/player?' + q); } catch (e) {
    box.replaceChildren(el('h2', {}, name), el('p', { class: 'pnote' }, e.message));
    return;
  }
  const t = p.total;
  const head = el('header', { class: 'phead' },
    el('h2', { id: 'p-name' }, p.name),
    el('div', { class: 'pmeta' }, num(t.games) + ' games' + (p.from || p.to ? ' dated ' + (p.from || '…') + ' to ' + (p.to || '…') : '') +
      (p.first ? ', ' + p.first + ' – ' + p.last : '') + ' · ' +
      t.wins + ' won, ' + t.draws + ' drawn, ' + t.losses + ' lost · score ' + pct(t.score, t.scored)),
    periodForm(p.name, period),
    el('div', { class: 'pactions' }, link('List the games', () => listGamesOf(p.name, '', period), 'show them in the list')));
  const sides = table(['ruleset', 'side', ...TALLY_HEAD, ''], p.sides.map(s => el('tr', {},
    el('td', {}, gameName(s.game)), el('td', {}, sideName(s.game, s.side)), ...tallyCells(s),
    el('td', {}, link('tree', () => playerTree(p.name, s.game, s.side, '', period), 'the opening tree of ' + p.name + '’s games as ' + sideName(s.game, s.side)),
      ' ', link('games', () => listGamesOf(p.name, s.game, period))))), 'p-sides');
  const years = p.years.filter(y => y.year);
  const yearPlot = years.length ? barPlot(years.map(y => ({ label: y.year, parts: [y.wins, y.draws, y.losses], title: y.year + ': ' + y.games + ' games, score ' + pct(y.score, y.scored) })), { legend: ['won', 'drawn', 'lost'] }) : null;
  const yearTable = table(['year', ...TALLY_HEAD], p.years.map(y => el('tr', {},
    el('td', {}, y.year ? link(y.year, () => openPlayer(p.name, { from: y.year, to: y.year }), 'this year only') : 'undated'), ...tallyCells(y))), 'p-years');
  const openings = [];
  let group = '';
  for (const o of p.openings) {
    const g = o.game + '/' + o.side;
    if (g !== group) {
      group = g;
      openings.push(el('tr', { class: 'pgroup' }, el('td', { colspan: 7 }, gameName(o.game) + ' as ' + sideName(o.game, o.side))));
    }
    openings.push(el('tr', {}, el('td', {}, link(o.moves.join(' '), () => playerTree(p.name, o.game, o.side, o.moves.join(' '), period), 'explore this line')),
      ...tallyCells(o), el('td', {}, '')));
  }
  const named = namedRows(p, period);
  const opponents = table(['opponent', ...TALLY_HEAD], p.opponents.map(o => el('tr', {}, el('td', {}, playerLink(o.name)), ...tallyCells(o))), 'p-opponents');
  box.replaceChildren(head,
    el('section', {}, el('h3', {}, 'By ruleset and side'), sides),
    el('section', {}, el('h3', {}, 'By year'), yearPlot || '', yearTable),
    named.length ? el('section', {}, el('h3', {}, 'Openings by name'), table(['opening', ...TALLY_HEAD, ''], named, 'p-named')) : '',
    el('section', {}, el('h3', {}, 'First moves (each side’s first move)'), table(['line', ...TALLY_HEAD, ''], openings, 'p-openings')),
    el('section', {}, el('h3', {}, 'Usual opponents'), opponents));
}

// namedRows are the rows of a player's most played named openings, by
// ruleset and side; a name lists the player's games on that side whose
// opening starts with it (its deeper variations too: the opening
// criterion is a prefix).
function namedRows(p, period) {
  const rows = [];
  let group = '';
  for (const o of p.named || []) {
    const g = o.game + '/' + o.side;
    if (g !== group) {
      group = g;
      rows.push(el('tr', { class: 'pgroup' }, el('td', { colspan: 7 }, gameName(o.game) + ' as ' + sideName(o.game, o.side))));
    }
    rows.push(el('tr', {}, el('td', { class: 'oname' }, link(o.name, () => {
      listGamesOf(p.name, o.game, period);
      $('#f-side').value = String(o.side);
      $('#f-opening').value = o.name;
    }, 'list these games (and their deeper variations)')), ...tallyCells(o), el('td', {}, '')));
  }
  return rows;
}

// ---- an event ----

async function eventPage(event, gameId) {
  const box = showPeople(el('h2', {}, event), el('p', { class: 'pnote' }, 'reading…'));
  let c;
  const q = { event };
  if (gameId) q.game = gameId;
  // The crosstable and the most played openings of the same games.
  const played = getJSON('api/openings/played?' + new URLSearchParams(q)).catch(() => []);
  try { c = await getJSON('api/crosstable?' + new URLSearchParams(q)); } catch (e) {
    box.replaceChildren(el('h2', {}, event), el('p', { class: 'pnote' }, e.message));
    return;
  }
  const named = playedRows(event, await played);
  const head = el('header', { class: 'phead' }, el('h2', { id: 'e-name' }, event + (gameId ? ' · ' + gameName(gameId) : '')),
    el('div', { class: 'pmeta' }, c.players + ' players · a win scores 1 and a draw ½ whatever the ruleset writes (2-0, 1-1)' +
      (gameId === 'dejarik' || !gameId ? '; Dejarik games score their points' : '')),
    el('div', { class: 'pactions' }, link('List the games', () => {
      $('#more').open = true; $('#f-event').value = event; filterChanged();
    })));
  const openings = named.length ? el('section', {}, el('h3', {}, 'Most played openings'),
    table(['opening', ...TALLY_HEAD, ''], named, 'e-named'),
    el('p', { class: 'pnote' }, 'Won, drawn, lost and score are the first side’s (a win 1, a draw ½).')) : '';
  if (!c.lines.length) { box.replaceChildren(head, el('p', { class: 'pnote' }, 'no scored game'), openings); return; }
  const n = c.lines.length;
  const rows = c.lines.map((l, i) => el('tr', {},
    el('td', { class: 'num' }, String(l.rank)), el('td', { class: 'pname' }, playerLink(l.player)),
    ...l.against.map((a, j) => el('td', { class: 'num cell' + (i === j ? ' self' : '') }, i === j ? '×' : l.met[j] ? pts(a) + (l.met[j] > 1 ? '/' + l.met[j] : '') : '·')),
    el('td', { class: 'num total' }, pts(l.score)), el('td', { class: 'num' }, String(l.games)),
    el('td', { class: 'num' }, pct(l.score, l.games)), el('td', { class: 'num' }, pts(l.points))));
  const cross = table(['#', 'player', ...c.lines.map((_, j) => String(c.offset + j + 1)), 'score', 'games', '%', 'points'], rows, 'crosstable');
  box.replaceChildren(head, el('div', { class: 'pscroll' }, cross),
    el('p', { class: 'pnote' }, 'A cell is the score against that player (score/games when they met more than once); points are the Results as written.' +
      (c.players > n ? ' Players ' + (c.offset + 1) + '–' + (c.offset + n) + ' of ' + c.players + '.' : '')), openings);
}

// playedRows are the rows of an event's most played named openings, by
// ruleset (api/openings/played); a name lists the event's games whose
// opening starts with it.
function playedRows(event, played) {
  const rows = [];
  let group = '';
  for (const o of played || []) {
    if (o.game !== group) {
      group = o.game;
      rows.push(el('tr', { class: 'pgroup' }, el('td', { colspan: 7 }, gameName(o.game) + ' (' + sideName(o.game, 0) + '’s results)')));
    }
    rows.push(el('tr', {}, el('td', { class: 'oname' }, link(o.name, () => {
      $('#more').open = true;
      $('#f-event').value = event;
      $('#f-opening').value = o.name;
      filterChanged();
    }, 'list these games (and their deeper variations)')), ...tallyCells(o), el('td', {}, '')));
  }
  return rows;
}

// ---- the database ----

async function statsPage() {
  const box = showPeople(el('h2', {}, 'Statistics'), el('p', { class: 'pnote' }, 'reading…'));
  let s;
  try { s = await getJSON('api/stats'); } catch (e) {
    box.replaceChildren(el('h2', {}, 'Statistics'), el('p', { class: 'pnote' }, e.message));
    return;
  }
  const rs = s.rulesets;
  const byRuleset = barPlot(rs.map(r => ({ label: r.game, parts: [r.valid, r.invalid], title: gameName(r.game) + ': ' + num(r.valid) + ' valid, ' + num(r.invalid) + ' invalid' })),
    { legend: ['valid', 'invalid'], cls: ['v', 'x'] });
  const results = barPlot(rs.map(r => ({ label: r.game, parts: [r.firstWon, r.drawn, r.secondWon, r.unscored], share: true,
    title: gameName(r.game) + ': ' + sideName(r.game, 0) + ' won ' + r.firstWon + ', drawn ' + r.drawn + ', ' + sideName(r.game, 1) + ' won ' + r.secondWon + ', no result ' + r.unscored })),
  { legend: ['first side won', 'drawn', 'second side won', 'no result'], cls: ['w', 'd', 'l', 'u'] });
  const dated = s.years.filter(y => y.year);
  const years = dated.length ? barPlot(dated.map(y => ({ label: y.year, parts: [y.games], title: y.year + ': ' + num(y.games) + ' games' })), {}) : el('p', { class: 'pnote' }, 'no dated game');
  const undated = s.years.find(y => !y.year);
  const longest = table(['game', 'ruleset', 'plies', 'players', 'date', 'result'], s.longest.map(g => {
    const open = link(String(g.id), () => { leavePeople(); openGame(g.id); }, 'open the game');
    return el('tr', {}, el('td', { class: 'num' }, open), el('td', {}, g.game), el('td', { class: 'num' }, num(g.plies)),
      el('td', {}, playerLink(g.players[0]), ' – ', playerLink(g.players[1])), el('td', {}, g.date || ''), el('td', {}, g.result));
  }), 's-longest');
  const active = barPlot(s.mostGames.map(p => ({ label: p.name, parts: [p.games], title: p.name + ': ' + num(p.games) + ' games', onclick: () => openPlayer(p.name) })), {});
  box.replaceChildren(el('header', { class: 'phead' }, el('h2', { id: 's-title' }, 'Statistics'),
    el('div', { class: 'pmeta' }, num(s.games) + ' games, ' + num(s.invalid) + ' invalid')),
  el('section', {}, el('h3', {}, 'Games per ruleset'), byRuleset),
  el('section', {}, el('h3', {}, 'Results (share of the valid games)'), results),
  el('section', {}, el('h3', {}, 'Games per year'), years, undated ? el('p', { class: 'pnote' }, num(undated.games) + ' games undated') : ''),
  el('section', {}, el('h3', {}, 'Most active players'), active),
  el('section', {}, el('h3', {}, 'Longest games'), longest));
}

// openingsPage lists the database's named openings by ruleset and name,
// each with the games whose opening it is (their deepest name), a link to
// those games in the list (the opening criterion: deeper names too) and
// one to its position in the explorer, as lichess's opening pages do.
async function openingsPage() {
  const box = showPeople(el('h2', {}, 'Openings'), el('p', { class: 'pnote' }, 'reading…'));
  let os;
  try { os = await getJSON('api/openings?games=1'); } catch (e) {
    box.replaceChildren(el('h2', {}, 'Openings'), el('p', { class: 'pnote' }, e.message));
    return;
  }
  const head = el('header', { class: 'phead' }, el('h2', { id: 'o-title' }, 'Openings'),
    el('div', { class: 'pmeta' }, os.length ? num(os.length) + ' named positions · ' + num(os.reduce((a, o) => a + (o.games || 0), 0)) + ' games named' :
      'no named position: plateau openings import FILE names them'));
  const rows = [];
  let group = '';
  for (const o of os) {
    if (o.game !== group) {
      group = o.game;
      rows.push(el('tr', { class: 'pgroup' }, el('td', { colspan: 5 }, gameName(o.game))));
    }
    const games = link('games', () => {
      leavePeople();
      $('#more').open = true;
      $('#f-opening').value = o.name;
      if (![...$('#gamefilter').options].some(x => x.value === o.game)) $('#gamefilter').append(el('option', { value: o.game }, o.game));
      $('#gamefilter').value = o.game;
      filterChanged();
    }, 'list the games of this opening (and of its deeper names)');
    rows.push(el('tr', {}, el('td', { class: 'oname' }, o.name), el('td', {}, o.moves), el('td', { class: 'num' }, num(o.games || 0)),
      el('td', {}, games, ' ', link('explore', () => explore(o.game, o.fen), 'its position in the explorer, with its tree'))));
  }
  box.replaceChildren(head, el('section', {}, table(['opening', 'moves', 'games', ''], rows, 'o-names')));
}

// barPlot draws horizontal bars, one per row {label, parts, title,
// onclick}: the parts stacked (classes o.cls, or won/drawn/lost), as
// counts on a common scale, or each row as shares of 100% (row.share).
function barPlot(rows, o) {
  const cls = o.cls || ['w', 'd', 'l'];
  const labelW = Math.min(200, 12 + 7 * Math.max(4, ...rows.map(r => r.label.length)));
  const W = 640, barW = W - labelW - 70, rowH = 20;
  const total = r => r.parts.reduce((a, b) => a + b, 0);
  const most = Math.max(1, ...rows.map(total));
  const H = rows.length * rowH + (o.legend ? 22 : 4);
  const root = svg('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img' });
  rows.forEach((r, i) => {
    const y = i * rowH + 2;
    const g = svg('g', { class: 'prow' });
    const lab = svg('text', { x: labelW - 6, y: y + 13, 'text-anchor': 'end', class: r.onclick ? 'plabel click' : 'plabel' }, r.label.length > 28 ? r.label.slice(0, 27) + '…' : r.label);
    if (r.onclick) lab.addEventListener('click', r.onclick);
    g.append(svg('title', {}, r.title || r.label), lab);
    const scale = r.share ? barW / Math.max(1, total(r)) : barW / most;
    let x = labelW;
    r.parts.forEach((v, k) => {
      if (v <= 0) return;
      const w = Math.max(1, v * scale);
      g.append(svg('rect', { x, y, width: w, height: rowH - 5, class: 'bar ' + cls[k % cls.length] }));
      x += w;
    });
    g.append(svg('text', { x: x + 5, y: y + 13, class: 'pval' }, r.share ? (total(r) ? Math.round(100 * r.parts[0] / total(r)) + '% / ' + Math.round(100 * (r.parts[1] || 0) / total(r)) + '%' : '') : num(total(r))));
    root.append(g);
  });
  if (o.legend) {
    let x = labelW;
    o.legend.forEach((t, k) => {
      root.append(svg('rect', { x, y: H - 14, width: 10, height: 10, class: 'bar ' + cls[k % cls.length] }),
        svg('text', { x: x + 14, y: H - 5, class: 'plegend' }, t));
      x += 24 + 7 * t.length;
    });
  }
  return root;
}

// A click on a player's name in the list, the game's header or the tree
// opens their page, on the event its crosstable (the rest of a row still
// opens its game or plays its move).
$('#list tbody').addEventListener('click', e => {
  const td = e.target.closest('td');
  if (!td) return;
  const tr = td.closest('tr');
  const g = games.find(x => String(x.n) === tr.dataset.n);
  if (!g) return;
  if (td.classList.contains('c-white') || td.classList.contains('c-black')) {
    const name = g.players[td.classList.contains('c-white') ? 0 : 1];
    if (!name) return;
    e.stopPropagation();
    openPlayer(name);
  } else if (td.classList.contains('c-event') && g.event) {
    e.stopPropagation();
    openEvent(g.event, g.game);
  }
}, true);
$('#title').addEventListener('click', e => {
  const t = e.target.closest('[data-player],[data-event]');
  if (!t) return;
  if (t.dataset.player) openPlayer(t.dataset.player); else openEvent(t.dataset.event, game && game.game);
});
$('#tree tbody').addEventListener('click', e => {
  const t = e.target.closest('[data-player]');
  if (t) { e.stopPropagation(); openPlayer(t.dataset.player); }
}, true);
$('#n-stats').addEventListener('click', openStats);
$('#n-openings').addEventListener('click', () => { location.hash = '#openings'; });
