#include "tensor/gemm.hpp"

#include <cstdint>
#include <vector>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "tensor/transpose.hpp"

namespace attention {
namespace {

// Blocks (Goto's and BLIS's loops): a KC-deep slice of b, NC columns wide, is
// packed once into panels of NR columns (any strides, so a transposed weight
// costs nothing more; zeros past the last column; each panel laid out in the
// order the kernel reads it). For each MC rows of a, the micro-kernel
// multiplies MR rows of a by one KC×NR panel into an MR×NR tile of c held in
// registers. a is read where it lies when its rows or its columns are
// contiguous (packing it would cost as much as the product when b is
// narrow); only a last partial panel, or odd strides, are copied. A sum
// longer than KC continues in the next slice from the partial sum stored in
// c, so it stays in order.
constexpr std::size_t KC = 256;
constexpr std::size_t MC_TARGET = 128;
constexpr std::size_t NC = 512;

template <typename T>
ATTENTION_INLINE T smaller(T a, T b) {
  return a < b ? a : b;
}

// The pack buffers, kept between calls (one per thread), 64-byte aligned.
struct pack_buffers {
  std::vector<float> a, b;
  static float* aligned(std::vector<float>& buffer, std::size_t floats) {
    if (buffer.size() < floats + 16) buffer.resize(floats + 16);
    const auto at = reinterpret_cast<std::uintptr_t>(buffer.data());
    return buffer.data() + ((64 - at % 64) % 64) / sizeof(float);
  }
};
thread_local pack_buffers packs;

// How the kernel reads MR rows of a over kc inner steps: a(r, p) at
// at[r·row + p·step]. Rows of a matrix: step 1; columns of a transposed
// one, or a packed panel: row 1.
struct a_panel {
  const float* at;
  std::size_t row, step;
};

// rows [i0, i0 + rows) × inner [p0, p0 + kc) of a into a panel of MR rows
// (zeros past the last row): for a partial last panel, or odd strides.
template <int MR>
ATTENTION_INLINE a_panel pack_a(const matrix_ref& a, std::size_t i0, std::size_t rows, std::size_t p0,
                                std::size_t kc, float* out) {
  for (std::size_t p = 0; p < kc; ++p) {
    const float* from = a.data + i0 * a.row_stride + (p0 + p) * a.col_stride;
    for (std::size_t r = 0; r < MR; ++r) out[p * MR + r] = r < rows ? from[r * a.row_stride] : 0.0f;
  }
  return {out, 1, MR};
}

// How the kernel reads a KC×NR panel of b: row p at at + p·step.
struct b_panel {
  const float* at;
  std::size_t step;
};

// inner [p0, p0 + kc) × columns [j0, j0 + nc) of b, as panels of NR columns:
// where they lie when b's rows are contiguous and b is small enough to
// stay in cache (the training's weights and the heads' products: packing
// would cost as much as the product), else packed into `out` (zeros past
// the last column).
template <int NR>
ATTENTION_INLINE void pack_b(const matrix_ref& b, std::size_t p0, std::size_t kc, std::size_t j0, std::size_t nc,
                             float* out, b_panel* panels) {
  static_assert(NR % 8 == 0, "a transposed b is packed 8 columns at a time");
  // a weight kept in panels of 16 (narrow.hpp) is read where it lies, as a
  // small b is: with NR ≤ 16 a panel of NR columns lies within one of its panels
  const bool panelled = b.panel_stride != 0;
  const bool small = panelled || (b.col_stride == 1 && b.rows * b.row_stride <= (std::size_t{64} << 10));
  for (std::size_t jr = 0; jr < nc; jr += NR, out += NR * kc) {
    const std::size_t cols = smaller<std::size_t>(NR, nc - jr), col = j0 + jr;
    const float* from = panelled ? b.data + p0 * b.row_stride + col / panel_columns * b.panel_stride + col % panel_columns
                                 : b.data + p0 * b.row_stride + col * b.col_stride;
    if constexpr (NR > panel_columns) {  // AVX-512's 32 columns: two panels side by side
      if (panelled) {
        panels[jr / NR] = {out, NR};
        for (std::size_t p = 0; p < kc; ++p)
          for (std::size_t q = 0; q < NR; ++q)
            out[p * NR + q] = q < cols ? b.data[(p0 + p) * b.row_stride + (col + q) / panel_columns * b.panel_stride +
                                                (col + q) % panel_columns]
                                       : 0.0f;
        continue;
      }
    }
    if (small && cols == NR) {
      panels[jr / NR] = {from, b.row_stride};
      continue;
    }
    panels[jr / NR] = {out, NR};
    if (b.col_stride == 1 && cols == NR) {  // rows of b contiguous: copy runs of NR
      for (std::size_t p = 0; p < kc; ++p) {
        const float* row = from + p * b.row_stride;
        float* to = out + p * NR;
#pragma GCC unroll 16
        for (std::size_t j = 0; j < NR; ++j) to[j] = row[j];
      }
    } else if (b.row_stride == 1 && cols == NR) {  // a transposed weight: each column of b contiguous
      // 8 steps of 8 columns at a time, transposed in registers: whole cache lines in and out
      std::size_t p = 0;
      for (; p + 8 <= kc; p += 8)
        for (std::size_t j = 0; j < NR; j += 8) {
          floats8 columns[8], steps[8];
          for (std::size_t k = 0; k < 8; ++k) columns[k] = load8(from + (j + k) * b.col_stride + p);
          transpose8(columns, steps);
          for (std::size_t q = 0; q < 8; ++q) store8(out + (p + q) * NR + j, steps[q]);
        }
      for (; p < kc; ++p)
        for (std::size_t j = 0; j < NR; ++j) out[p * NR + j] = from[j * b.col_stride + p];
    } else {
      for (std::size_t p = 0; p < kc; ++p)
        for (std::size_t j = 0; j < NR; ++j)
          out[p * NR + j] = j < cols ? from[p * b.row_stride + j * b.col_stride] : 0.0f;
    }
  }
}

// c tile (MR, NR) (+)= a (MR, kc) @ b panel (kc, NR): MR·NV vectors of sums
// in registers, each lane one output, each step a multiply then an add.
// first: the sums start at +0, as the plain loop's do; else from c.
template <int W, int MR, int NV>
ATTENTION_INLINE void micro_kernel(std::size_t kc, const a_panel& a, const b_panel& b_at, float* c, std::size_t ldc,
                                   bool first) {
  vec<W> sum[MR][NV];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) sum[r][v] = first ? vec<W>{} : load<W>(c + r * ldc + v * W);
  const float* ap = a.at;
  const float* bp = b_at.at;
  const std::size_t row = a.row, step = a.step, b_step = b_at.step;
  for (std::size_t p = 0; p < kc; ++p, ap += step, bp += b_step) {
    vec<W> b[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) b[v] = load<W>(bp + v * W);
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const float a_rp = ap[r * row];
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) sum[r][v] = sum[r][v] + a_rp * b[v];
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store<W>(c + r * ldc + v * W, sum[r][v]);
}

// The inner steps [from, to) a tile of rows [i, i + rows) needs: all, or
// (one slice holding the whole sum) those a causal operand's zeros leave.
struct inner_range {
  std::size_t from, to;
};
ATTENTION_INLINE inner_range inner_of(causal_part part, std::size_t i, std::size_t rows, std::size_t kc, bool whole) {
  if (whole && part == causal_part::lower_a) return {0, smaller(kc, i + rows)};
  if (whole && part == causal_part::upper_a) return {smaller(kc, i), kc};
  return {0, kc};
}

template <int W, int MR, int NV>
ATTENTION_INLINE void gemm_blocked(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc,
                                   causal_part part) {
  constexpr std::size_t NR = W * NV;
  constexpr std::size_t MC = (MC_TARGET + MR - 1) / MR * MR;
  const std::size_t m = a.rows, k = a.cols, n = b.cols;
  if (k == 0) {
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
    return;
  }
  const bool a_direct = a.col_stride == 1 || a.row_stride == 1;
  float* a_pack = pack_buffers::aligned(packs.a, MC * KC);
  float* b_pack = pack_buffers::aligned(packs.b, KC * (NC + NR));
  alignas(64) float edge[MR * NR];  // a tile past the last row or column
  for (std::size_t jc = 0; jc < n; jc += NC) {
    const std::size_t nc = smaller(NC, n - jc);
    for (std::size_t pc = 0; pc < k; pc += KC) {
      const std::size_t kc = smaller(KC, k - pc);
      const bool first = pc == 0, whole = kc == k;
      b_panel b_panels[NC / NR + 1];
      pack_b<NR>(b, pc, kc, jc, nc, b_pack, b_panels);
      for (std::size_t ic = 0; ic < m; ic += MC) {
        const std::size_t mc = smaller(MC, m - ic);
        // the MC rows' panels: where they lie, or packed
        a_panel panels[MC / MR];
        for (std::size_t ir = 0; ir < mc; ir += MR) {
          const std::size_t rows = smaller<std::size_t>(MR, mc - ir), i = ic + ir;
          if (rows == MR && a_direct)
            panels[ir / MR] = {a.data + i * a.row_stride + pc * a.col_stride, a.row_stride, a.col_stride};
          else
            panels[ir / MR] = pack_a<MR>(a, i, rows, pc, kc, a_pack + ir * kc);
        }
        for (std::size_t jr = 0; jr < nc; jr += NR) {
          const b_panel& bp = b_panels[jr / NR];
          const std::size_t cols = smaller(NR, nc - jr);
          for (std::size_t ir = 0; ir < mc; ir += MR) {
            const std::size_t rows = smaller<std::size_t>(MR, mc - ir);
            if (part == causal_part::lower_c && jc + jr >= ic + ir + rows) continue;  // above the diagonal
            float* tile = c + (ic + ir) * ldc + jc + jr;
            // the steps the causal zeros leave (a first slice: the sums start at +0 wherever they start)
            const inner_range steps = inner_of(part, ic + ir, rows, kc, whole);
            const a_panel& ap = panels[ir / MR];
            const a_panel a_from{ap.at + steps.from * ap.step, ap.row, ap.step};
            const b_panel b_from{bp.at + steps.from * bp.step, bp.step};
            const std::size_t length = steps.to - steps.from;
            if (rows == MR && cols == NR) {
              micro_kernel<W, MR, NV>(length, a_from, b_from, tile, ldc, first);
              continue;
            }
            if (!first)
              for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t j = 0; j < cols; ++j) edge[r * NR + j] = tile[r * ldc + j];
            micro_kernel<W, MR, NV>(length, a_from, b_from, edge, NR, first);
            for (std::size_t r = 0; r < rows; ++r)
              for (std::size_t j = 0; j < cols; ++j) tile[r * ldc + j] = edge[r * NR + j];
          }
        }
      }
    }
  }
}

