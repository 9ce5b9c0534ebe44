// A row of toggle buttons (the graph's layouts and edge modes): one group
// for assistive technology, each button marked with data-<key>="<name>".

// A row of toggle buttons, each with data-<key>="<name>": onPick(name).
export function buttonGroup(className, label, key, choices, onPick) {
  const group = document.createElement('div');
  group.className = className;
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', label);
  const buttons = choices.map(([name, text]) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset[key] = name;
    button.textContent = text;
    button.addEventListener('click', () => onPick(name));
    group.append(button);
    return button;
  });
  return { group, buttons };
}
