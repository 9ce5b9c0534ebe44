#include "training/training.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "errors/check.hpp"
#include "training/backprop.hpp"
#include "training/init_weights.hpp"
#include "training/loss.hpp"

namespace attention {

namespace {

// "training diverged at step N: what; what to change". Decoupled weight
// decay multiplies every weight by 1 − lr·wd each step: past lr·wd = 2 that
// factor grows every weight, whatever the gradients say.
[[noreturn]] void diverged(std::size_t step, const std::string& what, const adamw_settings& o) {
  std::ostringstream fix;
  const double decay = o.lr * o.weight_decay;
  if (decay > 2)
    fix << "train.lr × train.weight_decay is " << decay << ", above 2, so weight decay multiplies every weight by "
        << 1 - decay << " each step: lower train.weight_decay or train.lr";
  else
    fix << "train.lr (" << o.lr << ") is too large for this model: lower it";
  detail::fail("training diverged at step ", step, ": ", what, "; ", fix.str());
}

// What a forward refused as an overflow says, for diverged(): the scores', or a norm's line itself.
std::string overflowed(const error& e) {
  const std::string what = e.what();
  if (what.find("attention score") != std::string::npos) return "the attention scores overflow float32";
  return what;
}

bool all_finite(const std::vector<const tensor2*>& tensors) {
  for (const tensor2* t : tensors)
    for (float x : *t)
      if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

model_spec training_run::model_of(const training_spec& spec) {
  return gpt_block(task_vocab(spec.task), task_length(spec.task), spec.embed, spec.heads, spec.layers,
                   spec.mlp * spec.embed, spec.norm, spec.bias, spec.activation);
}

training_run::training_run(const training_spec& spec) : spec_(spec), gen_(spec.seed) {
  model_ = model_of(spec);
  weights_ = init_weights(gen_, model_);
  // the validation set: its own seed, and the training stream left as it was
  const generator saved = gen_;
  gen_.manual_seed(spec.eval_seed);
  validation_ = draw_task(gen_, spec.task, spec.eval_batch, true);
  gen_ = saved;
}

float training_run::step() {
  const std::size_t n = adam_.step + 1;
  const task_batch batch = draw_task(gen_, spec_.task, spec_.batch);
  forward_pass pass;
  try {
    pass = forward(weights_, model_, batch.x, batch.batch);
  } catch (const error& e) {  // finite weights whose scores (or a norm's statistic) overflow: refused
    diverged(n, overflowed(e), spec_.optimizer);
  }
  const logit_exps exps = exps_of(pass.logits);  // the loss's and its gradient's, computed once
  const float loss = cross_entropy(pass.logits, exps, batch.y).loss;
  if (!std::isfinite(loss)) diverged(n, std::string("the loss is ") + (std::isnan(loss) ? "nan" : "inf"), spec_.optimizer);
  const model_weights grads = gradients(weights_, model_, pass, batch.y, &exps);
  // PyTorch's AdamW skips a parameter with no gradient: ln2 when there is no MLP
  std::vector<tensor2*> params = weights_.all();
  std::vector<const tensor2*> given = grads.all();
  if (model_.norm.kind != norm_kind::none && model_.mlp.kind == mlp_kind::none)
    for (const model_layer& layer : weights_.layers)
      for (const tensor2* skipped : {&layer.ln2.weight, &layer.ln2.bias}) {
        const auto at = std::find(params.begin(), params.end(), skipped) - params.begin();
        params.erase(params.begin() + at);
        given.erase(given.begin() + at);
      }
  adamw_step(spec_.optimizer, adam_, params, given);
  // checked after every update, so the step named is the one that broke them
  if (!all_finite(static_cast<const model_weights&>(weights_).all()))
    diverged(n, "a weight is no longer finite", spec_.optimizer);
  return loss;
}

namespace {

// Every head's weights on sequence 0 of a pass, (layers, heads, T, T), its
// predictions, and what the page asks for: each position's most probable
// next tokens, the heads' scores on the sequence's patterns.
void probe_of(const forward_pass& pass, const model_spec& model, const std::vector<std::int64_t>& tokens,
              const probe_extras& extras, evaluation& e) {
  const std::size_t T = pass.length, L = model.layers, H = model.heads;
  e.attention = tensor::from_shape({L, H, T, T});
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) e.attention(l, h, i, j) = pass.layers[l].heads[h].weights(0, i, j);
  const std::vector<std::int64_t> all = predictions(pass.logits);
  e.predictions.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(T));
  if (extras.scores) {
    e.patterns = patterns_of(std::vector<std::int64_t>(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(T)));
    e.scores = head_scores(e.attention, *e.patterns);
  }
  if (extras.top == 0) return;
  const std::size_t V = pass.logits.shape(2);
  for (std::size_t t = 0; t < T; ++t) e.top.push_back(top_probabilities(pass.logits.data() + t * V, V, extras.top));  // (T, V) of sequence 0
}

}  // namespace

evaluation training_run::evaluate(const probe_extras& extras) const {
  forward_pass pass;
  try {
    pass = forward(weights_, model_, validation_.x, validation_.batch);
  } catch (const error& e) {
    diverged(adam_.step, overflowed(e), spec_.optimizer);
  }
  const loss_value value = cross_entropy(pass.logits, validation_.y);
  if (!std::isfinite(value.loss)) diverged(adam_.step, std::string("the validation loss is ") + (std::isnan(value.loss) ? "nan" : "inf"), spec_.optimizer);
  evaluation e;
  e.step = adam_.step;
  e.loss = value.loss;
  e.accuracy = value.counted ? static_cast<double>(value.correct) / static_cast<double>(value.counted) : 0.0;
  probe_of(pass, model_, validation_.x, extras, e);
  if (spec_.sample) e.sample = spec_.task.text->decode(sample_ids(weights_, model_, *spec_.sample));
  return e;
}

forward_pass training_run::forward_one(const std::vector<std::int64_t>& tokens) const {
  ATTENTION_CHECK(!tokens.empty() && tokens.size() <= model_.length, "tokens: expected 1 to ", model_.length,
                  " tokens, got ", tokens.size());
  for (std::size_t t = 0; t < tokens.size(); ++t)
    // compared in 64 bits: in wasm a size_t cast would take 2^32 + 3 for 3
    ATTENTION_CHECK(tokens[t] >= 0 && static_cast<std::uint64_t>(tokens[t]) < model_.vocab, "tokens[", t, "]: ",
                    tokens[t], " is not a token of this task (0 to ", model_.vocab - 1, ")");
  return forward(weights_, model_, tokens, 1);
}

std::vector<std::int64_t> training_run::encode(std::string_view utf8) const {
  ATTENTION_CHECK(spec_.task.text != nullptr, "text: this task's tokens are ids, not characters");
  const std::vector<char32_t> chars = code_points(utf8, "text");
  ATTENTION_CHECK(!chars.empty() && chars.size() <= model_.length, "text: expected 1 to ", model_.length,
                  " characters, got ", chars.size());
  return spec_.task.text->encode(chars, "text");
}

evaluation training_run::attend(const std::vector<std::int64_t>& tokens, const probe_extras& extras) const {
  evaluation e;
  e.step = adam_.step;
  probe_of(forward_one(tokens), model_, tokens, extras, e);
  return e;
}

}  // namespace attention
