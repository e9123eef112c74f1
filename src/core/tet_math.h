// C++ view of shaders/tet_math.glsl: the very file the compute shaders
// include, compiled here against GLM so the CPU solver and the tests run the
// same per-tet maths as the GPU.
#pragma once

#include <glm/glm.hpp>

namespace tet_math {
using namespace glm;

#define TM_FN inline
#define TM_INOUT(T) T&
#define TM_OUT(T) T&
#include "tet_math.glsl"
#undef TM_FN
#undef TM_INOUT
#undef TM_OUT

}  // namespace tet_math
