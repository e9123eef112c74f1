// Scene files: a world described in JSON, read with nlohmann-json. The keys,
// in SI units, all optional but "bodies":
//
//   {"gravity": [0, -9.81, 0], "ground": true,
//    "bodies": [{"preset": "cube" | "mesh": "path (relative to the file)",
//                "position": [x, y, z],          where the body's centre goes
//                "rotation_deg": [rx, ry, rz],   about it: x, then y, then z
//                "velocity": [..], "angular_velocity": [..] (rad/s),
//                "youngs": PA, "poisson": NU, "density": KG_M3,
//                "pinned": true,                 keep the preset's pinned face
//                "size": M, "resolution": N}],   a mesh's longest side; OBJ cells
//    "obstacles": [{"type": "sphere", "center": [..], "radius": R},
//                  {"type": "box", "center": [..], "half_extents": [..]},
//                  {"type": "capsule", "a": [..], "b": [..], "radius": R}]}
//
// Presets come upright; a mesh is scaled to "size" (0.6 m) and starts 0.4 m
// above the ground unless placed. Unknown keys are refused, so that a typo
// is not silently ignored.
#pragma once

#include "core/load_progress.h"
#include "core/result.h"
#include "core/world.h"

#include <string>

// Reads and checks a scene file; loads (and tetrahedralizes) the meshes it
// names. A failure names the file, the entry and the field: "scene
// 'a.json': bodies[2].youngs: expected a number from 100 to 1e+10".
Result<WorldDesc> read_scene_file(const std::string& path, int default_resolution,
                                  LoadProgress* progress = nullptr);

// The same from text; `path` names it in messages and anchors relative mesh
// paths.
Result<WorldDesc> parse_scene_text(const std::string& text, const std::string& path,
                                   int default_resolution, LoadProgress* progress = nullptr);

// Whether --scene's value names a file (ends in .json) rather than a
// built-in scene.
bool names_scene_file(const std::string& name);

// A built-in scene by name, or a scene file.
Result<WorldDesc> load_scene(const std::string& name_or_path, int default_resolution,
                             LoadProgress* progress = nullptr);

// The same, assembled into its world (assemble_world).
Result<World> load_scene_world(const std::string& name_or_path, int default_resolution,
                               LoadProgress* progress = nullptr);
