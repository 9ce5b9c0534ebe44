// Embind glue only: a Session holds one scenario and its trace; matrices cross
// to JS as one Float32Array copy each. Errors come back as values (the core's
// message) and web/engine.js throws them as JS Errors.
#include <malloc.h>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>
#include <string>

#include "check.hpp"
#include "explain.hpp"
#include "lessons.hpp"
#include "mask.hpp"
#include "quote.hpp"
#include "run.hpp"
#include "summary.hpp"
#include "training_file.hpp"
#include "training_trace.hpp"

namespace {

using emscripten::val;

// One copy into a fresh Float32Array: the view is gone before memory can grow.
val float32_copy(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

template <typename F>
std::string error_of(F&& f);

// The lessons answer JSON, or {"error": message}.
template <typename F>
std::string json_or_error(F&& f) {
  std::string json;
  const std::string message = error_of([&] { json = f(); });
  return message.empty() ? json : nlohmann::json{{"error", message}}.dump();
}

// Every exception stops here: one escaping to JS arrives as a bare number
// and leaks its object, so nothing but a message ever crosses.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const attention::error& e) {
    return e.what();
  } catch (const std::bad_alloc&) {
    return "out of memory: the scenario is too large for this browser tab";
  } catch (const std::exception& e) {
    return "internal error: " + attention::quote(e.what(), 120);
  } catch (...) {
    return "internal error";
  }
  return "";
}

class session {
 public:
  // "" on success, else the core's message; the previous trace is kept on error.
  std::string load(const std::string& scenario_text) {
    return error_of([&] {
      attention::scenario s = attention::parse_scenario(scenario_text);
      attention::trace t = attention::run(s);
      keep_ = attention::keep_matrix(s.attention.mask, s.query_length, s.context_length);
      scenario_ = std::move(s);
      trace_ = std::move(t);
    });
  }

  std::string summary() const { return trace_ ? attention::summary_json(*scenario_, *trace_) : ""; }

  // One batch element of one step of one head: (T, ·) flat, or an empty array.
  val step(unsigned head, const std::string& name, unsigned batch) const {
    if (!trace_ || head >= trace_->layer.heads.size()) return float32_copy(nullptr, 0);
    const attention::tensor3* t = trace_->layer.heads[head].step(name);
    return batch_slice(t, batch);
  }

  // The (Tq, Tkv) mask, 1 = may attend, flat.
  val keep() const { return trace_ ? float32_copy(keep_.data(), keep_.size()) : float32_copy(nullptr, 0); }

  val layer_out(unsigned batch) const { return trace_ ? batch_slice(&trace_->layer.out, batch) : float32_copy(nullptr, 0); }

  val tensor(const std::string& name) const {
    const attention::tensor* t = trace_ ? trace_->find_tensor(name) : nullptr;
    return t ? float32_copy(t->data(), t->size()) : float32_copy(nullptr, 0);
  }

  // JSON of the explanation, or {"error": message}.
  std::string explain(unsigned head, const std::string& step, unsigned batch, unsigned row, unsigned column) const {
    return json_or_error([&] {
      ATTENTION_CHECK(trace_.has_value(), "explain: nothing loaded");
      return attention::explanation_json(attention::explain_cell(*scenario_, *trace_, head, step, batch, row, column));
    });
  }

  // The trace as JSON, or {"error": message}: engine.js tells them apart.
  std::string trace_json() const {
    return json_or_error([&] {
      ATTENTION_CHECK(trace_.has_value(), "trace: nothing loaded");
      return attention::trace_json(*trace_);
    });
  }

  std::string space_lesson(val permutation, bool add_positions) const {
    return json_or_error([&] {
      ATTENTION_CHECK(trace_.has_value(), "space: nothing loaded");
      const auto order = emscripten::vecFromJSArray<unsigned>(permutation);
      return attention::space_lesson_json(*scenario_, *trace_, {order.begin(), order.end()}, add_positions);
    });
  }

 private:
  val batch_slice(const attention::tensor3* t, unsigned batch) const {
    if (t == nullptr || batch >= t->shape(0)) return float32_copy(nullptr, 0);
    const std::size_t n = t->shape(1) * t->shape(2);
    return float32_copy(t->data() + batch * n, n);
  }

  std::optional<attention::scenario> scenario_;
  std::optional<attention::trace> trace_;
  attention::tensor2 keep_;
};

std::string averaging_lesson(double seed, unsigned B, unsigned T, unsigned C) {
  return json_or_error([&] { return attention::averaging_lesson_json(static_cast<std::uint64_t>(seed), B, T, C); });
}

std::string scaling_lesson(double seed, unsigned B, unsigned T, val head_sizes, val values, val factors) {
  return json_or_error([&] {
    const auto sizes = emscripten::vecFromJSArray<unsigned>(head_sizes);
    return attention::scaling_lesson_json(static_cast<std::uint64_t>(seed), B, T, {sizes.begin(), sizes.end()},
                                          emscripten::vecFromJSArray<float>(values),
                                          emscripten::vecFromJSArray<float>(factors));
  });
}

