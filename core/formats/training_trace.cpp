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

// A Linear's entries: "name": W, then "name_bias": b (shape [n]) when it has one.
void write_linear(std::ostream& out, const char* name, const tensor2& w, const tensor2& bias) {
  out << '"' << name << "\":";
  write_weight(out, w);
  if (bias.size() == 0) return;
  out << ",\"" << name << "_bias\":";
  write_tensor_json(out, {bias.size()}, bias.data());
}

// A LayerNorm: {"weight": [d], "bias": [d]}.
void write_norm(std::ostream& out, const char* name, const layer_norm_weights& ln) {
  out << '"' << name << "\":{\"weight\":";
  write_tensor_json(out, {ln.weight.size()}, ln.weight.data());
  out << ",\"bias\":";
  write_tensor_json(out, {ln.bias.size()}, ln.bias.data());
  out << '}';
}

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
  const tensor3& x = pass.layers[layer].attended();  // (1, T, d): with LayerNorm, ln1's output
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
  // the query's and the value's biases (gpt-v1.md section 3); the model has no key bias
  if (m.bias) {
    out << "},{\"name\":\"b_query\",\"values\":";
    write_floats_json(out, w.query_bias.data(), hs);
    out << "},{\"name\":\"b_value\",\"values\":";
    write_floats_json(out, w.value_bias.data(), hs);
  }
  out << "}],\"attention\":{\"x\":\"x\",\"heads\":[{\"query\":\"W_query\",\"key\":\"W_key\",\"value\":\"W_value\""
      << (m.bias ? ",\"query_bias\":\"b_query\",\"value_bias\":\"b_value\"" : "")
      << "}],\"mask\":\"causal\",\"scale\":true}}";
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
    const model_layer& layer = w.layers[l];
    out << (l ? "," : "") << "{\"heads\":[";
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
      const model_head& head = layer.heads[h];
      out << (h ? "," : "") << '{';
      write_linear(out, "query", head.query, head.query_bias);
      out << ',';
      write_linear(out, "key", head.key, tensor2());
      out << ',';
      write_linear(out, "value", head.value, head.value_bias);
      out << '}';
    }
    out << "],";
    write_linear(out, "proj", layer.proj, layer.proj_bias);
    if (m.mlp) {
      out << ',';
      write_linear(out, "fc", layer.fc, layer.fc_bias);
      out << ',';
      write_linear(out, "fc2", layer.fc2, layer.fc2_bias);
    }
    if (m.norm) {
      out << ',';
      write_norm(out, "ln1", layer.ln1);
      out << ',';
      write_norm(out, "ln2", layer.ln2);
    }
    out << '}';
  }
  out << ']';
  if (m.norm) {
    out << ',';
    write_norm(out, "ln_f", w.ln_f);
  }
  out << ',';
  write_linear(out, "unembed", w.unembed, w.unembed_bias);
  out << '}';
  if (const auto& text = file.spec.task.text) {
    out << ",\"vocab_chars\":[";
    for (std::size_t c = 0; c < text->vocab(); ++c) out << (c ? "," : "") << nlohmann::json(utf8_of(text->chars[c])).dump();
    out << ']';
  }
  out << "}\n";
}

}  // namespace attention
