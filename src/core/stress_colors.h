// C++ view of shaders/stress_colors.glsl: the panel's colour bar uses the
// very colours the renderer paints.
#pragma once

#include "core/glsl_in_cpp.h"

#include <glm/glm.hpp>

namespace stress_colors {
using namespace glm;

#include "stress_colors.glsl"

}  // namespace stress_colors
