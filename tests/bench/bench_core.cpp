// Times the native core on full traces (every step recorded). `make bench`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "run.hpp"

namespace {

std::string scenario_text(int B, int T, int C, int heads) {
  const int head_size = C / heads;
  std::string text = "{\"version\": 1, \"id\": \"bench\", \"seed\": 0, \"tensors\": [{\"name\": \"x\", \"randn\": [" +
                     std::to_string(B) + ", " + std::to_string(T) + ", " + std::to_string(C) + "]}";
  std::string head_list;
  for (int h = 0; h < heads; ++h) {
    for (const char* w : {"q", "k", "v"})
      text += ", {\"name\": \"" + std::string(w) + std::to_string(h) + "\", \"linear\": [" + std::to_string(C) + ", " +
              std::to_string(head_size) + "]}";
    head_list += std::string(h ? ", " : "") + "{\"query\": \"q" + std::to_string(h) + "\", \"key\": \"k" +
                 std::to_string(h) + "\", \"value\": \"v" + std::to_string(h) + "\"}";
  }
  return text + "], \"attention\": {\"x\": \"x\", \"heads\": [" + head_list + "]}}";
}

}  // namespace

int main() {
  struct size { int B, T, C, heads; };
  const std::vector<size> sizes = {{4, 256, 64, 4}, {1, 8, 128, 1}, {1, 64, 128, 8}, {1, 256, 128, 8}, {1, 512, 128, 1}, {1, 512, 128, 8}};
  std::printf("%-22s %10s %10s %10s\n", "B, T, C, heads", "median ms", "min ms", "max ms");
  for (const size& s : sizes) {
    const attention::scenario parsed = attention::parse_scenario(scenario_text(s.B, s.T, s.C, s.heads));
    std::vector<double> ms;
    for (int run = 0; run < 15; ++run) {
      const auto start = std::chrono::steady_clock::now();
      const attention::trace t = attention::run(parsed);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-22s %10.2f %10.2f %10.2f\n",
                (std::to_string(s.B) + ", " + std::to_string(s.T) + ", " + std::to_string(s.C) + ", " + std::to_string(s.heads)).c_str(),
                ms[ms.size() / 2], ms.front(), ms.back());
  }
}
