// Direct logit attribution (lens-v1.md section 4) as a waterfall: a bar a
// part of the model (the embeddings, each head, each layer's attention bias
// and MLP, the constant), each starting where the one above ended, so the
// last ends at the total, drawn below as one bar from zero: the core's `sum`
// beside its `logit`. The values are the core's; the page only lays them
// end to end. A position and a token are chosen above (the link's at= and
// token=; none: the last position and the model's own choice).
import { percent } from '../views/next-tokens.js';
import { tokenText } from '../views/format.js';
import { element, signed } from './dom.js';

// What a part's name in the core's JSON means, for the chart's labels.
export function partLabel(name) {
  if (name === 'embed') return 'embeddings';
  if (name === 'constant') return 'constant';
  const [layer, what] = name.split('.');
  if (what === 'mlp') return `layer ${layer} MLP`;
  if (what === 'attn_bias') return `layer ${layer} attention bias`;
  return `head ${name}`;
}

export class AttributionLens {
  constructor(body, panel) {
    this.panel = panel;
    this.about = 'What you see: the chosen token’s logit (its score before softmax turns scores into probabilities) at the chosen position, '
      + 'split into what each part of the model wrote into the residual stream (the running sum each layer adds its output to): the embeddings, each head, each MLP (the feed-forward block after attention). '
      + 'Two more rows where the model has them: a layer’s attention bias (the output projection’s bias, the same whatever the heads say) and the constant (the final norm’s bias and the unembedding’s, the same for every text). '
      + 'A bar to the right raised the logit and one to the left lowered it; each starts where the one above ended, and the last ends at the total, the logit itself. '
      + 'What to do: pick a position and a token; click a head’s name to show it above.';
    this.named = null;
    const controls = element(body, 'div', { className: 'lens-attribution-controls' });
    const field = (text) => {
      const box = element(controls, 'div', { className: 'field' });
      const label = element(box, 'label', { textContent: text });
      const select = element(box, 'select');
      select.id = `lens-${Math.random().toString(36).slice(2)}`;
      label.htmlFor = select.id;
      return select;
    };
    this.position = field('Position');
    this.token = field('Token');
    this.position.addEventListener('change', () => {
      const t = Number(this.position.value);
      panel.set({ at: t === this.T - 1 ? null : t, token: null });
    });
    this.token.addEventListener('change', () => panel.set({ token: this.token.value === '' ? null : Number(this.token.value) }));
    // a position past a shorter text: the last is shown, and the one chosen comes back with the text
    this.past = element(body, 'p', { className: 'note lens-attribution-past', hidden: true });
    this.title = element(body, 'p', { className: 'lens-attribution-title' });
    const legend = element(body, 'p', { className: 'note lens-attribution-legend' });
    element(legend, 'span', { className: 'lens-key lens-key-up' });
    element(legend, 'span', { textContent: 'red raises the logit, ' });
    element(legend, 'span', { className: 'lens-key lens-key-down' });
    element(legend, 'span', { textContent: 'blue lowers it; the line across the total bar is the logit the model computed' });
    this.chart = element(body, 'ol', { className: 'lens-waterfall' });
    this.chart.setAttribute('aria-label', 'Each part’s contribution to the logit');
    this.total = element(body, 'div', { className: 'lens-waterfall-total' });
    this.T = 0;
  }

  // The pickers, filled from the view's run (its top 10 at the position: the core's); then the request.
  request(settings, tokens) {
    const { view } = this.panel;
    const T = this.T = tokens.length;
    const past = settings.at != null && settings.at >= T;
    const at = settings.at == null || past ? T - 1 : settings.at;
    this.position.replaceChildren(...tokens.map((id, t) => new Option(`${t}: ${JSON.stringify(tokenText(view.labels[t]))}${t === T - 1 ? ' (the last)' : ''}`, String(t))));
    this.position.value = String(at);
    this.past.hidden = !past;
    this.past.textContent = past ? `Position ${settings.at} is past the text’s ${T} tokens: the last position is shown until the text is long enough again.` : '';
    const options = [new Option('the model’s own choice (its top guess)', '')];
    const { k, ids, probabilities } = view.result.top;
    const seen = new Set();
    for (let n = 0; n < Math.min(10, k); n++) {
      const id = ids[at * k + n];
      seen.add(id);
      options.push(new Option(`${JSON.stringify(tokenText(this.panel.label([id])[0]))} (${percent(probabilities[at * k + n])})`, String(id)));
    }
    if (settings.token != null && !seen.has(settings.token)) options.push(new Option(`token id ${settings.token}`, String(settings.token)));
    this.token.replaceChildren(...options);
    this.token.value = settings.token == null ? '' : String(settings.token);
    const request = { what: 'attribution' };
    if (settings.at != null && !past) request.position = settings.at;
    if (settings.token != null) request.token = settings.token;
    return request;
  }

