#include "formats/trace_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/float_text.hpp"

namespace attention {
namespace {

void write_shape(std::ostream& out, const std::vector<std::size_t>& shape) {
  out << "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out << (i ? ", " : "") << shape[i];
  out << "]";
}

}  // namespace

bool write_floats(std::ostream& out, const float* data, std::size_t n, std::string_view separator, bool leading) {
  // Numbers are formatted into a block and written a block at a time: one
  // stream call per number made a 16-million-number trace take 1.7 s.
  constexpr std::size_t block = 1 << 16, longest = 32;
  std::string text;
  text.reserve(block + longest);
  char buffer[longest];
  for (std::size_t i = 0; i < n; ++i) {
    if (i || leading) text += separator;
    const float value = data[i];
    if (std::isfinite(value)) {
      text.append(buffer, shortest(buffer, sizeof buffer, value));
    } else {
      // Only masked cells are -inf: run() refuses any other non-finite step,
      // naming its place, so this is a safety net, never a user's message.
      ATTENTION_CHECK(value < 0 && std::isinf(value), "trace: internal error: a non-finite value other than -inf");
      text += "null";
    }
    if (text.size() >= block) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
      // a stream that failed (a full disk) takes nothing more: stop formatting
      if (!out) return false;
    }
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

void write_floats_json(std::ostream& out, const float* data, std::size_t n) {
  out << '[';
  if (write_floats(out, data, n, ", ", false)) out << ']';
}

void write_tensor_json(std::ostream& out, const std::vector<std::size_t>& shape, const float* data, bool drop_batch) {
  std::vector<std::size_t> written(shape.begin() + (drop_batch ? 1 : 0), shape.end());
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  out << "{\"shape\": ";
  write_shape(out, written);
  out << ", \"data\": ";
  write_floats_json(out, data, n);
  out << "}";
}

namespace {

void write_tensor3(std::ostream& out, const tensor3& t, bool batched) {
  write_tensor_json(out, {t.shape(0), t.shape(1), t.shape(2)}, t.data(), !batched);
}

}  // namespace

void write_trace_json(std::ostream& out, const trace& t) {
  out << "{\"version\": 1, \"id\": " << nlohmann::json(t.id).dump() << ", \"tensors\": {";
  for (std::size_t i = 0; i < t.tensors.size(); ++i) {
    const named_tensor& named = t.tensors[i];
    out << (i ? ", " : "") << nlohmann::json(named.name).dump() << ": ";
    write_tensor_json(out, {named.value.shape().begin(), named.value.shape().end()}, named.value.data(), false);
    if (!out) return;  // a stream that failed takes nothing more
  }
  out << "}, \"heads\": [";
  for (std::size_t h = 0; h < t.layer.heads.size(); ++h) {
    const head_trace& head = t.layer.heads[h];
    out << (h ? ", " : "") << "{";
    bool first = true;
    for (std::string_view name : step_names) {
      const tensor3* step = head.step(name);
      if (step == nullptr) continue;
      out << (first ? "" : ", ") << "\"" << name << "\": ";
      write_tensor3(out, *step, t.batched);
      if (!out) return;
      first = false;
    }
    out << "}";
  }
  out << "], \"out\": ";
  write_tensor3(out, t.layer.out, t.batched);
  out << "}\n";
}

std::string trace_json(const trace& t) {
  std::ostringstream out;
  write_trace_json(out, t);
  return out.str();
}

}  // namespace attention
