// mxgemm: exact MXFP8 (OCP MX) block-scaled matrix multiplication. Umbrella header.
#pragma once

#include "mxgemm/elements.hpp"
#include "mxgemm/errors.hpp"
#include "mxgemm/gemm.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/prepack.hpp"
#include "mxgemm/quantize.hpp"
#include "mxgemm/types.hpp"
#include "mxgemm/weight_only.hpp"
#include "mxgemm/workspace.hpp"
