// A model file's data, streamed: the weights are allocated once from the
// checked plan, then the data arrives in chunks of any size, in file order,
// and each number is widened (F16, BF16), checked finite and moved to its
// place on the way (a head's slice of c_attn, nn.Linear's [out, in] turned
// to [in, out]). The file's bytes and the weights are never held together:
// GPT-2 small opens in a tab in 1.1 times its file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/gpt_model.hpp"

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
  std::uint64_t received() const { return offset_; }
  std::uint64_t expected() const { return plan_.data_bytes; }
  bool complete() const { return offset_ == plan_.data_bytes; }

  // The model, once every byte has come: throws when the data ended early.
  gpt_model finish();

 private:
  // Where element (r, c) of a tensor seen as [rows, cols] goes: into
  // targets[(r / row_block) · (cols / col_block) + c / col_block], at
  // (r % row_block) · row_stride + (c % col_block) · col_stride.
  struct placement {
    std::size_t rows = 1, cols = 1, row_block = 1, col_block = 1, row_stride = 0, col_stride = 1;
    std::vector<float*> targets;  // none: the tensor is skipped
  };

  placement place(const planned_tensor& t);
  void store(const planned_tensor& t, const placement& p, const unsigned char* bytes, std::uint64_t first,
             std::size_t count);

  model_plan plan_;
  gpt_model model_;
  std::vector<placement> places_;  // one per tensor of the plan
  std::size_t current_ = 0;        // the tensor the next byte belongs to
  std::uint64_t offset_ = 0;       // bytes received
  unsigned char partial_[8] = {};  // an element split between two chunks
  std::size_t partial_bytes_ = 0;
  std::size_t prepared_tensor_ = 0;  // prepare()'s place: a tensor, one of its targets,
  std::size_t prepared_target_ = 0;  // and the floats of that target touched so far
  std::size_t prepared_floats_ = 0;
  bool spent_ = false;
};

}  // namespace attention
