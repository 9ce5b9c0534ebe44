// Embind glue only: a `Session` holds one scenario and its trace; matrices cross
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
#include "numbers.hpp"
#include "text.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "lessons/lessons.hpp"
#include "lessons/position.hpp"
#include "tensor/mask.hpp"

namespace {

using glue::error_of;
using glue::index_of;
using glue::json_or_error;
using glue::utf8_of;
using glue::whole;

using emscripten::val;

// A JS array of indexes, each checked as a number first: "name[i]: -1 is not …".
std::vector<std::size_t> indexes_of(const val& list, const char* name) {
  ATTENTION_CHECK(list.isArray(), name, ": expected a list of whole numbers");
  const std::vector<double> numbers = emscripten::vecFromJSArray<double>(list);
  std::vector<std::size_t> indexes;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const std::string place = std::string(name) + "[" + std::to_string(i) + "]";
    indexes.push_back(index_of(numbers[i], place.c_str()));
  }
  return indexes;
}

// One copy into a fresh Float32Array: the view is gone before memory can grow.
val float32_copy(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

// Every index crosses as a JS number and every text as UTF-16, checked first
// (numbers.hpp, text.hpp): no −1 or 2³² is wrapped, no lone surrogate glued.
class session {
 public:
  // "" on success, else the core's message; the previous trace is kept on error.
  std::string load(const std::u16string& scenario_text) {
    return error_of([&] {
      attention::scenario s = attention::parse_scenario(utf8_of(scenario_text, "scenario"));
      attention::trace t = attention::run(s);
      keep_ = attention::keep_matrix(s.attention.mask, s.query_length, s.context_length);
      scenario_ = std::move(s);
      trace_ = std::move(t);
    });
  }

  // What the page lays out before asking for numbers (labels, lengths, heads,
  // their steps' shapes, the mask's kind), as JSON (summary.hpp); "" before a load.
  std::string summary() const { return trace_ ? attention::summary_json(*scenario_, *trace_) : ""; }

  // One batch element of one step of one head: (T, ·) flat, or an empty array.
  val step(double head, const std::u16string& name, double batch) const {
    if (!trace_ || !whole(head) || head >= trace_->layer.heads.size()) return float32_copy(nullptr, 0);
    const attention::tensor3* t = trace_->layer.heads[static_cast<std::size_t>(head)].step(glue::utf8_replacing(name));
    return batch_slice(t, batch);
  }

  // The (Tq, Tkv) mask, 1 = may attend, flat.
  val keep() const { return trace_ ? float32_copy(keep_.data(), keep_.size()) : float32_copy(nullptr, 0); }

  // The layer's output (after the heads' concatenation and any projection) of one batch element, flat.
  val layer_out(double batch) const { return trace_ ? batch_slice(&trace_->layer.out, batch) : float32_copy(nullptr, 0); }

  // One of the scenario's named tensors, flat, or an empty array.
  val tensor(const std::u16string& name) const {
    const attention::tensor* t = trace_ ? trace_->find_tensor(glue::utf8_replacing(name)) : nullptr;
    return t ? float32_copy(t->data(), t->size()) : float32_copy(nullptr, 0);
  }

  // JSON of the explanation, or {"error": message}.
  std::string explain(double head, const std::u16string& step, double batch, double row, double column) const {
    return json_or_error([&] {
      const std::uint32_t h = index_of(head, "head"), b = index_of(batch, "batch"), i = index_of(row, "row"),
                          j = index_of(column, "column");
      const std::string name = utf8_of(step, "step");
      ATTENTION_CHECK(trace_.has_value(), "explain: nothing loaded");
      return attention::explanation_json(attention::explain_cell(*scenario_, *trace_, h, name, b, i, j));
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
  val angles(double head) const {
    if (!trace_ || !scenario_->attention.options.rotary || !whole(head) || head >= trace_->layer.heads.size())
      return float32_copy(nullptr, 0);
    const attention::tensor2 a = attention::rotary_angles_of(*scenario_, *trace_, static_cast<std::size_t>(head));
    return float32_copy(a.data(), a.size());
  }

  // One step of one head here and in another `Session`'s trace (the same
  // scenario at another rotary offset), lessons/position.hpp: a Float32Array
  // [largest_difference, largest_value, agrees (1 or 0)], or the core's message.
  val compare(const session& other, double head, const std::u16string& step) const {
    attention::step_comparison c;
    const std::string message = error_of([&] {
      const std::uint32_t h = index_of(head, "head");
      const std::string name = utf8_of(step, "step");
      ATTENTION_CHECK(trace_.has_value() && other.trace_.has_value(), "compare: nothing loaded");
      c = attention::compare_step(*trace_, *other.trace_, h, name);
    });
    if (!message.empty()) return val(message);
    const float numbers[3] = {c.largest_difference, c.largest_value, c.agrees ? 1.0f : 0.0f};
    return float32_copy(numbers, 3);
  }

  // Masking after the softmax, then renormalizing, on one head (notebook 004;
  // renormalize.hpp), as JSON.
  std::string renormalize_lesson(double head) const {
    return json_or_error([&] {
      const std::uint32_t h = index_of(head, "head");
      ATTENTION_CHECK(trace_.has_value(), "renormalize: nothing loaded");
      return attention::renormalize_lesson_json(*trace_, h, keep_);
    });
  }

  // No notion of space: the outputs with the tokens permuted, with or without
  // sinusoidal positions added first (space.hpp), as JSON.
  std::string space_lesson(val permutation, bool add_positions) const {
    return json_or_error([&] {
      ATTENTION_CHECK(trace_.has_value(), "space: nothing loaded");
      return attention::space_lesson_json(*scenario_, *trace_, indexes_of(permutation, "permutation"), add_positions);
    });
  }

 private:
  val batch_slice(const attention::tensor3* t, double batch) const {
    if (t == nullptr || !whole(batch) || batch >= t->shape(0)) return float32_copy(nullptr, 0);
    const std::size_t n = t->shape(1) * t->shape(2);
    return float32_copy(t->data() + static_cast<std::size_t>(batch) * n, n);
  }

  std::optional<attention::scenario> scenario_;
  std::optional<attention::trace> trace_;
  attention::tensor2 keep_;
};

// The mathematical trick: torch.rand(B, T, C) under seed averaged over the
// past three ways, and whether they agree (notebook 003), as JSON.
std::string averaging_lesson(double seed, double B, double T, double C) {
  return json_or_error([&] {
    return attention::averaging_lesson_json(glue::seed_of(seed, "seed"), index_of(B, "B"), index_of(T, "T"),
                                            index_of(C, "C"));
  });
}

// Why scale: the scores' variance with and without 1/sqrt(head_size) at each
// head size, and softmax(values · factor) at each factor, as JSON.
std::string scaling_lesson(double seed, double B, double T, val head_sizes, val values, val factors) {
  return json_or_error([&] {
    return attention::scaling_lesson_json(glue::seed_of(seed, "seed"), index_of(B, "B"), index_of(T, "T"),
                                          indexes_of(head_sizes, "headSizes"),
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
