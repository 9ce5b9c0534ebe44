// A training run from start to end and its trace (training-v1.md): the loss
// of every step, the evaluations at step 0, every eval.every steps and the
// last step, the probe, and the trained weights as [in, out].
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "formats/training_file.hpp"

namespace attention {

struct training_result {
  std::vector<float> loss;       // one per step
  std::vector<evaluation> evals;
};

// Runs every step of the file's training; `run` ends trained.
training_result train_all(training_run& run, const training_spec& spec);

// One evaluation as the trace's "evals" items are written.
void write_evaluation(std::ostream& out, const evaluation& e);

// Scenario v1 text for one head of the trained model on a sequence: x is
// that layer's input (the residual stream), the head's W_query, W_key and
// W_value as values, a causal mask, scaled; tokens labelled by their ids.
std::string head_scenario_json(const training_file& file, const training_run& run,
                               const std::vector<std::int64_t>& tokens, std::size_t layer, std::size_t head);

void write_training_trace(std::ostream& out, const training_file& file, const training_run& run,
                          const training_result& result);

}  // namespace attention
