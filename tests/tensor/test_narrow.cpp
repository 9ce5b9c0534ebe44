// narrow_matrix: filled from a file's bytes in chunks of any size (every
// split point of a small matrix), NaNs and infinities found wherever a
// chunk ends, rows widened exactly, two bytes a number kept.
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

bool widens_to_reference(const narrow_matrix& w, const std::vector<unsigned char>& bytes) {
  const tensor2 all = widened(w);
  for (std::size_t i = 0; i < w.size(); ++i)
    if (bits_of_float(all.data()[i]) != bits_of_float(reference_at(w.dtype(), bytes, i))) return false;
  return true;
}

}  // namespace

TEST_CASE("a narrow matrix filled in two chunks, split at every byte, holds the file's numbers", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(30);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t rows = 3, cols = 7;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, rows, cols);
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
      INFO("split at byte " << split);
      narrow_matrix w(type, rows, cols, layout);
      CHECK(w.byte_size() == bytes.size());
      CHECK(w.fill(0, bytes.data(), split) == narrow_matrix::none);
      CHECK(w.fill(split, bytes.data() + split, bytes.size() - split) == narrow_matrix::none);
      CHECK(widens_to_reference(w, bytes));
    }
  }
}

TEST_CASE("a narrow matrix filled a few bytes at a time, as a stream's chunks come", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(31);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    const std::size_t rows = 33, cols = 17;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, rows, cols);
    for (std::size_t chunk : {1, 3, 5, 64, 1000}) {
      INFO(dtype_name(type) << ", chunks of " << chunk);
      narrow_matrix w(type, rows, cols, layout);
      for (std::size_t at = 0; at < bytes.size(); at += chunk)
        REQUIRE(w.fill(at, bytes.data() + at, std::min(chunk, bytes.size() - at)) == narrow_matrix::none);
      CHECK(widens_to_reference(w, bytes));
    }
  }
}

TEST_CASE("an infinity or a NaN is found by the chunk that completes it, at its index", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  const std::size_t rows = 2, cols = 5;
  struct bad {
    weight_dtype type;
    std::uint32_t bits;  // the number written at index 7
  };
  for (const bad b : {bad{weight_dtype::f16, 0x7C00}, bad{weight_dtype::f16, 0xFE01}, bad{weight_dtype::bf16, 0xFF80},
                      bad{weight_dtype::bf16, 0x7FC0}, bad{weight_dtype::f32, 0x7F800000u},
                      bad{weight_dtype::f32, 0xFFC00000u}}) {
    const std::size_t item = dtype_bytes(b.type);
    std::vector<unsigned char> bytes(rows * cols * item, 0);
    std::memcpy(bytes.data() + 7 * item, &b.bits, item);  // little-endian: the low bytes of bits
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
      INFO(dtype_name(b.type) << " 0x" << std::hex << b.bits << std::dec << ", split at byte " << split);
      narrow_matrix w(b.type, rows, cols, layout);
      const std::size_t first = w.fill(0, bytes.data(), split);
      const std::size_t second = w.fill(split, bytes.data() + split, bytes.size() - split);
      const bool completed_first = split >= 8 * item;  // the bad number's last byte in the first chunk
      CHECK(first == (completed_first ? 7 : narrow_matrix::none));
      CHECK(second == (completed_first ? narrow_matrix::none : 7));
    }
  }
}

TEST_CASE("the largest finite numbers and subnormals are accepted", "[narrow]") {
  const std::uint16_t f16[] = {0x7BFF, 0xFBFF, 0x0001, 0x8000};
  narrow_matrix w(weight_dtype::f16, 2, 2);
  CHECK(w.fill(0, reinterpret_cast<const unsigned char*>(f16), sizeof f16) == narrow_matrix::none);
  float row[2];
  widen_rows(w, 1, 1, row);
  CHECK(row[0] == 5.9604644775390625e-8f);
  CHECK(bits_of_float(row[1]) == 0x80000000u);
}

TEST_CASE("bytes past the matrix are refused, and rows past it", "[narrow]") {
  narrow_matrix w(weight_dtype::bf16, 3, 4);
  std::vector<unsigned char> bytes(25, 0);
  CHECK_THROWS_AS(w.fill(0, bytes.data(), 25), error);
  CHECK_THROWS_AS(w.fill(24, bytes.data(), 1), error);
  CHECK_THROWS_AS(w.fill(25, bytes.data(), 0), error);
  CHECK(w.fill(24, bytes.data(), 0) == narrow_matrix::none);
  std::vector<float> out(12);
  CHECK_THROWS_AS(widen_rows(w, 2, 2, out.data()), error);
  CHECK_THROWS_AS(widen_rows(w, 4, 0, out.data()), error);
  CHECK_THROWS_AS(narrow_matrix(weight_dtype::f16, std::size_t{1} << 40, std::size_t{1} << 40), error);
}

