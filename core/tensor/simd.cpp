#include "tensor/simd.hpp"

#include "errors/check.hpp"

namespace attention {

bool simd_runs(int lanes) {
#if ATTENTION_X86
  __builtin_cpu_init();  // this may run before libgcc's own constructor has
  // __builtin_cpu_supports also asks whether the OS saves the wide registers
  if (lanes == 16) return __builtin_cpu_supports("avx512f");
  if (lanes == 8) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return lanes == 4;
}

namespace {
int widest() { return simd_runs(16) ? 16 : simd_runs(8) ? 8 : 4; }
int lanes_in_use = widest();
}  // namespace

int simd_lanes() { return lanes_in_use; }

namespace {
bool vex_in_use = simd_runs(8);
}  // namespace

bool simd_vex() { return vex_in_use; }

void use_simd_vex(bool on) {
  ATTENTION_CHECK(!on || simd_runs(8), "simd: 4 lanes run in AVX's encoding only where 8 lanes run (AVX2)");
  vex_in_use = on;
}

void use_simd_lanes(int lanes) {
  ATTENTION_CHECK(simd_runs(lanes), "simd: this machine has no vectors of ", lanes, " floats");
  lanes_in_use = lanes;
}

}  // namespace attention
