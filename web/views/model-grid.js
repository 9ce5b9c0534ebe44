// BertViz's model view: every layer × head's attention as a small heatmap,
// all on one colour scale (viridis, 0 … 1, one legend for the grid), one
// row per layer. Each thumbnail is a button; the grid is one tab stop whose
// arrow keys move the selection (roving tabindex), so 12 × 12 heads stay
// reachable by keyboard. Each canvas holds one pixel per cell and CSS scales
// it up without smoothing, so painting 144 heads is 144 small ImageData puts
// (the colours of one 256-step palette: the same scale as the heatmaps').
// markRow(t) outlines row t (token t listening) in every thumbnail at once:
// one CSS variable on the grid, no canvas repainted. The family shapes it:
// a causal model's upper triangle (keys after the query) is left faint, an
// encoder's (BERT: every token attends to every token) is painted like the
// rest; query heads that share a key/value head (grouped-query attention)
// are bracketed together under "kv g", a line between groups, and the
// caption says which heads read which (model/model.css styles both).
import { sequential } from './colors.js';
import { create, element } from './dom.js';

// viridis at 256 steps as RGBA words (little-endian: A B G R), so a
// thumbnail's pixel is one look-up; and the faint grey of a masked cell.
const rgba = ([r, g, b], a = 255) => ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
const palette = Uint32Array.from({ length: 256 }, (_, n) => rgba(sequential(n / 255)));
const masked = rgba([128, 128, 128], 40);

export class HeadGrid {
  // parent: where it goes; onSelect({layer, head}): a thumbnail was chosen.
  constructor(parent, { onSelect }) {
    this.onSelect = onSelect;
    // what the family changes, in one or two sentences ('' for a GPT: hidden)
    this.caption = element(parent, 'p', { className: 'note head-grid-caption', hidden: true });
    this.box = create('div', { className: 'head-grid-box' });
    this.legend = element(this.box, 'p', { className: 'legend head-grid-legend' });
    for (const [className, text] of [['legend-label', 'attention weight 0'], ['legend-bar legend-sequential', ''], ['legend-label', '1']]) {
      element(this.legend, 'span', { className, text });
    }
    this.grid = element(this.box, 'div', { className: 'head-grid', attrs: { role: 'group' } });
    this.grid.addEventListener('keydown', (event) => this.onKey(event));
    parent.append(this.box);
    this.cells = [];
    this.shape = null;
    this.selected = { layer: 0, head: 0 };
    this.row = null;
  }

  // attention: {shape: [L, H, T, T], data}; selected: {layer, head};
  // causal: keys after the query are masked (false: an encoder's, all T × T
  // painted); kvHeads: the key/value heads H's query heads share (H: each its own).
  draw(attention, selected, { causal = true, kvHeads = attention.shape[1] } = {}) {
    const [L, H, T] = attention.shape;
    const kv = kvHeads > 0 && kvHeads < H && H % kvHeads === 0 ? kvHeads : H;
    if (!this.shape || this.shape[0] !== L || this.shape[1] !== H || this.kv !== kv) this.build(L, H, kv);
    this.shape = attention.shape;
    if (this.causal !== causal) {
      this.causal = causal;
      this.grid.dataset.causal = causal ? '1' : '0';
      this.caption.textContent = captionOf(H, kv, causal);
      this.caption.hidden = !this.caption.textContent;
    }
    this.grid.setAttribute('aria-label', `Attention of all ${L * H} heads: ${L} layers by ${H} heads${kv < H ? ` sharing ${kv} key/value heads` : ''}, ${T} tokens`
      + `${causal ? '' : ', every token attending to every token'}; arrow keys choose a head`);
    const pixels = new ImageData(T, T);
    const words = new Uint32Array(pixels.data.buffer);  // one RGBA pixel a word
    this.cells.forEach(({ canvas }, k) => {
      if (canvas.width !== T) canvas.width = canvas.height = T;
      const at = k * T * T;
      for (let i = 0; i < T; i++)
        for (let j = 0; j < T; j++)
          // above the diagonal a causal mask hid the key: left faint, as a masked cell
          words[i * T + j] = causal && j > i ? masked : palette[Math.round(Math.max(0, Math.min(1, attention.data[at + i * T + j])) * 255)];
      canvas.getContext('2d').putImageData(pixels, 0, 0);
    });
    this.select(selected);
    if (this.row !== null && this.row >= T) this.markRow(null);
    if (this.grid.dataset.rows !== String(T)) {  // a keystroke's draw restyles nothing it need not
      this.grid.dataset.rows = String(T);
      this.grid.style.setProperty('--rows', String(T));
    }
  }

