// The Model view when the field's text is not what the views show (the
// model cannot read it): the last text this model read stays, named; a
// model that read none shows nothing, and why.
import { quoteText } from '../state/state.js';
import { tokenText } from '../views/format.js';

// label: the model's; message: why it cannot read the text; shownText:
// the last text it read (null: none). → {shows: 'empty' or 'stale', line:
// what to say}.
export function unreadLine({ label, message, shownText }) {
  if (shownText === null) return { shows: 'empty', line: `Nothing to show yet: ${label} cannot read this text (${message.replace(/^text: /, '')}). Change the text, or open another model.` };
  return { shows: 'stale', line: `Showing the last text the model could read: ${quoteText(tokenText(shownText), 120)}` };
}

// Shows it in the view's parts ({box, stale, empty, body, chips}).
export function showUnread({ box, stale, empty, body, chips }, { shows, line }) {
  box.dataset.shows = shows;
  stale.hidden = shows !== 'stale';
  empty.hidden = shows !== 'empty';
  if (shows === 'empty') body.hidden = chips.list.hidden = true;
  (shows === 'empty' ? empty : stale).textContent = line;
}
