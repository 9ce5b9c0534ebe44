#include "transformer/swiglu.hpp"

#include "errors/check.hpp"
#include "transformer/activation.hpp"

namespace attention {

tensor3 swiglu(const tensor3& gate, const tensor3& up) {
  ATTENTION_CHECK(gate.shape() == up.shape(), "swiglu: the gate and up projections differ in shape");
  tensor3 y = activate(gate, activation_kind::silu);
  // pointers that cannot alias: whole-vector products
  float* __restrict out = y.data();
  const float* __restrict u = up.data();
  for (std::size_t i = 0; i < y.size(); ++i) out[i] *= u[i];
  return y;
}

}  // namespace attention
