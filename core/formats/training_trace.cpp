#include "formats/training_trace.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/float_text.hpp"
#include "formats/trace_json.hpp"

namespace attention {
namespace {

void write_ints(std::ostream& out, const std::int64_t* data, std::size_t n) {
  out << '[';
  for (std::size_t i = 0; i < n; ++i) out << (i ? "," : "") << data[i];
  out << ']';
}

void write_weight(std::ostream& out, const tensor2& t) { write_tensor_json(out, {t.shape(0), t.shape(1)}, t.data()); }

}  // namespace

void write_evaluation(std::ostream& out, const evaluation& e) {
  out << "{\"step\":" << e.step << ",\"loss\":" << float_text(e.loss)
      << ",\"accuracy\":" << float_text(static_cast<float>(e.accuracy)) << ",\"attention\":";
  write_tensor_json(out, {e.attention.shape().begin(), e.attention.shape().end()}, e.attention.data());
  out << ",\"predictions\":";
  write_ints(out, e.predictions.data(), e.predictions.size());
  if (e.sample) out << ",\"sample\":" << nlohmann::json(*e.sample).dump();
  out << '}';
}

training_result train_all(training_run& run, const training_spec& spec) {
  training_result result;
  result.evals.push_back(run.evaluate());
  for (std::size_t step = 1; step <= spec.steps; ++step) {
    result.loss.push_back(run.step());
    if (step % spec.eval_every == 0 || step == spec.steps) result.evals.push_back(run.evaluate());
  }
  return result;
}

namespace {

void write_rows(std::ostream& out, const float* data, std::size_t rows, std::size_t cols) {
  out << '[';
  for (std::size_t r = 0; r < rows; ++r) {
    if (r) out << ',';
    write_floats_json(out, data + r * cols, cols);
  }
  out << ']';
}

}  // namespace

std::string head_scenario_json(const training_file& file, const training_run& run,
                               const std::vector<std::int64_t>& tokens, std::size_t layer, std::size_t head) {
  const model_spec& m = run.model();
  ATTENTION_CHECK(layer < m.layers, "layer: ", layer, " is beyond the model's ", m.layers, " layers");
  ATTENTION_CHECK(head < m.heads, "head: ", head, " is beyond the layer's ", m.heads, " heads");
  const forward_pass pass = run.forward_one(tokens);
  const tensor3& x = pass.layers[layer].input;  // (1, T, d)
  const model_head& w = run.weights().layers[layer].heads[head];
  const std::size_t T = pass.length, d = m.embed, hs = m.head_size();
  std::ostringstream out;
  out << "{\"version\":1,\"id\":\"" << file.id << "-l" << layer << "h" << head << "\",\"title\":\"" << file.id
      << ": layer " << layer << ", head " << head << " after " << run.steps_done() << " steps\",\"tokens\":[";
  const auto& text = file.spec.task.text;
  for (std::size_t t = 0; t < T; ++t) {
    // a text task's tokens are its characters; a separated task's last id is "sep"
    const auto id = static_cast<std::size_t>(tokens[t]);
    const std::string label = text ? utf8_of(text->chars[id])
                              : id == m.vocab - 1 && m.vocab > file.spec.task.tokens ? "sep" : std::to_string(id);
    out << (t ? "," : "") << nlohmann::json(label).dump();
  }
  out << "],\"tensors\":[{\"name\":\"x\",\"values\":";
  write_rows(out, x.data(), T, d);
  out << "},{\"name\":\"W_query\",\"values\":";
  write_rows(out, w.query.data(), d, hs);
  out << "},{\"name\":\"W_key\",\"values\":";
  write_rows(out, w.key.data(), d, hs);
  out << "},{\"name\":\"W_value\",\"values\":";
  write_rows(out, w.value.data(), d, hs);
  out << "}],\"attention\":{\"x\":\"x\",\"heads\":[{\"query\":\"W_query\",\"key\":\"W_key\",\"value\":\"W_value\"}],"
         "\"mask\":\"causal\",\"scale\":true}}";
  return out.str();
}

void write_training_trace(std::ostream& out, const training_file& file, const training_run& run,
                          const training_result& result) {
  const model_spec& m = run.model();
  const model_weights& w = run.weights();
  std::size_t parameters = 0;
  for (const tensor2* t : w.all()) parameters += t->size();
  const task_batch& v = run.validation();
  out << "{\"version\":1,\"id\":\"" << file.id << "\",\"vocab\":" << m.vocab << ",\"length\":" << m.length
      << ",\"parameters\":" << parameters << ",\"probe\":{\"tokens\":";
  write_ints(out, v.x.data(), v.length);
  out << ",\"targets\":";
  write_ints(out, v.y.data(), v.length);
  out << "},\"loss\":";
  write_floats_json(out, result.loss.data(), result.loss.size());
  out << ",\"evals\":[";
  for (std::size_t k = 0; k < result.evals.size(); ++k) {
    if (k) out << ',';
    write_evaluation(out, result.evals[k]);
  }
  out << "],\"weights\":{\"tok\":";
  write_weight(out, w.tok);
  out << ",\"pos\":";
  write_weight(out, w.pos);
  out << ",\"layers\":[";
  for (std::size_t l = 0; l < w.layers.size(); ++l) {
    out << (l ? "," : "") << "{\"heads\":[";
    for (std::size_t h = 0; h < w.layers[l].heads.size(); ++h) {
      const model_head& head = w.layers[l].heads[h];
      out << (h ? "," : "") << "{\"query\":";
      write_weight(out, head.query);
      out << ",\"key\":";
      write_weight(out, head.key);
      out << ",\"value\":";
      write_weight(out, head.value);
      out << '}';
    }
    out << "],\"proj\":";
    write_weight(out, w.layers[l].proj);
    out << '}';
  }
  out << "],\"unembed\":";
  write_weight(out, w.unembed);
  out << '}';
  if (const auto& text = file.spec.task.text) {
    out << ",\"vocab_chars\":[";
    for (std::size_t c = 0; c < text->vocab(); ++c) out << (c ? "," : "") << nlohmann::json(utf8_of(text->chars[c])).dump();
    out << ']';
  }
  out << "}\n";
}

}  // namespace attention
