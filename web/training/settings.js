// "Set the task and model yourself": a training file built from fields, the
// toy tasks' or a text task's (the shipped corpus, pasted text or a file
// from disk, and the GPT's options). The core checks the file; a refusal is
// its one line under the fields (under the text for a corpus it refuses),
// and the fields, the learner's text and the current run all stay.
import { corpusBytes, corpusTooLarge } from '../engine/engine.js';
import { corpusNames, trainingCorpora } from '../engine/presets.js';
import { element } from './dom.js';

const toyTasks = ['previous', 'reverse', 'sort', 'induction'];

// Each family's starting values: the induction preset's, and text-gpt's.
const defaults = {
  toy: { tokens: 8, length: 16, half: 8, lo: 3, hi: 8, embed: 16, heads: 1, layers: 2, mlp: 0, norm: false, bias: false, activation: 'relu', steps: 1000, lr: 0.003 },
  text: { length: 32, embed: 64, heads: 4, layers: 2, mlp: 4, norm: true, bias: true, activation: 'gelu', steps: 1100, lr: 0.001 },
};

// A file from disk named as task.corpus wants ([a-z0-9-]+.txt): "Moby Dick.TXT" → "moby-dick.txt".
export function corpusName(fileName) {
  const stem = fileName.replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56);
  return `${stem || 'your-file'}.txt`;
}

// What the core says about the learner's text rather than the model: shown under the text.
const aboutCorpus = /^(task\.(text|corpus)\b|training: \d+ bytes exceed|task\.length: \d+ is not shorter than each split)/;


