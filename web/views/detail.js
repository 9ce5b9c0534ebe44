// The hover/focus details: how the picked cell was computed, in numbers the
// core supplied (see core/attention/explain.hpp). Built with textContent only.
import { formatNumber, tokenText } from './format.js';
import { create, element } from './dom.js';

const maxTerms = 12;

function line(parent, text, className) {
  return element(parent, 'p', { className: className || null, text });
}

// bias: a projection's bias (gpt-v1.md section 3), added after the sum
function terms(parent, list, left, right, bias) {
  const shown = list.slice(0, maxTerms).map(([a, b]) => `${formatNumber(a)} × ${formatNumber(b)}`);
  const more = list.length > maxTerms ? ` + … (${list.length - maxTerms} more)` : '';
  const added = bias === undefined ? '' : `, then + bias ${formatNumber(bias)}`;
  line(parent, `Σ ${left} × ${right} = ${shown.join(' + ')}${more}${added}`, 'terms');
}

export function showDetail(panel, { name, label, row, col, value, rowLabel, colLabel, explanation, cross = false }) {
  panel.textContent = '';
  element(panel, 'h3', { text: `${label} [${row}, ${col}] = ${formatNumber(value)}` });
  where(panel, rowLabel, colLabel);
  if (!explanation) {
    if (name === 'mask') line(panel, value ? 'The mask lets this row attend to this column.' : 'The mask hides this column from this row.');
    else if (name === 'angles') line(panel, 'The angle this pair of q and k turns by at this position: the position times θ^(−2j/d), computed by the core.');
    else line(panel, 'An input of the scenario: nothing computed it.');
    return;
  }
  const e = explanation;
  line(panel, e.formula, 'formula');
  switch (e.step) {
    case 'q':
      terms(panel, e.terms, 'x', 'W_query', e.bias);
      break;
    case 'k':
      terms(panel, e.terms, cross ? 'context' : 'x', 'W_key', e.bias);
      break;
    case 'v':
      terms(panel, e.terms, cross ? 'context' : 'x', 'W_value', e.bias);
      break;
    case 'q_rotated':
    case 'k_rotated': {
      const [[own, cos], [other, sin]] = e.terms;
      line(panel, `angle ${formatNumber(e.angle)}: ${formatNumber(own)} × cos ${formatNumber(cos)} + ${formatNumber(other)} × sin ${formatNumber(sin)}`, 'terms');
      break;
    }
    case 'scores':
      if (e.terms) terms(panel, e.terms, e.formula.includes('rotated') ? `q_rotated[${row}]` : `q[${row}]`, e.formula.includes('rotated') ? `k_rotated[${col}]` : `k[${col}]`);
      break;
    case 'scaled':
      line(panel, `${formatNumber(e.input)} × ${formatNumber(e.factor)} ÷ ${formatNumber(e.temperature)} = ${formatNumber(e.value ?? -Infinity)}`, 'terms');
      break;
    case 'masked':
      line(panel, e.kept ? `kept: ${formatNumber(e.input)}` : `hidden: ${formatNumber(e.input)} becomes −∞`, 'terms');
      break;
    case 'weights': {
      line(panel, `row max ${formatNumber(e.row_max)}; Σ exp = ${formatNumber(e.exp_sum)}`, 'terms');
      const list = create('ol', { className: 'exps', start: 0 });
      e.exps.forEach((x, k) => {
        element(list, 'li', { text: `exp(${formatNumber(e.row[k] ?? -Infinity)} − max) = ${formatNumber(x)}`, className: k === col ? 'picked' : null });
      });
      panel.append(list);
      line(panel, `${formatNumber(e.exps[col])} ÷ ${formatNumber(e.exp_sum)} = ${formatNumber(e.value)}`, 'terms');
      break;
    }
    case 'out':
      terms(panel, e.terms, `weights[${row}, k]`, `v[k, ${col}]`);
      break;
    default:
      break;
  }
}

// Where a cell sits: its row's and its column's token, apart.
function where(panel, rowLabel, colLabel) {
  const p = line(panel, '', 'where');
  const part = (name, label) => create('span', { className: 'where-part', text: `${name} “${label}”` });
  p.append(part('row', rowLabel), ' · ', part('column', colLabel));
}

// A cell of the out step's products: weights[i, j] · v[j, c], one term of
// out[i, c] = Σ_j weights[i, j] · v[j, c], as the core's explanation has it.
export function showProductDetail(panel, { row, j, c, rowLabel, colLabel, explanation: e }) {
  panel.textContent = '';
  const [w, v, product] = e.terms[j];
  element(panel, 'h3', { text: `weights[${row}, ${j}] · v[${j}, ${c}] = ${formatNumber(product)}` });
  where(panel, rowLabel, colLabel);
  line(panel, `${formatNumber(w)} × ${formatNumber(v)} = ${formatNumber(product)}`, 'terms');
  line(panel, `Column ${c} of these products sums to out[${row}, ${c}] = ${formatNumber(e.value)}.`, 'formula');
}

export function clearDetail(panel) {
  panel.textContent = '';
  const p = line(panel, '', 'hint');
  // a touch screen's hint has no keys in it (views.css shows one of the two)
  const span = (className, text) => create('span', { className, text });
  p.append(span('key-hint', 'Hover over a cell, or focus a matrix and use the arrow keys,'), span('touch-hint', 'Tap a cell'), ' to see how its number was computed.');
}

// A graph node: what it receives, strongest first. The weights are the
// core's; the page only sorts them for reading.
export function showNodeDetail(panel, { batch, node, pool }, summary, keep) {
  panel.textContent = '';
  element(panel, 'h3', { text: `node ${node}${named(pool.tokens, node)} (batch element ${batch})` });
  const incoming = [];
  for (let j = 0; j < summary.context_length; j++) if (keep.data[node * summary.context_length + j]) incoming.push(j);
  line(panel, `${incoming.length} edge${incoming.length === 1 ? '' : 's'} point here: it may read ${summary.cross ? 'context' : 'token'}${incoming.length === 1 ? '' : 's'} ${incoming.join(', ')}.`, 'where');
  if (!pool.weights) {
    line(panel, 'Step to weights to see how much each edge carries.', 'hint');
    return;
  }
  line(panel, `out[${node}] = Σ_j weights[${node}, j] · v[j], with weights:`, 'formula');
  // sorted by weight, so no numbering: "from 1" is the token's own position
  const list = create('ul', { className: 'exps by-weight' });
  incoming
    .map((j) => ({ j, w: pool.weights[node * summary.context_length + j] }))
    .sort((a, b) => b.w - a.w)
    .slice(0, 12)
    .forEach(({ j, w }) => {
      element(list, 'li', { text: `from ${j}${named(summary.cross ? pool.context : pool.tokens, j)}: ${formatNumber(w)}` });
    });
  panel.append(list);
}

// A token's text after its position, unless the scenario names no tokens
// (then its labels are the positions themselves: "node 1", not "node 1 “1”").
export function named(tokens, k) {
  const text = tokens?.[k];
  return text === undefined || text === String(k) ? '' : ` “${tokenText(text)}”`;
}
