// The table tools: a collection checker, a trade helper and an
// end-of-game score sheet. Each page only gathers the text its command
// reads (`collection check` and `best`, `trade check`, `score`) and shows
// the server's answer; no rule is written here.

import * as api from './api.js';
import { language, scoreWord, t, violationText } from './words.js';

const $ = id => document.getElementById(id);
const PICKS_SHOWN = 8;

function item(text, className) {
  const li = document.createElement('li');
  li.textContent = text;
  if (className) li.className = className;
  return li;
}

/// A check's verdict and violations, in the page's language; the cards
/// a violation names by their rows' names (the server's).
function drawReport(answer, verdict, violations) {
  const report = answer.report;
  const name = id => (answer.cards[id] ? answer.cards[id].cells[1] : id);
  verdict.className = 'verdict';
  if (!report.checked) {
    verdict.textContent = t('not-checked');
    verdict.classList.add('bad');
  } else if (report.legal) {
    verdict.textContent = t('legal');
    verdict.classList.add('good');
  } else {
    verdict.textContent = t('not-legal', report.violations.length);
    verdict.classList.add('bad');
  }
  violations.replaceChildren(
    ...report.violations.map(v => {
      const cards = v.cards.length ? ` (${v.cards.map(name).join(', ')})` : '';
      const li = item(language() === 'ja' ? `${violationText(v)}${cards}` : violationText(v));
      li.dataset.rule = v.rule;
      return li;
    }),
    ...report.diagnostics.map(d => item(d.help ? `${d.message} (${d.help})` : d.message)),
  );
}

function failed(error, verdict, list) {
  verdict.className = 'verdict bad';
  verdict.textContent = `${t('failed')}: ${error.message}`;
  list.replaceChildren();
}

/// A card reference as a YAML item: JSON's quoting is YAML's.
const quoted = text => JSON.stringify(text);

// The collection checker: cards picked by search, checked as a collection.

const picked = [];
let searching = null;

async function findPicks() {
  if (searching) searching.abort();
  const controller = new AbortController();
  searching = controller;
  const query = $('col-q').value;
  if (!query.trim()) {
    $('col-found').replaceChildren();
    return;
  }
  try {
    const answer = await api.search(query, language(), { limit: PICKS_SHOWN, signal: controller.signal });
    if (controller.signal.aborted) return;
    $('col-found').replaceChildren(
      ...answer.cards.slice(0, PICKS_SHOWN).map(row => {
        const li = document.createElement('li');
        const add = document.createElement('button');
        add.type = 'button';
        add.dataset.add = row.id;
        add.textContent = `+ ${row.cells[1]}`;
        add.title = `${row.cells[3]} · STAR ${row.cells[4]} · ${row.cells[5]} · ${row.cells[6]}`;
        add.addEventListener('click', () => {
          picked.push({ id: row.id, name: row.cells[1] });
          checkCollection();
        });
        li.append(add);
        return li;
      }),
    );
  } catch (error) {
    if (error.name !== 'AbortError') $('col-found').replaceChildren(item(error.message, 'bad'));
  }
}

async function checkCollection() {
  $('col-picked').replaceChildren(
    ...picked.map((card, i) => {
      const li = item(card.name);
      li.dataset.id = card.id;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'remove';
      remove.textContent = '×';
      remove.setAttribute('aria-label', `${t('remove')}: ${card.name}`);
      remove.addEventListener('click', () => {
        picked.splice(i, 1);
        checkCollection();
      });
      li.append(' ', remove);
      return li;
    }),
  );
  const text = `cards:\n${picked.map(c => `  - ${quoted(c.id)}\n`).join('')}`;
  const verdict = $('col-verdict');
  if (!picked.length) {
    verdict.className = 'verdict';
    verdict.textContent = t('col-empty');
    $('col-score').textContent = '';
    $('col-violations').replaceChildren();
    return;
  }
  try {
    const answer = await api.post('collection/check', text, { duel: $('col-duel').checked, lang: language() });
    // The cards picked by their names in the page's language (the rows').
    for (const li of $('col-picked').children) {
      const row = answer.cards[li.dataset.id];
      if (row) li.firstChild.textContent = row.cells[1];
    }
    drawReport(answer, verdict, $('col-violations'));
    const report = answer.report;
    const symbols = report.symbols.map(s => answer.words[s] ?? s).join(', ');
    const points = report.vp != null ? t('vp', report.vp) : report.rp != null ? t('rp', report.rp) : '';
    $('col-score').textContent = [symbols && `${t('col-symbols')}: ${symbols}`, points].filter(Boolean).join(' · ');
  } catch (error) {
    failed(error, verdict, $('col-violations'));
  }
}

