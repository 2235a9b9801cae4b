// The results table: only the rows in view are in the page (a pool of
// thousands of cards scrolls as one of ten), each with a button that adds
// the card to the deck. The server answers a search with its count and a
// first page of rows; the rest are fetched a page at a time as they come
// into view (a row not yet here is drawn empty). Keys: ↓ ↑ move, Enter
// adds, o opens the card.

const SPARE = 6; // rows drawn above and below the view, for smooth scrolling
/// The rows asked for at once: a few screens of them.
export const PAGE = 50;

export class ResultList {
  constructor(container, { onAdd, onOpen, addLabel }) {
    this.container = container;
    this.onAdd = onAdd;
    this.onOpen = onOpen;
    this.addLabel = addLabel;
    this.rows = [];
    this.count = 0;
    this.head = [];
    this.fetchRows = null;
    this.asked = new Set(); // the pages asked for, by number
    this.active = -1;
    this.rowHeight = 0;
    container.classList.add('list');
    container.setAttribute('role', 'grid');
    this.header = el('div', 'row head');
    this.header.setAttribute('role', 'row');
    this.viewport = el('div', 'viewport');
    this.spacer = el('div', 'spacer');
    this.viewport.append(this.spacer);
    container.append(this.header, this.viewport);
    this.viewport.addEventListener('scroll', () => this.draw());
    this.viewport.addEventListener('keydown', e => this.key(e));
    this.viewport.addEventListener('click', e => this.click(e));
    window.addEventListener('resize', () => this.draw());
  }

  /// Shows `count` results under `head` (the columns' names): `rows`
  /// ({id, kind, cells}) from position 0 (a page, or all), and
  /// `fetchRows(from, limit)` for the others (a promise of those rows) as
  /// they come into view.
  show(head, count, rows, fetchRows) {
    this.head = head;
    this.count = count;
    this.rows = rows.slice();
    this.fetchRows = fetchRows;
    this.asked = new Set();
    this.active = count ? 0 : -1;
    this.header.replaceChildren(el('span', 'cell add'), ...head.map((h, i) => cell(h, i)));
    this.viewport.scrollTop = 0;
    this.container.hidden = count === 0;
    this.draw();
  }

  /// Asks for the page of rows that holds row `i`, once; they are drawn
  /// when they come, unless another search was shown since.
  async fetchPage(i) {
    const page = Math.floor(i / PAGE);
    if (this.asked.has(page) || !this.fetchRows) return;
    this.asked.add(page);
    const shown = this.fetchRows;
    try {
      const rows = await shown(page * PAGE, PAGE);
      if (shown !== this.fetchRows) return;
      rows.forEach((row, n) => {
        this.rows[page * PAGE + n] = row;
      });
      this.draw();
    } catch {
      // Asked again when next in view.
      if (shown === this.fetchRows) this.asked.delete(page);
    }
  }

  /// The height of one row, measured once from a drawn row.
  measure() {
    if (this.rowHeight) return this.rowHeight;
    const probe = this.rowElement(0);
    this.spacer.append(probe);
    this.rowHeight = probe.getBoundingClientRect().height || 36;
    probe.remove();
    return this.rowHeight;
  }

  draw() {
    if (!this.count) {
      this.spacer.replaceChildren();
      this.spacer.style.height = '0px';
      return;
    }
    const h = this.measure();
    this.spacer.style.height = `${this.count * h}px`;
    const top = this.viewport.scrollTop;
    const seen = this.viewport.clientHeight || h * 10;
    const first = Math.max(0, Math.floor(top / h) - SPARE);
    const last = Math.min(this.count, Math.ceil((top + seen) / h) + SPARE);
    const focused = this.viewport.contains(document.activeElement);
    const drawn = [];
    for (let i = first; i < last; i++) {
      if (!this.rows[i]) this.fetchPage(i);
      const row = this.rows[i] ? this.rowElement(i) : this.pendingRow(i);
      row.style.transform = `translateY(${i * h}px)`;
      drawn.push(row);
    }
    this.spacer.replaceChildren(...drawn);
    if (focused) this.focusActive();
  }

  /// A row whose card has not come yet: its place, empty.
  pendingRow(i) {
    const row = el('div', 'row pending');
    row.setAttribute('role', 'row');
    row.dataset.index = i;
    row.tabIndex = i === this.active ? 0 : -1;
    return row;
  }

  rowElement(i) {
    const data = this.rows[i];
    const row = el('div', 'row');
    row.setAttribute('role', 'row');
    row.dataset.index = i;
    row.dataset.id = data.id;
    row.tabIndex = i === this.active ? 0 : -1;
    const add = el('button', 'cell add');
    add.type = 'button';
    add.textContent = '+';
    add.title = this.addLabel();
    add.setAttribute('aria-label', `${this.addLabel()}: ${data.cells[1]}`);
    add.tabIndex = -1;
    add.dataset.add = data.id;
    const cells = data.cells.map((text, c) => {
      if (c !== 1) return cell(text, c);
      const link = el('a', 'cell c1');
      link.href = `#/card/${encodeURIComponent(data.id)}`;
      link.textContent = text;
      link.tabIndex = -1;
      return link;
    });
    row.append(add, ...cells);
    return row;
  }

  click(e) {
    const add = e.target.closest('[data-add]');
    if (!add) return;
    this.active = Number(add.parentElement.dataset.index);
    if (this.rows[this.active]) this.onAdd(this.rows[this.active]);
  }

  key(e) {
    if (this.active < 0) return;
    const move = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (move) {
      e.preventDefault();
      this.moveTo(this.active + move);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (this.rows[this.active]) this.onAdd(this.rows[this.active]);
    } else if (e.key === 'o') {
      e.preventDefault();
      if (this.rows[this.active]) this.onOpen(this.rows[this.active]);
    }
  }

  moveTo(i) {
    this.active = Math.max(0, Math.min(this.count - 1, i));
    const h = this.measure();
    const top = this.active * h;
    const view = this.viewport;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + h > view.scrollTop + view.clientHeight) view.scrollTop = top + h - view.clientHeight;
    this.draw();
    this.focusActive();
  }

  /// Keyboard focus on the active row (the first, from the search box).
  focusActive() {
    const row = this.spacer.querySelector(`[data-index="${this.active}"]`);
    if (row) {
      for (const r of this.spacer.children) r.tabIndex = r === row ? 0 : -1;
      row.focus({ preventScroll: true });
    }
  }

  focusFirst() {
    if (this.count) this.moveTo(0);
  }
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

function cell(text, column) {
  const node = el('span', `cell c${column}`);
  node.setAttribute('role', 'gridcell');
  node.textContent = text;
  return node;
}
