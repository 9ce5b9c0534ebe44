// The whole work of a request bounded before it starts, from the header and
// the arguments: the bytes held at once (T·d, T·I, T·V, layers·heads·T²) and
// the multiply-adds, each at its edge on a small fake config (no weights),
// one line naming the argument; and every path that runs a model goes
// through it (run_model, the lenses, generate).
#include <catch2/catch.hpp>

#include <string>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "lens/lens.hpp"
#include "models/generate.hpp"
#include "models/model_run.hpp"
#include "models/work_plan.hpp"

using namespace attention;

namespace {

// A model of these sizes with no weights: enough for every check before a forward.
loaded_model fake(std::size_t V, std::size_t Tmax, std::size_t d, std::size_t H, std::size_t L, std::size_t I,
               bool swiglu = false) {
  loaded_model m;
  m.config.vocab = V;
  m.config.length = Tmax;
  m.config.embed = d;
  m.config.heads = H;
  m.config.layers = L;
  m.config.mlp_width = I;
  m.config.norm = true;
  m.spec = spec_of(m.config);
  if (swiglu) m.spec.mlp = {mlp_kind::gated, activation_kind::silu, I};
  return m;
}

loaded_model gpt2_small() { return fake(50257, 1024, 768, 12, 12, 3072); }

std::string refusal(const loaded_model& m, work_kind kind, std::size_t T, std::size_t generated = 0) {
  try {
    check_work(m.config, m.spec, {kind, T, generated}, "--tokens", "count");
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

// The largest T (or, for a generation, count) the planner accepts, below 2²⁰.
std::size_t edge(const loaded_model& m, work_kind kind, std::size_t prompt = 0) {
  std::size_t ok = 0, bad = std::size_t{1} << 20;
  while (bad - ok > 1) {
    const std::size_t mid = (ok + bad) / 2;
    const bool fits = prompt ? refusal(m, kind, prompt, mid).empty() : refusal(m, kind, mid).empty();
    (fits ? ok : bad) = mid;
  }
  return ok;
}

const work_kind every_kind[] = {work_kind::run, work_kind::scores, work_kind::ablate, work_kind::logit_lens,
                                work_kind::attribution};

}  // namespace

TEST_CASE("GPT-2 small on its 1,024 tokens fits every lens, a run and a generation of its context", "[work-plan]") {
  const loaded_model m = gpt2_small();
  for (work_kind kind : every_kind) {
    INFO(work_name(kind));
    CHECK(refusal(m, kind, 1024).empty());
  }
  CHECK(refusal(m, work_kind::generate, 1, 1023).empty());
  CHECK(refusal(m, work_kind::generate, 1024, 1).empty());
  // the most it holds: a run, then the page's head scores' copy of the attention (2 · 604 MB)
  const work_plan run = plan_work(m.config, m.spec, {work_kind::run, 1024, 0});
  CHECK(run.bytes.attention == 2 * 12 * 12 * 1024 * 1024 * std::uint64_t{4});
  CHECK(run.bytes.total() < limits::models::request_bytes);
  // the most work: the logit lens unembeds all 13 streams
  const work_plan lens = plan_work(m.config, m.spec, {work_kind::logit_lens, 1024, 0});
  CHECK(lens.multiply_adds > std::uint64_t{6} * 100000000000u);
  CHECK(lens.multiply_adds < limits::models::request_multiply_adds);
}

TEST_CASE("T · I: the audit's 3 MB folder (intermediate 32,768, 2²⁰ positions) is refused naming --tokens",
          "[work-plan]") {
  const loaded_model m = fake(1000, std::size_t{1} << 20, 64, 1, 1, 32768, true);
  for (work_kind kind : {work_kind::logit_lens, work_kind::attribution, work_kind::scores}) {
    INFO(work_name(kind));
    const std::size_t T = edge(m, kind);
    // 3 · T · I floats of the MLP alone reach 1.5 GiB at 4,096: the edge is just below
    CHECK(T < 4096);
    CHECK(T > 3500);  // the head's T² takes the rest
    CHECK(refusal(m, kind, T).empty());
    const std::string line = refusal(m, kind, T + 1);
    CHECK_THAT(line, Catch::StartsWith("--tokens: " + std::to_string(T + 1) + " tokens ask " + work_name(kind) +
                                       " to hold "));
    CHECK_THAT(line, Catch::Contains("bytes of them T · I of the MLP), beyond the limit of 1610612736 (1.5 GiB)"));
  }
  CHECK_THAT(refusal(m, work_kind::scores, 16384), Catch::StartsWith("--tokens: 16384 tokens ask the scores lens"));
  CHECK_THAT(refusal(m, work_kind::attribution, 4096), Catch::StartsWith("--tokens: 4096 tokens ask attribution"));
}

TEST_CASE("T · d: a wide stream is bounded, naming --tokens", "[work-plan]") {
  const loaded_model m = fake(16, 8192, 4096, 1, 1, 0);
  // the layer's stream: 6 · T·d, the projections and their copies 2 · 3·T·d, the outs 2 · T·d: 14 · T·d floats
  const work_plan p = plan_work(m.config, m.spec, {work_kind::ablate, 100, 0});
  CHECK(p.bytes.stream == (4 + 14) * 100 * 4096 * std::uint64_t{4});  // and the first pass's last stream, ln_f: 4 · T·d
  for (work_kind kind : every_kind) {
    INFO(work_name(kind));
    const std::size_t T = edge(m, kind);
    CHECK(refusal(m, kind, T).empty());
    CHECK_THAT(refusal(m, kind, T + 1), Catch::StartsWith("--tokens: " + std::to_string(T + 1) + " tokens ask "));
    CHECK_THAT(refusal(m, kind, T + 1), Catch::Contains("bytes of them T · d of the stream)"));
  }
}

TEST_CASE("layers · heads · T²: the attention a run keeps is bounded in bytes, naming --tokens", "[work-plan]") {
  const loaded_model m = fake(16, 8192, 16, 16, 16, 0);
  // a run keeps L·H·T² weights and the page's head scores copy them: 8 bytes each
  const std::size_t T = edge(m, work_kind::run);
  CHECK(T == 885);  // 256 · 886² · 8 = 1,607,671,808 of 1,610,612,736, and the rest
  CHECK(refusal(m, work_kind::run, T).empty());
  CHECK_THAT(refusal(m, work_kind::run, T + 1),
             Catch::StartsWith("--tokens: 886 tokens ask a run to hold ") &&
                 Catch::Contains("bytes of them layers · heads · T² of attention)"));
}

TEST_CASE("T · V: the logits a request asks for are bounded at their edge, naming --tokens", "[work-plan]") {
  const loaded_model m = fake(limits::models::vocab, 8192, 1, 1, 1, 0);  // V 2¹⁸: 1,024 tokens are 2²⁸ logits
  for (work_kind kind : every_kind) {
    INFO(work_name(kind));
    CHECK(refusal(m, kind, 1024).empty());
    CHECK(refusal(m, kind, 1025) ==
          "--tokens: 1025 tokens ask for 268697600 logits (T · V), beyond the limit of 268435456");
  }
}

TEST_CASE("compute: T × the weights read per token is bounded, naming --tokens", "[work-plan]") {
  const loaded_model m = fake(32000, 8192, 2048, 4, 24, 8192);
  const work_plan one = plan_work(m.config, m.spec, {work_kind::run, 1, 0});
  // per layer q, k, v 2048 · (4 + 2·4)·512, the projection 2048², the MLP 2 · 2048·8192
  CHECK(one.per_token == 24 * (2048 * 6144 + 2048 * 2048 + 2 * 2048 * 8192u));
  CHECK(one.multiply_adds == one.per_token + 2 * 24 * 4 * 512 + 2048 * 32000u);  // + attention + one row's logits
  const std::size_t T = edge(m, work_kind::run);
  CHECK(T > 800);
  CHECK(T < 900);
  CHECK(refusal(m, work_kind::run, T).empty());
  CHECK_THAT(refusal(m, work_kind::run, T + 1),
             Catch::StartsWith("--tokens: " + std::to_string(T + 1) + " tokens ask a run for ") &&
                 Catch::Contains(" multiply-adds (T × 1207959552 weights read per token, the attention and the "
                                 "logits), beyond the limit of 1099511627776"));
}

TEST_CASE("a generation bounds its whole run, the sliding window's steps too, naming count", "[work-plan]") {
  const loaded_model m = gpt2_small();
  // past 1,024 every step runs a window of 1,024 again: a few thousand tokens' work each
  const std::size_t count = edge(m, work_kind::generate, 1);
  CHECK(count > 1023);
  CHECK(count < 1100);
  CHECK(refusal(m, work_kind::generate, 1, count).empty());
  CHECK_THAT(refusal(m, work_kind::generate, 1, count + 1),
             Catch::StartsWith("count: 1 tokens and " + std::to_string(count + 1) + " more ask a generation for "));
  // nothing generated: nothing runs
  CHECK(plan_work(m.config, m.spec, {work_kind::generate, 1024, 0}).multiply_adds == 0);
  // the core's generate refuses before any forward (this model has no weights)
  CHECK_THROWS_WITH(generate_tokens(m, {0}, 4096, 1.0, 0),
                    Catch::StartsWith("count: 1 tokens and 4096 more ask a generation for "));
}

TEST_CASE("every path that runs a model goes through the plan, naming its argument", "[work-plan]") {
  const loaded_model m = fake(1000, std::size_t{1} << 20, 64, 1, 1, 32768, true);
  const std::vector<std::int64_t> tokens(16384, 1);  // the audit's
  CHECK_THROWS_WITH(run_model(m, tokens), Catch::StartsWith("tokens: 16384 tokens ask a run to hold "));
  CHECK_THROWS_WITH(check_tokens(m, tokens, "--text"), Catch::StartsWith("--text: 16384 tokens ask a run"));
  for (const char* what : {"scores", "ablate", "logit-lens", "attribution"}) {
    lens_request r;
    r.what = what;
    r.tokens = tokens;
    r.heads = {{0, 0}};
    INFO(what);
    CHECK_THROWS_WITH(run_lens(m, r, "--"), Catch::StartsWith("--tokens: 16384 tokens ask " +
                                                              std::string(work_name(lens_work(what))) + " to hold "));
  }
}
