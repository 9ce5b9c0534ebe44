#include <catch2/catch.hpp>

#include <cstdlib>  // defines __GLIBC__ on glibc

#include "tensor/allocation.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Under AddressSanitizer (make test-sanitize) malloc is the sanitizer's own,
// which keeps freed memory in quarantine and reports nothing to mallinfo2.
#if defined(__SANITIZE_ADDRESS__)
#define ATTENTION_OWN_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTENTION_OWN_MALLOC 1
#endif
#endif

TEST_CASE("a freed tensor's memory stays with the program, ready for the next step", "[allocation]") {
  attention::keep_freed_memory();  // the tests' main has called it already; twice is harmless
#if defined(__GLIBC__) && !defined(ATTENTION_OWN_MALLOC)
  const std::size_t bytes = 8 << 20;  // a tensor of 2 M floats
  void* block = std::malloc(bytes);
  REQUIRE(block != nullptr);
  CHECK(mallinfo2().hblks == 0);  // from the heap, not a mapping of its own
  std::free(block);
  CHECK(mallinfo2().fordblks >= bytes);  // freed, and kept rather than given back
#else
  SUCCEED("only glibc's malloc gives freed memory back eagerly; a sanitizer's keeps it in quarantine");
#endif
}
