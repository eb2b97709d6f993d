// GEMM provider: small products (LeNet at batch 1) on a plain kernel here; the rest on OpenBLAS, opened with
// dlopen at the first large product. Opening it costs 60 M instructions of relocation (40% of a LeNet
// `infer`) and its constructor maps one 128 MB buffer per thread, retrying a failed mmap forever under
// `ulimit -v` (OpenBLAS#5289): under an address-space limit oneDNN's sgemm runs instead (built with oneDNN),
// else OpenBLAS with one thread. oneDNN's sgemm as the default was measured as fast on the MLP and LeNet
// training benches but JIT-compiles its kernels at first use (130 M instructions, worse than OpenBLAS's
// start). NN_BLAS=openblas or onednn forces one (comparisons).
#include "ops/detail/blas.hpp"

#include <cblas.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include <cstdlib>
#include <string>

#include "nn/core/error.hpp"
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
  const std::string choice = blas_choice();
  if (choice == "onednn" || (choice != "openblas" && address_space_limited())) {
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

// Products up to this many multiply-adds without transposes run on small_sgemm (about 0.1 ms).
constexpr double kSmallGemmMacs = 1 << 20;

// C = alpha * A * B + beta * C, row-major: one pass over B per row of A, the inner loop vectorized.
void small_sgemm(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                 int64_t ldb, float beta, float* c, int64_t ldc) {
  if (n == 1) {  // a matrix-vector product (a 1x1 convolution over a 1x1 map): one dot product per row
    for (int64_t i = 0; i < m; ++i) {
      const float* ai = a + i * lda;
      float dot = 0.f;
#pragma omp simd reduction(+ : dot)
      for (int64_t p = 0; p < k; ++p) dot += ai[p] * b[p * ldb];
      c[i * ldc] = alpha * dot + (beta == 0.f ? 0.f : beta * c[i * ldc]);
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    float* ci = c + i * ldc;
    if (beta == 0.f) {
      for (int64_t j = 0; j < n; ++j) ci[j] = 0.f;
    } else if (beta != 1.f) {
      for (int64_t j = 0; j < n; ++j) ci[j] *= beta;
    }
    for (int64_t p = 0; p < k; ++p) {
      const float av = alpha * a[i * lda + p];
      const float* bp = b + p * ldb;
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) ci[j] += av * bp[j];
    }
  }
}

}  // namespace

void blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (!trans_a && !trans_b && double(m) * double(n) * double(k) <= kSmallGemmMacs && !forced_library())
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
