// Size limits of a scenario, checked before anything is allocated. Large
// enough for T = 512, C = 128, 8 heads in a browser; the reference page docs/reference/limits.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>

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
inline constexpr std::uint64_t rotary_offset = 1u << 20;        // attention.rotary.offset: 1,048,576 (positions stay exact in float32)

// What the elements imply, bounded too (scenario_cost.hpp): a scenario of a few
// hundred bytes must not ask for minutes of work or gigabytes of trace.
inline constexpr std::uint64_t random_draws = 1u << 23;         // numbers drawn: 8,388,608
inline constexpr std::uint64_t multiply_adds = 1u << 28;        // of the layer: 268,435,456
inline constexpr std::uint64_t trace_numbers = 1u << 24;        // floats in the trace: 16,777,216 (64 MB)
inline constexpr std::size_t trace_bytes_per_number = 17;       // "-1.17549435e-38, " at most: text ≤ 285 MB

}  // namespace attention::limits

// Sampling: the temperature the logits are divided by (a training file's
// sample.temperature, the models' generate). Below the floor a logit of a
// few thousand would overflow float32 (1e-38 does on text-gpt), so such a
// temperature is refused up front, naming the field, not found later as a
// softmax overflow. 0.001 already samples all but greedily.
namespace attention::limits::sampling {

inline constexpr double temperature_floor = 1e-3;

}  // namespace attention::limits::sampling

// Size limits of a training file (training-v1.md): large enough for the
// presets and a few times more in a browser tab, small enough that one
// optimizer step stays well under a frame's worth of work.
namespace attention::limits::training {

inline constexpr std::size_t file_bytes = 64u << 10;   // JSON text: 64 KiB
inline constexpr std::size_t tokens = 64;              // task.tokens (content ids)
inline constexpr std::size_t length = 64;              // T
inline constexpr std::size_t embed = 128;              // d
inline constexpr std::size_t heads = 8;                // per layer
inline constexpr std::size_t layers = 4;
inline constexpr std::size_t steps = 100000;
inline constexpr std::size_t batch = 256;              // train.batch
inline constexpr std::size_t eval_batch = 2048;
inline constexpr std::size_t corpus_bytes = 4u << 20;   // task.corpus: 4 MiB of UTF-8 (task.text is within file_bytes)
inline constexpr std::size_t vocab = 1024;              // distinct characters of a text task's corpus
inline constexpr std::size_t sample_length = 4096;      // characters a sample generates, and of its prompt

// What the sizes imply (training_cost.hpp): a file of a few hundred
// bytes must not ask for an hour of work or gigabytes of trace.
inline constexpr std::uint64_t step_multiply_adds = 1u << 29;   // forward and backward of one step: 536,870,912 (text-gpt's is 343,080,960)
inline constexpr std::uint64_t eval_multiply_adds = std::uint64_t{1} << 32;  // one evaluation's forward: 4,294,967,296
inline constexpr std::uint64_t eval_numbers = 1u << 27;         // floats it keeps: 134,217,728 (512 MB)
inline constexpr std::uint64_t kept_attention = 1u << 24;       // attention numbers of every evaluation: 16,777,216 (64 MB)
inline constexpr std::uint64_t total_multiply_adds = std::uint64_t{1} << 39;  // the whole run: 549,755,813,888
// The whole run's time as training_cost.cpp estimates it from measured
// rates (softmax, LayerNorm, GELU, logits, per-row and per-call work, the
// evaluations and samples, not only multiply-adds): natively, on one core.
inline constexpr std::uint64_t run_seconds = 120;

}  // namespace attention::limits::training

// Size limits of a model file (gpt-v1.md section 2), checked on its header
// before any weight is allocated. A browser tab's WebAssembly has 4 GiB of
// memory (wasm32): the weights as float32 (2 GiB at most) and one forward
// must fit it. GPT-2 small (124M parameters, 498 MB) fits with room to spare.
namespace attention::limits::models {

inline constexpr std::uint64_t header_bytes = 8u << 20;     // the JSON header: 8 MiB (GPT-2's is 15 KB)
inline constexpr std::size_t header_depth = 16;              // its nesting (a header is 3 levels deep)
inline constexpr std::size_t tensors = 4096;                 // entries of the header (GPT-2 XL has 580)
inline constexpr std::size_t rank = 8;                       // dimensions of one tensor
inline constexpr std::size_t vocab = 1u << 18;               // V: 262,144
inline constexpr std::size_t embed = 8192;                   // d
inline constexpr std::size_t layers = 256;
inline constexpr std::size_t length = 8192;                  // Tmax, the rows of wpe
inline constexpr std::size_t rotary_length = 1u << 20;       // a rotary model's max_position_embeddings: no table to
                                                             // allocate (Llama 3's 131,072 reads); positions exact in float32
inline constexpr std::uint64_t parameters = 1u << 29;        // 536,870,912 numbers: 2 GiB as float32
inline constexpr std::uint64_t request_attention = 1u << 28; // layers · heads · T² of one sequence: 1 GiB of weights
inline constexpr std::uint64_t request_logits = 1u << 28;    // T · V of one sequence, made a block at a time (GPT-2 on 1,024: 51,463,168)
inline constexpr std::size_t logits_block = 1u << 23;        // logits held at once: 32 MB, whole rows (at least one)
// The whole of one request (a run, a lens, a generation: models/work_plan.hpp),
// from the header and the arguments before the forward. Bytes: what it holds
// at once, the attention and activations of the layer it is in (T·d, T·I,
// H·T²), what it keeps of the layers before, the logits' block, a lens's
// own. Weights of at most 2 GiB and 1.5 GiB of this leave half a GiB of
// wasm32's 4 GiB to the module, the answer's text and the allocator; GPT-2
// small on 1,024 tokens holds 1.25 GB at most (the page's run, then its head
// scores' copy of the attention), a 1.65 GB attribution is refused.
inline constexpr std::uint64_t request_bytes = std::uint64_t{3} << 29;  // 1,610,612,736 (1.5 GiB)
// Multiply-adds: T × the weights read per token, the attention's T² and
// every unembedded row's d · V, each forward the request runs. GPT-2 small's
// logit lens on 1,024 tokens (13 unembeddings of every row) needs 6.2e11;
// 2⁴⁰ is about a minute natively at the ~32 GFLOP/s the bench measures.
inline constexpr std::uint64_t request_multiply_adds = std::uint64_t{1} << 40;  // 1,099,511,627,776
// What a printed model trace holds (the CLI's `model`, wasm's traceJson), as
// a scenario's trace: attention, logits and guesses together. The page's own
// runs print nothing and keep request_attention (GPT-2 small on 1,024 tokens).
inline constexpr std::uint64_t trace_numbers = attention::limits::trace_numbers;  // 16,777,216
inline constexpr std::size_t generated = 4096;               // tokens one generation adds
inline constexpr std::uint64_t standard_input = std::uint64_t{1} << 31;  // a model file read from standard input: 2 GiB

}  // namespace attention::limits::models
