// Every word of the app, in English and Japanese. Game words are the
// official glossary's (data/glossary.yaml): シングル, デッキケース,
// アクセサリー, 属性, 種族, キャラクター. Card text, names and a query's
// meaning come from the server in the language asked; only the app's own
// words are here.

const WORDS = {
  en: {
    app: 'blades',
    language: 'Language',
    'builtin-pool': 'the built-in pool',
    find: 'Find cards',
    placeholder: 'Search: words, or e:fire t:construct star>=3',
    table: 'Table',
    faces: 'Faces',
    cards: n => (n === 1 ? '1 card' : `${n} cards`),
    'no-card': 'No card matches',
    'faces-first': n => `Faces of the first ${n} cards`,
    'bad-query': 'The query cannot be read',
    deck: 'Deck',
    format: 'Format',
    zone: 'Zone',
    add: 'Add to deck',
    remove: 'Remove',
    open: 'Open',
    legal: 'Legal',
    'not-legal': n => (n === 1 ? 'Not legal: 1 problem' : `Not legal: ${n} problems`),
    'not-checked': 'Not checked: the list cannot be read',
    empty: 'The deck is empty: add cards from the results (click +, or Enter on a row).',
    share: 'Share link',
    sheet: 'Print sheet',
    clear: 'Clear',
    paste: 'Paste a list',
    'paste-hint': '2 Canyon Wyrm\nRivet Gremlin x1\n… or a share code (MB1-…)',
    read: 'Read',
    export: 'Export',
    download: 'Download',
    saved: 'Saved decks',
    'deck-name': 'Deck name',
    save: 'Save',
    load: 'Open',
    delete: 'Delete',
    character: 'Character',
    back: 'Back to the search',
    summary: 'Summary',
    effect: 'Effect',
    errata: 'Errata history',
    'no-errata': 'No errata.',
    face: 'Face',
    was: 'Before',
    unknown: 'Not found',
    failed: 'The server did not answer',
    compare: 'Compare with another version',
    'compare-with': 'Earlier version',
    'compare-pasted': 'A pasted list',
    'compare-run': 'Compare',
    'same-deck': 'The same deck',
    'changed-deck': 'Changes to this deck:',
    'not-compared': 'Not compared: a list cannot be read',
    none: 'none',
    'nav-cards': 'Cards',
    'nav-collection': 'Collection',
    'nav-trade': 'Trade',
    'nav-score': 'Score sheet',
    duel: 'Duel Mode',
    'col-search': 'Find a card to add',
    'col-picked': 'Cards picked',
    'col-empty': 'Pick cards from the search to check them as a collection.',
    'col-symbols': 'Shared',
    'col-best': 'Best collection of a binder',
    'col-find-best': 'Find the best',
    rp: n => `${n} RP`,
    'free-market': 'Free Market Mode',
    'side-a': 'Side A',
    'side-b': 'Side B',
    'trade-cards': 'Cards, one per line',
    dollars: 'Millennium Dollars',
    friendship: 'Friendship cards',
    'trade-run': 'Check the trade',
    'trade-value': v => `${v.side}: worth ${v.value} (STAR ${v.stars} + ${v.dollars} Millennium Dollars)`,
    'trade-balance': v => `${v.side} should add ${v.amount}`,
    'trade-even': 'Even',
    'score-mode': 'Mode',
    'score-name': 'Player',
    'score-place': 'Place',
    'score-collections': 'Collections (cards in each)',
    'score-friendship': 'Friendship cards received',
    'score-friendship-hint': 'Ben: 2, Cid: 7',
    'score-add-player': 'Add a player',
    'score-run': 'Rank',
    'score-rank': 'Rank',
    'score-total': 'VP',
    'score-detail': p =>
      `tournaments ${p['tournament-vp']} · collections ${p['collection-vp']} · money ${p['money-vp']} · friendship ${p['friendship-vp']}`,
    missing: 'Missing from my binder',
    'missing-owned': 'What I own',
    'missing-binder': 'A binder (a list of cards)',
    'missing-copies': 'A copies file (sets: and cards:)',
    'missing-run': 'Find what is missing',
    'missing-count': n => (n === 1 ? '1 copy missing' : `${n} copies missing`),
    'missing-none': 'Nothing is missing: you own every card of the deck',
    'missing-line': c => `${c.missing} ${c.name} (${c.own} of ${c.need} owned)`,
    stats: 'Statistics',
    vp: n => `${n} VP`,
    'stats-cards': 'Cards',
    'stats-kinds': 'Kinds',
    'stats-total': 'total',
    'stats-elements': 'Elements',
    'stats-types': 'Types',
    'stats-collection': 'Collection',
    'stats-best': 'the best',
    'stats-no-collection': 'none: no two singles share a symbol with different STARs',
  },
  ja: {
    app: 'blades',
    language: '言語',
    'builtin-pool': '内蔵のカードプール',
    find: 'カードを探す',
    placeholder: '検索：言葉、または 属性:炎 種族:機械 star>=3',
    table: '表',
    faces: 'カード画像',
    cards: n => `${n}枚`,
    'no-card': '一致するカードはありません',
    'faces-first': n => `最初の${n}枚のカード画像`,
    'bad-query': 'クエリを読めません',
    deck: 'デッキ',
    format: 'フォーマット',
    zone: '区分',
    add: 'デッキに加える',
    remove: '外す',
    open: '開く',
    legal: '適正',
    'not-legal': n => `不適正：問題${n}件`,
    'not-checked': '未確認：リストを読めません',
    empty: 'デッキは空です。結果からカードを加えてください（＋をクリック、または行でEnter）。',
    share: '共有リンク',
    sheet: '印刷用シート',
    clear: '空にする',
    paste: 'リストを貼り付ける',
    'paste-hint': '2 カード名\nカード名 x1\n…または共有コード（MB1-…）',
    read: '読み込む',
    export: '書き出す',
    download: 'ダウンロード',
    saved: '保存したデッキ',
    'deck-name': 'デッキ名',
    save: '保存',
    load: '開く',
    delete: '削除',
    character: 'キャラクター',
    back: '検索に戻る',
    summary: '概要',
    effect: '効果',
    errata: 'エラッタ履歴',
    'no-errata': 'エラッタはありません。',
    face: 'カード画像',
    was: '以前',
    unknown: '見つかりません',
    failed: 'サーバーが応答しません',
    compare: '別の版と比べる',
    'compare-with': '以前の版',
    'compare-pasted': '貼り付けたリスト',
    'compare-run': '比べる',
    'same-deck': '同じデッキです',
    'changed-deck': 'このデッキの変更：',
    'not-compared': '比べられません：リストを読めません',
    none: 'なし',
    'nav-cards': 'カード',
    'nav-collection': 'コレクション',
    'nav-trade': 'トレード',
    'nav-score': '得点表',
    duel: 'デュエルモード',
    'col-search': '加えるカードを探す',
    'col-picked': '選んだカード',
    'col-empty': '検索からカードを選ぶと、コレクションとして確認します。',
    'col-symbols': '共通',
    'col-best': 'バインダーの最高のコレクション',
    'col-find-best': '最高を探す',
    rp: n => `${n} RP`,
    'free-market': 'フリーマーケットモード',
    'side-a': 'A側',
    'side-b': 'B側',
    'trade-cards': 'カード（1行に1枚）',
    dollars: 'ミレニアムドル',
    friendship: '友情カード',
    'trade-run': 'トレードを確認',
    'trade-value': v => `${v.side}：価値${v.value}（STAR ${v.stars}＋${v.dollars}ミレニアムドル）`,
    'trade-balance': v => `${v.side}が${v.amount}を加えます`,
    'trade-even': '釣り合っています',
    'score-mode': 'モード',
    'score-name': 'プレイヤー',
    'score-place': '順位',
    'score-collections': 'コレクション（各枚数）',
    'score-friendship': '受け取った友情カード',
    'score-friendship-hint': 'Ben: 2, Cid: 7',
    'score-add-player': 'プレイヤーを加える',
    'score-run': '順位を出す',
    'score-rank': '順位',
    'score-total': '勝利点',
    'score-detail': p =>
      `トーナメント ${p['tournament-vp']} · コレクション ${p['collection-vp']} · ミレニアムドル ${p['money-vp']} · 友情カード ${p['friendship-vp']}`,
    missing: 'バインダーに足りないカード',
    'missing-owned': '持っているカード',
    'missing-binder': 'バインダー（カードのリスト）',
    'missing-copies': '所持枚数ファイル（sets: と cards:）',
    'missing-run': '足りないカードを探す',
    'missing-count': n => `${n}枚足りません`,
    'missing-none': '足りないカードはありません',
    'missing-line': c => `${c.name}：${c.missing}枚不足（${c.need}枚中${c.own}枚所持）`,
    stats: '統計',
    vp: n => `${n}勝利点`,
    'stats-cards': 'カード',
    'stats-kinds': 'カードの種類',
    'stats-total': '合計',
    'stats-elements': '属性',
    'stats-types': '種族',
    'stats-collection': 'コレクション',
    'stats-best': '最高',
    'stats-no-collection': 'なし：異なるSTARで同じシンボルを持つシングルが2枚ありません',
  },
};

