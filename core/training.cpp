#include "training.hpp"

#include "backprop.hpp"

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

evaluation training_run::evaluate() const {
  const forward_pass pass = forward(weights_, model_, validation_.x, validation_.batch);
  const loss_value value = cross_entropy(pass.logits, validation_.y);
  evaluation e;
  e.step = adam_.step;
  e.loss = value.loss;
  e.accuracy = value.counted ? static_cast<double>(value.correct) / static_cast<double>(value.counted) : 0.0;
  const std::size_t T = validation_.length, L = model_.layers, H = model_.heads;
  e.attention = tensor::from_shape({L, H, T, T});
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) e.attention(l, h, i, j) = pass.layers[l].heads[h].weights(0, i, j);
  const std::vector<std::int64_t> all = predictions(pass.logits);
  e.predictions.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(T));
  return e;
}

}  // namespace attention
