// The calls the Model view's worker answers, by name: one list for both its
// sides (model-worker.js, model-client.js). A request is {id, method, args}:
// the worker's own calls (open, openFolder, close, memory), or any method of
// the open LoadedModel (model.js's modelMethods), called with args as given.
// A new call is a method of LoadedModel over its Embind binding, then the
// page's call: nothing here, in the worker or in the client changes.
import { modelMethods } from './model.js';

export const workerMethods = ['open', 'openFolder', 'close', 'memory'];

export const methods = new Set([...workerMethods, ...modelMethods]);
