#include "formats/training_cost.hpp"

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
}

}  // namespace attention
