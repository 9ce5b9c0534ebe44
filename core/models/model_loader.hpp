// A model file's data, streamed: the weights are allocated once from the
// checked plan, then the data arrives in chunks of any size, in file order,
// and each number is checked finite on the way. The weight matrices (wte,
// lm_head, c_attn, c_proj, c_fc) stay as the file stores them, F32, F16 or
// BF16 in its layout (model_layer::narrow), widened as forward() uses them;
// biases, LayerNorms and wpe are widened into floats. The file's bytes and
// the weights are never held together: a model takes about its file's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/loaded_model.hpp"
#include "models/weight_stream.hpp"

namespace attention {

class model_loader {
 public:
  // Allocates every weight the plan names (and only those: buffers are skipped).
  explicit model_loader(model_plan plan);

  // The next bytes of the data section (the file after its header). Throws
  // one line naming the tensor: a NaN or an infinity, or more bytes than the
  // header's tensors hold. After a throw the loader is spent.
  void feed(const unsigned char* bytes, std::size_t n);

  // Touches up to `bytes` of the weights the data has not reached yet, one
  // write of a zero a page, and returns how many it touched (0: none left).
  // Fresh memory is mapped on its first touch, which on a VM costs seconds
  // for GPT-2 small: a caller waiting on the file's next bytes spends that
  // wait here, so feed() finds its pages mapped. It never writes where
  // feed() has written.
  std::size_t prepare(std::size_t bytes);
  std::uint64_t received() const { return stream_.received(); }
  std::uint64_t expected() const { return stream_.expected(); }
  bool complete() const { return stream_.complete(); }

  // The model, once every byte has come: throws when the data ended early.
  loaded_model finish();

 private:
  weight_placement place(const planned_tensor& t);

  model_plan plan_;
  loaded_model model_;
  weight_stream stream_{{}, {}, 0};  // the data into the weights, chunk by chunk
};

}  // namespace attention