// What each deck rule says, by its stable name (docs: `blades::rules::rule`).
// English pages show the check's own message; these are the Japanese titles,
// followed by the cards the violation names.
const RULES_JA = {
  'too-many-singles': 'シングルが多すぎます',
  'too-many-deck-boxes': 'デッキケースが多すぎます',
  'too-many-accessories': 'アクセサリーが多すぎます',
  'duplicate-card': '同じカードが2枚以上あります',
  'too-many-in-zone': 'この区分のカードが多すぎます',
  'too-few-in-zone': 'この区分のカードが少なすぎます',
  'too-many-of-a-card': '同じカードが多すぎます',
  'not-a-players-card': 'プレイヤーのカードではありません',
  'no-shared-symbol': '全カードに共通のシンボルがありません',
  'duplicate-star': '同じSTARのカードが2枚以上あります',
  'too-few-cards': 'カードが少なすぎます',
  'too-many-cards': 'カードが多すぎます',
  'no-collection': 'コレクションを作れません',
  'unequal-value': '両側の価値が釣り合いません',
  'too-many-copies': '枚数が多すぎます',
  'set-not-in-play': '使用中でないセットのカードです',
};

// The scoring modes and tournaments (data/score-modes.yaml) by id, in
// Japanese.
const SCORE_JA = {
  standard: '標準',
  liquidation: '清算モード',
  'pre-release': 'プレリリース',
  'round-1': '第1ラウンド',
  'round-2': '第2ラウンド',
  final: '決勝ラウンド',
};

