// The app: a search box that answers as you type, a page per card, and a
// deck checked as it is built. Routes are the URL's hash: `#/card/ID`, and
// `#/deck/CODE` (a share code; `?rules=FORMAT` for another format), and the
// table tools `#/collection`, `#/trade`, `#/score` (table.js).

import * as api from './api.js';
import * as decks from './deck.js';
import { PAGE, ResultList } from './list.js';
import { drawModes, redrawTools, showTool, startTools } from './table.js';
import { formatName, initialLanguage, language, setLanguage, t, zoneName } from './words.js';

const $ = id => document.getElementById(id);
const DEBOUNCE_MS = 100;
const FACES_SHOWN = 24;
const LANG_KEY = 'blades.lang';

let formats = [];
let deck = null;
let found = null; // the last search's answer
let faces = false;
let searching = null; // the search in flight, to abort when the query changes
let pool = null; // the pool's folder; null for the built-in pool

function drawPool() {
  $('pool').textContent = pool ?? t('builtin-pool');
}

const list = new ResultList($('results'), {
  onAdd: row => addCard(row.id),
  onOpen: row => {
    location.hash = `#/card/${encodeURIComponent(row.id)}`;
  },
  addLabel: () => t('add'),
});

function format(id) {
  return formats.find(f => f.id === id) || formats[0];
}

// Search.

let timer = 0;
function searchSoon() {
  clearTimeout(timer);
  timer = setTimeout(runSearch, DEBOUNCE_MS);
}

async function runSearch() {
  if (searching) searching.abort();
  const controller = new AbortController();
  searching = controller;
  const query = $('q').value;
  try {
    const lang = language();
    const answer = await api.search(query, lang, { limit: PAGE, signal: controller.signal });
    if (controller.signal.aborted) return;
    found = answer;
    $('problem').hidden = true;
    // The hints are the search language's, in English only.
    const hints = language() === 'en' && answer.hints.length ? ` — ${answer.hints.join(' ')}` : '';
    $('explain').textContent = query.trim() ? answer.explain + hints : '';
    $('count').textContent = answer.count ? t('cards', answer.count) : t('no-card');
    // The other rows, a page at a time as they scroll into view.
    const more = async (from, limit) => (await api.search(query, lang, { from, limit })).cards;
    list.show(answer.head, answer.count, answer.cards, more);
    drawFaces();
  } catch (error) {
    if (error.name === 'AbortError') return;
    $('problem').hidden = false;
    $('problem').textContent = error.status === 400 ? `${t('bad-query')}: ${error.message}` : `${t('failed')}: ${error.message}`;
    $('explain').textContent = '';
  } finally {
    if (searching === controller) searching = null;
    document.body.dataset.searched = query;
  }
}

async function drawFaces() {
  $('faces').hidden = !faces;
  $('results').hidden = faces || !found || !found.count;
  if (!faces || !found) return;
  const shown = found.cards.slice(0, FACES_SHOWN);
  const holder = $('faces');
  holder.replaceChildren();
  if (found.count > FACES_SHOWN) {
    const note = document.createElement('p');
    note.className = 'count';
    note.textContent = t('faces-first', FACES_SHOWN);
    holder.append(note);
  }
  for (const row of shown) {
    const figure = document.createElement('a');
    figure.className = 'face';
    figure.href = `#/card/${encodeURIComponent(row.id)}`;
    figure.dataset.id = row.id;
    holder.append(figure);
  }
  const wanted = found;
  await Promise.all(
    shown.map(async row => {
      try {
        const card = await api.card(row.id, language());
        // The face is the library's SVG, its text escaped there.
        const figure = holder.querySelector(`[data-id="${CSS.escape(row.id)}"]`);
        if (figure && wanted === found) figure.innerHTML = card.face || '';
      } catch {
        // A face that cannot be fetched stays an empty frame.
      }
    }),
  );
}

// The deck.

function addCard(id) {
  const zone = $('zone-field').hidden ? null : $('zone').value;
  deck.entries.push({ id, zone });
  deckChanged();
}

function removeCard(i) {
  deck.entries.splice(i, 1);
  deckChanged();
}

