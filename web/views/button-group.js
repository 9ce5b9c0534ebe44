// A row of toggle buttons (the graph's layouts and edge modes): one group
// for assistive technology, each button marked with data-<key>="<name>".
import { create, element } from './dom.js';

// A row of toggle buttons, each with data-<key>="<name>": onPick(name).
export function buttonGroup(className, label, key, choices, onPick) {
  const group = create('div', { className, attrs: { role: 'group', 'aria-label': label } });
  const buttons = choices.map(([name, text]) => {
    const button = element(group, 'button', { type: 'button', text });
    button.dataset[key] = name;
    button.addEventListener('click', () => onPick(name));
    return button;
  });
  return { group, buttons };
}
