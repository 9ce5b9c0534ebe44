// The baseline a web developer would write: attention in plain JavaScript
// over Float32Arrays, the same steps the core records, straightforward loops.
// Inputs come from the core's trace, so both compute on the same numbers.

// x: Float32Array (T·C); heads: [{wq, wk, wv, d}] each (C·d); B = 1.
export function attentionJS(x, T, C, heads, causal = true) {
  return heads.map(({ wq, wk, wv, d }) => {
    const project = (w) => {
      const out = new Float32Array(T * d);
      for (let t = 0; t < T; t++)
        for (let j = 0; j < d; j++) {
          let sum = 0;
          for (let c = 0; c < C; c++) sum += x[t * C + c] * w[c * d + j];
          out[t * d + j] = sum;
        }
      return out;
    };
    const q = project(wq), k = project(wk), v = project(wv);
    const scores = new Float32Array(T * T);
    for (let i = 0; i < T; i++)
      for (let j = 0; j < T; j++) {
        let sum = 0;
        for (let c = 0; c < d; c++) sum += q[i * d + c] * k[j * d + c];
        scores[i * T + j] = sum;
      }
    const scale = 1 / Math.sqrt(d);
    const scaled = scores.map((s) => s * scale);
    const masked = scaled.map((s, n) => (causal && n % T > Math.floor(n / T) ? -Infinity : s));
    const weights = new Float32Array(T * T);
    for (let i = 0; i < T; i++) {
      let max = -Infinity;
      for (let j = 0; j < T; j++) max = Math.max(max, masked[i * T + j]);
      let sum = 0;
      for (let j = 0; j < T; j++) sum += (weights[i * T + j] = Math.exp(masked[i * T + j] - max));
      for (let j = 0; j < T; j++) weights[i * T + j] /= sum;
    }
    const out = new Float32Array(T * d);
    for (let i = 0; i < T; i++)
      for (let c = 0; c < d; c++) {
        let sum = 0;
        for (let j = 0; j < T; j++) sum += weights[i * T + j] * v[j * d + c];
        out[i * d + c] = sum;
      }
    return { q, k, v, scores, scaled, masked, weights, out };
  });
}
