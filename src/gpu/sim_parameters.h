// C++ view of the compute shaders' parameter block (shaders/
// sim_parameters.glsl): the same member list, compiled as a struct of GLM
// vectors, whose layout is the block's std140 one.
#pragma once

#include "core/world.h"

#include <glm/glm.hpp>

namespace sim_parameters {
using glm::uvec4;
using glm::vec4;

#define SIM_PARAMETERS_BEGIN struct SimParametersBlock {
#define SIM_PARAMETERS_END };
#include "sim_parameters.glsl"
#undef SIM_PARAMETERS_BEGIN
#undef SIM_PARAMETERS_END

static_assert(SIM_MAX_OBSTACLES == kMaxObstacles);
static_assert(SIM_MAX_BODIES == kMaxWorldBodies);
static_assert(sizeof(vec4) == 16 && sizeof(uvec4) == 16, "std140 vec4 and uvec4");

}  // namespace sim_parameters

using sim_parameters::SimParametersBlock;
