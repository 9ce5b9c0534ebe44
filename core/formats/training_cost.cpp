#include "formats/training_cost.hpp"

#include <algorithm>
#include <limits>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "tensor/tensor.hpp"

namespace attention {
namespace {

using u64 = std::uint64_t;
namespace bound = limits::training;

u64 times(u64 a, u64 b) { return saturating_times(a, b); }
u64 plus(u64 a, u64 b) { return a > std::numeric_limits<u64>::max() - b ? std::numeric_limits<u64>::max() : a + b; }

// What a run takes natively, in picoseconds of one core of the 2-core
// machine the README's timings come from (user time of `attention-cli train`
// on extreme shapes, November 2026; tests/bench/bench_training.mjs times a
// file at the limit). Multiply-adds alone miss what dominates a small model:
// with embed 1 a step is all softmax, LayerNorm, GELU and per-row work, and
// 16,619 such steps took 675 s while counting as a few seconds' multiply-adds.
// Each rate is its shape's measured time over its count, rounded up, so the
// estimate stays at or above the measured run (within 0-30% on every shape).
namespace picoseconds {
constexpr u64 multiply_add = 14;      // d 128, 4 layers, T 64, batch 8: 505M multiply-adds in 7.3 ms
constexpr u64 attention = 2700;       // per attention weight (softmax forward and backward): d 8, 8 heads, T 64
constexpr u64 logit = 4500;           // per logit (softmax and cross-entropy): 1,024 characters, no layers, 75 ms a step
constexpr u64 row = 60000;            // per position and layer (residuals, slicing, the heads' rows): d 1, 4 layers
constexpr u64 mlp_row = 30000;        // per position and layer with an MLP
constexpr u64 norm_row = 25000;       // per position and LayerNorm
constexpr u64 element = 250;          // per element of the streams, the MLP's hidden layer and GELU's terms
constexpr u64 parameter = 2100;       // per parameter and step: the gradient, AdamW, the finiteness check
constexpr u64 call = 800000;          // per step and per head or layer: the calls themselves
constexpr u64 kept = 100000;          // per attention number an evaluation keeps and the trace writes
}  // namespace picoseconds

}  // namespace

training_cost cost_of(const training_spec& s) {
  const u64 T = task_length(s.task), V = task_vocab(s.task), d = s.embed, L = s.layers, H = s.heads;
  // one sequence forward: per position, each layer's q, k, v and proj (4·d·d),
  // q @ kᵀ and weights @ v (2·T·d), and the unembedding (d·V)
  // and the MLP's two Linears (2·m·d·d)
  const u64 per_layer = plus(plus(times(4, times(d, d)), times(2, times(T, d))), times(2, times(s.mlp, times(d, d))));
  const u64 per_sequence = times(T, plus(times(L, per_layer), times(d, V)));
  // what forward keeps of one sequence: per layer the input, q, k, v, out and
  // concat (6·T·d), ln1 (T·d), the stream into the MLP, ln2 and fc before and
  // after its activation (T·d, T·d, 2·T·m·d) and for GELU 1 + erf of fc's
  // output, which the backward reuses (T·m·d), each head's weights (H·T·T);
  // then the last stream, ln_f and the logits, T·(d + d + V)
  const u64 norm = s.norm ? 1 : 0, mlp = s.mlp ? 1 : 0, gelu = s.activation == activation_kind::gelu ? 1 : 0;
  const u64 streams = plus(6 + norm, times(mlp, 1 + norm));
  const u64 per_layer_kept =
      plus(plus(times(streams, times(T, d)), times(H, times(T, T))), times(2 + gelu, times(T, times(s.mlp, d))));
  const u64 kept_per_sequence = plus(times(L, per_layer_kept), times(T, plus(times(1 + norm, d), V)));
  training_cost c;
  c.step_multiply_adds = times(times(3, s.batch), per_sequence);  // backward is about two forwards
  c.eval_multiply_adds = times(s.eval_batch, per_sequence);
  c.eval_numbers = times(s.eval_batch, kept_per_sequence);
  // step 0, every eval.every steps, and the last step when it is not one of them
  c.evaluations = 1 + s.steps / s.eval_every + (s.steps % s.eval_every != 0 ? 1 : 0);
  c.kept_attention = times(c.evaluations, times(times(L, H), times(T, T)));
  // a sample: one forward of at most T positions per generated character
  const u64 sample_work = s.sample ? times(s.sample->length, per_sequence) : 0;
  c.total_multiply_adds = plus(times(s.steps, c.step_multiply_adds),
                               times(c.evaluations, plus(c.eval_multiply_adds, sample_work)));

  // the time model (picoseconds above): one sequence's forward and backward
  namespace ps = picoseconds;
  const u64 rows = times(T, L);  // a position in a layer
  const u64 layer_elements = plus(times(d, 6 + 4 * norm), times(times(s.mlp, d), 2 + 6 * gelu));
  const u64 row_ps = plus(plus(ps::row, times(mlp, ps::mlp_row)), times(2 * norm, ps::norm_row));
  const u64 sequence_ps = plus(plus(plus(times(3 * ps::multiply_add, per_sequence), times(ps::attention, times(times(L, H), times(T, T)))),
                                    times(ps::logit, times(T, V))),
                               plus(plus(times(rows, row_ps), times(T, ps::row)), times(ps::element, times(rows, layer_elements))));
  u64 parameters = times(V, d);  // wte, then per layer 4d² and the MLP's 2md², wpe and the head
  parameters = plus(parameters, times(L, plus(times(4, times(d, d)), times(2, times(s.mlp, times(d, d))))));
  parameters = plus(parameters, plus(times(T, d), times(d, V)));
  c.step_picoseconds = plus(plus(times(s.batch, sequence_ps), times(ps::parameter, parameters)),
                            times(ps::call, plus(times(L, H + 2), 2)));
  // an evaluation's forward keeps every intermediate: about two forwards' work
  c.eval_picoseconds = plus(times(s.eval_batch, times(2, sequence_ps) / 3), times(ps::kept, times(times(L, H), times(T, T))));
  // a sample: a forward of at most T positions per character, the logits of the last alone
  const u64 forward_ps = (sequence_ps - std::min(sequence_ps, times(ps::logit, times(T, V)))) / 3;
  c.sample_picoseconds = s.sample ? times(s.sample->length, plus(forward_ps + forward_ps / 5, times(ps::logit, V))) : 0;
  c.steps_picoseconds = times(s.steps, c.step_picoseconds);
  c.evaluations_picoseconds = times(c.evaluations, plus(c.eval_picoseconds, c.sample_picoseconds));
  c.run_picoseconds = plus(c.steps_picoseconds, c.evaluations_picoseconds);
  return c;
}

void check_cost(const training_spec& s) {
  const training_cost c = cost_of(s);
  ATTENTION_CHECK(c.step_multiply_adds <= bound::step_multiply_adds, "model: one training step would take ",
                  c.step_multiply_adds, " multiply-adds, beyond the limit of ", bound::step_multiply_adds,
                  "; make the model or train.batch smaller");
  ATTENTION_CHECK(c.eval_multiply_adds <= bound::eval_multiply_adds, "eval.batch: one evaluation of ", s.eval_batch,
                  " sequences would take ", c.eval_multiply_adds, " multiply-adds, beyond the limit of ",
                  bound::eval_multiply_adds, "; make eval.batch or the model smaller");
  ATTENTION_CHECK(c.eval_numbers <= bound::eval_numbers, "eval.batch: one evaluation of ", s.eval_batch,
                  " sequences would keep ", c.eval_numbers, " numbers in memory, beyond the limit of ",
                  bound::eval_numbers, "; make eval.batch or the model smaller");
  ATTENTION_CHECK(c.kept_attention <= bound::kept_attention, "eval.every: ", s.eval_every, " keeps ", c.evaluations,
                  " evaluations of ", c.kept_attention / c.evaluations, " attention numbers each (", c.kept_attention,
                  "), beyond the limit of ", bound::kept_attention, "; evaluate less often or train fewer steps");
  ATTENTION_CHECK(c.total_multiply_adds <= bound::total_multiply_adds, "train.steps: ", s.steps,
                  " steps and their evaluations would take ", c.total_multiply_adds,
                  " multiply-adds, beyond the limit of ", bound::total_multiply_adds,
                  "; train fewer steps or a smaller model");
  // the whole run's time, named by what makes it long: the steps, or the evaluations (their samples)
  if (c.run_picoseconds > bound::run_seconds * 1000000000000ull) {
    const u64 seconds = plus(c.run_picoseconds, 999999999999ull) / 1000000000000ull;  // rounded up: never "120 s, beyond 120 s"
    const u64 step_ms = c.step_picoseconds / 1000000000ull;
    if (c.steps_picoseconds >= c.evaluations_picoseconds)
      detail::fail("train.steps: ", s.steps, " steps of about ", step_ms, " ms each and their evaluations would take about ",
                   seconds, " s natively, beyond the limit of ", bound::run_seconds, " s; train fewer steps or a smaller model");
    const bool sample_heavy = c.sample_picoseconds > c.eval_picoseconds;
    if (sample_heavy)
      detail::fail("sample.length: ", c.evaluations, " samples of ", s.sample->length,
                   " characters (one at each evaluation) and the steps would take about ", seconds,
                   " s natively, beyond the limit of ", bound::run_seconds, " s; sample fewer characters or evaluate less often");
    detail::fail("eval.every: ", s.eval_every, " makes ", c.evaluations, " evaluations of ", s.eval_batch,
                 " sequences, which with the steps would take about ", seconds, " s natively, beyond the limit of ",
                 bound::run_seconds, " s; evaluate less often or make eval.batch smaller");
  }
}

}  // namespace attention
