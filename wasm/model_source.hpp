// The models' module's open model and its one opening (model_opening.hpp):
// begin() with what says what the model is, header() for each file, then
// the plan allocated by the one loader and fed in chunks (any size, in file
// order, file by file) through one staging buffer that JS copies into. A
// model file is a folder of one file. model_bindings.cpp holds one and
// binds these methods as Model's; the runs on the open model are its own.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "model_opening.hpp"
#include "model_info.hpp"
#include "numbers.hpp"
#include "text.hpp"
#include "errors/check.hpp"
#include "formats/safetensors.hpp"
#include "models/folder_trace.hpp"
#include "errors/quote.hpp"
#include "models/model_loader.hpp"

namespace glue {

inline constexpr const char* out_of_memory = "out of memory: the model is too large for this browser tab";

// A byte count from JS: a whole number of bytes up to 2⁵³.
inline std::uint64_t bytes_of(double n, const char* what) {
  ATTENTION_CHECK(whole(n, largest_seed), what, ": ", js_number(n), " is not a size in bytes");
  return static_cast<std::uint64_t>(n);
}

class model_source {
 public:
  // The staging buffer, n bytes: JS copies the next bytes of the file into
  // this view at once (growing memory would detach it), then calls
  // headerLength, header or feed. n not a whole number below 2³², or more than
  // memory holds: an empty view, the buffer freed (copying into it throws
  // JS's RangeError; the feed after it is refused).
  emscripten::val buffer(double n) {
    const std::string message = error_of([&] { staging_.resize(index_of(n, "bytes")); }, out_of_memory);
    if (!message.empty()) release_staging();
    return emscripten::val(emscripten::typed_memory_view(staging_.size(), staging_.data()));
  }

  // {"length": N} from the file's first 8 bytes in the buffer, or {"error"}.
  std::string header_length(double file_size) {
    return json_or_error([&] {
      const std::uint64_t n = attention::safetensors_header_length(staging_.data(), staging_.size(),
                                                                    bytes_of(file_size, "file"));
      return nlohmann::json{{"length", n}}.dump();
    }, out_of_memory);
  }

  // What says what the model is, first: `kind` "folder" with a Hugging
  // Face folder's config.json and model.safetensors.index.json ("" for one
  // model.safetensors), or "file" with a model file's config.json overrides
  // (or "") and no index: a model file opens as a folder of one file.
  // {"files": [the files whose headers come next, in order]} or {"error"};
  // then header() for each, in that order. Drops the open model.
  std::string begin(const std::u16string& kind_text, const std::u16string& config_text, const std::u16string& index_text) {
    close();
    return json_or_error([&] {
      const std::string kind = utf8_of(kind_text, "kind");
      ATTENTION_CHECK(kind == "file" || kind == "folder", "kind: ", attention::quote(kind, 40), " is neither file nor folder");
      const std::string config = utf8_of(config_text, "config.json"), index = utf8_of(index_text, "model.safetensors.index.json");
      ATTENTION_CHECK(kind == "folder" || index.empty(), "model.safetensors.index.json: a model file has none");
      opening_.emplace(kind == "file" ? model_opening::file(config) : model_opening::folder(config, index));
      return nlohmann::json{{"files", opening_->files()}}.dump();
    }, out_of_memory);
  }

  // The next file's header in the buffer (headerLength() read its length),
  // the file `file_size` bytes. {"planned": false} until the last, then the
  // weights are allocated and the answer is {"planned": true, "dataBytes":
  // [each file's data bytes]}; {"error"} drops the opening.
  std::string header(double file_size) {
    std::string answer = json_or_error([&] {
      ATTENTION_CHECK(opening_.has_value(), "model: no folder is being opened");  // a model file is a folder of one file
      const std::string header(staging_.begin(), staging_.end());
      release_staging();
      opening_->header(header, bytes_of(file_size, "file"));
      if (!opening_->complete()) return nlohmann::json{{"planned", false}}.dump();
      loader_.emplace(opening_->plan());  // the opening stays, to refuse another header, until the last byte
      nlohmann::json data = nlohmann::json::array();
      for (std::size_t s = 0; s < loader_->shards(); ++s) data.push_back(loader_->expected(s));
      return nlohmann::json{{"planned", true}, {"dataBytes", data}}.dump();
    }, out_of_memory);
    if (answer.rfind("{\"error\"", 0) == 0) close();
    return answer;
  }

  // The next n bytes of file `shard`'s data, from the buffer: {"received",
  // "total" (of that file), "done" (every file complete: the model is
  // ready, its info from config())} or {"error"}, which drops the opening.
  // With no opening planned the open model (if any) stays.
  std::string feed(double shard_number, double count) {
    if (!loader_) return nlohmann::json{{"error", "model: no file is being opened"}}.dump();
    std::string answer = json_or_error([&] {
      const std::uint32_t shard = index_of(shard_number, "shard"), n = index_of(count, "bytes");
      ATTENTION_CHECK(shard < loader_->shards(), "shard: ", shard, " is outside [0, ", loader_->shards(), ")");
      ATTENTION_CHECK(n <= staging_.size(), "model: ", n, " bytes fed from a buffer of ", staging_.size());
      loader_->feed(shard, staging_.data(), n);
      const bool done = loader_->complete();
      nlohmann::json progress{{"received", loader_->received(shard)}, {"total", loader_->expected(shard)}, {"done", done}};
      if (done) {
        model_ = loader_->finish();
        loader_.reset();
        opening_.reset();
        release_staging();
      }
      return progress.dump();
    }, out_of_memory);
    if (answer.rfind("{\"error\"", 0) == 0) close();
    return answer;
  }

  // While JS waits on the file: up to n bytes of weights the data has not
  // reached touched (mapped) ahead of it; the bytes touched, 0 when none
  // are left (or nothing is being opened, or n is not a whole number below 2³²).
  double prepare(double n) {
    return loader_ && whole(n) ? static_cast<double>(loader_->prepare(static_cast<std::uint32_t>(n))) : 0.0;
  }

  // Frees the model, a load under way, the last run and the buffer.
  void close() {
    drop();
    release_staging();
  }

  bool is_open() const { return model_.has_value(); }
  // The open model, whichever loader made it. Callers check is_open().
  const attention::loaded_model& model() const { return *model_; }
  // Whether the open model's attention is causal (it writes the next token), as its block description says.
  bool causal() const { return !is_open() || model().spec.causal(); }

  // {"config": …} of the open model, or {"error"}.
  std::string config() const {
    return json_or_error([&] {
      ATTENTION_CHECK(is_open(), "model: nothing open");
      return describe(model()).dump();
    });
  }

 private:
  void release_staging() { std::vector<unsigned char>().swap(staging_); }

  // The model and a load under way.
  void drop() {
    loader_.reset();
    opening_.reset();
    model_.reset();
  }

  std::vector<unsigned char> staging_;
  std::optional<attention::model_loader> loader_;  // a file's or a folder's load under way
  std::optional<model_opening> opening_;
  std::optional<attention::loaded_model> model_;  // the open model, from a file or a folder
};

}  // namespace glue
