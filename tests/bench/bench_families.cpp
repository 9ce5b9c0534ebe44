// `make bench`'s native side of the families part (README "Benchmarks"):
// several models, each a GPT file or a Hugging Face folder, loaded as the
// command line loads them, then on the same T tokens in alternating rounds
// (one forward of each, then run_model of each: the forward, the guesses
// after every position, the loss), so that every model shares the machine's
// load minute by minute. The multiply-adds are counted from each block's
// shapes (forward_work.hpp), the memory each model holds once loaded.
//   attention-families-bench T RUNS MODEL_OR_FOLDER…  → JSON on stdout
#include <malloc.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "forward_work.hpp"
#include "models/folder_read.hpp"
#include "models/folder_trace.hpp"
#include "models/model_run.hpp"
#include "models/model_stream.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// The bytes malloc has handed out and not had back: what a load added to it
// is what the model holds (the resident set would miss memory an earlier
// model's run freed and this load reused).
std::uint64_t held_bytes() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

struct bench_model {
  std::string path, family;
  attention::loaded_model model;
  double load_ms = 0;
  std::uint64_t held = 0;
  std::vector<std::int64_t> tokens;
  std::vector<double> forward_ms, run_ms;
};

// A folder through folder_read (its family from config.json), else a GPT file.
bench_model load(const std::string& path) {
  bench_model b;
  b.path = path;
  const std::uint64_t before = held_bytes();
  const auto start = clock_type::now();
  if (attention::is_folder(path)) {
    const attention::family_config config = attention::read_family_config(attention::read_folder_config(path));
    b.family = config.model_type;
    b.model = attention::read_folder(path, config);
  } else {
    b.family = "gpt2";
    b.model = attention::read_model_file(path);
  }
  b.load_ms = ms_since(start);
  b.held = held_bytes() - before;
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: attention-families-bench T RUNS MODEL_OR_FOLDER…\n";
    return 64;
  }
  const std::size_t T = std::stoul(argv[1]), runs = std::stoul(argv[2]);
  // Keep freed memory, as bench_model.cpp does (and wasm always does): no
  // forward pays the kernel's page faults again.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  try {
    std::vector<bench_model> models;
    for (int i = 3; i < argc; ++i) {
      std::cerr << "  loading " << argv[i] << " …\n";
      models.push_back(load(argv[i]));
      bench_model& b = models.back();
      b.tokens.resize(T);
      for (std::size_t t = 0; t < T; ++t) b.tokens[t] = static_cast<std::int64_t>((t * 7919 + 13) % b.model.config.vocab);
      attention::run_model(b.model, b.tokens);  // warm: the allocator's pages
    }
    for (std::size_t r = 0; r < runs; ++r) {
      for (bench_model& b : models) {
        const auto start = clock_type::now();
        attention::forward(b.model.weights, b.model.spec, b.tokens, 1, {attention::kept::attention, false});
        b.forward_ms.push_back(ms_since(start));
      }
      for (bench_model& b : models) {
        const auto start = clock_type::now();
        attention::run_model(b.model, b.tokens);
        b.run_ms.push_back(ms_since(start));
      }
    }
    nlohmann::json out = {{"tokens", T}, {"runs", runs}, {"models", nlohmann::json::array()}};
    for (const bench_model& b : models) {
      const attention::model_spec& s = b.model.spec;
      out["models"].push_back({{"path", b.path},
                               {"family", b.family},
                               {"parameters", b.model.config.parameters},
                               {"shape", {{"embed", s.embed}, {"layers", s.layers}, {"heads", s.heads},
                                          {"kv_heads", s.kv_heads}, {"head_size", s.head_size},
                                          {"mlp_width", s.mlp.width}, {"swiglu", s.mlp.kind == attention::mlp_kind::gated},
                                          {"rotary", s.rotary()}, {"vocab", s.vocab}}},
                               {"load_ms", b.load_ms},
                               {"held_bytes", b.held},
                               {"forward_ms", b.forward_ms},
                               {"run_ms", b.run_ms},
                               {"multiply_adds", attention::forward_multiply_adds(s, b.model.weights, T)}});
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    out["peak_rss_bytes"] = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
    std::cout << out.dump() << "\n";
  } catch (const attention::error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