// A training run the page steps: load a training file, step it, evaluate
// it, keep snapshots to scrub back to. Answers are JSON text, errors too.
class training {
  // A JSON list of token ids from the page.
  static std::vector<std::int64_t> ids_of(const std::string& text) {
    const nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
    ATTENTION_CHECK(list.is_array() && list.size() <= 4096, "tokens: expected a list of token ids");
    std::vector<std::int64_t> ids;
    for (const nlohmann::json& id : list) {
      ATTENTION_CHECK(id.is_number_integer(), "tokens: expected a list of token ids");
      ids.push_back(id.get<std::int64_t>());
    }
    return ids;
  }

 public:
  std::string load(const std::string& text) {
    return error_of([&] {
      file_ = attention::parse_training(text);
      run_.emplace(file_->spec);
      snapshots_.clear();
    });
  }

  // id, sizes, settings and the probe, for the page's labels
  std::string info() const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      const attention::training_spec& s = file_->spec;
      const attention::task_batch& v = run_->validation();
      std::size_t parameters = 0;
      for (const attention::tensor2* t : run_->weights().all()) parameters += t->size();
      return nlohmann::json{{"id", file_->id}, {"title", file_->title}, {"task", s.task.name},
                            {"vocab", run_->model().vocab}, {"length", run_->model().length},
                            {"embed", s.embed}, {"heads", s.heads}, {"layers", s.layers}, {"steps", s.steps},
                            {"every", s.eval_every}, {"parameters", parameters},
                            {"probe", {{"tokens", std::vector<std::int64_t>(v.x.begin(), v.x.begin() + v.length)},
                                       {"targets", std::vector<std::int64_t>(v.y.begin(), v.y.begin() + v.length)}}}}
          .dump();
    });
  }

  // Up to n optimizer steps (never past train.steps): their losses, as JSON.
  std::string steps(unsigned n) {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::vector<float> losses;
      while (losses.size() < n && run_->steps_done() < file_->spec.steps) losses.push_back(run_->step());
      return nlohmann::json(losses).dump();
    });
  }

  std::string evaluate() const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::ostringstream out;
      attention::write_evaluation(out, run_->evaluate());
      return out.str();
    });
  }

  // The model on the learner's sequence (a JSON list of ids): attention and predictions.
  std::string attend(const std::string& tokens) const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::ostringstream out;
      attention::write_evaluation(out, run_->attend(ids_of(tokens)));
      return out.str();
    });
  }

  // Scenario v1 text for one head of the model on a sequence (training_trace.hpp).
  std::string head_scenario(const std::string& tokens, unsigned layer, unsigned head) const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      return attention::head_scenario_json(*file_, *run_, ids_of(tokens), layer, head);
    });
  }

  // The whole training from where the run stands, as the CLI writes it.
  std::string trace_json() {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      const attention::training_result result = attention::train_all(*run_, file_->spec);
      std::ostringstream out;
      attention::write_training_trace(out, *file_, *run_, result);
      return out.str();
    });
  }

  unsigned steps_done() const { return run_ ? static_cast<unsigned>(run_->steps_done()) : 0; }

  // A copy of the whole state (weights, moments, generator): its index.
  unsigned snapshot() {
    snapshots_.push_back(*run_);
    return static_cast<unsigned>(snapshots_.size() - 1);
  }
  std::string restore(unsigned index) {
    return error_of([&] {
      ATTENTION_CHECK(index < snapshots_.size(), "training: no snapshot ", index);
      run_ = snapshots_[index];
    });
  }

 private:
  std::optional<attention::training_file> file_;
  std::optional<attention::training_run> run_;
  std::vector<attention::training_run> snapshots_;
};

// Bytes malloc has handed out and not taken back: the leak test watches it.
std::size_t heap_in_use() { return mallinfo().uordblks; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_playground) {
  emscripten::class_<session>("Session")
      .constructor<>()
      .function("load", &session::load)
      .function("summary", &session::summary)
      .function("step", &session::step)
      .function("layerOut", &session::layer_out)
      .function("keep", &session::keep)
      .function("tensor", &session::tensor)
      .function("explain", &session::explain)
      .function("traceJson", &session::trace_json)
      .function("spaceLesson", &session::space_lesson);
  emscripten::class_<training>("Training")
      .constructor<>()
      .function("load", &training::load)
      .function("info", &training::info)
      .function("steps", &training::steps)
      .function("evaluate", &training::evaluate)
      .function("traceJson", &training::trace_json)
      .function("attend", &training::attend)
      .function("headScenario", &training::head_scenario)
      .function("stepsDone", &training::steps_done)
      .function("snapshot", &training::snapshot)
      .function("restore", &training::restore);
  emscripten::function("averagingLesson", &averaging_lesson);
  emscripten::function("scalingLesson", &scaling_lesson);
  emscripten::function("heapInUse", &heap_in_use);
}
