// C++ view of shaders/stress_math.glsl, the stress the strain view shows,
// compiled against GLM like tet_math.h.
#pragma once

#include "core/tet_math.h"

namespace tet_math {

#include "stress_math.glsl"

}  // namespace tet_math
