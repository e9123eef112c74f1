// The built-in bodies. Each is generated procedurally, already placed where
// it starts: above the ground, the cube and torus tilted so that they tumble.
#pragma once

#include "core/tet_mesh.h"

#include <optional>
#include <string_view>
#include <vector>

enum class PresetId { cube, torus, beam };

struct Preset {
    PresetId id;
    const char* name;
    const char* description;
    float suggested_youngs_pa;  // a stiffness at which the preset looks right
};

const std::vector<Preset>& all_presets();
const Preset& preset_info(PresetId id);
std::optional<PresetId> preset_from_name(std::string_view name);

// The preset's mesh, placed in the world (metres, y up, ground at y = 0).
TetMeshDesc make_preset_mesh(PresetId id);
