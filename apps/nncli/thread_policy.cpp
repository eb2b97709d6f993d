// Sets libgomp's spin count before it initializes, by re-executing the process once.
#include "thread_policy.hpp"

#include <unistd.h>

#include <cstdlib>

namespace nncli {

void ensure_thread_policy(char** argv) {
  if (std::getenv("NNCLI_THREAD_POLICY") || std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  setenv("NNCLI_THREAD_POLICY", "1", 1);
  setenv("GOMP_SPINCOUNT", "10000", 1);
  execv("/proc/self/exe", argv);  // on failure just carry on with libgomp's defaults
}

}  // namespace nncli
