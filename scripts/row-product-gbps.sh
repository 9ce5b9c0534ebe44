#!/bin/sh
# Builds tests/bench/row_product_gbps.cpp natively and for wasm (the wasm
# modules' compile flags, CMakeLists.txt) into DIR, outside CMake: a
# micro-measurement of the one-row products, no model needed.
#   scripts/row-product-gbps.sh DIR   then   DIR/row-product-gbps [ARGS]   and   node DIR/row-product-gbps.js [ARGS]
set -e
dir=${1:?usage: scripts/row-product-gbps.sh DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/include"
for library in xtensor xtl xsimd nlohmann; do ln -sfn "/usr/include/$library" "$dir/include/$library"; done
sources="tests/bench/row_product_gbps.cpp core/tensor/row_product.cpp core/tensor/narrow_matmul.cpp
  core/tensor/gemm.cpp core/tensor/narrow.cpp core/tensor/widen.cpp core/tensor/simd.cpp core/errors/check.cpp"
cd "$root"
${CXX:-c++} -std=c++17 -O3 -DNDEBUG -ffp-contract=off -fno-math-errno -Icore $sources -o "$dir/row-product-gbps"
NODE_PATH=${NODE_PATH:-/usr/share/nodejs} em++ -std=c++17 -O3 -DNDEBUG -fexceptions -msimd128 -ffp-contract=off \
  -fno-math-errno -Icore -isystem "$dir/include" $sources -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB \
  -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -o "$dir/row-product-gbps.js"