async function deckChanged() {
  decks.storeCurrent(deck);
  const fmt = format(deck.format);
  let answer;
  try {
    answer = await decks.check(deck, fmt);
  } catch (error) {
    $('verdict').textContent = `${t('failed')}: ${error.message}`;
    return;
  }
  if (!answer) return; // a later change asked again
  decks.drawAnswer(answer, deck, fmt, nodes(), removeCard);
  shareLink(answer.share_code ?? answer['share-code']);
  if ($('stats-box').open) await showStats();
  document.body.dataset.checked = String(Date.now());
}

/// The deck's statistics, asked only while their panel is open.
async function showStats() {
  const fmt = format(deck.format);
  try {
    decks.drawStats(await api.deckStats(decks.deckText(deck, fmt), fmt.id, language()), $('stats'));
  } catch (error) {
    // A deck the check cannot read has no statistics; the check says why.
    $('stats').replaceChildren();
  }
}

function nodes() {
  return {
    verdict: $('verdict'),
    slots: $('slots'),
    violations: $('violations'),
    problems: $('problems'),
    entries: $('entries'),
    exported: $('export'),
  };
}

/// The deck's share link, also the page's own address while the search
/// shows: reloading or copying the address keeps the deck.
function shareLink(code) {
  const rules = deck.format && deck.format !== formats[0].id ? `?rules=${encodeURIComponent(deck.format)}` : '';
  const hash = code && deck.entries.length + (deck.character ? 1 : 0) ? `#/deck/${code}${rules}` : '#/';
  $('share').href = hash;
  // The deck's print-and-play sheet, opened beside the app: the server's
  // `blades print --deck` of the same share code.
  const sheet = $('sheet');
  sheet.hidden = hash === '#/';
  if (!sheet.hidden) sheet.href = `/api/deck/sheet?${new URLSearchParams({ deck: code, rules: deck.format, lang: language() })}`;
  if (!location.hash.startsWith('#/card/') && location.hash !== hash) {
    history.replaceState(null, '', hash);
  }
}

/// Reads a pasted list or a share code into the deck (the server's
/// reading); a list that cannot be read leaves the deck as it was and
/// shows why.
async function readDeck(text, formatId) {
  const fmt = format(formatId);
  const answer = await api.checkDeck(text, fmt.id, language());
  const report = answer.report;
  if (!report.checked && !report.cards.length) {
    // The deck stays as it was; only why the list was not read is new.
    decks.drawProblems(report, $('problems'));
    return false;
  }
  deck = decks.deckOfReport(report, fmt.id);
  $('format').value = fmt.id;
  zones();
  await deckChanged();
  return true;
}

function zones() {
  const fmt = format(deck.format);
  const many = fmt.zones.length > 1;
  $('zone-field').hidden = !many;
  $('zone').replaceChildren(
    ...fmt.zones.map(z => {
      const option = document.createElement('option');
      option.value = z.id;
      option.textContent = zoneName(z);
      return option;
    }),
  );
}

function drawSaved() {
  const saved = decks.savedDecks();
  drawCompareChoices(saved);
  $('saved').replaceChildren(
    ...Object.keys(saved)
      .sort()
      .map(name => {
        const li = document.createElement('li');
        const label = document.createElement('span');
        label.textContent = name;
        const open = document.createElement('button');
        open.type = 'button';
        open.textContent = t('load');
        open.addEventListener('click', () => {
          deck = structuredClone(saved[name]);
          if (!formats.some(f => f.id === deck.format)) deck.format = formats[0].id;
          $('format').value = deck.format;
          zones();
          deckChanged();
        });
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = t('delete');
        remove.addEventListener('click', () => {
          decks.deleteDeck(name);
          drawSaved();
        });
        li.append(label, ' ', open, ' ', remove);
        return li;
      }),
  );
}

// Comparing the deck with an earlier version: a saved deck or a pasted
// list (the first choice), the change being the server's `deck diff`.

function drawCompareChoices(saved) {
  const kept = $('compare-with').value;
  const pasted = document.createElement('option');
  pasted.value = '';
  pasted.textContent = t('compare-pasted');
  const names = Object.keys(saved).sort();
  $('compare-with').replaceChildren(
    pasted,
    ...names.map(name => {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = name;
      return option;
    }),
  );
  $('compare-with').value = names.includes(kept) ? kept : '';
  $('compare-paste').hidden = $('compare-with').value !== '';
}

