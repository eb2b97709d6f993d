# `cpack -G DEB` from the build tree: package "nncli" with everything `cmake --install` puts under /usr but
# the CUDA backend, and from a CUDA build package "nncli-cuda" with the backend (libnncli-cuda.so), which
# needs nncli and the CUDA runtime, cuDNN 9 (and NCCL for -m) that no Debian package provides (README).
# Depends come from dpkg-shlibdeps over the built binaries (cmake/nncli_deb_depends.cmake, at cpack time).
set(CPACK_PACKAGE_NAME nncli)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "nncli")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Train, run and convert nnabla models (nnabla_cli compatible), with a C++ API")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
 nncli reimplements nnabla_cli natively: train, infer, forward, and convert between NNP, NNB, ONNX
 and C sources. libnncli is a small C++ inference API (find_package(nncli), pkg-config nncli).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENT_NNCLI_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "nncli developers <nncli@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# Read by nncli_deb_depends.cmake: what to analyze, and folders of libraries no Debian package provides.
set(CPACK_NNCLI_BINARIES "${CMAKE_BINARY_DIR}/apps/nncli/nncli;${CMAKE_BINARY_DIR}/runtime/libnncli.so")
set(CPACK_NNCLI_PRIVATE_LIB_DIRS "")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL nncli)
set(CPACK_DEBIAN_NNCLI_PACKAGE_NAME nncli)
# Libraries opened with dlopen on first use (OpenBLAS, MPI, Graphviz, PLplot, libarchive, libcurl): no
# dynamic section names them, so their packages are looked up with dpkg -S and declared too.
get_property(CPACK_NNCLI_LAZY_LIBRARIES GLOBAL PROPERTY NNCLI_LAZY_LIBRARIES)
if(TARGET nncli_cuda)
  list(APPEND CPACK_COMPONENTS_ALL cuda)
  set(CPACK_DEBIAN_CUDA_PACKAGE_NAME nncli-cuda)
  set(CPACK_COMPONENT_CUDA_DESCRIPTION "CUDA backend of nncli (-C cuda, cudnn, cudnn:half)
 Loaded by nncli when a GPU context is asked for. Needs the CUDA runtime 13 and cuDNN 9 (and NCCL 2 for
 multi-process training) from NVIDIA, which no Debian package provides, and the NVIDIA driver.")
  set(CPACK_NNCLI_CUDA_BACKEND "${CMAKE_BINARY_DIR}/lib/libnncli-cuda.so")
  get_filename_component(NNCLI_CUDNN_DIR ${NN_CUDNN_LIBRARY} DIRECTORY)
  set(CPACK_NNCLI_PRIVATE_LIB_DIRS "${CUDAToolkit_LIBRARY_DIR};${NNCLI_CUDNN_DIR}")
endif()
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/nncli_deb_depends.cmake)
set(CPACK_GENERATOR DEB)
include(CPack)
