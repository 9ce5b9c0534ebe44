// The Model view's selected head, large: its title, its weights as a
// heatmap, its communication graph, its cell marked in the grid, the
// "Open … in the playground" button's words, and the way back to the button
// that showed it. A component: the view hands it what it shows, read only
// ({result, family, labels, made}), and the head selected ({layer, head}).
import { headTrace } from '../views/head-trace.js';
import { underline } from '../views/marked-label.js';

// One head's T × T weights out of the run's attention.
function weightsOf({ attention }, layer, head) {
  const [, H, T] = attention.shape;
  const at = (layer * H + head) * T * T;
  return attention.data.slice(at, at + T * T);
}

export class HeadView {
  // parts: {section, title, back, openHead, heatmap, graph, grid}: the
  // layout's (layout.js), the grid's cell selection included.
  constructor(parts) {
    Object.assign(this, parts);
    this.from = null;         // the button that showed the head, for "Back to …"
    this.graphTokens = null;  // the tokens the graph was laid out for
  }

  // The px the head's heatmap and the graph may take, read together.
  readFirst() {
    return { heatmap: this.heatmap.figure.parentElement.clientWidth, graph: this.graph.width() };
  }

  // read: the widths read before this draw wrote (readFirst()); else read now.
  draw(shown, { layer, head }, read = this.readFirst()) {
    const { result, labels, made } = shown;
    const T = result.attention.shape[2];
    const weights = weightsOf(result, layer, head);
    this.title.textContent = `Layer ${layer}, head ${head}: who listens to whom`;
    this.openHead.textContent = `Open layer ${layer}, head ${head} in the playground`;
    this.drawHeatmap(shown, { layer, head }, weights, read.heatmap);
    // the same tokens keep the graph's nodes and layout: another head only reweighs its edges
    // an encoder's edges run both ways (every token attends to every token)
    const { causal } = shown.family;
    const id = `model:${causal ? '' : 'both:'}${made ?? ''}:${labels.join('\u0000')}`;
    // new tokens (typed, generated): "One query" shows the last, whose next
    // token the bars show; another head of the same tokens keeps the query
    const query = causal && id !== this.graphTokens ? T - 1 : undefined;
    this.graphTokens = id;
    this.graph.show(headTrace(id, labels, weights, T, { causal, marked: made }), { head: 0, step: 'weights', progress: 1, batch: 0 }, { width: read.graph, query });
    this.grid.select({ layer, head });
  }

  // The selected head's weights as a heatmap, in `width` px (else read now).
  drawHeatmap({ result, labels, made }, { layer, head }, weights = null, width = undefined) {
    weights ??= weightsOf(result, layer, head);
    const T = result.attention.shape[2];
    this.heatmap.draw({ shape: [T, T], data: weights }, { rowLabels: labels, colLabels: labels, marked: made, underline, maxCell: 26 }, { width });
  }

  hideBack() {
    this.back.hidden = true;
  }

  // The head was chosen away from its views (a lens's table below, "Start
  // here" above): its panel is scrolled into sight and outlined a moment,
  // or the click would change nothing the learner can see. from: {button,
  // name, fallback}: the button that chose it, named for "Back to …" (null: none).
  reveal(from) {
    if (from) {
      // the focus comes along to the head shown, with the way back beside it (above or below it)
      this.from = from;
      const above = from.button.getBoundingClientRect().top < this.section.getBoundingClientRect().top;
      this.back.textContent = `${above ? '↑' : '↓'} Back to ${from.name}`;
      this.back.hidden = false;
      this.back.focus({ preventScroll: true });
    }
    const box = this.section.getBoundingClientRect();
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (box.top < 0 || box.top > innerHeight - 80) this.section.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
    this.section.classList.remove('model-head-shown');
    void this.section.offsetWidth;  // the outline again on a second click
    this.section.classList.add('model-head-shown');
  }

  // Back to the button that showed the head, or its fallback (the first of
  // them still shown: a lens closed or another tab since, "Start here"
  // dismissed), in sight and focused; with neither, the head's title keeps
  // the focus from falling to the page.
  goBack() {
    const { button, fallback } = this.from ?? {};
    const shown = (e) => e?.isConnected && e.checkVisibility();
    const to = [button, fallback?.()].find(shown) ?? this.title;
    this.back.hidden = true;
    if (to === this.title) to.tabIndex = -1;
    to.scrollIntoView({ block: 'center', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    to.focus({ preventScroll: true });
  }
}
