#include "core/body_materials.h"

MaterialArrays material_arrays(const World& world, const std::vector<BodyMaterial>& materials)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<LameParameters> lame(materials.size());
    for (size_t b = 0; b < materials.size(); ++b) {
        lame[b] = lame_parameters(materials[b].youngs_modulus_pa, materials[b].poisson_ratio);
    }
    MaterialArrays arrays;
    std::vector<float> densities(mesh.vertex_count());
    for (size_t v = 0; v < densities.size(); ++v) {
        densities[v] = materials[world.vertex_body[v]].density_kg_m3;
    }
    arrays.inverse_masses = inverse_masses(mesh, densities);
    arrays.shape_compliance.resize(mesh.tet_count());
    arrays.volume_compliance.resize(mesh.tet_count());
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        const TetCompliances c =
            tet_compliances(lame[tet_body(world, t)], mesh.rest_volumes_m3[t], is_sliver(mesh, t));
        arrays.shape_compliance[t] = c.shape;
        arrays.volume_compliance[t] = c.volume;
        arrays.any_volume_term = arrays.any_volume_term || c.volume >= 0.0f;
    }
    return arrays;
}

bool update_body_materials(const World& world, const SimParams& params,
                           std::vector<BodyMaterial>& in_use)
{
    const size_t bodies = world.body_count();
    bool changed = in_use.size() != bodies;
    for (size_t b = 0; b < bodies && !changed; ++b) {
        changed = !(in_use[b] == params.body_material(b));
    }
    if (changed) {
        in_use.resize(bodies);
        for (size_t b = 0; b < bodies; ++b) {
            in_use[b] = params.body_material(b);
        }
    }
    return changed;
}

void apply_world_settings(const World& world, SimParams& params)
{
    if (world.gravity_m_s2) {
        params.gravity_m_s2 = *world.gravity_m_s2;
    }
    if (world.ground) {
        params.ground_enabled = *world.ground;
    }
    params.body_materials.clear();
    bool any_own = false;
    for (const WorldBody& body : world.bodies) {
        any_own = any_own || body.material.has_value();
    }
    if (any_own) {
        for (const WorldBody& body : world.bodies) {
            params.body_materials.push_back(body.material.value_or(params.material()));
        }
    }
}