async function bestOfBinder() {
  const verdict = $('best-verdict');
  try {
    const answer = await api.post('collection/best', $('binder').value, { duel: $('col-duel').checked, lang: language() });
    drawReport(answer, verdict, $('best-problems'));
    const report = answer.report;
    const name = id => (answer.cards[id] ? answer.cards[id].cells[1] : id);
    const chosen = report.duel
      ? [report.element, report['kind-type']].filter(Boolean)
      : report.cards
        ? [{ symbol: report.symbol, cards: report.cards }]
        : [];
    const points = report.vp != null ? t('vp', report.vp) : report.rp != null ? t('rp', report.rp) : '';
    $('best-cards').replaceChildren(
      ...chosen.map(c => item(`${answer.words[c.symbol] ?? c.symbol}: ${c.cards.map(name).join(', ')}`)),
      ...(points && chosen.length ? [item(points, 'points')] : []),
    );
  } catch (error) {
    failed(error, verdict, $('best-cards'));
  }
}

// The trade helper: two sides as `trade check` reads them.

function sideYaml(side) {
  const cards = $(`trade-${side}-cards`)
    .value.split('\n')
    .map(line => line.trim())
    .filter(Boolean);
  const number = id => {
    const value = $(id).value.trim();
    return value === '' ? '0' : quoted(value).replace(/^"(\d+)"$/, '$1');
  };
  return [
    `${side}:`,
    `  cards: [${cards.map(quoted).join(', ')}]`,
    `  dollars: ${number(`trade-${side}-dollars`)}`,
    `  friendship: ${number(`trade-${side}-friendship`)}`,
  ].join('\n');
}

async function checkTrade() {
  const text = `${sideYaml('a')}\n${sideYaml('b')}\n`;
  const verdict = $('trade-verdict');
  try {
    const answer = await api.post('trade/check', text, { 'free-market': $('trade-free').checked, lang: language() });
    drawReport(answer, verdict, $('trade-violations'));
    const report = answer.report;
    if (!report.checked) {
      $('trade-values').textContent = '';
      return;
    }
    const value = side => t('trade-value', { side: t(`side-${side}`), value: report[side].value, stars: report[side].stars, dollars: report[side].dollars });
    const balance = report.balance ? t('trade-balance', { side: t(`side-${report.balance.side}`), amount: report.balance.amount }) : t('trade-even');
    $('trade-values').replaceChildren(item(value('a')), item(value('b')), item(balance, report.balance ? 'bad' : 'good'));
  } catch (error) {
    failed(error, verdict, $('trade-violations'));
  }
}

// The score sheet: a form per player, sent as the sheet `blades score` reads.

let modes = [];

function mode() {
  return modes.find(m => m.id === $('score-mode').value) || modes[0];
}

function playerForm(player = {}) {
  const box = document.createElement('fieldset');
  box.className = 'player';
  const field = (key, type, value, className) => {
    const label = document.createElement('label');
    label.className = `field ${className || ''}`;
    const word = document.createElement('span');
    word.textContent = t(key);
    const input = document.createElement('input');
    input.type = type;
    if (type === 'number') {
      input.min = '0';
      input.inputMode = 'numeric';
    }
    input.value = value ?? '';
    label.append(word, ' ', input);
    return [label, input];
  };
  const [nameLabel, name] = field('score-name', 'text', player.name);
  name.dataset.key = 'name';
  const places = document.createElement('div');
  places.className = 'places';
  for (const tournament of mode().tournaments) {
    const [label, input] = field('score-place', 'number', player.placings && player.placings[tournament.id], 'place');
    label.firstChild.textContent = `${t('score-place')} · ${scoreWord(tournament)}`;
    input.dataset.tournament = tournament.id;
    places.append(label);
  }
  const [collectionsLabel, collections] = field('score-collections', 'text', player.collections);
  collections.dataset.key = 'collections';
  collections.placeholder = '5, 8';
  const [dollarsLabel, dollars] = field('dollars', 'number', player.dollars);
  dollars.dataset.key = 'dollars';
  const [friendshipLabel, friendship] = field('score-friendship', 'text', player.friendship);
  friendship.dataset.key = 'friendship';
  friendship.placeholder = t('score-friendship-hint');
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove';
  remove.textContent = t('remove');
  remove.addEventListener('click', () => box.remove());
  box.append(nameLabel, places, collectionsLabel, dollarsLabel, friendshipLabel, remove);
  return box;
}

