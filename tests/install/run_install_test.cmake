# CTest install_and_find_package: install the build tree into a scratch prefix, then
# configure, build and run a separate CMake project that does find_package(mxgemm).
#   cmake -DSOURCE_DIR=<repo> -DBUILD_DIR=<build> -DWORK_DIR=<scratch> -DCUDA_ARCHS=<archs>
#         -P run_install_test.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var SOURCE_DIR BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_install_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED CUDA_ARCHS OR "${CUDA_ARCHS}" STREQUAL "")
  set(CUDA_ARCHS 90a)
endif()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Run one step; on a non-zero exit show its output and fail the test.
function(step name)
  message(STATUS "install test: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: step '${name}' failed (exit ${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# Build the consumer with the same generator and compilers as the main build.
set(cache_args)
file(STRINGS ${BUILD_DIR}/CMakeCache.txt cache_lines
  REGEX "^(CMAKE_GENERATOR|CMAKE_MAKE_PROGRAM|CMAKE_CXX_COMPILER|CMAKE_BUILD_TYPE|CUDAToolkit_BIN_DIR):")
set(generator_args)
foreach(line IN LISTS cache_lines)
  if(line MATCHES "^([^:]+):[^=]*=(.*)$")
    set(key ${CMAKE_MATCH_1})
    set(value "${CMAKE_MATCH_2}")
    if(value STREQUAL "")
      continue()
    elseif(key STREQUAL "CMAKE_GENERATOR")
      list(APPEND generator_args -G "${value}")
    elseif(key STREQUAL "CUDAToolkit_BIN_DIR")
      get_filename_component(cuda_root "${value}" DIRECTORY)
      list(APPEND cache_args "-DCUDAToolkit_ROOT=${cuda_root}")
    else()
      list(APPEND cache_args "-D${key}=${value}")
    endif()
  endif()
endforeach()

step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/mxgemm/mxgemm.hpp include/mxgemm/layout.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install test: ${prefix}/${f} was not installed")
  endif()
endforeach()

step("configure consumer" ${CMAKE_COMMAND} ${generator_args}
  -S ${SOURCE_DIR}/tests/install/consumer -B ${consumer_build}
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}"
  ${cache_args}
  --no-warn-unused-cli)
step("build consumer" ${CMAKE_COMMAND} --build ${consumer_build})

set(exe ${consumer_build}/mxgemm_consumer)
if(NOT EXISTS ${exe})
  message(FATAL_ERROR "install test: the consumer was not built at ${exe}")
endif()
step("run consumer" ${exe})
message(STATUS "install test: consumer says:\n${step_output}")
message(STATUS "install test: passed")
