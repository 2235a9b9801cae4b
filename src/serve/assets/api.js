// The server's API: every answer (search, cards, deck checks, share codes)
// comes from the library through these calls.

/// An answer's JSON; a 4xx or 5xx answer throws an Error whose message is
/// the server's, with its JSON as `answer`.
async function json(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = new Error((body && body.error) || `HTTP ${response.status}`);
    error.status = response.status;
    error.answer = body;
    throw error;
  }
  return body;
}

/// The cards `query` finds: their `count`, and the rows of `limit` of
/// them from position `from` (`cards`), in `blades search --ids` order.
export async function search(query, lang, { from = 0, limit, signal } = {}) {
  const params = new URLSearchParams({ q: query, lang, from: String(from) });
  if (limit) params.set('limit', String(limit));
  return json(await fetch(`/api/search?${params}`, { signal }));
}

export async function card(id, lang) {
  return json(await fetch(`/api/card/${encodeURIComponent(id)}?lang=${lang}`));
}

export async function formats() {
  return json(await fetch('/api/formats'));
}

/// The deck check of `text` (a list in any form `deck check` reads, or a
/// share code) against `rules`: the report, the canonical list, the code.
export async function checkDeck(text, rules, lang) {
  const params = new URLSearchParams({ lang });
  if (rules) params.set('rules', rules);
  const response = await fetch(`/api/deck/check?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: text,
  });
  return json(response);
}

/// What changed from deck `a` to deck `b` (texts in any form `deck check`
/// reads), as `blades deck diff --format json` prints it (`diff`), and the
/// names of the cards and characters it names in `lang`.
export async function diffDecks(a, b, rules, lang) {
  const params = new URLSearchParams({ a: 'a', b: 'b', lang });
  if (rules) params.set('rules', rules);
  const response = await fetch(`/api/deck/diff?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ a, b }),
  });
  return json(response);
}

/// The statistics of `text` (a deck in any form `deck check` reads), as
/// `blades deck stats --format json` prints them, and the words for their
/// values in `lang`.
export async function deckStats(text, rules, lang) {
  const params = new URLSearchParams({ lang });
  if (rules) params.set('rules', rules);
  const response = await fetch(`/api/deck/stats?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: text,
  });
  return json(response);
}

/// A text posted to a player check (`collection/check`, `collection/best`,
/// `trade/check`) or to `score`, with its options as the query.
export async function post(path, text, options) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) params.set(key, String(value));
  const response = await fetch(`/api/${path}?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: text,
  });
  return json(response);
}

/// The scoring modes and their tournaments, the default first.
export async function scoreModes() {
  return json(await fetch('/api/score/modes'));
}

/// The cards deck `a` needs that `b` (a binder, or a copies file when
/// `owned` is `copies`) lacks, as `blades deck missing --format json`
/// prints them (`missing`), and their names in `lang`.
export async function missingCards(a, b, rules, owned, lang) {
  const params = new URLSearchParams({ owned, lang });
  if (rules) params.set('rules', rules);
  const response = await fetch(`/api/deck/missing?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ a, b }),
  });
  return json(response);
}
