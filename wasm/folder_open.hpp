// A Hugging Face folder opened in the models' module (models-v2.md section
// 1), as core/models/folder_read does from disk but fed by the page: first
// config.json's text and the index's (or none), then each shard's header in
// the order files() lists them, then the plan of them all, before one weight
// is allocated; model_source's one loader takes the plan and each shard's
// data. Neither a whole shard nor a header is held once it has been planned.
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

namespace glue {

class folder_opening {
 public:
  // config.json's and the index's text ("" for one model.safetensors): the
  // shard files to be fed, in order.
  folder_opening(const std::string& config, const std::string& index) : config_(attention::read_family_config(config)) {
    if (index.empty()) {
      files_ = {"model.safetensors"};
    } else {
      try {
        index_ = std::make_unique<attention::safetensors_index>(attention::read_safetensors_index(index));
      } catch (const attention::error& e) {
        attention::detail::fail("model.safetensors.index.json: ", e.what());
      }
      files_ = index_->shards;
    }
  }

  const std::vector<std::string>& files() const { return files_; }
  bool complete() const { return planned_ || headers_.size() == files_.size(); }

  // The next shard's header (its `length` bytes after the first 8), from a
  // file of `size` bytes. Errors name the shard.
  void header(const std::string& text, std::uint64_t size) {
    ATTENTION_CHECK(!planned_ && headers_.size() < files_.size(), "folder: more headers than the folder's ", files_.size(),
                    " shard(s)");
    const std::string& file = files_[headers_.size()];
    try {
      headers_.emplace_back(file, attention::read_safetensors_header(text, size));
    } catch (const attention::error& e) {
      attention::detail::fail(attention::quote(file, 200), ": ", e.what());
    }
  }

  // Every shard's header read: the folder's plan, checked before one weight is allocated.
  attention::model_plan plan() {
    ATTENTION_CHECK(complete() && !planned_, "folder: data fed before every shard's header");
    planned_ = true;
    return attention::plan_folder(config_, std::move(headers_), index_.get());
  }

 private:
  attention::family_config config_;
  std::unique_ptr<attention::safetensors_index> index_;
  std::vector<std::string> files_;
  std::vector<std::pair<std::string, attention::safetensors_header>> headers_;
  bool planned_ = false;  // plan() has taken the headers
};

}  // namespace glue
