// A training run of training-v1.md as a value you can step: the model's
// weights, AdamW's moments, the training generator and the validation set.
// step() draws a batch, computes the loss and its gradients, and updates the
// weights; evaluate() runs the validation set. Copying a run is a snapshot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "random/generator.hpp"
#include "tensor/top.hpp"
#include "training/adamw.hpp"
#include "transformer/head_scores.hpp"
#include "transformer/model.hpp"
#include "transformer/samples.hpp"
#include "training/tasks.hpp"

namespace attention {

struct training_spec {
  std::uint64_t seed = 0;
  task_spec task;
  std::size_t embed = 0, heads = 1, layers = 1;
  std::size_t mlp = 0;  // gpt-v1.md's options: all off is training-v1.md's model
  bool norm = false, bias = false;
  activation_kind activation = activation_kind::relu;
  std::size_t steps = 0, batch = 32;
  adamw_settings optimizer;
  std::size_t eval_every = 25, eval_batch = 512;
  std::uint64_t eval_seed = 10000;
  std::optional<sample_spec> sample;  // text task only: generated text at each evaluation
};

struct evaluation {
  std::size_t step = 0;
  float loss = 0;
  double accuracy = 0;
  tensor attention;                       // (layers, heads, T, T) on the probe
  std::vector<std::int64_t> predictions;  // (T) on the probe
  std::optional<std::string> sample;      // the text generated after the prompt, when the file asks
  // (T, k) on the probe, when asked for: each position's k most probable next
  // tokens with softmax's probabilities (the page's guesses under the probe)
  std::vector<std::vector<token_probability>> top;
  // when asked for: the probe's previous-token and induction cells, and
  // every head's score on them (head_scores.hpp), layer by layer
  std::optional<attention_patterns> patterns;
  std::vector<head_score> scores;
};

// What the page asks of an evaluation beyond the trace's (training-v1.md's
// evaluations have neither): the top `top` next tokens per position, and the heads' scores.
struct probe_extras {
  std::size_t top = 0;
  bool scores = false;
};

class training_run {
 public:
  // Builds the model from seed, then draws the validation set off the
  // training stream (saved and restored around it), as torch_train.py does.
  explicit training_run(const training_spec& spec);

  // The model a training file describes.
  static model_spec model_of(const training_spec& spec);

  float step();  // one optimizer step; the batch's loss before the update
  // extras: nothing by default, as the trace
  evaluation evaluate(const probe_extras& extras = {}) const;

  // The model on one sequence of the learner's (ids below V, at most T of
  // them): every head's attention, the predictions and the top guesses; no loss.
  evaluation attend(const std::vector<std::int64_t>& tokens, const probe_extras& extras = {}) const;

  // A text task's characters as the learner typed them (UTF-8): their ids,
  // 1 to T of them, each in the vocabulary; else one line naming "text".
  std::vector<std::int64_t> encode(std::string_view utf8) const;

  // forward() on one sequence, for a head's scenario (training_trace.hpp).
  forward_pass forward_one(const std::vector<std::int64_t>& tokens) const;

  std::size_t steps_done() const { return adam_.step; }
  const model_spec& model() const { return model_; }
  const model_weights& weights() const { return weights_; }
  const task_batch& validation() const { return validation_; }

 private:
  training_spec spec_;
  model_spec model_;
  generator gen_;
  model_weights weights_;
  adamw_state adam_;
  task_batch validation_;
};

}  // namespace attention