  clear() {
    this.title.textContent = '';
    this.chart.textContent = '';
    this.total.textContent = '';
  }

  draw(json, view) {
    const label = (id) => JSON.stringify(tokenText(this.panel.label([id])[0]));
    this.title.textContent = `The logit of ${label(json.token)} after position ${json.position} (${label(json.tokens[json.position])}): ${json.logit.toFixed(3)}`;
    // where each bar starts and ends: the parts laid end to end, in the core's order
    const spans = [];
    let end = 0;
    for (const { value } of json.parts) {
      spans.push([end, end + value]);
      end += value;
    }
    const lo = Math.min(0, json.sum, json.logit, ...spans.flat());
    const hi = Math.max(0, json.sum, json.logit, ...spans.flat());
    const x = (v) => `${((v - lo) / (hi - lo || 1)) * 100}%`;
    const heads = json.parts.filter(({ name }) => /^\d+\.\d+$/.test(name));
    const strongest = heads.reduce((a, b) => (Math.abs(b.value) > Math.abs(a.value) ? b : a), heads[0]);
    // each new answer (another position or token) names its own strongest head for the replay
    this.named = strongest ? { layer: Number(strongest.name.split('.')[0]), head: Number(strongest.name.split('.')[1]) } : null;
    this.why = 'the head that moves this logit most, up or down';
    this.chart.textContent = '';
    json.parts.forEach(({ name, value }, n) => {
      const item = element(this.chart, 'li', { className: `lens-part ${value < 0 ? 'lens-down' : 'lens-up'}` });
      Object.assign(item.dataset, { name, value: String(value) });
      const head = /^\d+\.\d+$/.test(name);
      const tag = element(item, head ? 'button' : 'span', { className: 'lens-part-name', textContent: partLabel(name) });
      if (head) {
        tag.type = 'button';
        tag.title = `Show head ${name} in the views above`;
        const [l, h] = name.split('.').map(Number);
        tag.addEventListener('click', () => this.panel.selectHead(this, l, h, tag));
        tag.setAttribute('aria-description', 'shows it in the views above');
      }
      const track = element(item, 'span', { className: 'lens-part-track' });
      element(track, 'span', { className: 'lens-zero' }).style.left = x(0);
      const bar = element(track, 'span', { className: 'lens-part-bar' });
      const [a, b] = spans[n];
      bar.style.left = x(Math.min(a, b));
      bar.style.width = `calc(${x(Math.max(a, b))} - ${x(Math.min(a, b))})`;
      element(item, 'span', { className: 'lens-part-value', textContent: signed(value) });
    });
    this.total.textContent = '';
    const item = element(this.total, 'div', { className: 'lens-part lens-total' });
    Object.assign(item.dataset, { sum: String(json.sum), logit: String(json.logit) });
    element(item, 'span', { className: 'lens-part-name', textContent: 'total: the logit' });
    const track = element(item, 'span', { className: 'lens-part-track' });
    element(track, 'span', { className: 'lens-zero' }).style.left = x(0);
    const bar = element(track, 'span', { className: 'lens-part-bar' });
    bar.style.left = x(Math.min(0, json.sum));
    bar.style.width = `calc(${x(Math.max(0, json.sum))} - ${x(Math.min(0, json.sum))})`;
    element(track, 'span', { className: 'lens-logit-mark' }).style.left = x(json.logit);
    element(item, 'span', { className: 'lens-part-value', textContent: json.sum.toFixed(3) });
    element(this.total, 'p', { className: 'note lens-sum', textContent: `The ${json.parts.length} parts add up to ${json.sum.toFixed(4)}; the logit the model computed is ${json.logit.toFixed(4)} (the line on the total bar).` });
    this.panel.showReplay(this);
  }
}
