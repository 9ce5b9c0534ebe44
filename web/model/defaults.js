// What the Model view opens on before a link or the learner says otherwise.
export const defaultModel = 'text-gpt';
export const defaultText = 'To be, or not to be';
export const defaultTemperature = 0.8;
