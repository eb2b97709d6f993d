# Install rules: bin/nncli, libnncli (nncli::runtime) and include/nncli/, the CMake package, the pkg-config
# file and the bash completion that the built nncli writes (`cmake --install build --prefix P`).
include(CMakePackageConfigHelpers)
# Two components: nncli (everything below, no CUDA library) and cuda (the backend, libnncli-cuda.so).
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME nncli)
set(NNCLI_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nncli)

# Keep the run paths to libraries outside the linker's default folders (OpenBLAS's OpenMP build, CUDA).
set_target_properties(nncli nncli_runtime PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS nncli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The CUDA backend beside libnncli, where nncli's loader looks (<bin>/../<libdir>); its run path keeps the
# CUDA and cuDNN folders it was built against.
if(TARGET nncli_cuda)
  install(TARGETS nncli_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cuda)
endif()
# A static libnncli needs the engine's static libraries at link time: they go into the export set too
# (no headers: only runtime.hpp is public), and the config finds their CMake dependencies.
set(NNCLI_EXPORTED nncli_runtime)
set(NNCLI_FIND_DEPENDENCIES "")
if(NOT NNCLI_RUNTIME_SHARED)
  list(APPEND NNCLI_EXPORTED nn_session nn_formats nn_proto nn)
  set(deps Threads OpenMP Protobuf yaml-cpp)
  if(NN_CUDA_ENABLED)
    list(APPEND deps CUDAToolkit)
  endif()
  foreach(dep ${deps})
    string(APPEND NNCLI_FIND_DEPENDENCIES "find_dependency(${dep})\n")
  endforeach()
endif()
install(TARGETS ${NNCLI_EXPORTED} EXPORT nncli-targets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/runtime/include/nncli/runtime.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nncli)

install(EXPORT nncli-targets NAMESPACE nncli:: DESTINATION ${NNCLI_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/nncli-config.cmake.in
                              ${CMAKE_BINARY_DIR}/nncli-config.cmake INSTALL_DESTINATION ${NNCLI_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/nncli-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/nncli-config.cmake ${CMAKE_BINARY_DIR}/nncli-config-version.cmake
        DESTINATION ${NNCLI_CMAKE_DIR})

# pkg-config describes the shared library only (a static one needs the CMake package for its dependencies).
if(NNCLI_RUNTIME_SHARED)
  file(RELATIVE_PATH NNCLI_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/nncli.pc.in ${CMAKE_BINARY_DIR}/nncli.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/nncli.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# The completion script comes from the binary itself, so it lists exactly the commands and options built.
set(NNCLI_COMPLETION ${CMAKE_BINARY_DIR}/completion/nncli)
add_custom_command(OUTPUT ${NNCLI_COMPLETION}
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/completion
                   COMMAND sh -c "\"$<TARGET_FILE:nncli>\" completion bash > \"${NNCLI_COMPLETION}\""
                   DEPENDS nncli VERBATIM)
add_custom_target(nncli_completion ALL DEPENDS ${NNCLI_COMPLETION})
install(FILES ${NNCLI_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
