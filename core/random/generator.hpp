// PyTorch's CPU random generator (CPUGeneratorImpl): a mt19937 engine plus the
// cached second Box-Muller sample. Only the state lives here; the transforms
// that turn draws into tensors are in sampling.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

namespace attention {

class generator {
 public:
  // torch's default_rng_seed_val: what a fresh `python3` process starts with.
  static constexpr std::uint64_t default_seed = 67280421310721ULL;

  explicit generator(std::uint64_t seed = default_seed) { manual_seed(seed); }

  // torch.manual_seed(seed): reseed the engine and forget the cached normal.
  // mt19937 is seeded with the low 32 bits, as PyTorch's own mt19937 does.
  void manual_seed(std::uint64_t seed) {
    engine_.seed(static_cast<std::uint32_t>(seed & 0xffffffffULL));
    next_double_normal_sample.reset();
  }

  std::uint32_t random() { return static_cast<std::uint32_t>(engine_()); }

  // Two draws, the first one in the high half (make64BitsFrom32Bits).
  std::uint64_t random64() {
    const std::uint64_t hi = random();
    const std::uint64_t lo = random();
    return (hi << 32) | lo;
  }

  // Box-Muller makes two samples; the scalar normal path keeps the second
  // (the sin one) for the next call, across tensors, until the next reseed.
  std::optional<double> next_double_normal_sample;

 private:
  std::mt19937 engine_;
};

}  // namespace attention
