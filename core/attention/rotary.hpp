// Rotary positions live in tensor/rotary.hpp, below both attention/ and
// training/'s one forward(); this path stays for attention/'s own includes.
#pragma once

#include "tensor/rotary.hpp"
