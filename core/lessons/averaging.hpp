// The mathematical trick: each token averages itself and its past, computed
// three ways that must agree (notebooks 000 and 003).
#pragma once

#include <string>
#include <vector>

#include "random/generator.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// Version 1: xbow[b, t] = mean(x[b, :t+1]), an explicit loop. (B, T, C)
tensor3 average_loop(const tensor3& x);

// Version 2: wei = tril(ones(T, T)) / row sums; xbow2 = wei @ x. (T, T)
tensor2 tril_average_weights(std::size_t T);
tensor3 average_tril(const tensor3& x);

// Version 3: wei = softmax(zeros(T, T).masked_fill(tril == 0, -inf)); wei @ x.
tensor2 softmax_average_weights(std::size_t T);
tensor3 average_softmax(const tensor3& x);

// torch.allclose: |a - b| <= atol + rtol·|b| everywhere, same shape.
bool all_close(const tensor3& a, const tensor3& b, float rtol = 1e-5f, float atol = 1e-8f);

struct averaging_lesson {
  tensor3 loop, tril, softmax;  // (B, T, C) each
  bool tril_agrees = false;     // all_close(tril, loop)
  bool softmax_agrees = false;  // all_close(softmax, loop)
};

averaging_lesson average_three_ways(const tensor3& x);

// The notebook's a @ b demos, each b = torch.randint(0, 10, (3, 2)).float()
// drawn from gen in turn: a = ones (column sums), a = tril (running sums),
// a = tril / row sums (running means).
struct matmul_demo {
  std::string name;
  tensor2 a, b, c;  // (3, 3), (3, 2), (3, 2)
};
std::vector<matmul_demo> tril_matmul_demos(generator& gen);

}  // namespace attention
