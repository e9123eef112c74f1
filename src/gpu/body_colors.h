// Each body of a world its own colour, for the renderer's per-vertex albedo
// (BodyDrawData::albedo_buffer): a palette of saturated colours that read
// well in sun and shadow, the highlighted body lighter.
#pragma once

#include "core/world.h"
#include "gpu/gl_objects.h"

#include <glm/glm.hpp>

#include <optional>
#include <vector>

// Linear RGB per vertex (w = 1), given each vertex's body: the world's
// vertex_body, or a drawn surface's (render_surface.h).
std::vector<glm::vec4> body_albedos(const std::vector<uint32_t>& vertex_body,
                                    std::optional<size_t> highlighted);

// The same in a new GL array buffer; none (0) for a world of one body,
// which keeps the renderer's body colour.
GlBuffer make_body_albedo_buffer(const std::vector<uint32_t>& vertex_body, size_t body_count,
                                 std::optional<size_t> highlighted);
