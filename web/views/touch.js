// Whether the screen is touched rather than pointed at with keys beside it:
// the same media query that hides the page's key hints in CSS, for the
// hints a view writes as text (a phone has no arrow keys to point to).
export const touchScreen = () => globalThis.matchMedia?.('(hover: none) and (pointer: coarse)').matches ?? false;
