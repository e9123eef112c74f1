// C++ view of shaders/contact_math.glsl (obstacles, the ground's friction,
// vertex-triangle contact, the spatial hash), shared verbatim with the
// compute shaders like tet_math.h.
#pragma once

#include "core/glsl_in_cpp.h"

#include <glm/glm.hpp>

namespace contact_math {
using namespace glm;

#include "contact_math.glsl"

}  // namespace contact_math
