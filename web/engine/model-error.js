// The one error of the models' side of the engine: a line naming the place
// and the problem (the core's, or the page's for a file it reads first).
export class ModelError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ModelError';
  }
}
