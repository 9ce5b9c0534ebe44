// The Custom Elements Manifest (schema 1.0.0) of <attention-playground>, from
// the element's own tables (web/element/settings.js): its attributes, events
// and members, for editors and documentation tools that read one.
// scripts/build-site.mjs writes it into the site as custom-elements.json, and
// dist/package.json names it ("customElements").
// usage: node scripts/docs/custom-elements.mjs [OUT_FILE]  (stdout without)
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import { attributes, choices, events, members } from '../../web/element/settings.js';

const module = 'attention-playground.js';
const className = 'AttentionPlayground';
const tagName = 'attention-playground';

// A default in backticks is the value itself; one in words goes into the description.
const literal = (text) => /^`([^`]*)`$/.exec(text)?.[1];

function attribute(name, [fallback, values]) {
  const value = literal(fallback);
  const type = choices[name] ? choices[name].map((v) => `'${v}'`).join(' | ') : name === 'autoplay' ? 'boolean' : 'string';
  return {
    name,
    description: value === undefined ? `${values}. Default: ${fallback}.` : values,
    ...(value === undefined ? {} : { default: value }),
    type: { text: type },
  };
}

function event(name, [when, detail]) {
  const keys = detail === null ? [] : Object.entries(detail);
  const type = keys.length ? `CustomEvent<{ ${keys.map(([key, [t]]) => `${key}: ${t}`).join('; ')} }>` : 'CustomEvent';
  const about = keys.map(([key, [, meaning]]) => ` \`detail.${key}\`: ${meaning}.`).join('');
  return { name, description: `Fired when ${when}.${about}`, type: { text: type } };
}

function member(name, [kind, type, about]) {
  if (kind === 'method') return { kind: 'method', name, description: about, return: { type: { text: type } } };
  return { kind: 'field', name, description: about, type: { text: type } };
}

export function manifest() {
  return {
    schemaVersion: '1.0.0',
    readme: '',
    modules: [{
      kind: 'javascript-module',
      path: module,
      declarations: [{
        kind: 'class',
        name: className,
        tagName,
        customElement: true,
        description: 'One view of the Attention Playground inside any page: attention computed step by step by a C++ core in WebAssembly.',
        superclass: { name: 'HTMLElement' },
        attributes: Object.entries(attributes).map(([name, row]) => attribute(name, row)),
        events: Object.entries(events).map(([name, row]) => event(name, row)),
        members: Object.entries(members).map(([name, row]) => member(name, row)),
      }],
      exports: [
        { kind: 'js', name: className, declaration: { name: className, module } },
        { kind: 'custom-element-definition', name: tagName, declaration: { name: className, module } },
      ],
    }],
  };
}

export const manifestText = () => `${JSON.stringify(manifest(), null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [out] = process.argv.slice(2);
  if (out) writeFileSync(out, manifestText());
  else process.stdout.write(manifestText());
}
