// narrow_matrix::fill_transposed: a file's (V, d) embedding kept [d, V] as
// it streams in (models/model_loader.cpp), so that the tied logits' one-row
// product reads it [in, out]. Chunks of any size, every split point; a NaN
// or an infinity named by its index in the file's order; widen_column reads
// a token's embedding back.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "errors/check.hpp"
#include "file_numbers.hpp"
#include "half_reference.hpp"
#include "tensor/narrow.hpp"

using namespace attention;
using test_support::bits_of_float;
using test_support::file_bytes;
using test_support::reference_at;

namespace {

// w (d, V) holds the file's (V, d) transposed: (j, i) is the file's (i, j), bit for bit.
bool holds_transpose(const narrow_matrix& w, const std::vector<unsigned char>& bytes) {
  const tensor2 all = widened(w);
  const std::size_t d = w.rows(), V = w.cols();
  for (std::size_t i = 0; i < V; ++i)
    for (std::size_t j = 0; j < d; ++j)
      if (bits_of_float(all(j, i)) != bits_of_float(reference_at(w.dtype(), bytes, i * d + j))) return false;
  return true;
}

}  // namespace

TEST_CASE("a matrix filled transposed, in two chunks split at every byte, holds the file's transpose",
          "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(40);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t V = 7, d = 3;  // the file's (V, d), kept (d, V)
    const std::vector<unsigned char> bytes = file_bytes(gen, type, V, d);
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
      INFO("split at byte " << split);
      narrow_matrix w(type, d, V, layout);
      CHECK(w.fill_transposed(0, bytes.data(), split) == narrow_matrix::none);
      CHECK(w.fill_transposed(split, bytes.data() + split, bytes.size() - split) == narrow_matrix::none);
      CHECK(holds_transpose(w, bytes));
    }
  }
}

TEST_CASE("a matrix filled transposed a few bytes at a time, as a stream's chunks come", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(41);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    const std::size_t V = 33, d = 17;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, V, d);
    for (std::size_t chunk : {1, 3, 5, 64, 1000}) {
      INFO(dtype_name(type) << ", chunks of " << chunk);
      narrow_matrix w(type, d, V, layout);
      for (std::size_t at = 0; at < bytes.size(); at += chunk)
        REQUIRE(w.fill_transposed(at, bytes.data() + at, std::min(chunk, bytes.size() - at)) == narrow_matrix::none);
      CHECK(holds_transpose(w, bytes));
    }
  }
}

TEST_CASE("a wide matrix filled transposed in chunks that end mid-row, whole rows and the rest", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(43);
  for (weight_dtype type : {weight_dtype::bf16, weight_dtype::f32}) {
    const std::size_t V = 203, d = 24;  // 12 tiles of 16 file rows and 11 rows more
    const std::vector<unsigned char> bytes = file_bytes(gen, type, V, d);
    for (std::size_t chunk : {bytes.size(), std::size_t{4096}, std::size_t{24 * 16 * 4 + 6}}) {
      INFO(dtype_name(type) << ", chunks of " << chunk);
      narrow_matrix w(type, d, V, layout);
      for (std::size_t at = 0; at < bytes.size(); at += chunk)
        REQUIRE(w.fill_transposed(at, bytes.data() + at, std::min(chunk, bytes.size() - at)) == narrow_matrix::none);
      CHECK(holds_transpose(w, bytes));
    }
  }
}

TEST_CASE("filled transposed, an infinity or a NaN is found by the chunk that completes it, at its file index",
          "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  const std::size_t V = 5, d = 2;  // the bad number: the file's index 7, (3, 1), kept at (1, 3)
  struct bad {
    weight_dtype type;
    std::uint32_t bits;
  };
  for (const bad b : {bad{weight_dtype::f16, 0x7C00}, bad{weight_dtype::bf16, 0x7FC0},
                      bad{weight_dtype::f32, 0xFF800000u}}) {
    const std::size_t item = dtype_bytes(b.type);
    std::vector<unsigned char> bytes(V * d * item, 0);
    std::memcpy(bytes.data() + 7 * item, &b.bits, item);
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
      INFO(dtype_name(b.type) << ", split at byte " << split);
      narrow_matrix w(b.type, d, V, layout);
      const std::size_t first = w.fill_transposed(0, bytes.data(), split);
      const std::size_t second = w.fill_transposed(split, bytes.data() + split, bytes.size() - split);
      const bool completed_first = split >= 8 * item;
      CHECK(first == (completed_first ? 7 : narrow_matrix::none));
      CHECK(second == (completed_first ? narrow_matrix::none : 7));
    }
  }
}

TEST_CASE("widen_column widens one column, a token's embedding kept [d, V]", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(42);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t V = 29, d = 13;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, V, d);
    narrow_matrix w(type, d, V, layout);
    REQUIRE(w.fill_transposed(0, bytes.data(), bytes.size()) == narrow_matrix::none);
    for (std::size_t token : {0, 11, 28}) {
      std::vector<float> column(d + 1, -7.0f);
      widen_column(w, token, column.data());
      for (std::size_t j = 0; j < d; ++j)
        REQUIRE(bits_of_float(column[j]) == bits_of_float(reference_at(type, bytes, token * d + j)));
      CHECK(column[d] == -7.0f);
    }
    std::vector<float> column(d);
    CHECK_THROWS_AS(widen_column(w, V, column.data()), error);
    CHECK_THROWS_AS(w.fill_transposed(1, bytes.data(), bytes.size()), error);  // past the matrix
  }
}
