# The sm_100a GEMM (src/cuda/sm100/*.cu) needs CUTLASS 4.x headers. They are looked up in
# CUTLASS_DIR, else in the nvidia-cutlass Python package (cutlass_library/source). Found:
# the kernels are compiled for sm_100a into an object library folded into mxgemm, and
# MXGEMM_HAVE_SM100 turns the dispatch on. Not found: the path is off and says so.
if(MXGEMM_SM100 STREQUAL "OFF")
  message(STATUS "mxgemm: sm_100a path OFF (MXGEMM_SM100=OFF)")
  return()
endif()

if(NOT CUTLASS_DIR)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c
        "import cutlass_library, os; print(os.path.join(os.path.dirname(cutlass_library.__file__), 'source'))"
      OUTPUT_VARIABLE _mxgemm_cutlass_dir OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _mxgemm_cutlass_rc ERROR_QUIET)
    if(_mxgemm_cutlass_rc EQUAL 0)
      set(CUTLASS_DIR "${_mxgemm_cutlass_dir}")
    endif()
  endif()
endif()

if(NOT EXISTS "${CUTLASS_DIR}/include/cutlass/cutlass.h" OR
   NOT EXISTS "${CUTLASS_DIR}/tools/util/include/cutlass/util/packed_stride.hpp")
  set(_mxgemm_why "CUTLASS headers not found (CUTLASS_DIR='${CUTLASS_DIR}'; `pip install nvidia-cutlass` or -DCUTLASS_DIR=<cutlass source root>)")
  if(MXGEMM_SM100 STREQUAL "ON")
    message(FATAL_ERROR "mxgemm: MXGEMM_SM100=ON but ${_mxgemm_why}")
  endif()
  message(STATUS "mxgemm: sm_100a path OFF: ${_mxgemm_why}")
  return()
endif()

message(STATUS "mxgemm: sm_100a path ON (CUTLASS headers in ${CUTLASS_DIR})")
add_library(mxgemm_sm100 OBJECT
  src/cuda/sm100/mxfp8_gemm_sm100_bf16.cu
  src/cuda/sm100/mxfp8_gemm_sm100_fp16.cu)
set_target_properties(mxgemm_sm100 PROPERTIES CUDA_ARCHITECTURES 100a)
target_include_directories(mxgemm_sm100 PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_include_directories(mxgemm_sm100 SYSTEM PRIVATE
  ${CUTLASS_DIR}/include ${CUTLASS_DIR}/tools/util/include)
target_compile_definitions(mxgemm_sm100 PRIVATE MXGEMM_HAVE_SM100)
target_compile_options(mxgemm_sm100 PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
target_link_libraries(mxgemm_sm100 PRIVATE CUDA::cudart_static)
target_sources(mxgemm PRIVATE $<TARGET_OBJECTS:mxgemm_sm100>)
target_compile_definitions(mxgemm PRIVATE MXGEMM_HAVE_SM100)
