// The learner's own sentence, told for what it is. Its numbers are random,
// built as the sentence notebook builds them (a word's embedding row is its
// alphabetical rank; the projections are torch.rand), so words of one rank
// get one row in any sentence. One line beside the numbers says so and
// links to the same sentence in a trained model, and to the trained
// induction heads. Loaded when a sentence is first shown.
import { defaultState, toHash } from '../state/state.js';
import { create } from '../views/dom.js';

// The same sentence where its numbers mean something: the shipped model
// (text-gpt, characters) reads it in the Model view. Typographic quotes, as a
// phone types them, become the plain ones that model knows; any other
// character it lacks is named there, in one line.
export function trainedModelHash(sentence) {
  const text = sentence.trim().replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
  return toHash({ ...defaultState(), model: 'text-gpt', text });
}

// The model whose heads have clear roles: the induction heads the lesson trains.
export const inductionHash = '#lesson=learn&preset=induction';

// Side by side, the line sits in the graph's card under its heading, where
// the first screen has room; narrower, above the matrices (the graph is far
// below them there). The matrices' first line keeps its place either way.
const sideBySide = window.matchMedia('(min-width: 1101px) and (min-height: 501px)');
let line = null;
let modelLink = null;
let places = null;

function place() {
  if (!line) return;
  if (sideBySide.matches) places.heading.after(line);
  else places.matrices.before(line);
}
sideBySide.addEventListener('change', place);

// the few style lines live here, so a first visit carries none of them
function link(href, text) {
  const a = create('a', { className: 'lesson-open', href, text });
  a.style.whiteSpace = 'nowrap';
  return a;
}

// at: {heading, matrices}, the two places; sentence: the shown one, or null.
export function showOwnSentence(at, sentence) {
  if (sentence === null) {
    if (line) line.hidden = true;
    return;
  }
  if (!line) {
    line = create('p', { id: 'own-sentence', className: 'provenance own-sentence' });
    line.style.margin = '0 0 6px';
    const random = create('strong', { text: 'Random numbers' });
    modelLink = link('#', 'This sentence in a trained model');
    line.append(random, ', as in the notebook: untrained embeddings and projections, so the words mean nothing yet. ',
      modelLink, ' · ', link(inductionHash, 'Induction heads, trained'));
    places = at;
    place();
  }
  line.hidden = false;
  modelLink.href = trainedModelHash(sentence);
}
