// A safetensors file's data section streamed into weights already
// allocated: the data arrives in chunks of any size, in file order, and
// each number is checked finite and either kept as the file stores it (a
// narrow_matrix: F16 and BF16 stay two bytes) or widened and moved to its
// float place on the way (a head's slice, [out, in] turned to [in, out]).
// model_loader feeds each file of a plan through one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "formats/safetensors.hpp"
#include "tensor/narrow.hpp"

namespace attention {

// Where element (r, c) of a tensor seen as [rows, cols] goes: into
// targets[(r / row_block) · (cols / col_block) + c / col_block], at
// (r % row_block) · row_stride + (c % col_block) · col_stride.
struct weight_placement {
  std::size_t rows = 1, cols = 1, row_block = 1, col_block = 1, row_stride = 0, col_stride = 1;
  std::vector<float*> targets;  // none (and no narrow): the tensor is skipped
  // Or the tensor's bytes as they are, from byte narrow_at of this matrix
  // (of the tensor's dtype): several tensors may share one, side by side.
  narrow_matrix* narrow = nullptr;
  std::size_t narrow_at = 0;
  bool narrow_transposed = false;  // the file's (r, c) at (c, r) of narrow; narrow_at counts in its transpose's order
};

// The file's [rows, cols] as it is.
weight_placement placed_as_is(float* target, std::size_t rows, std::size_t cols);
// nn.Linear's [out, in] = [rows, cols] turned to [in, out]: element (r, c) to (c, r).
weight_placement placed_transposed(float* target, std::size_t rows, std::size_t cols);
// The file's bytes as they are, into `target` from byte `at`.
weight_placement placed_narrow(narrow_matrix& target, std::size_t at = 0);
// The file's [rows, cols] bytes into `target` (cols, rows) transposed: an
// embedding [V, d] kept [d, V], read by one-row products without shuffles.
// From byte `at` of the transpose's (file's) order: tensors side by side as
// the transpose's rows, i.e. as target's columns (q_proj, k_proj, v_proj).
weight_placement placed_narrow_transposed(narrow_matrix& target, std::size_t at = 0);

class weight_stream {
 public:
  // tensors: the header's, in file order, F32, F16 or BF16 where placed; one placement each.
  weight_stream(std::vector<safetensors_tensor> tensors, std::vector<weight_placement> places,
                std::uint64_t data_bytes);

  // The next bytes of the data section. Throws one line naming the tensor:
  // a NaN or an infinity, or more bytes than the header's tensors hold.
  // After a throw the stream is spent.
  void feed(const unsigned char* bytes, std::size_t n);

  // Touches up to `bytes` of the weights the data has not reached yet, one
  // write of a zero a page, and returns how many it touched (0: none left).
  // Fresh memory is mapped on its first touch, which on a VM costs seconds
  // for GPT-2 small: a caller waiting on the file's next bytes spends that
  // wait here, so feed() finds its pages mapped. It never writes where
  // feed() has written.
  std::size_t prepare(std::size_t bytes);

  std::uint64_t received() const { return offset_; }
  std::uint64_t expected() const { return data_bytes_; }
  bool complete() const { return offset_ == data_bytes_; }
  bool spent() const { return spent_; }
  void spend() { spent_ = true; }

 private:
  std::size_t prepare_narrow(std::size_t bytes);  // prepare() in a narrow tensor
  void store(const safetensors_tensor& t, const weight_placement& p, const unsigned char* bytes, std::uint64_t first,
             std::size_t count);

  std::vector<safetensors_tensor> tensors_;
  std::vector<weight_placement> places_;  // one per tensor
  std::uint64_t data_bytes_ = 0;
  std::size_t current_ = 0;        // the tensor the next byte belongs to
  std::uint64_t offset_ = 0;       // bytes received
  unsigned char partial_[8] = {};  // an element split between two chunks
  std::size_t partial_bytes_ = 0;
  std::size_t prepared_tensor_ = 0;  // prepare()'s place: a tensor, one of its targets,
  std::size_t prepared_target_ = 0;  // and the floats of that target touched so far
  std::size_t prepared_floats_ = 0;  // (bytes, for a narrow tensor)
  bool spent_ = false;
};

}  // namespace attention
