// The model bench's GPT-2-small-shaped model (12 layers, d 768, 12 heads,
// V 50257, tied, F32), written by gpt_file.py random with its Linear
// weights as GPT-2 initialises them, N(0, 0.02) (wte N(0, 0.3), wpe
// N(0, 0.1), LayerNorm 1 and 0; --attn-scale 1: at this size the default scale of 20 on
// the attention weights makes the model chaotic, float32 against float64
// differing by 1.0 in attention from layer 6, so no two implementations
// could be compared on it). Made once into build/bench/, never committed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { root } from '../browser/browser.mjs';

export const benchDir = join(root, 'build', 'bench');

export function gpt2SmallFile(log = (...a) => console.error(...a)) {
  const file = join(benchDir, 'gpt2-small-init.safetensors');
  mkdirSync(benchDir, { recursive: true });
  if (!existsSync(file)) {
    log('writing a GPT-2-small-shaped model with gpt_file.py random …');
    execFileSync('/usr/bin/python3', [join(root, 'tests', 'bench', 'gpt_file.py'), 'random', file,
      '--vocab', '50257', '--length', '1024', '--embed', '768', '--heads', '12', '--layers', '12',
      '--attn-scale', '1'], { stdio: 'inherit' });
  }
  return file;
}
