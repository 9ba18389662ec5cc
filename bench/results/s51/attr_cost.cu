// How long the host spends per cudaDeviceGetAttribute, by attribute (1000 calls each).
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdio>
int main() {
  int dev = 0; cudaSetDevice(0); cudaFree(nullptr);
  struct { cudaDeviceAttr a; const char* n; } at[] = {
    {cudaDevAttrMultiProcessorCount, "MultiProcessorCount"}, {cudaDevAttrMemoryClockRate, "MemoryClockRate"},
    {cudaDevAttrGlobalMemoryBusWidth, "GlobalMemoryBusWidth"}, {cudaDevAttrClockRate, "ClockRate"}};
  for (auto& x : at) {
    int v = 0; cudaDeviceGetAttribute(&v, x.a, dev);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) cudaDeviceGetAttribute(&v, x.a, dev);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1000;
    std::printf("%-22s value %d  %.3f us a call\n", x.n, v, us);
  }
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) cudaGetDevice(&dev);
  std::printf("cudaGetDevice %.3f us a call\n", std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1000);
}
