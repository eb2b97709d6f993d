// Loads OpenBLAS with dlopen on first use. Loaded at start-up it costs every process (even `version`) its
// constructor, which maps one 128 MB buffer per thread and retries a failed mmap forever under
// `ulimit -v` (OpenMathLib/OpenBLAS#5289). Under an address-space limit oneDNN's sgemm runs instead
// when built with oneDNN, else OpenBLAS is opened with one thread (one buffer).
#include "ops/detail/blas.hpp"

#include <cblas.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include <cstdlib>

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

Blas open_blas() {
  Blas b;
#ifdef NN_WITH_DNNL
  if (address_space_limited()) {
    b.use_dnnl = true;
    return b;
  }
#else
  if (address_space_limited() && !std::getenv("OPENBLAS_NUM_THREADS")) setenv("OPENBLAS_NUM_THREADS", "1", 1);
#endif
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

}  // namespace

void blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const Blas& lib = blas();
#ifdef NN_WITH_DNNL
  if (lib.use_dnnl) {
    const dnnl_status_t status = dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a, lda, b,
                                            ldb, beta, c, ldc);
    NN_CHECK(status == dnnl_success) << "oneDNN sgemm failed (status " << int(status) << ")";
    return;
  }
#endif
  lib.sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc));
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