  // Row t of every head lit (null: none).
  markRow(t) {
    if (t === this.row) return;
    this.row = t;
    if (t === null) {
      delete this.grid.dataset.row;
      return;
    }
    this.grid.dataset.row = String(t);
    this.grid.style.setProperty('--row', String(t));
  }

  // kv: the key/value heads (H: none shared): query head h reads kv head h / (H / kv).
  build(L, H, kv = H) {
    this.grid.textContent = '';
    this.grid.style.setProperty('--heads', String(H));
    // the thumbnails' size follows --heads and the view's width (views.css)
    this.cells = [];
    this.kv = kv;
    this.causal = undefined;  // the caption is written again
    const size = H / kv;  // query heads a group
    const grouped = kv < H;
    if (grouped) this.grid.dataset.kvHeads = String(kv);
    else delete this.grid.dataset.kvHeads;
    const axis = (text = '') => create('span', { className: 'head-grid-axis', text });
    // grouped: a bracket over each group's columns, "kv g"
    if (grouped) {
      this.grid.append(axis());
      for (let g = 0; g < kv; g++) {
        const bracket = axis(`kv ${g}`);
        bracket.classList.add('head-grid-kv');
        bracket.style.gridColumn = `span ${size}`;
        bracket.title = `key/value head ${g}, shared by ${headsText(g * size, size)}`;
        this.grid.append(bracket);
      }
    }
    this.grid.append(axis());
    for (let h = 0; h < H; h++) this.grid.append(axis(`h${h}`));
    for (let l = 0; l < L; l++) {
      this.grid.append(axis(`L${l}`));
      for (let h = 0; h < H; h++) {
        const button = create('button', {
          type: 'button',
          className: 'model-thumb',
          attrs: { 'data-layer': String(l), 'data-head': String(h), 'aria-label': `layer ${l}, head ${h}${grouped ? `, reads key/value head ${Math.floor(h / size)}` : ''}` },
        });
        if (grouped) {
          button.dataset.kv = String(Math.floor(h / size));
          if (h > 0 && h % size === 0) button.classList.add('kv-first');  // a line between groups
        }
        button.tabIndex = -1;
        const canvas = element(button, 'canvas', { attrs: { 'aria-hidden': 'true' } });
        button.addEventListener('click', () => this.choose({ layer: l, head: h }));
        this.grid.append(button);
        this.cells.push({ button, canvas });
      }
    }
  }

  // The selected thumbnail: outlined, pressed, the grid's one tab stop.
  select({ layer, head }) {
    this.selected = { layer, head };
    const H = this.shape[1];
    this.cells.forEach(({ button }, k) => {
      const on = k === layer * H + head;
      button.classList.toggle('selected', on);
      button.setAttribute('aria-pressed', String(on));
      button.tabIndex = on ? 0 : -1;
    });
  }

  choose(selected) {
    this.select(selected);
    this.onSelect(selected);
  }

  onKey(event) {
    if (!this.shape) return;
    const [L, H] = this.shape;
    let { layer, head } = this.selected;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (event.key === 'Home') [layer, head] = [0, 0];
    else if (event.key === 'End') [layer, head] = [L - 1, H - 1];
    else if (moves[event.key]) {
      layer = Math.max(0, Math.min(L - 1, layer + moves[event.key][0]));
      head = Math.max(0, Math.min(H - 1, head + moves[event.key][1]));
    } else return;
    event.preventDefault();
    this.choose({ layer, head });
    this.cells[layer * H + head].button.focus();
  }
}

// "heads 0–1", "head 2" (n heads from `first`)
function headsText(first, n) {
  return n === 1 ? `head ${first}` : `heads ${first}–${first + n - 1}`;
}

// What the family changes in the grid, for a learner ('' when nothing):
// the groups of grouped-query attention, and an encoder's full squares.
export function captionOf(H, kv, causal) {
  const parts = [];
  if (kv < H) {
    const size = H / kv;
    const groups = Array.from({ length: kv }, (_, g) => `${headsText(g * size, size)} read kv ${g}`);
    parts.push(kv === 1
      ? `All ${H} query heads share one key/value head (kv 0): they read the same keys and values and differ only in their queries.`
      : `${H} query heads share ${kv} key/value heads: ${groups.join(', ')}. Heads in a group read the same keys and values and differ only in their queries, so each still has a pattern of its own.`);
  }
  if (!causal) parts.push('Every token attends to every token, before and after it (an encoder: no causal mask), so each square is filled; a GPT leaves the upper right empty, as no token sees the ones after it.');
  return parts.join(' ');
}
