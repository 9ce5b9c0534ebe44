// Embind glue of the trainer's module (attention-train.wasm), which only the
// training view's worker loads: a Training holds one training run; answers
// and errors come back as JSON text (web/engine/engine.js, TrainingRun).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "numbers.hpp"
#include "text.hpp"
#include "formats/model_file.hpp"
#include "formats/training_file.hpp"
#include "formats/training_trace.hpp"

namespace {

using emscripten::val;
using glue::error_of;
using glue::index_of;
using glue::json_or_error;
using glue::utf8_of;

// A training run the page steps: load a training file, step it, evaluate
// it, keep snapshots to scrub back to. Answers are JSON text, errors too.
// Every count and index crosses as a JS number and every text as UTF-16,
// checked here first (numbers.hpp, text.hpp); any method before load()
// answers "training: nothing loaded".
class training {
  // A JSON list of token ids from the page, read as 64-bit integers (the
  // core compares them with the vocabulary in 64 bits too): one beyond int64
  // is named here as written, never wrapped into range.
  std::vector<std::int64_t> ids_of(const std::u16string& tokens) const {
    const nlohmann::json list = nlohmann::json::parse(utf8_of(tokens, "tokens"), nullptr, false);
    ATTENTION_CHECK(list.is_array() && list.size() <= 4096, "tokens: expected a list of token ids");
    std::vector<std::int64_t> ids;
    for (std::size_t t = 0; t < list.size(); ++t) {
      const nlohmann::json& id = list[t];
      ATTENTION_CHECK(id.is_number_integer(), "tokens[", t, "]: expected an integer token id");
      ATTENTION_CHECK(!id.is_number_unsigned() || id.get<std::uint64_t>() <= INT64_MAX, "tokens[", t, "]: ",
                      id.get<std::uint64_t>(), " is not a token of this task (0 to ", run_->model().vocab - 1, ")");
      ids.push_back(id.get<std::int64_t>());
    }
    return ids;
  }

 public:
  // A corpus file a text task's task.corpus may name, as bytes (a JS string
  // arrives as UTF-8, a Uint8Array as it is: a file opened from disk reaches
  // the core's UTF-8 check unchanged). Kept for the next load() only. A JS
  // string with a lone surrogate is refused there, when the file names it.
  void corpus(const std::u16string& name, const val& bytes) {
    const std::string key = glue::utf8_replacing(name);
    if (!bytes.isString()) {
      // only bytes convert: anything else would throw from inside Embind
      corpora_[key] = bytes.instanceof(val::global("Uint8Array")) ? bytes.as<std::string>()
                                                                   : std::string(1, '\0') + ": is neither text nor bytes";
      return;
    }
    const std::string message = error_of([&] { corpora_[key] = utf8_of(bytes.as<std::u16string>(), ""); });
    if (!message.empty()) corpora_[key] = std::string(1, '\0') + message;  // a NUL first: no text the core takes
  }

  // Parses a training file (its corpus given first) and starts its run: "" on
  // success, else the core's message; the previous run is kept on error.
  std::string load(const std::u16string& file_text) {
    return error_of([&] {
      const std::string text = utf8_of(file_text, "training");
      const std::map<std::string, std::string> files = std::move(corpora_);
      corpora_.clear();
      // the new file and its run, whole, before the old ones go
      attention::training_file file = attention::parse_training(text, [&files](const std::string& name) -> std::string {
        const auto found = files.find(name);
        ATTENTION_CHECK(found != files.end(), "task.corpus: ", attention::quote(name), " is not one of this page's corpora");
        ATTENTION_CHECK(found->second.empty() || found->second[0] != '\0', "task.corpus: ", name,
                        found->second.substr(1));
        return found->second;
      });
      attention::training_run run(file.spec);
      snapshots_.clear();
      run_.reset();
      file_ = std::move(file);
      run_.emplace(std::move(run));
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
      nlohmann::json info{{"id", file_->id}, {"title", file_->title}, {"task", s.task.name},
                          {"vocab", run_->model().vocab}, {"length", run_->model().length},
                          {"embed", s.embed}, {"heads", s.heads}, {"layers", s.layers}, {"steps", s.steps},
                          {"batch", s.batch}, {"lr", s.optimizer.lr},
                          {"every", s.eval_every}, {"parameters", parameters},
                          // the loss of guessing every token of the vocabulary alike: where a run starts
                          {"uniformLoss", std::log(static_cast<double>(run_->model().vocab))},
                          {"mlp", s.mlp}, {"norm", s.norm}, {"bias", s.bias},
                          {"activation", attention::activation_name(s.activation)}, {"samples", s.sample.has_value()},
                          {"probe", {{"tokens", std::vector<std::int64_t>(v.x.begin(), v.x.begin() + v.length)},
                                     {"targets", std::vector<std::int64_t>(v.y.begin(), v.y.begin() + v.length)}}}};
      // a text task's tokens are characters: the page labels them
      if (s.task.text) {
        std::vector<std::string> chars;
        for (char32_t c : s.task.text->chars) chars.push_back(attention::utf8_of(c));
        info["vocab_chars"] = chars;
        info["corpus"] = {{"train", s.task.text->train.size()}, {"val", s.task.text->val.size()}};
      }
      return info.dump();
    });
  }

