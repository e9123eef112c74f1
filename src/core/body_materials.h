// From each body's material to the per-vertex and per-tet numbers the
// solvers step with, computed once here for both of them whenever a
// material changes.
#pragma once

#include "core/sim_params.h"
#include "core/world.h"

#include <vector>

struct MaterialArrays {
    std::vector<float> inverse_masses;     // per vertex: 1 / (rho V_lumped), 0 pinned
    std::vector<float> shape_compliance;   // per tet: 1 / (2 mu V0)
    std::vector<float> volume_compliance;  // per tet: 1 / (lambda V0), -1 without volume term
    bool any_volume_term = false;          // some tet has one
};

MaterialArrays material_arrays(const World& world, const std::vector<BodyMaterial>& materials);

// Whether the params give any body another material than `in_use` (one per
// body, empty before the first frame); if so, `in_use` takes the new ones.
bool update_body_materials(const World& world, const SimParams& params,
                           std::vector<BodyMaterial>& in_use);

// What a world asks of the parameters: its gravity and ground where it sets
// them, and each body's own material where it has one (the others keep
// `params`' material). Called once when the world is loaded.
void apply_world_settings(const World& world, SimParams& params);
