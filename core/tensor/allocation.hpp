// Native programs keep the memory they free. glibc gives any freed block
// over 128 KiB (and the heap's free top) back to the kernel, so each
// training step's tensors would land on fresh pages, a page fault per 4 KiB
// on first touch: measured on text-gpt, 2,700 faults and about 22 ms of
// kernel time a step, more than the step's arithmetic. wasm's memory never
// shrinks, so it needs nothing.
#pragma once

namespace attention {

// Call once at the start of a program (the CLI, the tests, the benchmark).
// A no-op off glibc.
void keep_freed_memory();

}  // namespace attention
