#include "training.hpp"

#include "backprop.hpp"
#include "check.hpp"

namespace attention {

training_run::training_run(const training_spec& spec) : spec_(spec), gen_(spec.seed) {
  model_ = {task_vocab(spec.task), task_length(spec.task), spec.embed, spec.heads, spec.layers};
  weights_ = init_weights(gen_, model_);
  // the validation set: its own seed, and the training stream left as it was
  const generator saved = gen_;
  gen_.manual_seed(spec.eval_seed);
  validation_ = draw_task(gen_, spec.task, spec.eval_batch);
  gen_ = saved;
}

float training_run::step() {
  const task_batch batch = draw_task(gen_, spec_.task, spec_.batch);
  const forward_pass pass = forward(weights_, model_, batch.x, batch.batch);
  const float loss = cross_entropy(pass.logits, batch.y).loss;
  const model_weights grads = gradients(weights_, model_, pass, batch.y);
  adamw_step(spec_.optimizer, adam_, weights_.all(), grads.all());
  return loss;
}

namespace {

// Every head's weights on sequence 0 of a pass, (layers, heads, T, T), and
// its predictions.
void probe_of(const forward_pass& pass, const model_spec& model, evaluation& e) {
  const std::size_t T = pass.length, L = model.layers, H = model.heads;
  e.attention = tensor::from_shape({L, H, T, T});
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) e.attention(l, h, i, j) = pass.layers[l].heads[h].weights(0, i, j);
  const std::vector<std::int64_t> all = predictions(pass.logits);
  e.predictions.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(T));
}

}  // namespace

evaluation training_run::evaluate() const {
  const forward_pass pass = forward(weights_, model_, validation_.x, validation_.batch);
  const loss_value value = cross_entropy(pass.logits, validation_.y);
  evaluation e;
  e.step = adam_.step;
  e.loss = value.loss;
  e.accuracy = value.counted ? static_cast<double>(value.correct) / static_cast<double>(value.counted) : 0.0;
  probe_of(pass, model_, e);
  return e;
}

forward_pass training_run::forward_one(const std::vector<std::int64_t>& tokens) const {
  ATTENTION_CHECK(!tokens.empty() && tokens.size() <= model_.length, "tokens: expected 1 to ", model_.length,
                  " tokens, got ", tokens.size());
  for (std::size_t t = 0; t < tokens.size(); ++t)
    ATTENTION_CHECK(tokens[t] >= 0 && static_cast<std::size_t>(tokens[t]) < model_.vocab, "tokens[", t, "]: ",
                    tokens[t], " is not a token of this task (0 to ", model_.vocab - 1, ")");
  return forward(weights_, model_, tokens, 1);
}

evaluation training_run::attend(const std::vector<std::int64_t>& tokens) const {
  evaluation e;
  e.step = adam_.step;
  probe_of(forward_one(tokens), model_, e);
  return e;
}

}  // namespace attention