// The register blocking of each width: 16 sums of AVX-512's 32 registers
// (8 when c is one vector wide, or when a causal c leaves out the tiles
// above its diagonal, each a vector wide), 12 of AVX2's 16, 8 of SSE's and
// SIMD128's 16 (V8 keeps one for itself).
template <int W>
ATTENTION_INLINE void gemm_one(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc, causal_part part) {
  if constexpr (W == 16) {
    if (b.cols <= 16 || part == causal_part::lower_c) return gemm_blocked<16, 8, 1>(a, b, c, ldc, part);
    gemm_blocked<16, 8, 2>(a, b, c, ldc, part);
  }
  else if constexpr (W == 8) gemm_blocked<8, 6, 2>(a, b, c, ldc, part);
  else gemm_blocked<4, 4, 2>(a, b, c, ldc, part);
}

template <int W>
ATTENTION_INLINE void gemm_kernel(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc,
                                  const gemm_batch& batch) {
  matrix_ref as = a, bs = b;
  for (std::size_t s = 0; s < batch.count; ++s, as.data += batch.a_step, bs.data += batch.b_step, c += batch.c_step)
    gemm_one<W>(as, bs, c, ldc, batch.part);
}

ATTENTION_SIMD_DISPATCH(gemm_widest, gemm_kernel,
                        (const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc, const gemm_batch& batch),
                        (a, b, c, ldc, batch))

}  // namespace

void gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc, const gemm_batch& batch) {
  ATTENTION_CHECK(a.cols == b.rows, "gemm: a is (", a.rows, ", ", a.cols, ") but b is (", b.rows, ", ", b.cols, ")");
  if (a.rows == 0 || b.cols == 0 || batch.count == 0) return;
  gemm_widest(a, b, c, ldc, batch);
}

void gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc) { gemm(a, b, c, ldc, gemm_batch{}); }

}  // namespace attention
