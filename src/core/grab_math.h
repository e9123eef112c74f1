// C++ view of shaders/grab_math.glsl (picking and the grab attachment),
// shared verbatim with the compute shaders like tet_math.h.
#pragma once

#include "core/glsl_in_cpp.h"

#include <glm/glm.hpp>

namespace grab_math {
using namespace glm;

#include "grab_math.glsl"

}  // namespace grab_math
