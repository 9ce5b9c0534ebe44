#include "formats/scenario_cost.hpp"

#include <limits>
#include <map>
#include <string>

#include "errors/check.hpp"
#include "formats/limits.hpp"

namespace attention {
namespace {

using u64 = std::uint64_t;

u64 times(u64 a, u64 b) { return saturating_times(a, b); }
u64 times(u64 a, u64 b, u64 c) { return times(times(a, b), c); }
u64 plus(u64 a, u64 b) { return a > std::numeric_limits<u64>::max() - b ? std::numeric_limits<u64>::max() : a + b; }


u64 draws_of(const tensor_entry& e) {
  using k = tensor_entry::source_kind;
  switch (e.source) {
    case k::rand: case k::randn: return saturating_count(e.shape);
    case k::randint:  // two 32-bit draws per number when the range needs more than 32 bits
      return times(saturating_count(e.shape), static_cast<u64>(e.high) - static_cast<u64>(e.low) >= (u64{1} << 32) ? 2 : 1);
    case k::linear: return saturating_count(e.shape);
    case k::embedding: return times(e.table_rows, e.shape[1]);
    default: return 0;
  }
}

// Walks the scenario, adding each part's cost and checking the bounds as it
// goes, so the message names the first tensor or head that crosses one.
struct cost_walk {
  const scenario& s;
  bool check;
  scenario_cost total;

  void add_draws(u64 n, const std::string& place) {
    total.draws = plus(total.draws, n);
    ATTENTION_CHECK(!check || total.draws <= limits::random_draws, place, ": the tensors so far draw ", total.draws,
                    " random numbers; the limit is ", limits::random_draws);
  }
  void add_work(u64 multiply_adds, u64 numbers, const std::string& place) {
    total.multiply_adds = plus(total.multiply_adds, multiply_adds);
    total.trace_numbers = plus(total.trace_numbers, numbers);
    ATTENTION_CHECK(!check || total.multiply_adds <= limits::multiply_adds, place, ": the layer so far needs ",
                    total.multiply_adds, " multiply-adds; the limit is ", limits::multiply_adds);
    ATTENTION_CHECK(!check || total.trace_numbers <= limits::trace_numbers, place, ": the trace so far holds ",
                    total.trace_numbers, " numbers; the limit is ", limits::trace_numbers);
  }

  void run() {
    std::map<std::string, const tensor_entry*> named;
    for (std::size_t i = 0; i < s.tensors.size(); ++i) {
      const tensor_entry& e = s.tensors[i];
      if (e.source == tensor_entry::source_kind::manual_seed) continue;
      named[e.name] = &e;
      const std::string place = "tensors[" + std::to_string(i) + "]";
      add_draws(draws_of(e), place);
      add_work(0, saturating_count(e.shape), place);
    }
    const attention_spec& a = s.attention;
    const u64 B = s.batch, Tq = s.query_length, Tkv = s.context_length;
    const u64 C = named.at(a.x)->shape.back(), Cc = named.at(a.context)->shape.back();
    u64 width = 0;  // Σ d_v: the concatenated heads
    for (std::size_t h = 0; h < a.heads.size(); ++h) {
      const head_spec& head = a.heads[h];
      u64 work = 0, numbers = times(4, B, times(Tq, Tkv));  // scores, scaled, masked, weights
      if (!head.query.empty()) {
        const u64 dk = named.at(head.query)->shape[1];
        work = plus(work, times(times(B, Tq), C, dk));                  // q = x @ Wq
        work = plus(work, times(times(B, Tkv), Cc, dk));                // k = context @ Wk
        work = plus(work, times(times(B, Tq), Tkv, dk));                // q @ kᵀ
        numbers = plus(numbers, times(dk, plus(times(B, Tq), times(B, Tkv))));  // q, k
        if (a.options.rotary) {  // q_rotated, k_rotated: two products a number, and the angles' cos and sin
          work = plus(work, times(2, dk, plus(times(B, Tq), times(B, Tkv))));
          numbers = plus(numbers, times(dk, plus(times(B, Tq), times(B, Tkv))));
        }
      }
      const u64 dv = head.value.empty() ? Cc : named.at(head.value)->shape[1];
      if (!head.value.empty()) {
        work = plus(work, times(times(B, Tkv), Cc, dv));  // v = context @ Wv
        numbers = plus(numbers, times(B, Tkv, dv));
      }
      work = plus(work, times(times(B, Tq), Tkv, dv));  // weights @ v
      numbers = plus(numbers, times(B, Tq, dv));        // out
      width = plus(width, dv);
      add_work(work, numbers, "attention.heads[" + std::to_string(h) + "]");
    }
    // the concatenation, then the output projection and the layer's out
    u64 work = 0, numbers = times(B, Tq, width);
    if (!a.output.empty()) {
      const u64 out = named.at(a.output)->shape[1];
      work = times(times(B, Tq), width, out);
      numbers = plus(numbers, times(B, Tq, out));
    }
    add_work(work, numbers, a.output.empty() ? "attention" : "attention.output");
  }
};

}  // namespace

scenario_cost cost_of(const scenario& s) {
  cost_walk walk{s, false, {}};
  walk.run();
  return walk.total;
}

void check_cost(const scenario& s) {
  cost_walk walk{s, true, {}};
  walk.run();
}

}  // namespace attention
