// The benchmark scenario, the same for every runner: x = randn(B, T, C) and,
// per head, nn.Linear(C, C / heads) query, key and value, causal, scaled.
#pragma once

#include <string>

namespace bench {

inline std::string scenario_text(int B, int T, int C, int heads) {
  const std::string d = std::to_string(C / heads), c = std::to_string(C);
  std::string text = "{\"version\": 1, \"id\": \"bench\", \"seed\": 0, \"tensors\": [{\"name\": \"x\", \"randn\": [" +
                     std::to_string(B) + ", " + std::to_string(T) + ", " + c + "]}";
  std::string list;
  for (int h = 0; h < heads; ++h) {
    const std::string n = std::to_string(h);
    for (const char* w : {"q", "k", "v"}) text += ", {\"name\": \"" + std::string(w) + n + "\", \"linear\": [" + c + ", " + d + "]}";
    list += std::string(h ? ", " : "") + "{\"query\": \"q" + n + "\", \"key\": \"k" + n + "\", \"value\": \"v" + n + "\"}";
  }
  return text + "], \"attention\": {\"x\": \"x\", \"heads\": [" + list + "], \"mask\": \"causal\"}}";
}

}  // namespace bench
