// Scaled attention: why scores are divided by sqrt(head_size). The
// variances and the softmaxes come from the core.
import { barChart, lineChart } from './chart.js';
import { code, element, prose, row } from './common.js';

const values = [0.1, -0.2, 0.3, -0.2, 0.5];
const headSizes = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export default {
  id: 'scaling',
  playground: () => '#preset=scaled-attention&step=scaled',
  render(root, { engine, state, update }) {
    const factor = state.factor;
    const lesson = engine.scalingLesson({ seed: 1337, B: 4, T: 64, headSizes, values, factors: [1, 8, factor] });
    prose(root, 'With unit-variance q and k, each score q·k is a sum of head_size products, so its variance grows like head_size. Scaled by head_size**-0.5 it stays near 1: when q and k are unit variance, so is wei.');
    code(root, 'k = torch.randn(B, T, head_size)\nq = torch.randn(B, T, head_size)\nwei = q @ k.transpose(-2, -1) * head_size**-0.5');
    const plot = element(root, 'section', { className: 'lesson-card' });
    // the plot keeps its width and scrolls sideways on a phone: the keyboard must reach it
    Object.assign(plot, { tabIndex: 0, ariaLabel: 'The scores\' variance against head_size, unscaled and scaled' });
    element(plot, 'h3', { text: 'Variance of the scores as head_size grows (B = 4, T = 64, seed 1337)' });
    lineChart(plot, {
      title: 'Score variance against head size, unscaled and scaled',
      xLabel: 'head_size',
      yLabel: 'variance',
      series: [
        { label: 'q @ kᵀ', color: '#b2182b', points: lesson.variances.map((v) => [v.head_size, v.scores]) },
        { label: 'q @ kᵀ · head_size^-0.5', color: '#2166ac', points: lesson.variances.map((v) => [v.head_size, v.scaled]) },
      ],
    });
    const table = element(plot, 'table', { className: 'lesson-table' });
    const head = table.createTHead().insertRow();
    for (const text of ['head_size', 'k.var()', 'q.var()', 'wei.var() unscaled', 'scaled']) element(head, 'th', { text });
    const body = table.createTBody();
    for (const v of lesson.variances) {
      const r = body.insertRow();
      for (const x of [v.head_size, v.k.toFixed(4), v.q.toFixed(4), v.scores.toFixed(4), v.scaled.toFixed(4)]) r.insertCell().textContent = String(x);
    }

    prose(root, 'Why it matters: the scores feed a softmax. Large-variance scores make it peaky, converging to one-hot, so each token would listen to a single other token, especially at initialization, where attention should be diffuse.');
    code(root, 'torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1)\ntorch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5])*8, dim=-1) # gets too peaky, converges to one-hot');
    const bars = row(root);
    const labels = values.map(String);
    for (const s of lesson.softmax) {
      const card = element(bars, 'section', { className: 'lesson-card' });
      element(card, 'h3', { text: `× ${s.factor}: variance ${s.variance.toFixed(4)}` });
      barChart(card, { title: `softmax of the values times ${s.factor}`, bars: s.weights.map((value, i) => ({ label: labels[i], value })) });
    }
    const slider = element(root, 'div', { className: 'field factor-field' });
    const label = element(slider, 'label', { text: `Factor ${factor.toFixed(2)} (the third chart)` });
    label.htmlFor = 'scaling-factor';
    const input = element(slider, 'input');
    Object.assign(input, { type: 'range', id: 'scaling-factor', min: '0.25', max: '16', step: '0.25', value: String(factor) });
    input.addEventListener('input', () => update({ factor: Number(input.value) }, { history: "replace" }));
    return () => {};
  },
};
