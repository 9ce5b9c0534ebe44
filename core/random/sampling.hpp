// PyTorch's CPU sampling transforms for float32 tensors, drawing from
// `generator` exactly as the named PyTorch call does, so a scenario's tensors
// are the very numbers its notebook printed.
#pragma once

#include <cstdint>
#include <vector>

#include "random/generator.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// torch.rand(shape): one 32-bit draw per element, 24 bits kept.
tensor rand(generator& gen, const shape_t& shape);

// torch.randn(shape): Box-Muller over blocks of 16 uniforms for 16 or more
// elements (normal_fill), a cached double Box-Muller pair per two elements
// below that (normal_distribution<double>).
tensor randn(generator& gen, const shape_t& shape);

// torch.randint(low, high, shape).float()
tensor randint(generator& gen, std::int64_t low, std::int64_t high, const shape_t& shape);

// torch.randint(low, high, (count,)) as integers, the same draws.
std::vector<std::int64_t> randint_ids(generator& gen, std::int64_t low, std::int64_t high, std::size_t count);

// torch.randperm(n) on the CPU for small n: Fisher-Yates from the front,
// z = random() % (n - i), swap r[i] and r[i + z], for i < n - 1.
std::vector<std::int64_t> randperm(generator& gen, std::size_t n);

// nn.Linear(in, out, bias=False).weight.T: kaiming_uniform_(a=sqrt(5)) over
// the (out, in) weight, returned transposed as (in, out) so that x @ W works.
tensor2 linear(generator& gen, std::size_t in, std::size_t out);

// nn.Linear(in, out)'s bias, drawn right after its weight: (1, out).
tensor2 linear_bias(generator& gen, std::size_t in, std::size_t out);

// nn.Embedding(num, dim)(ids): normal_ over the whole (num, dim) table, then
// the rows `ids`, as (len(ids), dim).
tensor2 embedding(generator& gen, std::size_t num, std::size_t dim,
                  const std::vector<std::int64_t>& ids);

// The raw fills behind the calls above, over n contiguous floats.
void fill_uniform(generator& gen, float* data, std::size_t n, float from, float to);
void fill_normal(generator& gen, float* data, std::size_t n);

}  // namespace attention
