// The narrow number formats a model file's weights come in, widened to
// float32 exactly (every F16 and every BF16 is a float32): eight, sixteen or
// four at a time, one source for every width natively and for wasm, the
// same bits as the plain formulas (subnormal halves included).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace attention {

// F32, IEEE half (F16), bfloat16 (BF16, the high half of a float32).
enum class weight_dtype { f32, f16, bf16 };

const char* dtype_name(weight_dtype type);                       // "F32", "F16", "BF16"
std::optional<weight_dtype> dtype_named(const std::string& name);  // safetensors' name; none: another
std::size_t dtype_bytes(weight_dtype type);                      // 4, 2, 2

// to[i] = from[i] widened, for n halves of F16 or BF16.
void widen(weight_dtype type, const std::uint16_t* from, float* to, std::size_t n);

// The first of n numbers (F32 when type is f32, else halves) that is a NaN or
// an infinity (an exponent of all ones), or n when every one is finite.
std::size_t first_not_finite(weight_dtype type, const void* numbers, std::size_t n);

}  // namespace attention
