// `attention-cli lens FILE|FOLDER --tokens … --what scores|ablate|logit-lens|attribution
// [--heads L.H,…] [--mode zero|mean] [--position P] [--token t]`: the
// arguments read into a lens request, the lens run (lens/lens.hpp), its
// lens-v1 JSON printed on one line.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "lens/lens.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// --heads 0.1,2.3: (layer, head) pairs as written; "" is none.
std::vector<std::pair<std::size_t, std::size_t>> heads_of(const std::string& text);

// The request the arguments make, each one read as its name says (not yet checked against a model).
lens_request lens_request_of(const arguments& a);

// The lens on a model already read; throws attention::error naming the argument.
void write_lens(const arguments& a, const loaded_model& model, std::ostream& out);

}  // namespace attention
