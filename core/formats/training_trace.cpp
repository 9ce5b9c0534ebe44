#include "formats/training_trace.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/float_text.hpp"
#include "formats/head_scenario.hpp"
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
  // asked for by the page only, so the CLI's trace is training-v1.md's
  if (!e.top.empty()) {
    out << ",\"top\":[";
    for (std::size_t t = 0; t < e.top.size(); ++t) {
      out << (t ? ",[" : "[");
      for (std::size_t k = 0; k < e.top[t].size(); ++k)
        out << (k ? ",[" : "[") << e.top[t][k].id << ',' << float_text(e.top[t][k].probability) << ']';
      out << ']';
    }
    out << ']';
  }
  if (e.patterns) {
    const auto cells = [&out](const cell_list& list) {
      out << '[';
      for (std::size_t k = 0; k < list.size(); ++k) out << (k ? ",[" : "[") << list[k].first << ',' << list[k].second << ']';
      out << ']';
    };
    out << ",\"patterns\":{\"previous\":";
    cells(e.patterns->previous);
    out << ",\"induction\":";
    cells(e.patterns->induction);
    out << "},\"scores\":[";
    for (std::size_t k = 0; k < e.scores.size(); ++k) {
      out << (k ? "," : "") << "{\"previous\":" << float_text(static_cast<float>(e.scores[k].previous)) << ",\"induction\":";
      if (e.scores[k].induction) out << float_text(static_cast<float>(*e.scores[k].induction));
      else out << "null";
      out << '}';
    }
    out << ']';
  }
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

std::string head_scenario_json(const training_file& file, const training_run& run,
                               const std::vector<std::int64_t>& tokens, std::size_t layer, std::size_t head) {
  const model_spec& m = run.model();
  ATTENTION_CHECK(layer < m.layers, "layer: ", layer, " is beyond the model's ", m.layers, " layers");
  ATTENTION_CHECK(head < m.heads, "head: ", head, " is beyond the layer's ", m.heads, " heads");
  const forward_pass pass = run.forward_one(tokens);
  head_scenario_parts parts;
  parts.id = file.id + "-l" + std::to_string(layer) + "h" + std::to_string(head);
  parts.title = file.id + ": layer " + std::to_string(layer) + ", head " + std::to_string(head) + " after " +
                std::to_string(run.steps_done()) + " steps";
  const auto& text = file.spec.task.text;
  for (std::size_t t = 0; t < pass.length; ++t) {
    // a text task's tokens are its characters; a separated task's last id is "sep"
    const auto id = static_cast<std::size_t>(tokens[t]);
    parts.labels.push_back(text ? utf8_of(text->chars[id])
                           : id == m.vocab - 1 && m.vocab > file.spec.task.tokens ? "sep" : std::to_string(id));
  }
  parts.x = pass.layers[layer].attended().data();  // (1, T, d): with LayerNorm, ln1's output
  parts.length = pass.length;
  parts.embed = m.embed;
  parts.head = &run.weights().layers[layer].heads[head];  // its query's and value's biases; no key bias
  return head_scenario_text(parts);
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
  write_weight(out, w.tok.floats());
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
    write_linear(out, "proj", layer.proj.floats(), layer.proj_bias);
    if (m.mlp.kind != mlp_kind::none) {
      out << ',';
      write_linear(out, "fc", layer.fc.floats(), layer.fc_bias);
      out << ',';
      write_linear(out, "fc2", layer.fc2.floats(), layer.fc2_bias);
    }
    if (m.norm.kind != norm_kind::none) {
      out << ',';
      write_norm(out, "ln1", layer.ln1);
      out << ',';
      write_norm(out, "ln2", layer.ln2);
    }
    out << '}';
  }
  out << ']';
  if (m.norm.kind != norm_kind::none) {
    out << ',';
    write_norm(out, "ln_f", w.ln_f);
  }
  out << ',';
  write_linear(out, "unembed", w.unembed.floats(), w.unembed_bias);
  out << '}';
  if (const auto& text = file.spec.task.text) {
    out << ",\"vocab_chars\":[";
    for (std::size_t c = 0; c < text->vocab(); ++c) out << (c ? "," : "") << nlohmann::json(utf8_of(text->chars[c])).dump();
    out << ']';
  }
  out << "}\n";
}

}  // namespace attention