  // Up to n optimizer steps (never past train.steps): their losses, as JSON.
  std::string steps(double count) {
    return json_or_error([&] {
      const std::uint32_t n = index_of(count, "steps");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::vector<float> losses;
      while (losses.size() < n && run_->steps_done() < file_->spec.steps) losses.push_back(run_->step());
      return nlohmann::json(losses).dump();
    });
  }

  // top: the most probable next tokens to keep per probe position (0: none);
  // scores: the heads' previous-token and induction scores, with their cells
  std::string evaluate(double top, bool scores) const {
    return json_or_error([&] {
      const std::uint32_t k = index_of(top, "top");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::ostringstream out;
      attention::write_evaluation(out, run_->evaluate({k, scores}));
      return out.str();
    });
  }

  // The model on the learner's sequence (a JSON list of ids): attention,
  // predictions and the top guesses; no loss, no sample.
  std::string attend(const std::u16string& tokens, double top, bool scores) const {
    return json_or_error([&] {
      const std::uint32_t k = index_of(top, "top");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      std::ostringstream out;
      attention::write_evaluation(out, run_->attend(ids_of(tokens), {k, scores}));
      return out.str();
    });
  }

  // A text task's characters as typed (a JS string arrives as UTF-8): their ids, as JSON.
  std::string encode(const std::u16string& text) const {
    return json_or_error([&] {
      const std::string utf8 = utf8_of(text, "text");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      return nlohmann::json(run_->encode(utf8)).dump();
    });
  }

  // Scenario v1 text for one head of the model on a sequence (training_trace.hpp).
  std::string head_scenario(const std::u16string& tokens, double layer, double head) const {
    return json_or_error([&] {
      const std::uint32_t l = index_of(layer, "layer"), h = index_of(head, "head");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      return attention::head_scenario_json(*file_, *run_, ids_of(tokens), l, h);
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

  // The model as it stands, as a gpt-v1 model file (formats/model_file.hpp)
  // written in memory: one Uint8Array copy, which the page opens as it opens
  // a file from disk (engine/model.js's openModel). An error comes as
  // {"error"} JSON text instead, as the other methods' do.
  val model_file() const {
    std::string bytes;
    const std::string message = error_of(
        [&] {
          ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
          std::ostringstream out;
          attention::write_model_file(out, *file_, *run_);
          bytes = out.str();
        },
        "out of memory: the trained model is too large to copy in this browser tab");
    if (!message.empty()) return val(nlohmann::json{{"error", message}}.dump());
    // the view is gone before wasm memory can grow: Uint8Array's constructor copies it
    return val::global("Uint8Array").new_(
        emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data())));
  }

  // The optimizer steps taken so far.
  unsigned steps_done() const { return run_ ? static_cast<unsigned>(run_->steps_done()) : 0; }

  // A copy of the whole state (weights, moments, generator): its index, as
  // JSON, or {"error"}.
  std::string snapshot() {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      snapshots_.push_back(*run_);
      return std::to_string(snapshots_.size() - 1);
    });
  }
  // "" or the line: an index that is not a snapshot of this run is refused.
  std::string restore(double index) {
    return error_of([&] {
      const std::uint32_t i = index_of(index, "snapshot");
      ATTENTION_CHECK(run_.has_value(), "training: nothing loaded");
      ATTENTION_CHECK(i < snapshots_.size(), "training: no snapshot ", i);
      run_ = snapshots_[i];
    });
  }

 private:
  std::optional<attention::training_file> file_;
  std::optional<attention::training_run> run_;
  std::vector<attention::training_run> snapshots_;
  std::map<std::string, std::string> corpora_;  // by name, until the next load()
};

std::size_t heap_in_use() { return mallinfo().uordblks; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  emscripten::class_<training>("Training")
      .constructor<>()
      .function("corpus", &training::corpus)
      .function("load", &training::load)
      .function("info", &training::info)
      .function("steps", &training::steps)
      .function("evaluate", &training::evaluate)
      .function("traceJson", &training::trace_json)
      .function("attend", &training::attend)
      .function("encode", &training::encode)
      .function("headScenario", &training::head_scenario)
      .function("modelFile", &training::model_file)
      .function("stepsDone", &training::steps_done)
      .function("snapshot", &training::snapshot)
      .function("restore", &training::restore);
  emscripten::function("heapInUse", &heap_in_use);
}
