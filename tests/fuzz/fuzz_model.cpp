// libFuzzer over model files: what `attention-cli model -`, `head -` and
// `validate -` run on one (header, plan, streamed load, forward, trace,
// head scenario), with the CLI's contract checked (contract.hpp), and the
// loader fed in odd chunks agreeing with one chunk: the same weights, or the
// same refusal. A fuzz input is at most 64 KiB, so the weights it can make
// the core allocate are at most twice that (F16 widened).
#include <algorithm>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <string>

#include "contract.hpp"
#include "errors/check.hpp"
#include "models/model_loader.hpp"

namespace {

// The model of `input` loaded in chunks of `chunk` bytes, or the refusal.
std::string loaded(const std::string& input, std::size_t chunk, std::vector<float>& numbers) {
  try {
    const auto* data = reinterpret_cast<const unsigned char*>(input.data());
    const std::uint64_t n = attention::safetensors_header_length(data, input.size(), input.size());
    attention::model_loader loader(
        attention::plan_model(attention::read_safetensors_header(input.substr(8, n), input.size())));
    for (std::size_t at = 8 + n; at < input.size(); at += chunk) loader.feed(0, data + at, std::min(chunk, input.size() - at));
    const attention::loaded_model model = loader.finish();
    for (const attention::tensor2* t : model.weights.all()) numbers.insert(numbers.end(), t->begin(), t->end());
  } catch (const attention::error& e) {
    return e.what();
  }
  return "";
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
           return std::memcmp(&x, &y, sizeof x) == 0;
         });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  if (fuzz::run_cli_checked({"model", "-", "--tokens", "0,1"}, input) == 0) {
    fuzz::run_cli_checked({"head", "-", "--tokens", "1,0,1", "--layer", "0", "--head", "0"}, input);
    fuzz::run_cli_checked({"validate", "-"}, input);
  }
  std::vector<float> whole, chunked;
  const std::string a = loaded(input, input.size() + 1, whole), b = loaded(input, size % 7 + 1, chunked);
  if (a != b || !same_bits(whole, chunked)) __builtin_trap();
  return 0;
}
