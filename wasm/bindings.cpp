// Embind glue only: a Session holds one scenario and its trace; matrices cross
// to JS as one Float32Array copy each. Errors come back as values (the core's
// message) and web/engine/engine.js throws them as JS Errors.
#include <malloc.h>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>
#include <string>

#include "attention/explain.hpp"
#include "attention/run.hpp"
#include "attention/summary.hpp"
#include "errors.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "lessons/lessons.hpp"
#include "lessons/position.hpp"
#include "tensor/mask.hpp"

namespace {

using glue::error_of;
using glue::json_or_error;

using emscripten::val;

// One copy into a fresh Float32Array: the view is gone before memory can grow.
val float32_copy(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
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

  // Each pair's angle at each position of a rotary head: (Tq, d_k/2) flat,
  // or an empty array for a scenario without rotary or no such head.
  val angles(unsigned head) const {
    if (!trace_ || !scenario_->attention.options.rotary || head >= trace_->layer.heads.size())
      return float32_copy(nullptr, 0);
    const attention::tensor2 a = attention::rotary_angles_of(*scenario_, *trace_, head);
    return float32_copy(a.data(), a.size());
  }

  // One step of one head here and in another session's trace (the same
  // scenario at another rotary offset), lessons/position.hpp: a Float32Array
  // [largest_difference, largest_value, agrees (1 or 0)], or the core's message.
  val compare(const session& other, unsigned head, const std::string& step) const {
    attention::step_comparison c;
    const std::string message = error_of([&] {
      ATTENTION_CHECK(trace_.has_value() && other.trace_.has_value(), "compare: nothing loaded");
      c = attention::compare_step(*trace_, *other.trace_, head, step);
    });
    if (!message.empty()) return val(message);
    const float numbers[3] = {c.largest_difference, c.largest_value, c.agrees ? 1.0f : 0.0f};
    return float32_copy(numbers, 3);
  }

  std::string renormalize_lesson(unsigned head) const {
    return json_or_error([&] {
      ATTENTION_CHECK(trace_.has_value(), "renormalize: nothing loaded");
      return attention::renormalize_lesson_json(*trace_, head, keep_);
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
      .function("spaceLesson", &session::space_lesson)
      .function("angles", &session::angles)
      .function("compare", &session::compare)
      .function("renormalizeLesson", &session::renormalize_lesson);
  emscripten::function("averagingLesson", &averaging_lesson);
  emscripten::function("scalingLesson", &scaling_lesson);
  emscripten::function("heapInUse", &heap_in_use);
}
