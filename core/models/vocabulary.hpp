// A character model's tokenizer (gpt-v1.md section 2, __metadata__.vocab):
// text is split into Unicode code points and each looked up in the
// vocabulary, as torch_model.py's encode does. GPT-2's BPE is the page's
// (a vendored npm tokenizer); the command line takes its ids as --tokens.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/model_plan.hpp"

namespace attention {

// Ids of UTF-8 text; throws naming `place`, the character and its position
// (in characters) when one is not in the vocabulary, or when the model has
// no character vocabulary.
std::vector<std::int64_t> encode_text(const model_config& config, std::string_view text, const std::string& place);

// The text of ids (each below V) by the character vocabulary.
std::string decode_ids(const model_config& config, const std::vector<std::int64_t>& ids);

}  // namespace attention
