// C++ view of shaders/tet_math.glsl: the very file the compute shaders
// include, compiled here against GLM so the CPU solver and the tests run the
// same per-tet maths as the GPU.
#pragma once

#include "core/glsl_in_cpp.h"

#include <glm/glm.hpp>

namespace tet_math {
using namespace glm;

#include "tet_math.glsl"

}  // namespace tet_math
