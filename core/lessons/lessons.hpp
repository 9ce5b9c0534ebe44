// What each lesson view asks of the core, as JSON: the page lays the numbers
// out and never computes them. {"shape": [...], "data": [...]} for tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

// The mathematical trick: x = torch.rand(B, T, C) under seed, averaged three
// ways, whether they agree, the weights of versions 2 and 3, then the a @ b
// demos drawn next, as in notebook 003.
std::string averaging_lesson_json(std::uint64_t seed, std::size_t B, std::size_t T, std::size_t C);

// Why scale: score variance with and without 1/sqrt(head_size) for each head
// size (k then q = randn(B, T, hs) under seed), and softmax(values · factor)
// with the variance of values · factor for each factor.
std::string scaling_lesson_json(std::uint64_t seed, std::size_t B, std::size_t T,
                                const std::vector<std::size_t>& head_sizes, const std::vector<float>& values,
                                const std::vector<float>& factors);

// No notion of space: see space.hpp; one batch element's outputs are enough
// to see it, but all are returned.
std::string space_lesson_json(const scenario& s, const trace& t, const std::vector<std::size_t>& permutation,
                              bool add_positions);

// Masking after softmax, then renormalizing (notebook 004): see
// renormalize.hpp; keep is the scenario's (Tq, Tkv) mask. row_sums is (B, Tq).
std::string renormalize_lesson_json(const trace& t, std::size_t head, const tensor2& keep);

}  // namespace attention