async function compareDeck() {
  const fmt = format(deck.format);
  const name = $('compare-with').value;
  const saved = decks.savedDecks()[name];
  const earlier = name && saved ? decks.deckText(saved, format(saved.format)) : $('compare-paste').value;
  const nodes = { verdict: $('compare-verdict'), lines: $('compare-lines'), problems: $('compare-problems') };
  try {
    const answer = await api.diffDecks(earlier, decks.deckText(deck, fmt), fmt.id, language());
    decks.drawDiff(answer, fmt, nodes);
  } catch (error) {
    nodes.verdict.className = 'verdict bad';
    nodes.verdict.textContent = t('not-compared');
    nodes.lines.replaceChildren();
    const report = error.answer && error.answer.report;
    if (report) decks.drawProblems(report, nodes.problems);
    else nodes.problems.replaceChildren(error.message);
  }
}

/// What the deck needs that a pasted binder or copies file lacks.
async function findMissing() {
  const fmt = format(deck.format);
  const verdict = $('missing-verdict');
  try {
    const answer = await api.missingCards(
      decks.deckText(deck, fmt),
      $('missing-paste').value,
      fmt.id,
      $('missing-kind').value,
      language(),
    );
    const { missing, names } = answer;
    $('missing-problems').replaceChildren();
    verdict.className = `verdict ${missing.missing ? 'bad' : 'good'}`;
    verdict.textContent = missing.missing ? t('missing-count', missing.missing) : t('missing-none');
    $('missing-lines').replaceChildren(
      ...missing.cards.map(c => {
        const li = document.createElement('li');
        li.dataset.id = c.id;
        li.textContent = t('missing-line', { ...c, name: names[c.id] ?? c.name });
        return li;
      }),
    );
  } catch (error) {
    verdict.className = 'verdict bad';
    verdict.textContent = t('not-compared');
    $('missing-lines').replaceChildren();
    const report = error.answer && error.answer.report;
    if (report) decks.drawProblems(report, $('missing-problems'));
    else $('missing-problems').replaceChildren(error.message);
  }
}

// A card's page.

async function showCard(id) {
  $('find').hidden = true;
  const page = $('card');
  page.hidden = false;
  page.replaceChildren(text('p', '…'));
  let answer;
  try {
    answer = await api.card(id, language());
  } catch (error) {
    page.replaceChildren(back(), text('p', `${t('unknown')}: ${error.message}`, 'problem'));
    return;
  }
  const card = answer.card;
  const names = [card.name, ...Object.values(card.translations || {}).map(tr => tr.name).filter(Boolean)];
  const title = text('h2', answer.row.cells[1]);
  const other = text('p', names.filter(n => n !== answer.row.cells[1]).join(' / '), 'other-name');
  const add = document.createElement('button');
  add.type = 'button';
  add.textContent = `+ ${t('add')}`;
  add.addEventListener('click', () => addCard(card.id));
  const facts = document.createElement('dl');
  answer.row.cells.forEach((value, i) => {
    if (i === 1 || !value) return;
    facts.append(text('dt', answer.head[i]), text('dd', value));
  });
  const effect = document.createElement('div');
  effect.className = 'effect';
  const texts = card['effect-text'] || {};
  for (const [lang, value] of Object.entries(texts)) {
    effect.append(text('h3', `${t('effect')} (${lang})`), text('p', value, 'text'));
  }
  const errata = document.createElement('div');
  errata.append(text('h3', t('errata')));
  if (!card.errata || !card.errata.length) errata.append(text('p', t('no-errata')));
  for (const e of card.errata || []) {
    errata.append(text('p', `${t('was')} ${e.until}: ${e.effect}${e.note ? ` — ${e.note}` : ''}`, 'text'));
  }
  const face = document.createElement('div');
  face.className = 'face big';
  // The face is the library's SVG, its text escaped there.
  face.innerHTML = answer.face || '';
  const summary = document.createElement('details');
  summary.append(text('summary', t('summary')), text('pre', answer.summary));
  page.replaceChildren(back(), title, other, add, facts, effect, errata, face, summary);
}

function back() {
  const link = document.createElement('a');
  link.href = '#/';
  link.className = 'back';
  link.textContent = `← ${t('back')}`;
  return link;
}

