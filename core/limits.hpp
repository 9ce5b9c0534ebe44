// Size limits of a scenario, checked before anything is allocated. Large
// enough for T = 512, C = 128, 8 heads in a browser; README.md lists them.
#pragma once

#include <cstddef>

namespace attention::limits {

inline constexpr std::size_t scenario_bytes = 16u << 20;        // JSON text: 16 MiB
inline constexpr std::size_t json_depth = 16;                   // nesting of arrays and objects
inline constexpr std::size_t tensor_entries = 256;              // items of "tensors"
inline constexpr std::size_t tensor_elements = 1u << 22;        // one tensor, or an embedding table: 4,194,304
inline constexpr std::size_t total_elements = 1u << 24;         // all named tensors together: 16,777,216
inline constexpr std::size_t sequence = 2048;                   // Tq and Tkv
inline constexpr std::size_t batch = 64;                        // B
inline constexpr std::size_t heads = 64;                        // heads of the layer
inline constexpr std::size_t attention_elements = 1u << 22;     // B · heads · Tq · Tkv: 4,194,304
inline constexpr std::size_t label_bytes = 256;                 // one token label

}  // namespace attention::limits
