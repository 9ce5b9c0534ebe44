// The Model view's parts, built once: the source box (a file, a folder, the
// progress of an opening), the facts, the text field, the token chips, the
// heads grid, the selected head large, the next-token panel (next.js) and
// the graph. Each part's events go to `on`; the view (view.js) keeps the
// parts and owns what they show.
import { element, filePicker } from '../views/dom.js';
import { Graph } from '../views/graph.js';
import { Heatmap } from '../views/heatmap.js';
import { HeadGrid } from '../views/model-grid.js';
import { TokenChips } from '../views/token-chips.js';
import { watchWidth } from '../views/observed-width.js';
import { defaultTemperature } from './defaults.js';
import { NextPanel } from './next.js';
import { Opening } from './opening.js';

// root: an element to fill; openHead: whether "Open in the playground" shows.
// on: {pickFiles(files), cancel(), folder(source, opening) → the
// folder part (folder.js), typed(text), position(t) (a chip), select({layer, head}),
// back(), resize(), openHead(), sampled(), generate(), node(node) (the graph's)}.
// → the parts, by name; `body` holds the views under the chips.
export function buildLayout(root, { on, openHead }) {
  const parts = {};
  const box = element(root, 'div', { className: 'model-view' });
  parts.box = box;
  // the view's own styles (the family's), loaded with it: not on a first visit
  element(box, 'link', { rel: 'stylesheet', href: new URL('./model.css', import.meta.url).href });
  const source = element(box, 'div', { className: 'model-source' });
  parts.name = element(source, 'p', { className: 'model-name' });
  parts.fileInput = filePicker(source, { label: 'Open a model file (.safetensors, with its config.json)', name: 'model-file',
    multiple: true, accept: '.safetensors,.json,application/json', onFiles: on.pickFiles });
  parts.progressBox = element(box, 'div', { className: 'model-progress', hidden: true });
  parts.progress = element(parts.progressBox, 'progress', { max: 1, value: 0 });
  parts.progress.setAttribute('aria-label', 'Opening the model');
  parts.progressText = element(parts.progressBox, 'span', { className: 'model-progress-text' });
  parts.cancel = element(parts.progressBox, 'button', { type: 'button', textContent: 'Cancel' });
  parts.cancel.addEventListener('click', on.cancel);
  parts.opening = new Opening(parts);  // which opening is current, and its progress
  parts.status = element(box, 'p', { className: 'model-status', hidden: true });
  parts.status.setAttribute('role', 'alert');
  parts.facts = element(box, 'p', { className: 'model-facts' });
  parts.folder = on.folder(source, parts.opening);  // its controls in the source box

  const textField = element(box, 'div', { className: 'field model-text-field' });
  const textLabel = parts.textLabel = element(textField, 'label', { textContent: 'Text' });  // a folder without tokenizer.json: ids; a BERT's: [MASK]
  // a textarea: a newline is text the model reads (↵ in the chips)
  parts.input = element(textField, 'textarea', { rows: 2, maxLength: 400, autocomplete: 'off', spellcheck: false });
  parts.input.id = `model-text-${Math.random().toString(36).slice(2)}`;
  textLabel.htmlFor = parts.input.id;
  parts.textError = element(textField, 'p', { className: 'field-error model-text-error', hidden: true });
  parts.textError.id = `${parts.input.id}-error`;
  parts.textError.setAttribute('aria-live', 'polite');
  parts.input.setAttribute('aria-describedby', parts.textError.id);
  parts.textNote = element(textField, 'p', { className: 'note model-text-note', hidden: true });
  parts.input.addEventListener('input', () => on.typed(parts.input.value));
  // the views drawn from an older text than the field's: which one
  parts.stale = element(box, 'p', { className: 'note model-stale', hidden: true });
  parts.chips = new TokenChips(box, { onPosition: on.position });
  // a model that has read none of the text yet: nothing to show, and why
  parts.empty = element(box, 'p', { className: 'model-empty', hidden: true });

  const body = element(box, 'div', { className: 'model-body', hidden: true });
  parts.body = body;
  const gridPanel = element(body, 'section', { className: 'model-grid-panel' });
  element(gridPanel, 'h3', { className: 'small-heading', textContent: 'Every head of every layer' });
  parts.grid = new HeadGrid(gridPanel, { onSelect: on.select });
  // a model without blocks (n_layer 0) has no head: its guesses come from the embeddings alone
  parts.noHeads = element(gridPanel, 'p', { className: 'note model-no-heads', hidden: true,
    textContent: 'This model has no blocks, so no attention layers: its next-token guesses come from the token and position embeddings alone.' });
  const headPanel = parts.headPanel = element(body, 'section', { className: 'model-head-panel' });
  parts.headTitle = element(headPanel, 'h3', { className: 'small-heading' });
  // after a head was shown from elsewhere (a lens's name, "Start here"): one press back to where it was chosen
  parts.back = element(headPanel, 'button', { type: 'button', className: 'model-head-back', hidden: true });
  parts.back.addEventListener('click', on.back);
  const headViews = element(headPanel, 'div', { className: 'model-head-views' });
  // a new width (a window resized, a phone turned) sizes the heatmap's cells again (the graph lays itself out)
  watchWidth(headViews, (width) => width && requestAnimationFrame(on.resize));
  parts.heatmap = new Heatmap(headViews, { name: 'weights', hook: 'model-head', label: 'weights', scale: 'sequential' });
  parts.openHead = element(headPanel, 'button', { type: 'button', className: 'model-open-head', hidden: !openHead });
  parts.openHead.addEventListener('click', on.openHead);
  // the guesses before the graph in the markup, as the wide layout reads
  // (grid | head | guesses, the graph under them): Tab went from the graph
  // back up to the sampling sliders
  parts.panel = new NextPanel(element(body, 'section', { className: 'model-next-panel' }),
    { temperature: defaultTemperature, onSampled: on.sampled, onGenerate: on.generate });
  // the graph takes the page's whole width: a token a node, 32 of them do
  // not fit the middle column (and it lays itself out again when that changes)
  const graphPanel = element(body, 'section', { className: 'model-graph-panel' });
  parts.graphPanel = graphPanel;
  parts.graph = new Graph(element(graphPanel, 'div', { className: 'model-graph' }), {
    onNode: on.node,
  });
  return parts;
}
