// The deck being built: its cards (by id, in a zone of the format), its
// character and its format, kept in the browser (localStorage). Whether it
// is legal, what it counts and its share code are the server's answer to
// `deck check` on the deck's list; nothing here knows a rule.

import * as api from './api.js';
import { language, t, violationText, zoneName } from './words.js';

const CURRENT = 'blades.deck';
const SAVED = 'blades.decks';

export function emptyDeck(format) {
  return { format, character: null, entries: [] };
}

/// The deck as a plain-text list `deck check` reads: the character, then
/// each zone under its id (a format with one zone needs no header).
export function deckText(deck, format) {
  const lines = [];
  if (deck.character) lines.push(`character: ${deck.character}`);
  const zones = format && format.zones.length > 1 ? format.zones : [null];
  for (const zone of zones) {
    const counts = new Map();
    for (const entry of deck.entries) {
      if (zone && (entry.zone ?? zones[0].id) !== zone.id) continue;
      counts.set(entry.id, (counts.get(entry.id) || 0) + 1);
    }
    if (!counts.size) continue;
    if (zone) lines.push(`${zone.id}:`);
    for (const [id, n] of counts) lines.push(`${n} ${id}`);
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}

/// The deck a check's report read (a pasted list, a share code).
export function deckOfReport(report, formatId) {
  const entries = [];
  if (report.zones && report.zones.length) {
    for (const zone of report.zones) for (const id of zone.cards) entries.push({ id, zone: zone.zone });
  } else {
    for (const id of report.cards) entries.push({ id, zone: null });
  }
  return { format: formatId, character: report.character ? report.character.id : null, entries };
}

export function loadCurrent() {
  return readJson(CURRENT);
}

export function storeCurrent(deck) {
  writeJson(CURRENT, deck);
}

export function savedDecks() {
  const saved = readJson(SAVED);
  return saved && typeof saved === 'object' ? saved : {};
}

export function saveDeck(name, deck) {
  const saved = savedDecks();
  saved[name] = deck;
  writeJson(SAVED, saved);
}

export function deleteDeck(name) {
  const saved = savedDecks();
  delete saved[name];
  writeJson(SAVED, saved);
}

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // A full or disabled storage keeps the deck in this page only.
  }
}

/// Asks the server about the deck; only the latest question's answer is
/// shown.
let asked = 0;
export async function check(deck, format) {
  const mine = ++asked;
  const answer = await api.checkDeck(deckText(deck, format), deck.format, language());
  return mine === asked ? answer : null;
}

/// Draws a check's answer into the deck panel.
export function drawAnswer(answer, deck, format, nodes, onRemove) {
  const report = answer.report;
  const rows = answer.cards;
  const name = id => (rows[id] ? rows[id].cells[1] : id);
  nodes.verdict.className = 'verdict';
  if (!deck.entries.length && !deck.character) {
    nodes.verdict.textContent = t('empty');
  } else if (!report.checked) {
    nodes.verdict.textContent = t('not-checked');
    nodes.verdict.classList.add('bad');
  } else if (report.legal) {
    nodes.verdict.textContent = t('legal');
    nodes.verdict.classList.add('good');
  } else {
    nodes.verdict.textContent = t('not-legal', report.violations.length);
    nodes.verdict.classList.add('bad');
  }
  nodes.slots.replaceChildren(
    ...answer.slots.map(slot => {
      const li = document.createElement('li');
      const named = slot.zones.map(id => {
        const zone = format && format.zones.find(z => z.id === id);
        return zone ? zoneName(zone) : id;
      });
      const zones = named.length ? `${named.join(' + ')}: ` : '';
      const bound =
        slot.limit != null && slot.min != null
          ? `${slot.count} (${slot.min}–${slot.limit})`
          : slot.limit != null
            ? `${slot.count}/${slot.limit}`
            : slot.min != null
              ? `${slot.count} (≥${slot.min})`
              : `${slot.count}`;
      li.textContent = `${zones}${slot.what} ${bound}`;
      if ((slot.limit != null && slot.count > slot.limit) || (slot.min != null && slot.count < slot.min)) {
        li.className = 'bad';
      }
      return li;
    }),
  );
  nodes.violations.replaceChildren(
    ...report.violations.map(v => {
      const li = document.createElement('li');
      li.dataset.rule = v.rule;
      const cards = v.cards.length ? ` (${v.cards.map(name).join(', ')})` : '';
      li.textContent = language() === 'ja' ? `${violationText(v)}${cards}` : violationText(v);
      return li;
    }),
  );
  drawProblems(report, nodes.problems);
  const zoneOf = id => {
    const zone = format && format.zones.find(z => z.id === id);
    return zone ? zoneName(zone) : id;
  };
  nodes.entries.replaceChildren(
    ...deck.entries.map((entry, i) => {
      const li = document.createElement('li');
      li.dataset.id = entry.id;
      const row = rows[entry.id];
      const label = document.createElement('a');
      label.href = `#/card/${encodeURIComponent(entry.id)}`;
      label.textContent = name(entry.id);
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = [row ? row.cells[3] : '', format && format.zones.length > 1 ? zoneOf(entry.zone ?? format.zones[0].id) : '']
        .filter(Boolean)
        .join(' · ');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'remove';
      remove.textContent = '×';
      remove.title = t('remove');
      remove.setAttribute('aria-label', `${t('remove')}: ${name(entry.id)}`);
      remove.addEventListener('click', () => onRemove(i));
      li.append(label, ' ', kind, remove);
      return li;
    }),
  );
  if (deck.character) {
    const li = document.createElement('li');
    li.className = 'character';
    li.textContent = `${t('character')}: ${answer.character ?? deck.character}`;
    nodes.entries.prepend(li);
  }
  nodes.exported.value = answer.list ?? '';
}

