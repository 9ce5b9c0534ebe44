// Row and column sums many at a time, each still in order from +0: the
// bits of the plain loop, for any count of rows and columns.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "tensor/sums.hpp"

using namespace attention;

namespace {
std::vector<float> values(std::size_t n) {
  std::vector<float> x(n);
  // magnitudes far apart, so that any other order of the adds rounds differently
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(static_cast<float>(i) * 1.3f) * std::pow(10.0f, static_cast<float>(i % 7) - 3.0f);
  return x;
}
}  // namespace

TEST_CASE("each row's sum is the plain loop's, bit for bit, for any count of rows", "[sums]") {
  for (std::size_t rows : {1, 7, 8, 9, 17, 33})
    for (std::size_t n : {1, 5, 16, 37}) {
      const std::vector<float> x = values(rows * n);
      std::vector<float> sums(rows);
      sum_each_row(x.data(), rows, n, sums.data());
      for (std::size_t r = 0; r < rows; ++r) {
        float plain = 0.0f;
        for (std::size_t j = 0; j < n; ++j) plain += x[r * n + j];
        INFO(rows << " rows of " << n << ", row " << r);
        CHECK(std::memcmp(&plain, &sums[r], sizeof plain) == 0);
      }
    }
}

TEST_CASE("each column's sum is the plain loop's, bit for bit, on a strided block and its transpose", "[sums]") {
  for (std::size_t rows : {1, 6, 33})
    for (std::size_t cols : {1, 7, 16, 41}) {
      const std::size_t stride = cols + 3;  // a block inside a wider matrix
      const std::vector<float> x = values(rows * stride);
      const matrix_ref g = row_major(x.data(), rows, cols, stride);
      std::vector<float> sums(cols);
      sum_each_column(g, sums.data());
      for (std::size_t c = 0; c < cols; ++c) {
        float plain = 0.0f;
        for (std::size_t r = 0; r < rows; ++r) plain += x[r * stride + c];
        INFO(rows << " × " << cols << ", column " << c);
        CHECK(std::memcmp(&plain, &sums[c], sizeof plain) == 0);
      }
      std::vector<float> across(rows);
      sum_each_column(g.t(), across.data());  // the transpose's columns: the rows
      for (std::size_t r = 0; r < rows; ++r) {
        float plain = 0.0f;
        for (std::size_t c = 0; c < cols; ++c) plain += x[r * stride + c];
        CHECK(std::memcmp(&plain, &across[r], sizeof plain) == 0);
      }
    }
}
