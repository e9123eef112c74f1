// Each body of a world its own colour, for the renderer's per-vertex albedo
// (BodyDrawData::albedo_buffer): a palette of saturated colours that read
// well in sun and shadow, the highlighted body lighter.
#pragma once

#include "core/world.h"
#include "gpu/gl_objects.h"

#include <glm/glm.hpp>

#include <optional>
#include <vector>

// Linear RGB per mesh vertex (w = 1).
std::vector<glm::vec4> body_albedos(const World& world, std::optional<size_t> highlighted);

// The same in a new GL array buffer; none (0) for a world of one body,
// which keeps the renderer's body colour.
GlBuffer make_body_albedo_buffer(const World& world, std::optional<size_t> highlighted);
