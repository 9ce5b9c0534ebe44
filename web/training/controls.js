// The training view's controls: the task menu (the toys, then the
// lecture's ladder, rung by rung, and "this file" for one of the learner's),
// Train/Pause, Step, Reset, the Inspect button when the page can show a
// trained model, and the speed. The view says what each does.
import { trainingIds } from '../state/state.js';
import { element } from './dom.js';

// The presets in the task menu: the toys, then the lecture's ladder, rung by rung.
export const presetNames = {
  'previous-token': 'previous token', reverse: 'reverse', induction: 'induction', 'induction-one-layer': 'induction, one layer',
  'text-bigram': '1. no attention (a bigram)', 'text-one-head': '2. one head', 'text-four-heads': '3. four heads',
  'text-mlp': '4. four heads and an MLP', 'text-gpt': '5. a GPT: blocks, LayerNorm, residuals',
};

const speeds = [['10', '10 steps a second'], ['25', '25 steps a second'], ['50', '50 steps a second'], ['100', '100 steps a second'], ['0', 'as fast as it goes']];

// Into `controls`: preset, the one chosen; onPreset(id), onPlay(), onStep(),
// onReset(), onSpeed(steps a second, 0: as fast as it goes); inspect(): the
// Inspect button made in its place, or null. → {select, play, stepButton,
// reset, inspectButton, speed}: the view marks their states.
export function trainingControls(controls, { preset, onPreset, onPlay, onStep, onReset, onSpeed, inspect }) {
  const presetField = element(controls, 'label', { className: 'field', textContent: 'Task ' });
  const select = element(presetField, 'select', { id: 'train-preset' });
  const group = (label, ids) => {
    const g = element(select, 'optgroup', { label });
    for (const id of ids) g.append(new Option(presetNames[id] ?? id, id));
  };
  group('Toy tasks', trainingIds.filter((id) => !id.startsWith('text-')));
  group('The lecture’s GPT, on text', trainingIds.filter((id) => id.startsWith('text-')));
  if (!trainingIds.includes(preset)) select.add(new Option('this file', preset));
  select.value = preset;
  select.addEventListener('change', () => onPreset(select.value));
  const play = element(controls, 'button', { type: 'button', id: 'train-play', className: 'primary', textContent: 'Train' });
  play.addEventListener('click', onPlay);
  const stepButton = element(controls, 'button', { type: 'button', id: 'train-step', textContent: 'Step' });
  stepButton.addEventListener('click', onStep);
  const reset = element(controls, 'button', { type: 'button', id: 'train-reset', textContent: 'Reset' });
  reset.addEventListener('click', onReset);
  const inspectButton = inspect();
  const speedField = element(controls, 'label', { className: 'field', textContent: 'Speed ' });
  const speed = element(speedField, 'select', { id: 'train-speed' });
  for (const [value, text] of speeds) speed.add(new Option(text, value));
  speed.addEventListener('change', () => onSpeed(Number(speed.value)));
  return { select, play, stepButton, reset, inspectButton, speed };
}
