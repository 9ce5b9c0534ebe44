// A model being opened in the models' module, whatever it came from, as
// core/models does from disk but fed by the page: a model file is a folder
// of one shard. First what says what the model is (a Hugging Face folder's
// config.json and index, or a model file's config.json overrides), then
// each file's header in the order files() lists them, then the plan of
// them all (core/models/model_plan.hpp), before one weight is allocated;
// model_source's one loader takes the plan and each file's data. Neither a
// whole file nor a header is held once it has been planned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/safetensors.hpp"
#include "formats/safetensors_index.hpp"
#include "models/family_config.hpp"
#include "models/folder_plan.hpp"
#include "models/hf_config.hpp"
#include "models/model_plan.hpp"

namespace glue {

class model_opening {
 public:
  // A folder (models-v2.md section 1): config.json's and the index's text
  // ("" for one model.safetensors). Its files are the index's shards.
  static model_opening folder(const std::string& config, const std::string& index) {
    model_opening opening;
    opening.config_ = attention::read_family_config(config);
    if (index.empty()) {
      opening.files_ = {"model.safetensors"};
    } else {
      try {
        opening.index_ = std::make_unique<attention::safetensors_index>(attention::read_safetensors_index(index));
      } catch (const attention::error& e) {
        attention::detail::fail("model.safetensors.index.json: ", e.what());
      }
      opening.files_ = opening.index_->shards;
    }
    return opening;
  }

  // A model file (gpt-v1.md section 2): its header is its config, which a
  // config.json (`config`, or "") only overrides. One file, named "".
  static model_opening file(const std::string& config) {
    model_opening opening;
    if (!config.empty()) opening.overrides_ = attention::read_hf_config(config);
    opening.files_ = {""};
    return opening;
  }

  const std::vector<std::string>& files() const { return files_; }
  bool complete() const { return planned_ || headers_.size() == files_.size(); }

  // The next file's header (its `length` bytes after the first 8), from a
  // file of `size` bytes. A folder's errors name the shard.
  void header(const std::string& text, std::uint64_t size) {
    ATTENTION_CHECK(!planned_ && headers_.size() < files_.size(), "folder: more headers than the folder's ", files_.size(),
                    " shard(s)");
    const std::string& file = files_[headers_.size()];
    try {
      headers_.emplace_back(file, attention::read_safetensors_header(text, size));
    } catch (const attention::error& e) {
      if (!config_) throw;  // a model file's line is the header's own
      attention::detail::fail(attention::quote(file, 200), ": ", e.what());
    }
  }

  // Every file's header read: the model's plan, checked before one weight is allocated.
  attention::model_plan plan() {
    ATTENTION_CHECK(complete() && !planned_, "folder: data fed before every shard's header");
    planned_ = true;
    if (!config_) return attention::plan_model(headers_[0].second, overrides_);
    return attention::plan_folder(*config_, std::move(headers_), index_.get());
  }

 private:
  model_opening() = default;

  std::optional<attention::family_config> config_;  // a folder's; none for a model file
  attention::model_overrides overrides_;            // a model file's config.json
  std::unique_ptr<attention::safetensors_index> index_;
  std::vector<std::string> files_;
  std::vector<std::pair<std::string, attention::safetensors_header>> headers_;
  bool planned_ = false;  // plan() has taken the headers
};

}  // namespace glue
