// The Model view's sampling and Generate: the sliders' values as a link sets
// and keeps them, the guesses tempered again when a slider moves (the core's,
// from the last run's logits: no forward), and Generate's 10 tokens. The
// sliders and the button are the next-token panel's (next.js).
// A component: it reads the view through read() and answers through its
// callbacks; it writes none of the view's fields (model/README.md).
export class Generation {
  // panel: the NextPanel that holds the sliders and Generate.
  // read(): the view as it stands, read only: {worker, runs, result, family,
  //   tokenizer}; runs: the newest run asked for.
  // onSampling(sampling): a slider moved ({temperature, topK, topP}), for the link.
  // onTempered(tempered): the guesses at the sliders' values, for the run
  //   still drawn (the run's result.tempered from now).
  // onGenerated(added, text): Generate sampled the ids `added`, which read as
  //   `text` after the tokens drawn; → the view's run on them, awaited.
  constructor(panel, { read, onSampling, onTempered, onGenerated }) {
    Object.assign(this, { panel, read, onSampling, onTempered, onGenerated });
  }

  // What a run samples with: {temperature, warpers: {topK, topP}}.
  get runSampling() { return { temperature: this.panel.temperature.value, warpers: this.panel.warpers.value }; }

  // A link's sampling ({temperature, topK, topP}, each maybe absent): taken
  // when valid, else refused in the field's line, and not told back.
  // → what the sliders hold then.
  fromLink({ temperature, topK, topP }) {
    const { temperature: field, warpers } = this.panel;
    if (temperature != null && temperature !== field.value) field.set(temperature, { quiet: true });
    const warp = { topK: topK ?? warpers.topK, topP: topP ?? warpers.topP };
    if (warp.topK !== warpers.topK || warp.topP !== warpers.topP) warpers.set(warp, { quiet: true });
    return this.panel.sampling;
  }

  // A model opened: top-k within its vocabulary of `vocab` tokens. → {topK, topP}.
  opened(vocab) {
    this.panel.warpers.setVocabulary(vocab);
    return this.panel.warpers.value;
  }

  // A run was drawn: a slider moved while it ran asks again.
  drawn() {
    if (this.panel.moved(this.read())) this.retemper();
  }

  // The guesses again at the sliders' values, from the last run's logits;
  // a slider moved while a request was out asks again once it is back.
  async retemper() {
    const before = this.read();
    const { worker, result } = before;
    if (!worker || !result || before.family.mode !== 'next') return;
    const tempered = await this.panel.temper(worker);
    if (!tempered) return;  // one is out, or the core refused it
    // the worker's last run is the one drawn unless another was asked for since
    const now = this.read();
    if (now.worker === worker && now.runs === before.runs && now.result === result) this.onTempered(tempered);
    if (now.result && this.panel.moved(now)) await this.retemper();
  }

  // the temperature, top-k or top-p moved: into the link, the bars again
  sampled() {
    this.onSampling(this.panel.sampling);
    return this.retemper();
  }

  // Generate: 10 tokens sampled after the tokens drawn (the view appends them
  // to the text, marked as Generate's, and runs the model on them as drawn).
  generate() {
    const { worker, result, family } = this.read();
    if (!worker || !result || family.mode !== 'next') return undefined;
    return this.panel.generate(async (sampling) => {
      const added = await worker.generate(result.tokens, 10, sampling);
      const now = this.read();  // as drawn once the tokens are back
      const text = await now.tokenizer.decode(added, now.result.tokens);
      await this.onGenerated(added, text);
    });
  }
}
