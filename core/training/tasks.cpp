#include "training/tasks.hpp"

#include <algorithm>

#include "errors/check.hpp"
#include "random/sampling.hpp"

namespace attention {

std::size_t task_vocab(const task_spec& task) {
  if (task.name == "text") return task.text->vocab();
  const bool separated = task.name == "reverse" || task.name == "sort";
  return task.tokens + (separated ? 1 : 0);
}

std::size_t task_length(const task_spec& task) {
  return task.name == "reverse" || task.name == "sort" ? 2 * task.half : task.length;
}

namespace {

const auto n_of = [](const task_spec& task) { return static_cast<std::int64_t>(task.tokens); };

// previous: x = randint(0, n, (B, T)); y[:, t] = x[:, t-1]
void previous(generator& gen, const task_spec& task, task_batch& out) {
  const std::size_t T = out.length;
  out.x = randint_ids(gen, 0, n_of(task), out.batch * T);
  for (std::size_t b = 0; b < out.batch; ++b)
    for (std::size_t t = 1; t < T; ++t) out.y[b * T + t] = out.x[b * T + t - 1];
}

// reverse and sort: full = cat(r, n, tail) of length 2·half + 1; x = full[:-1];
// y[:, t] = full[:, t+1] for t ≥ half. reverse: r = randint, tail = flip(r);
// sort: r[b] = randperm(n)[:half] row by row, tail = sort(r).
void separated(generator& gen, const task_spec& task, task_batch& out) {
  const std::size_t half = task.half, T = out.length;
  std::vector<std::int64_t> r;
  if (task.name == "reverse") {
    r = randint_ids(gen, 0, n_of(task), out.batch * half);
  } else {
    for (std::size_t b = 0; b < out.batch; ++b) {
      const std::vector<std::int64_t> perm = randperm(gen, task.tokens);
      r.insert(r.end(), perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(half));
    }
  }
  std::vector<std::int64_t> full(T + 1);
  for (std::size_t b = 0; b < out.batch; ++b) {
    const auto row = r.begin() + static_cast<std::ptrdiff_t>(b * half);
    std::copy(row, row + static_cast<std::ptrdiff_t>(half), full.begin());
    full[half] = n_of(task);
    std::vector<std::int64_t> tail(row, row + static_cast<std::ptrdiff_t>(half));
    if (task.name == "reverse") std::reverse(tail.begin(), tail.end());
    else std::sort(tail.begin(), tail.end());
    std::copy(tail.begin(), tail.end(), full.begin() + static_cast<std::ptrdiff_t>(half + 1));
    for (std::size_t t = 0; t < T; ++t) out.x[b * T + t] = full[t];
    for (std::size_t t = half; t < T; ++t) out.y[b * T + t] = full[t + 1];
  }
}

// induction: p = randint(lo, hi + 1, (B,)); then row by row r[b] = randperm(n)[:hi];
// x[b, t] = r[b, t mod p[b]]; y[b, t] = x[b, t+1] for p[b] ≤ t ≤ T-2.
void induction(generator& gen, const task_spec& task, task_batch& out) {
  const std::size_t T = out.length;
  const std::vector<std::int64_t> periods =
      randint_ids(gen, static_cast<std::int64_t>(task.period_lo), static_cast<std::int64_t>(task.period_hi) + 1, out.batch);
  for (std::size_t b = 0; b < out.batch; ++b) {
    const std::vector<std::int64_t> r = randperm(gen, task.tokens);
    const auto p = static_cast<std::size_t>(periods[b]);
    for (std::size_t t = 0; t < T; ++t) out.x[b * T + t] = r[t % p];
    for (std::size_t t = p; t + 1 < T; ++t) out.y[b * T + t] = out.x[b * T + t + 1];
  }
}

}  // namespace

task_batch draw_task(generator& gen, const task_spec& task, std::size_t batch, bool validation) {
  task_batch out;
  out.batch = batch;
  out.length = task_length(task);
  out.x.assign(batch * out.length, 0);
  out.y.assign(batch * out.length, ignore_target);
  if (task.name == "text") draw_text(gen, validation ? task.text->val : task.text->train, out.length, batch, out.x, out.y);
  else if (task.name == "previous") previous(gen, task, out);
  else if (task.name == "reverse" || task.name == "sort") separated(gen, task, out);
  else if (task.name == "induction") induction(gen, task, out);
  else detail::fail("task.name: unknown task ", task.name);
  return out;
}

}  // namespace attention
