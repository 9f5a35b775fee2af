'use strict';
// The opening tree's filter bar: the tree of some of the games — a
// player's as one side (their repertoire), an opponent's, a period, an
// event, a rating band, a result. Its fields are the database's search
// criteria by their names (docs/api.md), sent with every tree request
// (app.js's loadTree asks treeFilterParams), so that the filter stays
// while the board steps through moves or another game is opened; a change
// asks for the tree again. It uses app.js's helpers (el, $, sideNames,
// loadTree, game). setTreeFilter sets it from elsewhere (a player's page).

// TREE_FILTER_FIELDS are the bar's fields: the criterion, its label, and
// how it is entered.
const TREE_FILTER_FIELDS = [
  { param: 'player', label: 'Player', type: 'search', placeholder: 'name' },
  { param: 'side', label: 'as', select: [['', 'either side'], ['0', ''], ['1', '']] },
  { param: 'opponent', label: 'Opponent', type: 'search', placeholder: 'name' },
  { param: 'from', label: 'From', placeholder: '1990' },
  { param: 'to', label: 'to', placeholder: '2026.07' },
  { param: 'event', label: 'Event', type: 'search', placeholder: 'words' },
  { param: 'min-elo', label: 'Elo ≥', type: 'number', placeholder: 'both' },
  { param: 'max-elo', label: 'Elo ≤', type: 'number', placeholder: 'both' },
  { param: 'result', label: 'Result', select: [['', 'any'], ['1-0'], ['0-1'], ['1/2-1/2'], ['2-0'], ['1-1'], ['0-2'], ['*']] },
];

// treeFilterBar builds the bar above the tree, once.
function treeFilterBar() {
  if ($('#treefilter')) return;
  const fields = TREE_FILTER_FIELDS.map(f => {
    const input = f.select
      ? el('select', { id: 'tf-' + f.param, 'data-param': f.param }, ...f.select.map(([v, t]) => el('option', { value: v }, t === undefined ? v : t)))
      : el('input', { id: 'tf-' + f.param, 'data-param': f.param, type: f.type || 'text', placeholder: f.placeholder, min: f.type === 'number' ? '0' : null });
    input.addEventListener(f.select ? 'change' : 'input', treeFilterChanged);
    return el('label', { class: 'tf-field' }, f.label + ' ', input);
  });
  const clear = el('button', { id: 'tf-clear', type: 'button', title: 'every game' }, 'Clear');
  clear.addEventListener('click', () => setTreeFilter({}));
  const form = el('form', { id: 'treefilter', class: 'treefilter', autocomplete: 'off' },
    el('details', { id: 'tf-details' }, el('summary', {}, 'Filter ', el('span', { id: 'tf-summary' }, 'every game')),
      el('div', { class: 'tf-fields' }, ...fields, clear)));
  form.addEventListener('submit', e => e.preventDefault());
  $('#tree').before(form);
}

// treeFilterParams are the criteria the bar sets, for a tree request; a
// side only with a player (a side alone is no criterion).
function treeFilterParams() {
  treeFilterBar();
  treeFilterSides();
  const p = new URLSearchParams();
  for (const f of document.querySelectorAll('#treefilter [data-param]')) {
    const v = f.value.trim();
    if (v && !(f.dataset.param === 'side' && !$('#tf-player').value.trim())) p.set(f.dataset.param, v);
  }
  treeFilterSummary(p);
  return p;
}

// treeFilterSides names the side choices after the current game's sides.
function treeFilterSides() {
  const names = (typeof game !== 'undefined' && game) ? sideNames(game) : ['White', 'Black'];
  const opts = $('#tf-side').options;
  opts[1].textContent = 'as ' + names[0];
  opts[2].textContent = 'as ' + names[1];
}

// treeFilterSummary says what the filter keeps, in the bar's summary, and
// marks the tree as filtered.
function treeFilterSummary(p) {
  const parts = [];
  const side = p.get('side');
  if (p.get('player')) parts.push(p.get('player') + (side ? ' ' + $('#tf-side').options[Number(side) + 1].textContent : ''));
  if (p.get('opponent')) parts.push('against ' + p.get('opponent'));
  if (p.get('from') || p.get('to')) parts.push((p.get('from') || '…') + '–' + (p.get('to') || '…'));
  if (p.get('event')) parts.push(p.get('event'));
  if (p.get('min-elo') || p.get('max-elo')) parts.push('Elo ' + (p.get('min-elo') || '…') + '–' + (p.get('max-elo') || '…'));
  if (p.get('result')) parts.push(p.get('result'));
  $('#tf-summary').textContent = parts.length ? parts.join(', ') : 'every game';
  $('#treebox').classList.toggle('filtered', parts.length > 0);
}

// treeFilterChanged asks for the tree again, once typing pauses.
function treeFilterChanged() {
  clearTimeout(treeFilterChanged.timer);
  treeFilterChanged.timer = setTimeout(() => { if (typeof game !== 'undefined' && game) loadTree(); }, 350);
}

// setTreeFilter sets the bar to the criteria of params (an object by
// criterion name: {player: 'Sijbrands', side: '0'}; {} for every game)
// and asks for the tree again.
function setTreeFilter(params) {
  treeFilterBar();
  for (const f of document.querySelectorAll('#treefilter [data-param]')) f.value = params[f.dataset.param] || '';
  if (Object.keys(params).length) $('#tf-details').open = true;
  treeFilterChanged();
}

treeFilterBar();
