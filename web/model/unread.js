// The Model view when the field's text is not what the views show (the
// model cannot read it): the last text this model read stays, named; a
// model that read none shows nothing, and why.
import { quoteText } from '../state/state.js';
import { tokenText } from '../views/format.js';

export function showUnread(view, message) {
  const none = !view.result;
  view.box.dataset.shows = none ? 'empty' : 'stale';
  view.stale.hidden = none;
  view.empty.hidden = !none;
  if (none) {
    view.body.hidden = view.chips.list.hidden = true;
    view.empty.textContent = `Nothing to show yet: ${view.label} cannot read this text (${message.replace(/^text: /, '')}). Change the text, or open another model.`;
  } else {
    view.stale.textContent = `Showing the last text the model could read: ${quoteText(tokenText(view.shownText), 120)}`;
  }
}
