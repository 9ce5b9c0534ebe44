// forward_options::on_layer: each layer seen as it ends, in order, with
// everything it computed, even when `keep` then drops it; the numbers are
// those of a forward that keeps everything (what the lenses rely on).
#include <catch2/catch.hpp>

#include <algorithm>

#include "random/generator.hpp"
#include "training/init_weights.hpp"
#include "transformer/model.hpp"

using namespace attention;

TEST_CASE("forward: on_layer sees every layer in order, whole, before keep drops it", "[model]") {
  const model_spec spec = gpt_block(9, 5, 8, 2, 3, 2 * 8, true, true);  // V, T, d, heads, layers, MLP, norm, bias
  generator gen(4);
  const model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 4, 2, 8, 0};
  const forward_pass full = forward(w, spec, tokens, 1);
  forward_options options;
  options.keep = kept::logits;
  std::vector<std::size_t> seen;
  options.on_layer = [&](std::size_t l, const layer_pass& lp) {
    seen.push_back(l);
    const layer_pass& kept_all = full.layers[l];
    CHECK(lp.input == kept_all.input);
    CHECK(lp.middle == kept_all.middle);
    CHECK(lp.active == kept_all.active);
    for (std::size_t h = 0; h < lp.heads.size(); ++h) CHECK(lp.heads[h].out == kept_all.heads[h].out);
  };
  const forward_pass lean = forward(w, spec, tokens, 1, options);
  CHECK(seen == std::vector<std::size_t>{0, 1, 2});
  CHECK(lean.layers[1].heads[0].out.size() == 0);  // dropped after the call, as keep says
  CHECK(lean.logits == full.logits);
}