// The built-in deck formats and their zones (data/deck-formats.yaml) by
// id, in Japanese; a pool's own formats show the names it gives them.
const FORMATS_JA = {
  tournament: 'トーナメント用デッキ',
  'millennium-deck': 'メインデッキとミレニアムデッキ',
  'starting-hand': 'トランプ対戦の初期手札',
  holdings: 'ボードゲームの所持品',
};
const ZONES_JA = {
  deck: 'デッキ',
  'main-deck': 'メインデッキ',
  'millennium-deck': 'ミレニアムデッキ',
  hand: '手札',
  holdings: '所持品',
};

export const LANGS = Object.keys(WORDS);

let lang = 'en';

export function language() {
  return lang;
}

/// The language: the one chosen before, else the browser's, else English.
export function initialLanguage(stored, browser) {
  if (LANGS.includes(stored)) return stored;
  for (const tag of browser || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function setLanguage(next) {
  lang = LANGS.includes(next) ? next : 'en';
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll('[data-t-placeholder]')) {
    el.placeholder = t(el.dataset.tPlaceholder);
  }
  for (const el of document.querySelectorAll('[data-t-label]')) {
    el.setAttribute('aria-label', t(el.dataset.tLabel));
  }
}

/// A word of the app; a function word takes its argument (a count).
export function t(key, arg) {
  const word = WORDS[lang][key] ?? WORDS.en[key] ?? key;
  return typeof word === 'function' ? word(arg) : word;
}

/// A violation in the page's language: the check's own words in English,
/// the rule's title in Japanese.
export function violationText(violation) {
  if (lang === 'ja') return RULES_JA[violation.rule] ?? violation.rule;
  return violation.message;
}

/// A deck format's name, or one of its zones', in the page's language.
export function formatName(format) {
  return (lang === 'ja' && FORMATS_JA[format.id]) || format.name;
}

export function zoneName(zone) {
  return (lang === 'ja' && ZONES_JA[zone.id]) || zone.name;
}

/// A scoring mode's name, or a tournament's, in the page's language.
export function scoreWord(entry) {
  return (lang === 'ja' && SCORE_JA[entry.id]) || entry.name;
}
