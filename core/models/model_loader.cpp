#include "models/model_loader.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "errors/check.hpp"

namespace attention {
namespace {

// Little-endian numbers of the file as float32: the byte order of x86 and
// wasm alike, so F32 is a plain copy.
float f32_at(const unsigned char* p) {
  float v;
  std::memcpy(&v, p, 4);
  return v;
}

float bits_float(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// IEEE half to float32, exactly (every half is a float32).
float f16_at(const unsigned char* p) {
  const std::uint32_t h = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8);
  const std::uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: mantissa · 2⁻²⁴
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return bits_float(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// BF16: the high half of a float32.
float bf16_at(const unsigned char* p) {
  return bits_float((static_cast<std::uint32_t>(p[0]) << 16) | (static_cast<std::uint32_t>(p[1]) << 24));
}

bool finite(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return (bits & 0x7F800000u) != 0x7F800000u;
}

// F32 side by side in the file and in place: a plain copy, the exponents'
// largest kept on the way (an all-ones exponent is a NaN or an infinity). One
// loop the compiler vectorizes, since this runs over every byte of a 500 MB
// file; false if any is not finite.
bool copy_f32(const unsigned char* src, std::size_t n, float* dst) {
  std::uint32_t largest = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::uint32_t bits;
    std::memcpy(&bits, src + 4 * k, 4);
    largest = std::max(largest, bits & 0x7F800000u);
    std::memcpy(dst + k, &bits, 4);
  }
  return largest != 0x7F800000u;
}

// n numbers to dst, stride apart; false if any is not finite.
template <typename Read>
bool convert(Read read, std::size_t item, const unsigned char* src, std::size_t n, float* dst, std::size_t stride) {
  bool all_finite = true;
  for (std::size_t k = 0; k < n; ++k) {
    const float v = read(src + k * item);
    all_finite &= finite(v);
    dst[k * stride] = v;
  }
  return all_finite;
}

// "[3, 17]": the position of element e in the file's shape.
std::string element_text(std::uint64_t e, const std::vector<std::uint64_t>& shape) {
  std::vector<std::uint64_t> index(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = shape[i] ? e % shape[i] : 0;
    e = shape[i] ? e / shape[i] : 0;
  }
  return shape_text(index);
}

}  // namespace

model_loader::model_loader(model_plan plan) : plan_(std::move(plan)) {
  const model_config& c = plan_.config;
  model_.config = c;
  model_.spec = spec_of(c);
  model_.weights.layers.resize(c.layers);
  for (model_layer& layer : model_.weights.layers) layer.heads.resize(c.heads);
  model_.weights.tied = c.tied;
  places_.reserve(plan_.tensors.size());
  for (const planned_tensor& t : plan_.tensors) places_.push_back(place(t));
}

model_loader::placement model_loader::place(const planned_tensor& t) {
  const model_config& c = model_.config;
  const std::size_t d = c.embed, hs = c.head_size(), width = c.mlp_width;
  const auto allocated = [](tensor2& target, std::size_t rows, std::size_t cols) {
    target = tensor2({rows, cols});
    return target.data();
  };
  // the file's [rows, cols] as it is
  const auto direct = [](float* target, std::size_t rows, std::size_t cols) {
    placement p;
    p.rows = p.row_block = rows;
    p.cols = p.col_block = cols;
    p.row_stride = cols;
    p.targets = {target};
    return p;
  };
  // nn.Linear's [out, in] turned to [in, out]: element (r, c) to (c, r)
  const auto transposed = [](float* target, std::size_t rows, std::size_t cols) {
    placement p;
    p.rows = p.row_block = rows;
    p.cols = p.col_block = cols;
    p.row_stride = 1;
    p.col_stride = rows;
    p.targets = {target};
    return p;
  };
  // a Linear's weight: Conv1D's [in, out] as it is, nn.Linear's turned
  const auto linear = [&](tensor2& target, std::size_t in, std::size_t out) {
    float* data = allocated(target, in, out);
    return c.conv1d ? direct(data, in, out) : transposed(data, out, in);
  };
  if (t.slot == tensor_slot::ignored) return {};
  model_weights& w = model_.weights;
  model_layer* layer = w.layers.empty() ? nullptr : &w.layers[std::min(t.layer, w.layers.size() - 1)];
  // c_attn's [q | k | v], each d wide and split into H heads of hs, in that
  // order: the targets of each part and head, part by part
  const auto heads_of = [&](bool bias) {
    std::vector<float*> targets;
    for (int part = 0; part < 3; ++part)
      for (model_head& head : layer->heads) {
        tensor2& target = part == 0 ? (bias ? head.query_bias : head.query)
                          : part == 1 ? (bias ? head.key_bias : head.key)
                                      : (bias ? head.value_bias : head.value);
        targets.push_back(allocated(target, bias ? 1 : d, hs));
      }
    return targets;
  };
  switch (t.slot) {
    case tensor_slot::wte: return direct(allocated(w.tok, c.vocab, d), c.vocab, d);
    case tensor_slot::wpe: return direct(allocated(w.pos, c.length, d), c.length, d);
    case tensor_slot::ln_f_weight: return direct(allocated(w.ln_f.weight, 1, d), 1, d);
    case tensor_slot::ln_f_bias: return direct(allocated(w.ln_f.bias, 1, d), 1, d);
    case tensor_slot::lm_head_weight: return direct(allocated(w.lm_head, c.vocab, d), c.vocab, d);  // kept [V, d]
    case tensor_slot::lm_head_bias: return direct(allocated(w.unembed_bias, 1, c.vocab), 1, c.vocab);
    case tensor_slot::ln_1_weight: return direct(allocated(layer->ln1.weight, 1, d), 1, d);
    case tensor_slot::ln_1_bias: return direct(allocated(layer->ln1.bias, 1, d), 1, d);
    case tensor_slot::ln_2_weight: return direct(allocated(layer->ln2.weight, 1, d), 1, d);
    case tensor_slot::ln_2_bias: return direct(allocated(layer->ln2.bias, 1, d), 1, d);
    case tensor_slot::c_attn_weight: {
      placement p;
      p.targets = heads_of(false);  // each (d, hs)
      if (c.conv1d) {  // [d, 3d]: a row is one input, its columns run through every part and head
        p.rows = p.row_block = d;
        p.cols = 3 * d;
        p.col_block = hs;
        p.row_stride = hs;
        p.col_stride = 1;
      } else {  // [3d, d]: hs rows per head, each row one output column of the head
        p.rows = 3 * d;
        p.row_block = hs;
        p.cols = p.col_block = d;
        p.row_stride = 1;
        p.col_stride = hs;
      }
      return p;
    }
    case tensor_slot::c_attn_bias: {
      placement p;
      p.targets = heads_of(true);  // each (1, hs)
      p.cols = 3 * d;
      p.col_block = hs;
      return p;
    }
    case tensor_slot::attn_proj_weight: return linear(layer->proj, d, d);
    case tensor_slot::attn_proj_bias: return direct(allocated(layer->proj_bias, 1, d), 1, d);
    case tensor_slot::c_fc_weight: return linear(layer->fc, d, width);
    case tensor_slot::c_fc_bias: return direct(allocated(layer->fc_bias, 1, width), 1, width);
    case tensor_slot::mlp_proj_weight: return linear(layer->fc2, width, d);
    case tensor_slot::mlp_proj_bias: return direct(allocated(layer->fc2_bias, 1, d), 1, d);
    case tensor_slot::ignored: break;
  }
  return {};
}

void model_loader::store(const planned_tensor& t, const placement& p, const unsigned char* bytes, std::uint64_t first,
                         std::size_t count) {
  const std::size_t item = t.file.item_bytes, blocks_per_row = p.cols / p.col_block;
  const bool f32 = t.file.dtype == "F32", f16 = t.file.dtype == "F16";  // else BF16 (the plan allows no other)
  std::size_t done = 0;
  while (done < count) {
    const auto e = static_cast<std::size_t>(first + done);  // < 2²⁹: the parameter limit
    const std::size_t r = e / p.cols, c = e % p.cols;
    // a run inside one target's row: col_block divides cols
    const std::size_t run = std::min(count - done, p.col_block - c % p.col_block);
    float* dst = p.targets[(r / p.row_block) * blocks_per_row + c / p.col_block] + (r % p.row_block) * p.row_stride +
                 (c % p.col_block) * p.col_stride;
    const unsigned char* src = bytes + done * item;
    const bool ok = f32 ? (p.col_stride == 1 ? copy_f32(src, run, dst) : convert(f32_at, item, src, run, dst, p.col_stride))
                    : f16 ? convert(f16_at, item, src, run, dst, p.col_stride)
                          : convert(bf16_at, item, src, run, dst, p.col_stride);
    if (!ok) {
      std::size_t k = 0;
      while (finite(dst[k * p.col_stride])) ++k;
      detail::fail(tensor_place(t.file.name), ": holds a NaN or an infinity (element ", element_text(e + k, t.file.shape),
                   ")");
    }
    done += run;
  }
}

void model_loader::feed(const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(!spent_, "model: this load failed or finished; open the file again");
  try {
    ATTENTION_CHECK(n <= plan_.data_bytes - offset_, "model: more data than the header's tensors hold (",
                    plan_.data_bytes, " bytes)");
    while (n > 0) {
      while (offset_ >= plan_.tensors[current_].file.end) ++current_;  // past empty tensors too
      const planned_tensor& t = plan_.tensors[current_];
      const placement& p = places_[current_];
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, t.file.end - offset_));
      if (!p.targets.empty()) {
        const std::size_t item = t.file.item_bytes;
        std::uint64_t at = offset_;  // where bytes[0] sits in the data
        const unsigned char* src = bytes;
        std::size_t left = take;
        if (partial_bytes_ > 0) {  // the rest of an element the last chunk split
          const std::size_t k = std::min(item - partial_bytes_, left);
          std::memcpy(partial_ + partial_bytes_, src, k);
          partial_bytes_ += k;
          src += k;
          left -= k;
          at += k;
          if (partial_bytes_ == item) {
            store(t, p, partial_, (at - item - t.file.begin) / item, 1);
            partial_bytes_ = 0;
          }
        }
        const std::size_t whole = left / item;
        if (whole > 0) store(t, p, src, (at - t.file.begin) / item, whole);
        left -= whole * item;
        if (left > 0) {  // an element split by the chunk's end: kept for the next
          std::memcpy(partial_, src + whole * item, left);
          partial_bytes_ = left;
        }
      }
      offset_ += take;
      bytes += take;
      n -= take;
    }
  } catch (...) {
    spent_ = true;
    throw;
  }
}

