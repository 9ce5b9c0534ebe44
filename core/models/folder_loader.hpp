// A planned folder's weights: allocated once from the checked plan, then
// each shard's data section fed in chunks (weight_stream), checked finite
// and put in forward()'s places. The weight matrices stay as the files
// store them, F32, F16 or BF16 in nn.Linear's [out, in] (model_layer's
// narrow: q_proj, k_proj and v_proj stacked into one qkv when their dtypes
// agree, else widened into model_head's GQA storage), widened as forward()
// uses them; biases, norms, positions and BERT's token type row 0 widened.
// The page feeds it from Files in a worker, the CLI from the folder.
#pragma once

#include <cstddef>
#include <vector>

#include "models/folder_plan.hpp"
#include "models/loaded_model.hpp"
#include "models/weight_stream.hpp"

namespace attention {

class folder_loader {
 public:
  explicit folder_loader(folder_plan plan);

  std::size_t shards() const { return streams_.size(); }
  // The next bytes of shard `shard`'s data section (after its header).
  void feed(std::size_t shard, const unsigned char* bytes, std::size_t n);
  std::uint64_t expected(std::size_t shard) const { return streams_[shard].expected(); }
  std::uint64_t received(std::size_t shard) const { return streams_[shard].received(); }

  // The model, once every shard's bytes have come: throws naming a shard that ended early.
  loaded_model finish();

 private:
  void stack_projections();  // each layer's narrow qkv, allocated when q, k and v share a dtype
  weight_placement place(const folder_entry& t);

  folder_plan plan_;
  loaded_model model_;
  tensor2 unused_rows_;  // BERT's token types past row 0 land here
  std::vector<weight_stream> streams_;
  bool finished_ = false;
};

}  // namespace attention
