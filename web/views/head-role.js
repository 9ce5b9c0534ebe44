// From what score a head is said to have a role: half its weight where the
// role looks (the token before, the first token, …). The lenses name a
// role only from it, and the training view's sentence on a text model's
// heads names a head only from it: one rule, one place.
export const clearFrom = 0.5;