function text(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (className) node.className = className;
  return node;
}

// Routes.

async function route() {
  const hash = location.hash;
  const tool = hash.match(/^#\/(collection|trade|score)$/);
  // A table tool is a page of its own: the search and the deck step aside.
  showTool(tool ? tool[1] : null);
  $('deck').hidden = Boolean(tool);
  if (tool) {
    $('find').hidden = true;
    $('card').hidden = true;
    return;
  }
  if (hash.startsWith('#/card/')) {
    await showCard(decodeURIComponent(hash.slice('#/card/'.length)));
    return;
  }
  $('card').hidden = true;
  $('find').hidden = false;
  if (hash.startsWith('#/deck/')) {
    const [code, query] = hash.slice('#/deck/'.length).split('?');
    const rules = new URLSearchParams(query || '').get('rules') || formats[0].id;
    await readDeck(decodeURIComponent(code), rules);
  } else {
    await deckChanged();
  }
}

function switchLanguage(next) {
  setLanguage(next);
  drawPool();
  formatOptions();
  zones();
  try {
    localStorage.setItem(LANG_KEY, next);
  } catch {
    // The choice lasts for this page.
  }
  runSearch();
  deckChanged();
  drawSaved();
  drawModes();
  redrawTools();
  if (location.hash.startsWith('#/card/')) route();
}

async function start() {
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    stored = null;
  }
  setLanguage(initialLanguage(stored, navigator.languages));
  $('lang').value = language();
  const answer = await api.formats();
  formats = answer.formats;
  pool = answer.pool;
  drawPool();
  formatOptions();
  const kept = decks.loadCurrent();
  deck = kept && Array.isArray(kept.entries) && formats.some(f => f.id === kept.format) ? kept : decks.emptyDeck(formats[0].id);
  $('format').value = deck.format;
  zones();

  $('q').addEventListener('input', searchSoon);
  $('q').addEventListener('keydown', e => {
    if (e.key === 'ArrowDown' || e.key === 'Enter') {
      e.preventDefault();
      list.focusFirst();
    }
  });
  $('lang').addEventListener('change', e => switchLanguage(e.target.value));
  $('format').addEventListener('change', e => {
    deck.format = e.target.value;
    const fmt = format(deck.format);
    for (const entry of deck.entries) if (!fmt.zones.some(z => z.id === entry.zone)) entry.zone = null;
    zones();
    deckChanged();
  });
  $('as-table').addEventListener('click', () => setView(false));
  $('as-faces').addEventListener('click', () => setView(true));
  $('clear').addEventListener('click', () => {
    deck = decks.emptyDeck(deck.format);
    deckChanged();
  });
  $('read').addEventListener('click', async () => {
    if (await readDeck($('paste').value, deck.format)) $('paste').value = '';
  });
  $('download').addEventListener('click', () => {
    const blob = new Blob([$('export').value], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'deck.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  });
  $('save').addEventListener('click', () => {
    const name = $('save-name').value.trim();
    if (!name) return;
    decks.saveDeck(name, deck);
    drawSaved();
  });
  $('compare-with').addEventListener('change', () => {
    $('compare-paste').hidden = $('compare-with').value !== '';
  });
  $('compare').addEventListener('click', compareDeck);
  $('missing-run').addEventListener('click', findMissing);
  $('stats-box').addEventListener('toggle', () => {
    if ($('stats-box').open) showStats();
  });
  await startTools();
  window.addEventListener('hashchange', route);
  drawSaved();
  await route();
  await runSearch();
  document.body.dataset.ready = 'yes';
}

/// The format menu, in the page's language.
function formatOptions() {
  $('format').replaceChildren(
    ...formats.map(f => {
      const option = document.createElement('option');
      option.value = f.id;
      option.textContent = formatName(f);
      return option;
    }),
  );
  if (deck) $('format').value = deck.format;
}

function setView(asFaces) {
  faces = asFaces;
  $('as-table').setAttribute('aria-pressed', String(!faces));
  $('as-faces').setAttribute('aria-pressed', String(faces));
  drawFaces();
}

start().catch(error => {
  $('problem').hidden = false;
  $('problem').textContent = `${t('failed')}: ${error.message}`;
  document.body.dataset.ready = 'failed';
});
