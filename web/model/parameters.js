// A model file's parameter count in words. The file counts every number it
// holds; a nanoGPT export of the training room's GPT holds a key bias per
// head that is all zeros (softmax ignores a key's bias, so training never
// moves it: gpt-v1.md section 2), which the training view's count of
// trained weights leaves out. Both numbers are the core's (counts: the
// worker's {file, zeroKeyBiases, others}).
export function parametersText(counts) {
  const n = (v) => v.toLocaleString('en');
  if (!counts.zeroKeyBiases) return `${n(counts.file)} parameters`;
  return `${n(counts.file)} parameters in the file: ${n(counts.others)} trained weights and ${n(counts.zeroKeyBiases)} key biases that are always zero (softmax ignores a key’s bias, so training never moves it)`;
}
