// GEMM provider: small products (LeNet at batch 1) on a register-blocked kernel here; the rest on oneDNN's
// sgemm (JIT AVX-512/AVX2 kernels, built at first use) when nncli is built with oneDNN, else on OpenBLAS,
// opened with dlopen at the first large product (60 M instructions of relocation, and under `ulimit -v` its
// constructor's per-thread 128 MB buffers retry a failed mmap forever, OpenBLAS#5289, so it runs with one
// thread there). oneDNN's sgemm became the default once small products stayed here: Fashion-MNIST training
// end to end, MLP 0.68 -> 0.54 s and LeNet 1.78 -> 1.37-1.60 s; one-shot `infer` of MobileNetV2 77 -> 73 ms.
// NN_BLAS=openblas or onednn forces one for every product (comparisons).
#include "ops/detail/blas.hpp"

#include <cblas.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "nn/core/error.hpp"
#include "ops/detail/vector_math.hpp"
#ifdef NN_WITH_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

namespace nn::ops {
namespace {

using SgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, float,
                         const float*, blasint, const float*, blasint, float, float*, blasint);
struct Blas {
  SgemmFn sgemm = nullptr;
  int (*get_threads)() = nullptr;
  void (*set_threads)(int) = nullptr;
  bool use_dnnl = false;
};

bool address_space_limited() {
  rlimit r{};
  return getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY;
}

// NN_BLAS=openblas or onednn picks the GEMM library (for comparisons); see open_blas for the default.
std::string blas_choice() {
  const char* v = std::getenv("NN_BLAS");
  return v ? std::string(v) : std::string();
}

Blas open_blas() {
  Blas b;
#ifdef NN_WITH_DNNL
  if (blas_choice() != "openblas") {
    b.use_dnnl = true;
    return b;
  }
#endif
  if (address_space_limited() && !std::getenv("OPENBLAS_NUM_THREADS")) setenv("OPENBLAS_NUM_THREADS", "1", 1);
  void* lib = dlopen(NN_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  NN_CHECK(lib) << "cannot load OpenBLAS (" << NN_OPENBLAS_LIBRARY << "): " << dlerror();
  b.sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "cblas_sgemm"));
  b.get_threads = reinterpret_cast<int (*)()>(dlsym(lib, "openblas_get_num_threads"));
  b.set_threads = reinterpret_cast<void (*)(int)>(dlsym(lib, "openblas_set_num_threads"));
  NN_CHECK(b.sgemm) << "OpenBLAS (" << NN_OPENBLAS_LIBRARY << ") has no cblas_sgemm";
  return b;
}

const Blas& blas() {
  static const Blas b = open_blas();
  return b;
}

bool forced_library() {
  static const bool forced = !blas_choice().empty();
  return forced;
}

// Products up to this many multiply-adds without transposes run on small_sgemm (about 0.1 ms), those past
// a quarter of it only when a register block fits across n (a 10-class affine at batch 128 ran 4x slower here
// than in oneDNN).
constexpr double kSmallGemmMacs = 1 << 20;

// Columns of C one register block holds (two AVX2 vectors per row).
constexpr int64_t kBlockCols = 16;

// C[R rows, kBlockCols columns] = alpha * A * B + beta * C with the R x 16 sums in registers over all of k.
template <int64_t R>
void small_block(int64_t k, float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
                 float* c, int64_t ldc) {
  float acc[R][kBlockCols] = {};
  for (int64_t p = 0; p < k; ++p) {
    const float* bp = b + p * ldb;
    for (int64_t r = 0; r < R; ++r) {
      const float av = a[r * lda + p];
#pragma omp simd
      for (int64_t j = 0; j < kBlockCols; ++j) acc[r][j] += av * bp[j];
    }
  }
  for (int64_t r = 0; r < R; ++r) {
    float* cr = c + r * ldc;
#pragma omp simd
    for (int64_t j = 0; j < kBlockCols; ++j) cr[j] = alpha * acc[r][j] + (beta == 0.f ? 0.f : beta * cr[j]);
  }
}

