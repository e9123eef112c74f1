// A body loaded from a file, to be added to the running world rather than
// replace it: the panel's "Add to the world" beside Load.
#pragma once

#include "core/result.h"
#include "core/world.h"

#include <glm/vec3.hpp>

// Why a scene file is not added (the panel says it by the Load button).
inline constexpr const char* kSceneFileIsNotAdded =
    "a scene file replaces the world (Load it); only a mesh file can be added to the running one";

// How far above the ground under the camera's focus (or above the focus,
// if that is higher) an added body's lowest point starts, so that it drops
// onto whatever lies there instead of appearing inside it.
inline constexpr float kAddedBodyDropHeight_m = 1.0f;

// The one body of `loaded` (a mesh file loaded alone) as a body for the
// running world: its rest shape as the file placed it, moved so that its
// volume's centre stands above `focus_m` and its lowest point
// kAddedBodyDropHeight_m above max(focus_m.y, 0), at rest, of `material`,
// its pins (a .tet file's) let go so that it falls. A world of several
// bodies or with obstacles (a scene file) is refused: a scene replaces the
// world, it is not added to one.
Result<BodyDesc> body_to_add(const World& loaded, glm::vec3 focus_m, const BodyMaterial& material);
