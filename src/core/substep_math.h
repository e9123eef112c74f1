// C++ view of shaders/substep_math.glsl (predict and the velocity update),
// shared verbatim with the compute shaders like tet_math.h.
#pragma once

#include "core/glsl_in_cpp.h"

#include <glm/glm.hpp>

namespace substep_math {
using namespace glm;

#include "substep_math.glsl"

}  // namespace substep_math
