// A world: any number of soft bodies, static obstacles, gravity and the
// ground. Its bodies share no vertices; they are simulated as one mesh (the
// union of theirs, body after body), so every solver pass runs over all of
// them at once and one colouring of the union needs no more colours than the
// largest body.
#pragma once

#include "core/material.h"
#include "core/obstacle.h"
#include "core/presets.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// One body as a scene asks for it.
struct BodyDesc {
    TetMeshDesc mesh;                        // placed as its preset or file places it alone
    std::optional<PresetId> preset;          // which preset it is, if one
    // Where the centre of its rest shape (the centroid of its volume) goes;
    // unset: it stays where the mesh puts it.
    std::optional<glm::vec3> position_m;
    glm::vec3 rotation_deg{0.0f};            // about that centre: x, then y, then z
    glm::vec3 velocity_m_s{0.0f};            // of the centre, at the start
    glm::vec3 angular_velocity_rad_s{0.0f};  // about the centre, at the start
    std::optional<BodyMaterial> material;    // unset: the world's default material
    bool pinned = true;                      // keep the mesh's pinned vertices
};

struct WorldDesc {
    std::string name;
    std::vector<BodyDesc> bodies;
    std::vector<Obstacle> obstacles;
    // Unset: whatever the user has (the command line's or the panel's).
    std::optional<glm::vec3> gravity_m_s2;
    std::optional<bool> ground;
};

// Where a body lies in the world's mesh.
struct WorldBody {
    std::string name;
    std::optional<PresetId> preset;
    std::optional<BodyMaterial> material;  // as the scene gave it
    uint32_t first_vertex = 0;
    uint32_t vertex_count = 0;
    uint32_t first_tet = 0;
    uint32_t tet_count = 0;
    uint32_t first_triangle = 0;  // surface triangles
    uint32_t triangle_count = 0;
    // The surface it was made from, placed with its rest shape; null: none.
    std::shared_ptr<const SurfaceMesh> skin;
};

struct RenderSurface;  // render_surface.h

struct World {
    std::string name;
    std::shared_ptr<const TetMesh> mesh;  // all bodies, body after body
    std::vector<WorldBody> bodies;
    std::vector<uint32_t> vertex_body;    // per mesh vertex (a tet's: tet_body)
    // Per mesh vertex, its velocity at the start; empty where every body
    // starts at rest (12 bytes a vertex saved): see start_velocities.
    std::vector<glm::vec3> initial_velocities;
    std::vector<Obstacle> obstacles;
    std::optional<glm::vec3> gravity_m_s2;
    std::optional<bool> ground;
    // The drawn surface of the bodies' own surfaces (render_surface.h),
    // made where the world was loaded, off the window's thread; null: made
    // when it is first drawn. Whoever changes a copy's bodies resets it.
    std::shared_ptr<const RenderSurface> own_surface;

    size_t body_count() const { return bodies.size(); }
};

// The body tet t belongs to: its first corner's (a tet's corners are all
// one body's). Not kept per tet: 4 bytes a tet.
inline uint32_t tet_body(const World& world, size_t t)
{
    return world.vertex_body[world.mesh->tets[t].x];
}

// Each mesh vertex's velocity at the start.
std::vector<glm::vec3> start_velocities(const World& world);

// Most bodies and obstacles one world may hold: the GPU solver keeps one
// material per body and every obstacle in a uniform block.
inline constexpr size_t kMaxWorldBodies = 1024;
inline constexpr size_t kMaxObstacles = 32;

// Places every body (position, rotation), prepares the union mesh and sets
// the initial velocities. Fails, naming the body, on a mesh that cannot be
// prepared, and on too many bodies or obstacles. `progress` as in
// prepare_tet_mesh.
Result<World> assemble_world(const WorldDesc& desc, LoadProgress* progress = nullptr);

// The world's bodies as they were placed, each with its rest shape where it
// started, its preset and material: to build a world with a body more or
// less (edit_world.h). Velocities are zero; the caller carries the state.
std::vector<BodyDesc> placed_body_descs(const World& world);

// The world description with the same obstacles, gravity and ground.
WorldDesc world_desc_without_bodies(const World& world);

// A world of one prepared body at rest, with nothing else in it.
std::shared_ptr<const World> single_body_world(std::shared_ptr<const TetMesh> mesh);

// The centroid of a mesh's volume (double), or of its vertices if it has no
// volume.
glm::dvec3 volume_centroid(const TetMeshDesc& mesh);

// A body's mass at `density_kg_m3`: its tets' rest volume times the density.
double body_mass_kg(const World& world, size_t body, float density_kg_m3);
