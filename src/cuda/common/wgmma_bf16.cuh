// wgmma.mma_async with bf16 operands, A from registers (PTX ISA 9.7.15.5, "wgmma.mma_async"
// register-A form): the instruction the MXFP8 mainloop issues after dequantizing to bf16.
// Generated operand lists (64 accumulators are too many to write by hand).
// The A fragment (4 x bf16x2 per thread) follows the m64nNk16 register layout: warp w of the
// warpgroup holds rows 16w..16w+15; a[0] = (row lane/4, k 2q..2q+1), a[1] = (row lane/4+8, same k),
// a[2] = (row lane/4, k 2q+8..2q+9), a[3] = (row lane/4+8, k 2q+8..), q = lane % 4.
// The accumulator d[4j + {0,1,2,3}] holds (row lane/4, col 8j+2q), (row lane/4, col 8j+2q+1),
// (row lane/4+8, col 8j+2q), (row lane/4+8, col 8j+2q+1).
#pragma once

#include <cstdint>

namespace mxgemm::ptx {

// D(64x128, fp32) (+)= A(64x16, bf16, registers) x B(128x16, bf16, K-major smem).
__device__ __forceinline__ void wgmma_m64n128k16_bf16_rs(float (&d)[64], const std::uint32_t (&a)[4],
                                                      std::uint64_t desc_b, std::uint32_t accumulate) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, "
      "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(accumulate));
}

}  // namespace mxgemm::ptx
