// The Model view's generated tokens in a link: each run Generate wrote, as
// the character of the text where it starts and its token ids,
// "19_12.45.7-40_3.3" (runs in the text's order). Only the form is checked
// here; model/generated.js checks each run against the text and the model
// once the model is open.

// ids in all: the text holds 400 characters at most, a token at least one
export const generatedLimit = 400;

const form = /^\d{1,3}_\d{1,7}(\.\d{1,7})*(-\d{1,3}_\d{1,7}(\.\d{1,7})*)*$/;

// "19_12.45.7" → [{start: 19, ids: [12, 45, 7]}], or undefined.
export function generatedFromText(text) {
  if (text.length > 8 * generatedLimit + 8 || !form.test(text)) return undefined;
  const runs = text.split('-').map((run) => {
    const [start, ids] = run.split('_');
    return { start: Number(start), ids: ids.split('.').map(Number) };
  });
  const count = runs.reduce((n, run) => n + run.ids.length, 0);
  const ordered = runs.every((run, i) => i === 0 || run.start > runs[i - 1].start);
  return ordered && count <= generatedLimit ? runs : undefined;
}

export function generatedToText(runs) {
  return runs.map(({ start, ids }) => `${start}_${ids.join('.')}`).join('-');
}
