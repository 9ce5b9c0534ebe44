// The float log and sincos that PyTorch's AVX2 randn uses (avx_mathfun.h,
// Cephes polynomials), computed one lane at a time. libm's logf/cosf differ
// from them in the last bits, so randn needs these to match PyTorch.
#pragma once

namespace attention::cephes {

// log256_ps for one lane; x in (0, 1] is all randn needs.
float log(float x);

// sincos256_ps for one lane; |x| < 8192 keeps Cephes' precision.
void sincos(float x, float& sin_out, float& cos_out);

}  // namespace attention::cephes
