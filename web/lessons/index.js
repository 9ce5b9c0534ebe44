// The lessons, in the order of the notebooks: their ids and titles here for
// the navigation, each lesson's code fetched only when it opens (a first
// visit to the playground loads none of it).
export const lessons = [
  { id: 'trick', title: 'The mathematical trick' },
  { id: 'qkv', title: 'Queries, keys and values' },
  { id: 'encoder', title: 'Encoder vs. decoder' },
  { id: 'cross', title: 'Self vs. cross attention' },
  { id: 'multihead', title: 'Multi-head attention' },
  { id: 'scaling', title: 'Scaled attention' },
  { id: 'space', title: 'No notion of space' },
  { id: 'position', title: 'Where is position?' },
  { id: 'learn', title: 'What attention learns' },
  { id: 'lecture', title: 'Finishing the lecture' },
];

const modules = {
  trick: () => import('./trick.js'),
  qkv: () => import('./qkv.js'),
  encoder: () => import('./encoder.js'),
  cross: () => import('./cross.js'),
  multihead: () => import('./multihead.js'),
  scaling: () => import('./scaling.js'),
  space: () => import('./space.js'),
  position: () => import('./position.js'),
  learn: () => import('./learn.js'),
  lecture: () => import('./lecture.js'),
};

// The lesson's module: {id, render(container, context), playground?(state)}.
export async function loadLesson(id) {
  return (await modules[id]()).default;
}