export class TrainingSettings {
  // onSubmit({text, corpora}): a training file the learner built, to load.
  constructor(parent, { onSubmit }) {
    this.onSubmit = onSubmit;
    const details = element(parent, 'details', { className: 'training-settings' });
    element(details, 'summary', { textContent: 'Set the task and model yourself' });
    const form = element(details, 'form', { className: 'training-settings-form' });
    this.form = form;
    this.fields = {};
    // a field shown for some tasks only: for = 'toy', 'text' or a list of task names
    const wrap = (label, shownFor) => {
      const w = element(form, 'label', { className: 'field', textContent: `${label} ` });
      w.dataset.for = [].concat(shownFor).join(' ');
      return w;
    };
    const number = (name, label, shownFor, attrs = {}) => {
      this.fields[name] = element(wrap(label, shownFor), 'input', { type: 'number', name, id: `train-${name}`, ...attrs });
    };
    const choice = (name, label, shownFor, options) => {
      const select = element(wrap(label, shownFor), 'select', { name, id: `train-${name}` });
      for (const [value, text] of options) select.add(new Option(text, value));
      this.fields[name] = select;
    };
    const check = (name, label, shownFor) => {
      const w = wrap('', shownFor);
      w.classList.add('field-check');
      this.fields[name] = element(w, 'input', { type: 'checkbox', name, id: `train-${name}` });
      w.append(label);
    };
    const all = [...toyTasks, 'text'];
    choice('task', 'Task', all, [...toyTasks.map((t) => [t, t]), ['text', 'text (a character-level language model)']]);
    number('tokens', 'Tokens', toyTasks, { min: 1, max: 64 });
    number('length', 'Length', ['previous', 'induction', 'text'], { min: 1, max: 64 });
    number('half', 'Half (reverse, sort)', ['reverse', 'sort'], { min: 1, max: 32 });
    number('lo', 'Period from', ['induction'], { min: 1, max: 64 });
    number('hi', 'to', ['induction'], { min: 1, max: 64 });
    choice('corpus', 'Text', 'text', [...corpusNames.map((n) => [n, `${n} (shipped)`]), ['paste', 'paste your own'], ['file', 'open a file']]);
    this.textBox = element(form, 'div', { className: 'training-corpus' });
    this.textBox.dataset.for = 'text';
    const pasted = element(this.textBox, 'label', { className: 'field', textContent: 'Your text ' });
    this.pasted = element(pasted, 'textarea', { id: 'train-text', rows: 4, spellcheck: false });
    const opened = element(this.textBox, 'label', { className: 'field', textContent: 'Your file (UTF-8 text) ' });
    this.file = element(opened, 'input', { type: 'file', id: 'train-file', accept: '.txt,text/plain' });
    element(this.textBox, 'p', { className: 'field-hint', id: 'train-text-hint',
      textContent: `Pasted text goes into the training file, whose limit is 64 KiB; a file you open may hold up to ${corpusBytes / (1 << 20)} MiB of UTF-8 text. Either needs more than Length characters in each of its two parts (90% to train, 10% to validate), with at most 1,024 distinct characters.` });
    this.corpusError = element(this.textBox, 'p', { className: 'field-error', id: 'train-corpus-error', hidden: true });
    this.corpusError.setAttribute('role', 'alert');
    this.pasted.setAttribute('aria-describedby', 'train-text-hint train-corpus-error');
    this.file.setAttribute('aria-describedby', 'train-text-hint train-corpus-error');
    number('embed', 'Embedding', all, { min: 1, max: 128 });
    number('heads', 'Heads', all, { min: 1, max: 8 });
    number('layers', 'Layers', all, { min: 0, max: 4 });
    number('mlp', 'MLP width (× embedding; 0: none)', all, { min: 0, max: 8 });
    choice('activation', 'Activation', all, [['relu', 'ReLU'], ['gelu', 'GELU'], ['gelu_tanh', 'GELU (tanh)']]);
    check('norm', ' LayerNorm', all);
    check('bias', ' Biases', all);
    number('steps', 'Steps', all, { min: 1, max: 100000 });
    number('lr', 'Learning rate', all, { step: 'any', min: 0 });
    element(form, 'button', { type: 'submit', id: 'train-custom', textContent: 'Train these settings' });
    this.error = element(form, 'p', { className: 'field-error', id: 'train-settings-error', hidden: true });
    this.error.setAttribute('role', 'alert');

    this.fields.task.value = 'induction';
    this.setValues(defaults.toy, 'toy');
    // a toy's model is no start for a language model, nor the other way round
    this.fields.task.addEventListener('change', () => {
      const family = this.fields.task.value === 'text' ? 'text' : 'toy';
      if (family !== this.family) this.setValues(defaults[family], family);
      this.showFields();
    });
    this.fields.corpus.addEventListener('change', () => this.showFields());
    this.showFields();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit().catch((error) => this.refused(error.message));
    });
  }

  // family: 'toy' or 'text', whose values these are
  setValues(values, family) {
    for (const [name, value] of Object.entries(values)) {
      const field = this.fields[name];
      if (field.type === 'checkbox') field.checked = value;
      else field.value = String(value);
    }
    this.family = family;
  }

  // The fields of a text preset the learner is looking at, to start from.
  fill(info) {
    if (info.task !== 'text') return;
    this.fields.task.value = 'text';
    this.setValues({ ...defaults.text, length: info.length, embed: info.embed, heads: info.heads, layers: info.layers,
      mlp: info.mlp, norm: info.norm, bias: info.bias, activation: info.activation, steps: info.steps, lr: info.lr }, 'text');
    this.showFields();
  }

  showFields() {
    const task = this.fields.task.value;
    for (const w of this.form.querySelectorAll('[data-for]')) w.hidden = !w.dataset.for.split(' ').includes(task);
    const corpus = this.fields.corpus.value;
    this.pasted.parentElement.hidden = corpus !== 'paste';
    this.file.parentElement.hidden = corpus !== 'file';
  }

  // The training file of the fields, and the corpus it names.
  async build() {
    const n = (name) => Number(this.fields[name].value);
    const task = this.fields.task.value;
    const text = task === 'text';
    const spec = task === 'reverse' || task === 'sort' ? { name: task, tokens: n('tokens'), half: n('half') }
      : task === 'previous' ? { name: 'previous', tokens: n('tokens'), length: n('length') }
      : task === 'induction' ? { name: 'induction', tokens: n('tokens'), length: n('length'), period: [n('lo'), n('hi')] }
      : { name: 'text', length: n('length') };
    let corpora = {};
    const source = this.fields.corpus.value;
    if (text && source === 'paste') spec.text = this.pasted.value;
    else if (text && source === 'file') {
      const file = this.file.files[0];
      if (!file) throw new Error('task.corpus: choose a text file to open, or pick another text');
      spec.corpus = corpusName(file.name);
      // refused by its size before it is read, as the core would refuse it
      if (file.size > corpusBytes) throw corpusTooLarge(spec.corpus, file.size);
      corpora = { [spec.corpus]: new Uint8Array(await file.arrayBuffer()) };  // bytes: the core checks the UTF-8
    } else if (text) spec.corpus = source;
    const model = { embed: n('embed'), heads: n('heads'), layers: n('layers') };
    if (n('mlp')) model.mlp = n('mlp');
    if (this.fields.norm.checked) model.norm = true;
    if (this.fields.bias.checked) model.bias = true;
    if (this.fields.activation.value !== 'relu') model.activation = this.fields.activation.value;
    const steps = n('steps');
    const file = { version: 1, id: 'custom', title: text ? 'Your language model' : `Your ${task} task`, seed: 1337, task: spec, model,
      train: { steps, batch: 32, lr: n('lr') },
      eval: text ? { every: Math.max(1, Math.round(steps / 15)), batch: 256, seed: 10000 } : { every: Math.max(1, Math.round(steps / 100)), batch: 512, seed: 10000 } };
    // the shipped corpus starts its samples on a new line, as the presets do; another starts with its own first character
    if (text) file.sample = corpusNames.includes(source) ? { length: 120, prompt: '\n' } : { length: 120 };
    const json = JSON.stringify(file);
    if (text && corpusNames.includes(source)) corpora = await trainingCorpora(json);
    return { text: json, corpora };
  }

  async submit() {
    this.error.hidden = true;
    this.corpusError.hidden = true;
    this.pending = true;
    this.onSubmit(await this.build());
  }

  // The core's line: under the text when it is about the text, else under the fields.
  refused(message) {
    this.pending = false;
    const line = this.fields.task.value === 'text' && aboutCorpus.test(message) ? this.corpusError : this.error;
    line.textContent = message;
    line.hidden = false;
    const field = this.fields.corpus.value === 'file' ? this.file : this.pasted;
    if (line === this.corpusError) field.setAttribute('aria-invalid', 'true');
  }

  accepted() {
    this.pending = false;
    this.error.hidden = true;
    this.corpusError.hidden = true;
    this.pasted.removeAttribute('aria-invalid');
    this.file.removeAttribute('aria-invalid');
  }
}
