// A planned model's weights (model_plan.hpp), whichever reader planned it:
// allocated once from the plan, then each file's data section fed in chunks
// of any size, in file order (weight_stream), each number checked finite
// and put in forward()'s places. The weight matrices stay as the files
// store them, F32, F16 or BF16, widened as forward() uses them: a layer's
// in [in, out] panels (Conv1D's as they are, nn.Linear's turned as they
// load, nanoGPT's kept [out, in]), the embedding [d, V] in panels, an
// lm_head and BERT's transform [out, in]. A layer's q_proj, k_proj and
// v_proj share one matrix when their dtypes agree (else they are widened
// into model_head's GQA storage); biases, norms, positions and BERT's
// token type row 0 are widened into floats. The files' bytes and the
// weights are never held together: a model takes about its files' size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/loaded_model.hpp"
#include "models/model_plan.hpp"
#include "models/weight_stream.hpp"

namespace attention {

class model_loader {
 public:
  // Allocates every weight the plan names (and only those: buffers are skipped).
  explicit model_loader(model_plan plan);

  std::size_t shards() const { return streams_.size(); }
  // The next bytes of shard `shard`'s data section (after its header).
  // Throws one line naming the tensor: a NaN or an infinity, or more bytes
  // than the header's tensors hold. After a throw the load is spent.
  void feed(std::size_t shard, const unsigned char* bytes, std::size_t n);
  std::uint64_t expected(std::size_t shard) const { return streams_[shard].expected(); }
  std::uint64_t received(std::size_t shard) const { return streams_[shard].received(); }
  bool complete() const;  // every shard's bytes have come

  // Touches up to `bytes` of the weights the data has not reached yet, one
  // write of a zero a page, shard by shard, and returns how many it touched
  // (0: none left). Fresh memory is mapped on its first touch, which on a
  // VM costs seconds for GPT-2 small: a caller waiting on the file's next
  // bytes spends that wait here, so feed() finds its pages mapped. It
  // never writes where feed() has written.
  std::size_t prepare(std::size_t bytes);

  // The model, once every shard's bytes have come: throws naming the file
  // whose data ended early.
  loaded_model finish();

 private:
  void stack_projections();  // each layer's narrow qkv, allocated when q, k and v share a dtype
  weight_placement place(const planned_tensor& t);

  model_plan plan_;
  loaded_model model_;
  tensor2 unused_rows_;  // BERT's token types past row 0 land here
  std::vector<weight_stream> streams_;
  bool finished_ = false;
};

}  // namespace attention
