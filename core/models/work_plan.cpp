#include "models/work_plan.hpp"

#include <algorithm>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/tensor.hpp"

namespace attention {

namespace {

using u64 = std::uint64_t;
constexpr u64 float_bytes = 4;
// One cell of the logit lens as nlohmann's ordered_json holds it (an object
// of "top", five [id, p] arrays, and "final": a dozen heap nodes) and as its
// text: measured 0.6 KB and 0.1 KB, counted as 1 KB.
constexpr u64 lens_cell_bytes = 1024;
// A run keeps up to 100 guesses a position (the page's topK) twice: run.top
// (16 bytes each) and the tempered ones (40 bytes)
constexpr u64 guess_bytes = 100 * (16 + 40);

u64 plus(u64 a, u64 b) { return a > std::numeric_limits<u64>::max() - b ? std::numeric_limits<u64>::max() : a + b; }
u64 times(u64 a, u64 b) { return saturating_times(a, b); }
u64 times(u64 a, u64 b, u64 c) { return times(times(a, b), c); }

work_bytes operator+(const work_bytes& a, const work_bytes& b) {
  return {plus(a.stream, b.stream), plus(a.mlp, b.mlp), plus(a.logits, b.logits), plus(a.attention, b.attention)};
}
const work_bytes& larger(const work_bytes& a, const work_bytes& b) { return a.total() >= b.total() ? a : b; }

// The model's sizes, as forward() reads them.
struct shape {
  u64 L, H, KV, hs, d, I, V, Tmax, mlp_matrices;
  u64 qkv() const { return (H + 2 * KV) * hs; }  // the heads' projections' outputs
};

shape shape_of(const model_config& c, const model_spec& s) {
  const u64 I = s.mlp.kind == mlp_kind::none ? 0u : s.mlp.width;
  return {c.layers, s.heads, s.kv_heads, s.head_size, s.embed, I, c.vocab, c.length,
          I == 0 ? 0u : (s.mlp.kind == mlp_kind::gated ? 3u : 2u)};
}

// What one layer of a forward on T new positions attending to n holds at its
// peak, besides what earlier layers left: the stream (its input, ln_1, the
// stream after attention, ln_2, the MLP's output and the sum: 6 · T·d), the
// projections and their per-head copies (2 · T·(H + 2KV)·hs), the heads'
// outs and their concatenation (2 · T·H·hs); the MLP's hidden, up (or
// GELU's kept erf) and active (3 · T·I); the heads' weights (H·T·n) and the
// one head's scores and softmax in flight (2 · T·n). `weights`: false when
// they are counted among what the forward keeps.
work_bytes layer_peak(const shape& m, u64 T, u64 n, bool weights = true) {
  work_bytes b;
  b.stream = times(plus(plus(times(6, T, m.d), times(2, T, m.qkv())), times(2, T, m.H * m.hs)), float_bytes);
  b.mlp = times(3, T, times(m.I, float_bytes));
  b.attention = times(plus(weights ? m.H : 0, 2), times(T, n), float_bytes);
  return b;
}

// What a forward that keeps each head's weights (kept::attention) holds when
// it ends: L·H·T² weights and L·T·d of what the heads read.
work_bytes kept_attention(const shape& m, u64 T) {
  work_bytes b;
  b.stream = times(m.L, T, times(m.d, float_bytes));
  b.attention = times(m.L, m.H, times(T, T, float_bytes));
  return b;
}

// The logits a block of whole rows at a time (run_model, ablate, the logit
// lens), `copies` blocks of it at once (the logits and exps_of's e), of `rows`.
work_bytes logit_block(const shape& m, u64 rows, u64 copies) {
  const u64 block = std::max<u64>(1, limits::models::logits_block / std::max<u64>(1, m.V));
  work_bytes b;
  b.logits = times(copies, std::min(rows, block), times(m.V, float_bytes));
  return b;
}

work_bytes stream_of(u64 numbers) { return {times(numbers, float_bytes), 0, 0, 0}; }

// Multiply-adds of one forward of T new positions, positions `offset` on
// (the cache's), `rows` of them unembedded.
u64 forward_work(const shape& m, u64 per_token, u64 T, u64 offset, u64 rows) {
  const u64 context = plus(offset, T);  // each query against every key (the causal half counted whole)
  return plus(plus(times(T, per_token), times(times(2, m.L, m.H * m.hs), times(T, context))),
              times(rows, m.d, m.V));
}

}  // namespace

u64 work_bytes::total() const { return plus(plus(stream, mlp), plus(logits, attention)); }

const char* work_name(work_kind kind) {
  switch (kind) {
    case work_kind::run: return "a run";
    case work_kind::scores: return "the scores lens";
    case work_kind::ablate: return "the ablate lens";
    case work_kind::logit_lens: return "the logit lens";
    case work_kind::attribution: return "attribution";
    case work_kind::generate: return "a generation";
  }
  return "a request";
}

work_plan plan_work(const model_config& c, const model_spec& s, const work_request& r) {
  const shape m = shape_of(c, s);
  const u64 T = r.tokens;
  work_plan p;
  // the weights one token's forward reads: q, k, v, the output projection,
  // the MLP's matrices, layer by layer (the unembedding counted per row)
  p.per_token = times(m.L, plus(plus(times(m.d, m.qkv()), times(m.H * m.hs, m.d)), times(m.mlp_matrices, m.d, m.I)));
  if (s.post_norm()) p.per_token = plus(p.per_token, times(m.d, m.d));  // BERT's masked-LM transform, head or not
  const work_bytes ends = stream_of(times(4, T, m.d));  // the last stream, ln_f, BERT's transform
  switch (r.kind) {
    case work_kind::run: {
      // kept: the weights and what the heads read; then the logits' block and exps_of's;
      // the page's head scores then copy the weights (run_head_scores)
      work_bytes copy;
      copy.attention = kept_attention(m, T).attention;
      const work_bytes after = larger(ends + logit_block(m, T, 2), copy);
      p.bytes = kept_attention(m, T) + larger(layer_peak(m, T, T, false), after) + stream_of(times(T, guess_bytes / 4));
      p.multiply_adds = forward_work(m, p.per_token, T, 0, T);
      break;
    }
    case work_kind::scores: {
      // the run's weights kept, then the induction tokens' forward beside them
      const u64 n = 2 * std::min<u64>(50, m.Tmax / 2);
      const work_bytes induced = kept_attention(m, n) + layer_peak(m, n, n, false);
      p.bytes = kept_attention(m, T) + larger(layer_peak(m, T, T, false), induced);
      p.multiply_adds = plus(forward_work(m, p.per_token, T, 0, 0), forward_work(m, p.per_token, n, 0, 0));
      break;
    }
    case work_kind::ablate: {
      // two forwards keeping only what the unembedding reads, the first's kept while the second runs
      p.bytes = ends + larger(layer_peak(m, T, T), ends + logit_block(m, T, 2));
      p.multiply_adds = times(2, forward_work(m, p.per_token, T, 0, T));
      break;
    }
    case work_kind::logit_lens: {
      // every layer's stream (L + 1 of them), then each through ln_f and the
      // unembedding a block at a time, and the (L + 1)·T cells of the answer
      work_bytes cells;
      cells.logits = times(plus(m.L, 1), T, lens_cell_bytes);
      const work_bytes rows = stream_of(times(2, T, m.d)) + logit_block(m, T, 1);
      p.bytes = stream_of(times(plus(m.L, 1), T, m.d)) + cells + larger(layer_peak(m, T, T), rows);
      p.multiply_adds = plus(forward_work(m, p.per_token, T, 0, 0), times(times(plus(m.L, 1), T), m.d, m.V));
      break;
    }
    case work_kind::attribution: {
      // what each part wrote at the position (L·(H + 2) of d), the heads'
      // outs through the projection one head a row (H·H·hs); one row of logits
      const work_bytes parts = stream_of(plus(times(plus(times(m.L, m.H + 2), 1), m.d), times(m.H, m.H, m.hs)));
      p.bytes = parts + larger(layer_peak(m, T, T), ends + stream_of(m.V));
      p.multiply_adds = plus(forward_work(m, p.per_token, T, 0, 1),
                             times(m.L, plus(times(m.H * m.H, m.hs, m.d), times(m.I, m.d))));
      break;
    }
    case work_kind::generate: {
      // The prompt's forward fills the key/value cache, then one token a
      // step while the window grows; past Tmax the window slides, every
      // position moves and each step runs a whole window of Tmax again
      // (transformer/kv_cache.hpp). A step unembeds its last row only.
      const u64 count = r.generated;
      if (count == 0) break;  // nothing runs
      const u64 capacity = std::max<u64>(1, std::min(m.Tmax, plus(T, count) - 1));
      const u64 round = [](u64 x) { return (x + 15) / 16 * 16; }(capacity);
      work_bytes cache;
      cache.attention = times(m.L * m.KV, plus(times(round, m.hs), times(capacity, (m.hs + 15) / 16 * 16)), float_bytes);
      const u64 last = plus(T, count) - 1;                  // the ids the last step reads
      const u64 window = last > m.Tmax ? m.Tmax : T;         // the longest forward
      p.bytes = cache + layer_peak(m, window, window) + ends + stream_of(times(4, m.V));
      u64 work = forward_work(m, p.per_token, T, 0, 1);  // the prompt
      // steps reading s = T + 1 … last ids: one new position while s ≤ Tmax
      const u64 grown_end = std::min(last, m.Tmax);
      if (grown_end > T) {
        const u64 steps = grown_end - T;
        // Σ over s of a token's forward at offset s − 1: the attention's 2·L·H·hs·s summed
        const u64 ends_sum = T + 1 + grown_end;  // Σ s = steps · (first + last) / 2, one of them even
        const u64 sum_s = steps % 2 == 0 ? times(steps / 2, ends_sum) : times(steps, ends_sum / 2);
        work = plus(work, plus(times(steps, plus(p.per_token, times(m.d, m.V))), times(times(2, m.L, m.H * m.hs), sum_s)));
      }
      if (last > m.Tmax) work = plus(work, times(last - std::max(m.Tmax, T), forward_work(m, p.per_token, m.Tmax, 0, 1)));
      p.multiply_adds = work;
      break;
    }
  }
  return p;
}

namespace {

// The largest of the bytes' parts, as the message names it.
std::string largest_part(const work_bytes& b) {
  const std::pair<u64, const char*> parts[] = {{b.attention, "layers · heads · T² of attention"},
                                               {b.mlp, "T · I of the MLP"},
                                               {b.logits, "T · V of logits"},
                                               {b.stream, "T · d of the stream"}};
  const auto* top = std::max_element(std::begin(parts), std::end(parts),
                                     [](const auto& a, const auto& x) { return a.first < x.first; });
  return std::to_string(top->first) + " bytes of them " + top->second;
}

void check_plan(const model_config& c, const work_plan& p, const work_request& r, const std::string& place) {
  const std::string asks = place + ": " + std::to_string(r.tokens) + " tokens" +
                           (r.kind == work_kind::generate ? " and " + std::to_string(r.generated) + " more" : "") +
                           " ask " + work_name(r.kind);
  const u64 bytes = p.bytes.total();
  ATTENTION_CHECK(bytes <= limits::models::request_bytes, asks, " to hold ", bytes, " bytes at once (",
                  largest_part(p.bytes), "), beyond the limit of ", limits::models::request_bytes, " (1.5 GiB); ",
                  "the model's d ", c.embed, ", I ", c.mlp_width, ", V ", c.vocab, ", ", c.layers, " layers of ",
                  c.heads, " heads");
  ATTENTION_CHECK(p.multiply_adds <= limits::models::request_multiply_adds, asks, " for ", p.multiply_adds,
                  " multiply-adds (T × ", p.per_token, " weights read per token, the attention and the logits), ",
                  "beyond the limit of ", limits::models::request_multiply_adds);
}

}  // namespace

work_plan check_work(const model_config& c, const model_spec& s, const work_request& r, const std::string& place,
                     const std::string& count_place) {
  const u64 T = r.tokens;
  const u64 attention = times(times(c.layers, c.heads), times(T, T));
  ATTENTION_CHECK(attention <= limits::models::request_attention, place, ": ", T, " tokens ask for ", attention,
                  " attention weights (layers · heads · T²), beyond the limit of ", limits::models::request_attention);
  const u64 logits = times(T, c.vocab);
  ATTENTION_CHECK(logits <= limits::models::request_logits, place, ": ", T, " tokens ask for ", logits,
                  " logits (T · V), beyond the limit of ", limits::models::request_logits);
  if (r.kind == work_kind::generate) {
    // the prompt's own forward first: a count is named only when the prompt alone fits
    work_request prompt = r;
    prompt.generated = std::min<std::size_t>(r.generated, 1);
    check_plan(c, plan_work(c, s, prompt), prompt, place);
    const work_plan p = plan_work(c, s, r);
    check_plan(c, p, r, count_place);
    return p;
  }
  const work_plan p = plan_work(c, s, r);
  check_plan(c, p, r, place);
  return p;
}

}  // namespace attention
