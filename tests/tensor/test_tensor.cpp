// Counting elements for limit checks: saturating, never wrapped small.
#include <catch2/catch.hpp>

#include "tensor/tensor.hpp"

using namespace attention;

TEST_CASE("counts saturate at 2^64 - 1 instead of wrapping", "[tensor]") {
  CHECK(saturating_times(3, 4) == 12);
  CHECK(saturating_times(0, UINT64_MAX) == 0);
  CHECK(saturating_times(UINT64_MAX, 2) == UINT64_MAX);
  CHECK(saturating_times(std::uint64_t{1} << 32, std::uint64_t{1} << 32) == UINT64_MAX);  // 2^64 would wrap to 0
  CHECK(saturating_count({2, 3, 4}) == 24);
  CHECK(saturating_count({10000000, 10000000, 10000000}) == UINT64_MAX);
  CHECK(element_count({2, 3, 4}) == 24);
  CHECK(element_count({}) == 1);  // a scalar
}