std::size_t model_loader::prepare(std::size_t bytes) {
  constexpr std::size_t page = 4096 / sizeof(float);  // floats a page (wasm's pages are 64 KB; the OS's 4 KB)
  std::size_t touched = 0;
  if (spent_ || prepared_tensor_ < current_) {  // the data overtook it
    prepared_tensor_ = current_;
    prepared_target_ = prepared_floats_ = 0;
  }
  while (touched < bytes && !spent_ && prepared_tensor_ < places_.size()) {
    const placement& p = places_[prepared_tensor_];
    const std::size_t each = p.targets.empty() ? 0 : p.rows * p.cols / p.targets.size();  // every target is alike
    std::size_t from = prepared_floats_;
    if (prepared_tensor_ == current_) {
      // only a tensor kept as it is, element e at e, is safe ahead of the data inside it
      const bool in_order = p.targets.size() == 1 && p.col_stride == 1 && p.row_stride == p.cols;
      const std::uint64_t begin = plan_.tensors[current_].file.begin, item = plan_.tensors[current_].file.item_bytes;
      const std::size_t written = offset_ > begin ? static_cast<std::size_t>((offset_ - begin) / item) + 1 : 0;
      from = in_order ? std::max(from, written + page) : each;
    }
    if (prepared_target_ >= p.targets.size() || from >= each) {
      ++prepared_tensor_;
      prepared_target_ = prepared_floats_ = 0;
      continue;
    }
    float* target = p.targets[prepared_target_];
    std::size_t k = from;
    for (; k < each && touched < bytes; k += page, touched += page * sizeof(float)) target[k] = 0.0f;
    prepared_floats_ = std::min(k, each);
    if (prepared_floats_ == each) {
      ++prepared_target_;
      prepared_floats_ = 0;
    }
  }
  return touched;
}

gpt_model model_loader::finish() {
  ATTENTION_CHECK(!spent_, "model: this load failed or finished; open the file again");
  ATTENTION_CHECK(complete(), "model: the data ended after ", offset_, " of its ", plan_.data_bytes, " bytes");
  spent_ = true;
  return std::move(model_);
}

}  // namespace attention