TEST_CASE("a narrow matrix takes two bytes a number for F16 and BF16, four for F32", "[narrow]") {
  CHECK(narrow_matrix(weight_dtype::bf16, 576, 1536).byte_size() == 576 * 1536 * 2);
  CHECK(narrow_matrix(weight_dtype::f16, 7, 1).byte_size() == 14);
  CHECK(narrow_matrix(weight_dtype::f32, 7, 3).byte_size() == 84);
  CHECK(narrow_matrix().empty());
}

TEST_CASE("widen_rows widens the rows asked for, an embedding's lookup", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(32);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t rows = 11, cols = 577;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, rows, cols);
    narrow_matrix w(type, rows, cols, layout);
    REQUIRE(w.fill(0, bytes.data(), bytes.size()) == narrow_matrix::none);
    for (std::size_t r : {0, 5, 10}) {
      std::vector<float> row(cols + 1, -7.0f);
      widen_rows(w, r, 1, row.data());
      for (std::size_t c = 0; c < cols; ++c)
        REQUIRE(bits_of_float(row[c]) == bits_of_float(reference_at(type, bytes, r * cols + c)));
      CHECK(row[cols] == -7.0f);
    }
    const narrow_matrix copy = w;  // a model's weights may be copied
    CHECK(widens_to_reference(copy, bytes));
  }
}

TEST_CASE("widen_block widens a block of rows and columns, a head's slice", "[narrow]") {
  const number_layout layout = GENERATE(number_layout::rows, number_layout::panels);  // and in panels
  INFO((layout == number_layout::panels ? "in panels" : "row-major"));
  std::mt19937 gen(33);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t rows = 9, cols = 37;
    const std::vector<unsigned char> bytes = file_bytes(gen, type, rows, cols);
    narrow_matrix w(type, rows, cols, layout);
    REQUIRE(w.fill(0, bytes.data(), bytes.size()) == narrow_matrix::none);
    std::vector<float> block(4 * 11 + 1, -7.0f);
    widen_block(w, 3, 4, 17, 11, block.data());
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t c = 0; c < 11; ++c)
        REQUIRE(bits_of_float(block[r * 11 + c]) == bits_of_float(reference_at(type, bytes, (3 + r) * cols + 17 + c)));
    CHECK(block[44] == -7.0f);
    CHECK_THROWS_AS(widen_block(w, 3, 4, 30, 8, block.data()), error);
    CHECK_THROWS_AS(widen_block(w, 6, 4, 0, 1, block.data()), error);
  }
}

TEST_CASE("a matrix in panels keeps each 16 columns a (rows, 16) block, the last one's padding zeros", "[narrow]") {
  std::mt19937 gen(34);
  for (weight_dtype type : {weight_dtype::bf16, weight_dtype::f32}) {
    INFO(dtype_name(type));
    const std::size_t rows = 5, cols = 21;  // a whole panel and 5 columns of the next
    const std::vector<unsigned char> bytes = file_bytes(gen, type, rows, cols);
    narrow_matrix w(type, rows, cols, number_layout::panels);
    REQUIRE(w.fill(0, bytes.data(), bytes.size()) == narrow_matrix::none);
    CHECK(w.byte_size() == bytes.size());  // the file's numbers; the padding is not counted
    const auto held = [&](std::size_t i) {  // number i where it lies, widened
      float v = w.dtype() == weight_dtype::f32 ? w.floats()[i] : 0.0f;
      if (w.dtype() != weight_dtype::f32) widen(type, w.halves() + i, &v, 1);
      return v;
    };
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < 32; ++c) {
        const std::size_t at = c / 16 * 16 * rows + r * 16 + c % 16;
        if (c < cols) {
          REQUIRE(w.place(r, c) == at);
          REQUIRE(bits_of_float(held(at)) == bits_of_float(reference_at(type, bytes, r * cols + c)));
        } else {
          REQUIRE(bits_of_float(held(at)) == 0u);
        }
      }
  }
}
