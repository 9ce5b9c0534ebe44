#include "transformer/kv_cache.hpp"

#include <algorithm>

#include "errors/check.hpp"

namespace attention {

kv_cache::kv_cache(const model_spec& spec, std::size_t capacity)
    : capacity_(capacity),
      positions_((capacity + 15) / 16 * 16),
      kv_(spec.kv_heads),
      hs_(spec.head_size),
      numbers_((spec.head_size + 15) / 16 * 16) {
  ATTENTION_CHECK(spec.causal(), "generate: an encoder sees both ways; it keeps no keys for the next token");
  ATTENTION_CHECK(capacity > 0 && capacity <= spec.length, "generate: a cache of ", capacity,
                  " positions, the model's length is ", spec.length);
  keys_.assign(spec.layers * kv_ * positions_ * hs_, 0.0f);
  values_.assign(spec.layers * kv_ * numbers_ * capacity_, 0.0f);  // a panel's padding stays 0
  tokens_.reserve(capacity_);
}

matrix_ref kv_cache::keys(std::size_t l, std::size_t g, std::size_t n) const {
  return {keys_.data() + (l * kv_ + g) * positions_ * hs_, hs_, n, 16, 1, 16 * hs_};
}

matrix_ref kv_cache::values(std::size_t l, std::size_t g, std::size_t n) const {
  return {values_.data() + (l * kv_ + g) * numbers_ * capacity_, n, hs_, 16, 1, 16 * capacity_};
}

float kv_cache::key(std::size_t l, std::size_t g, std::size_t j, std::size_t c) const {
  return keys_[(l * kv_ + g) * positions_ * hs_ + j / 16 * 16 * hs_ + c * 16 + j % 16];
}

float kv_cache::value(std::size_t l, std::size_t g, std::size_t j, std::size_t c) const {
  return values_[(l * kv_ + g) * numbers_ * capacity_ + c / 16 * 16 * capacity_ + j * 16 + c % 16];
}

void kv_cache::store(std::size_t l, std::size_t g, std::size_t at, const float* k, const float* v, std::size_t T) {
  ATTENTION_CHECK(g < kv_ && (l * kv_ + g + 1) * positions_ * hs_ <= keys_.size() && at + T <= capacity_,
                  "generate: positions ", at, " to ", at + T, " of layer ", l, "'s key/value head ", g,
                  " do not fit the cache");
  float* keys = keys_.data() + (l * kv_ + g) * positions_ * hs_;
  float* values = values_.data() + (l * kv_ + g) * numbers_ * capacity_;
  for (std::size_t t = 0; t < T; ++t) {
    const std::size_t j = at + t;
    float* key = keys + j / 16 * 16 * hs_ + j % 16;  // position j: every 16th number of its panel
    for (std::size_t c = 0; c < hs_; ++c) key[c * 16] = k[t * hs_ + c];
    for (std::size_t c = 0; c < hs_; c += 16)  // its value: a row of 16 in each panel
      std::copy_n(v + t * hs_ + c, std::min<std::size_t>(16, hs_ - c), values + c * capacity_ + j * 16);
  }
}

namespace {
// a sink the compiler must keep: the loads are the point
volatile float warmed = 0;

// the sum of every 16th float of p[0 … count): four sums, so the loads do not wait on each other
float every_line(const float* p, std::size_t count) {
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t i = 0;
  for (; i + 64 <= count; i += 64) s0 += p[i], s1 += p[i + 16], s2 += p[i + 32], s3 += p[i + 48];
  for (; i < count; i += 16) s0 += p[i];
  return (s0 + s1) + (s2 + s3);
}
}  // namespace

void kv_cache::warm(std::size_t l, std::size_t n) const {
  n = std::min(n, capacity_);
  float sum = 0;
  for (std::size_t g = 0; g < kv_; ++g) {
    sum += every_line(keys_.data() + (l * kv_ + g) * positions_ * hs_, (n + 15) / 16 * 16 * hs_);
    for (std::size_t c = 0; c < numbers_; c += 16)  // each panel of 16 of the head's numbers: n rows of 16
      sum += every_line(values_.data() + (l * kv_ + g) * numbers_ * capacity_ + c * capacity_, n * 16);
  }
  warmed = sum;
}

void kv_cache::clear(std::size_t start) {
  tokens_.clear();
  start_ = start;
}

void kv_cache::hold(const std::vector<std::int64_t>& tokens) {
  ATTENTION_CHECK(tokens_.size() + tokens.size() <= capacity_, "generate: ", tokens_.size() + tokens.size(),
                  " positions, the cache holds ", capacity_);
  tokens_.insert(tokens_.end(), tokens.begin(), tokens.end());
}

std::vector<float> next_logits(const model_weights& w, const model_spec& spec, kv_cache& cache,
                               const std::vector<std::int64_t>& ids) {
  ATTENTION_CHECK(!ids.empty(), "generate: no tokens");
  // the window forward() would read: the last ≤ T ids
  const std::size_t start = ids.size() > spec.length ? ids.size() - spec.length : 0;
  const auto first = ids.begin() + static_cast<std::ptrdiff_t>(start);
  const std::size_t held = cache.length();
  // the cache serves this window when it starts where the window starts and
  // holds a proper prefix of it; past T every position moved: rebuilt
  const bool serves = cache.start() == start && held < ids.size() - start &&
                      std::equal(cache.tokens().begin(), cache.tokens().end(), first);
  if (!serves) cache.clear(start);
  const std::vector<std::int64_t> fresh(first + static_cast<std::ptrdiff_t>(cache.length()), ids.end());
  ATTENTION_CHECK(fresh.size() <= cache.capacity(), "generate: a window of ", fresh.size(),
                  " positions, the cache holds ", cache.capacity());
  forward_options options;
  options.keep = kept::logits;
  options.last_logits_only = true;
  options.cache = &cache;
  const forward_pass pass = forward(w, spec, fresh, 1, options);
  return std::vector<float>(pass.logits.data(), pass.logits.data() + pass.logits.size());  // (1, 1, V)
}

}  // namespace attention