// small_block<4> over 32 columns in AVX-512 registers: 8 accumulators of 16 lanes, twice the multiply-adds per
// instruction of the AVX2 block and as many independent sums (LeNet's 16x25 by 25x576 product).
__attribute__((target("avx512f"))) void block_4x32_avx512(int64_t k, float alpha, const float* a, int64_t lda,
                                                          const float* b, int64_t ldb, float beta, float* c,
                                                          int64_t ldc) {
  typedef float Vec16 __attribute__((vector_size(64)));
  Vec16 acc[4][2] = {};
  for (int64_t p = 0; p < k; ++p) {
    Vec16 b0, b1;
    std::memcpy(&b0, b + p * ldb, sizeof b0);
    std::memcpy(&b1, b + p * ldb + 16, sizeof b1);
    for (int r = 0; r < 4; ++r) {
      const float av = a[r * lda + p];
      acc[r][0] += av * b0;
      acc[r][1] += av * b1;
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int h = 0; h < 2; ++h) {
      float* cr = c + r * ldc + 16 * h;
      Vec16 out = alpha * acc[r][h];
      if (beta != 0.f) {
        Vec16 old;
        std::memcpy(&old, cr, sizeof old);
        out += beta * old;
      }
      std::memcpy(cr, &out, sizeof out);
    }
}

// The columns [j0, n) of rows [0, rows): one pass over B per row, the column loop vectorized.
void small_rows(int64_t rows, int64_t j0, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  for (int64_t i = 0; i < rows; ++i) {
    float* ci = c + i * ldc;
    for (int64_t j = j0; j < n; ++j) ci[j] = beta == 0.f ? 0.f : beta * ci[j];
    for (int64_t p = 0; p < k; ++p) {
      const float av = alpha * a[i * lda + p];
      const float* bp = b + p * ldb;
#pragma omp simd
      for (int64_t j = j0; j < n; ++j) ci[j] += av * bp[j];
    }
  }
}

// sum a[p] * b[p] over k contiguous floats: four vector accumulators, so consecutive FMAs do not wait on
// each other (a single sum, which is what `omp simd reduction` gave here, ran one scalar FMA per 4 cycles:
// EfficientNet's squeeze-excite 1152 -> 48 product took 54 us).
float dot_product(const float* a, const float* b, int64_t k) {
  typedef float Vec8 __attribute__((vector_size(32)));
  Vec8 acc[4] = {};
  int64_t p = 0;
  for (; p + 32 <= k; p += 32)
    for (int v = 0; v < 4; ++v) {
      Vec8 x, y;
      std::memcpy(&x, a + p + 8 * v, sizeof x);
      std::memcpy(&y, b + p + 8 * v, sizeof y);
      acc[v] += x * y;
    }
  for (; p + 8 <= k; p += 8) {
    Vec8 x, y;
    std::memcpy(&x, a + p, sizeof x);
    std::memcpy(&y, b + p, sizeof y);
    acc[0] += x * y;
  }
  const Vec8 sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  float dot = 0.f;
  for (int j = 0; j < 8; ++j) dot += sum[j];
  for (; p < k; ++p) dot += a[p] * b[p];
  return dot;
}

float strided_dot(const float* a, const float* b, int64_t ldb, int64_t k) {
  float dot = 0.f;
  for (int64_t p = 0; p < k; ++p) dot += a[p] * b[p * ldb];
  return dot;
}

// C = alpha * A * B + beta * C, row-major: blocks of 4 rows x 16 columns summed in registers across k.
void small_sgemm(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                 int64_t ldb, float beta, float* c, int64_t ldc) {
  if (n == 1) {  // a matrix-vector product (a 1x1 convolution over a 1x1 map): one dot product per row
    for (int64_t i = 0; i < m; ++i) {
      const float dot = ldb == 1 ? dot_product(a + i * lda, b, k) : strided_dot(a + i * lda, b, ldb, k);
      c[i * ldc] = alpha * dot + (beta == 0.f ? 0.f : beta * c[i * ldc]);
    }
    return;
  }
  // Groups of 4 rows run on register blocks; the last m % 4 rows (a batch-1 affine's one row) stream B once
  // per row instead, as one row's 2 accumulators would wait on their own FMAs.
  const int64_t full = n - n % kBlockCols;
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    int64_t j = 0;
    if (cpu_has_avx512())
      for (; j + 2 * kBlockCols <= full; j += 2 * kBlockCols)
        block_4x32_avx512(k, alpha, a + i * lda, lda, b + j, ldb, beta, c + i * ldc + j, ldc);
    for (; j < full; j += kBlockCols)
      small_block<4>(k, alpha, a + i * lda, lda, b + j, ldb, beta, c + i * ldc + j, ldc);
    if (full < n) small_rows(4, full, n, k, alpha, a + i * lda, lda, b, ldb, beta, c + i * ldc, ldc);
  }
  if (i < m) small_rows(m - i, 0, n, k, alpha, a + i * lda, lda, b, ldb, beta, c + i * ldc, ldc);
}

bool small_enough(int64_t m, int64_t n, int64_t k) {
  const double macs = double(m) * double(n) * double(k);
  return macs <= kSmallGemmMacs / 4 || (macs <= kSmallGemmMacs && n >= kBlockCols);
}

}  // namespace

bool blas_product_on_one_thread(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k) {
  return !trans_a && !trans_b && small_enough(m, n, k) && !forced_library();
}

void blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (blas_product_on_one_thread(trans_a, trans_b, m, n, k))
    return small_sgemm(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  const Blas& lib = blas();
#ifdef NN_WITH_DNNL
  if (lib.use_dnnl) {
    const dnnl_status_t status =
        dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    NN_CHECK(status == dnnl_success) << "oneDNN sgemm failed (status " << int(status) << ")";
    return;
  }
#endif
  lib.sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, blasint(m),
            blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc));
}

int blas_get_threads() {
  const Blas& lib = blas();
  return lib.get_threads ? lib.get_threads() : 1;
}

void blas_set_threads(int threads) {
  const Blas& lib = blas();
  if (lib.set_threads) lib.set_threads(threads);
}

}  // namespace nn::ops
