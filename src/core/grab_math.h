// C++ view of shaders/grab_math.glsl (picking and the grab attachment),
// shared verbatim with the compute shaders like tet_math.h.
#pragma once

#include <glm/glm.hpp>

namespace grab_math {
using namespace glm;

#define TM_FN inline
#define TM_INOUT(T) T&
#define TM_OUT(T) T&
#include "grab_math.glsl"
#undef TM_FN
#undef TM_INOUT
#undef TM_OUT

}  // namespace grab_math