/// The form as a score sheet (YAML): what the players typed, quoted.
function sheet() {
  const number = text => (/^\d+$/.test(text.trim()) ? text.trim() : quoted(text.trim()));
  const lines = [`mode: ${quoted(mode().id)}`, 'players:'];
  for (const box of document.querySelectorAll('#score-players .player')) {
    const get = key => box.querySelector(`[data-key=${key}]`).value;
    lines.push(`  - name: ${quoted(get('name'))}`);
    const placings = [...box.querySelectorAll('[data-tournament]')]
      .filter(input => input.value.trim())
      .map(input => `${quoted(input.dataset.tournament)}: ${number(input.value)}`);
    lines.push(`    placings: {${placings.join(', ')}}`);
    const collections = get('collections').split(/[,\s]+/).filter(Boolean).map(number);
    lines.push(`    collections: [${collections.join(', ')}]`);
    if (get('dollars').trim()) lines.push(`    dollars: ${number(get('dollars'))}`);
    const friendship = get('friendship')
      .split(',')
      .map(pair => pair.trim())
      .filter(Boolean)
      .map(pair => {
        const at = pair.lastIndexOf(':');
        return at < 0 ? quoted(pair) : `${quoted(pair.slice(0, at).trim())}: ${number(pair.slice(at + 1))}`;
      });
    if (friendship.length) lines.push(`    friendship: {${friendship.join(', ')}}`);
  }
  return lines.join('\n') + '\n';
}

async function rank() {
  const table = $('score-ranking');
  try {
    const report = await api.post('score', sheet(), {});
    $('score-problems').replaceChildren();
    const head = document.createElement('tr');
    for (const key of ['score-rank', 'score-name', 'score-total']) {
      const th = document.createElement('th');
      th.textContent = t(key);
      head.append(th);
    }
    const rows = report.players.flatMap(p => {
      const tr = document.createElement('tr');
      tr.className = 'ranked';
      for (const value of [p.rank, p.name, p.total]) {
        const td = document.createElement('td');
        td.textContent = String(value);
        tr.append(td);
      }
      const detail = document.createElement('tr');
      detail.className = 'detail';
      const td = document.createElement('td');
      td.colSpan = 3;
      td.textContent = t('score-detail', p);
      detail.append(td);
      return [tr, detail];
    });
    table.replaceChildren(head, ...rows);
  } catch (error) {
    table.replaceChildren();
    const report = error.answer && error.answer.report;
    $('score-problems').replaceChildren(
      ...(report ? report.diagnostics.map(d => item(d.help ? `${d.message} (${d.help})` : d.message)) : [item(error.message)]),
    );
  }
}

function redrawPlayers() {
  const kept = [...document.querySelectorAll('#score-players .player')].map(box => {
    const get = key => box.querySelector(`[data-key=${key}]`).value;
    const placings = {};
    for (const input of box.querySelectorAll('[data-tournament]')) placings[input.dataset.tournament] = input.value;
    return { name: get('name'), collections: get('collections'), dollars: get('dollars'), friendship: get('friendship'), placings };
  });
  $('score-players').replaceChildren(...(kept.length ? kept : [{}, {}]).map(playerForm));
}

/// Wires the three pages once; `drawModes` fills the score sheet's menu.
export async function startTools() {
  $('col-q').addEventListener('input', findPicks);
  $('col-duel').addEventListener('change', checkCollection);
  $('best').addEventListener('click', bestOfBinder);
  $('trade-check').addEventListener('click', checkTrade);
  $('score-add').addEventListener('click', () => $('score-players').append(playerForm()));
  $('score-run').addEventListener('click', rank);
  $('score-mode').addEventListener('change', redrawPlayers);
  modes = await api.scoreModes();
  drawModes();
  checkCollection();
}

/// The score sheet's modes and forms, in the page's language.
export function drawModes() {
  const chosen = $('score-mode').value;
  $('score-mode').replaceChildren(
    ...modes.map(m => {
      const option = document.createElement('option');
      option.value = m.id;
      option.textContent = scoreWord(m);
      return option;
    }),
  );
  if (modes.some(m => m.id === chosen)) $('score-mode').value = chosen;
  redrawPlayers();
}

/// Asks again what the pages show, in the page's language (after the
/// language changed).
export function redrawTools() {
  checkCollection();
  if ($('best-verdict').textContent) bestOfBinder();
  if ($('trade-verdict').textContent) checkTrade();
}

/// Shows one tool's page (`collection`, `trade`, `score`), or none.
export function showTool(name) {
  for (const tool of ['collection', 'trade', 'score']) $(`tool-${tool}`).hidden = tool !== name;
}
