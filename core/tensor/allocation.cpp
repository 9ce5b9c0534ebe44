#include "tensor/allocation.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attention {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Fixed thresholds also stop glibc's own adjusting of them.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // blocks up to 32 MiB (glibc's most) from the heap, not mmap
  mallopt(M_TRIM_THRESHOLD, 1 << 30);    // and the heap's free top kept up to 1 GiB
#endif
}

}  // namespace attention