/// Why a list could not be read: the check's findings, each with its help.
export function drawProblems(report, node) {
  node.replaceChildren(
    ...report.diagnostics.map(d => {
      const li = document.createElement('li');
      li.textContent = d.help ? `${d.message} (${d.help})` : d.message;
      return li;
    }),
  );
}

/// Draws `deck diff`'s answer: the character's change, then each zone's
/// cards added, removed and counted again (the server's order), each card
/// by its name in the page's language (the server's).
export function drawDiff(answer, format, nodes) {
  const { diff, names, characters } = answer;
  const name = c => names[c.id] ?? c.name;
  nodes.verdict.className = 'verdict';
  nodes.problems.replaceChildren();
  if (diff.same) {
    nodes.verdict.textContent = t('same-deck');
    nodes.verdict.classList.add('good');
    nodes.lines.replaceChildren();
    return;
  }
  nodes.verdict.textContent = t('changed-deck');
  const line = (text, className, id) => {
    const li = document.createElement('li');
    li.textContent = text;
    if (className) li.className = className;
    if (id) li.dataset.id = id;
    return li;
  };
  const lines = [];
  if (diff.character) {
    const who = c => (c == null ? t('none') : (characters[c] ?? c));
    lines.push(line(`${t('character')}: ${who(diff.character.a)} → ${who(diff.character.b)}`));
  }
  for (const zone of diff.zones) {
    if (format && format.zones.length > 1) lines.push(line(zoneName({ id: zone.zone, name: zone.name }), 'zone'));
    for (const c of zone.added) lines.push(line(`+ ${c.count} ${name(c)}`, 'added', c.id));
    for (const c of zone.removed) lines.push(line(`− ${c.count} ${name(c)}`, 'removed', c.id));
    for (const c of zone.changed) lines.push(line(`${name(c)}: ${c.a} → ${c.b}`, 'recounted', c.id));
  }
  nodes.lines.replaceChildren(...lines);
}

/// Draws `deck stats`' answer: a line per spread (`value ×count`, the
/// server's words), then the collections the singles could make.
export function drawStats(answer, node) {
  const { stats, words, names } = answer;
  const word = value => words[value] ?? value;
  const cards = ids => ids.map(id => names[id] ?? id).join(', ');
  const spread = list => (list.length ? list.map(s => `${word(s.value)} ×${s.count}`).join(', ') : '—');
  const rows = [
    [t('stats-cards'), String(stats.cards)],
    [t('stats-kinds'), spread(stats.kinds)],
    ['STAR', `${spread(stats.stars)} (${t('stats-total')} ${stats['star-total']})`],
    [t('stats-elements'), spread(stats.elements)],
    [t('stats-types'), spread(stats.types)],
  ];
  for (const c of stats.collections) {
    const best = stats.best && stats.best.symbol === c.symbol ? ` — ${t('stats-best')}` : '';
    rows.push([`${t('stats-collection')}: ${word(c.symbol)}`, `${t('cards', c.cards.length)}, ${t('vp', c.vp)}${best} (${cards(c.cards)})`]);
  }
  if (!stats.collections.length) rows.push([t('stats-collection'), t('stats-no-collection')]);
  node.replaceChildren(
    ...rows.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      return [dt, dd];
    }),
  );
}
