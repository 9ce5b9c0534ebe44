// What a finished run says beside its Trained button: which preset trained,
// how many of its steps, and where its validation loss (a toy's accuracy
// too) ended, so "Trained" is never a bare label.
export function doneText(info, last, step, text) {
  const n = (v) => v.toLocaleString('en');
  return `Trained: ${info.id} (${info.title}), ${n(step)} of ${n(info.steps)} steps, validation loss ${last.loss.toFixed(2)}`
    + (text ? '' : `, accuracy ${(last.accuracy * 100).toFixed(1)}%`) + '. Reset trains it again from the start.';
}
