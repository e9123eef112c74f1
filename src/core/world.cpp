#include "core/world.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace {

// x first, then y, then z, each about the world axis.
glm::dmat3 rotation_from_degrees(const glm::vec3& degrees)
{
    const glm::dvec3 r = glm::radians(glm::dvec3(degrees));
    const glm::dmat4 rx = glm::rotate(glm::dmat4(1.0), r.x, glm::dvec3(1.0, 0.0, 0.0));
    const glm::dmat4 ry = glm::rotate(glm::dmat4(1.0), r.y, glm::dvec3(0.0, 1.0, 0.0));
    const glm::dmat4 rz = glm::rotate(glm::dmat4(1.0), r.z, glm::dvec3(0.0, 0.0, 1.0));
    return glm::dmat3(rz * ry * rx);
}

std::string body_label(const WorldDesc& desc, size_t b)
{
    const std::string& name = desc.bodies[b].mesh.name;
    return "body " + std::to_string(b + 1) + (name.empty() ? "" : " ('" + name + "')");
}

}  // namespace

glm::dvec3 volume_centroid(const TetMeshDesc& mesh)
{
    glm::dvec3 weighted(0.0);
    double volume = 0.0;
    for (const glm::uvec4& t : mesh.tets) {
        if (glm::any(glm::greaterThanEqual(t, glm::uvec4(mesh.positions.size())))) {
            continue;  // preparation reports it
        }
        const glm::dvec3 x0(mesh.positions[t.x]);
        const glm::dvec3 x1(mesh.positions[t.y]);
        const glm::dvec3 x2(mesh.positions[t.z]);
        const glm::dvec3 x3(mesh.positions[t.w]);
        const double v = std::abs(glm::determinant(glm::dmat3(x1 - x0, x2 - x0, x3 - x0))) / 6.0;
        weighted += v * (x0 + x1 + x2 + x3) / 4.0;
        volume += v;
    }
    if (volume > 0.0 && std::isfinite(volume)) {
        return weighted / volume;
    }
    glm::dvec3 sum(0.0);
    for (const glm::vec3& p : mesh.positions) {
        sum += glm::dvec3(p);
    }
    return mesh.positions.empty() ? sum : sum / static_cast<double>(mesh.positions.size());
}

Result<World> assemble_world(const WorldDesc& desc, LoadProgress* progress)
{
    using R = Result<World>;
    const std::string where = "scene '" + desc.name + "': ";
    if (desc.bodies.empty()) {
        return R::failure(where + "has no bodies");
    }
    if (desc.bodies.size() > kMaxWorldBodies) {
        return R::failure(where + std::to_string(desc.bodies.size()) + " bodies, at most " +
                          std::to_string(kMaxWorldBodies) + " are allowed");
    }
    if (desc.obstacles.size() > kMaxObstacles) {
        return R::failure(where + std::to_string(desc.obstacles.size()) +
                          " obstacles, at most " + std::to_string(kMaxObstacles) +
                          " are allowed");
    }

    // The union, body after body, each placed; and each vertex's start velocity.
    TetMeshDesc all;
    all.name = desc.name;
    std::vector<uint32_t> first_source_vertex;
    std::vector<glm::vec3> source_velocity;
    std::vector<std::shared_ptr<const SurfaceMesh>> skins;  // per body, placed
    for (size_t b = 0; b < desc.bodies.size(); ++b) {
        const BodyDesc& body = desc.bodies[b];
        if (body.mesh.positions.empty() || body.mesh.tets.empty()) {
            return R::failure(where + body_label(desc, b) + " has no tetrahedra");
        }
        const glm::dvec3 centre = volume_centroid(body.mesh);
        const glm::dvec3 target = body.position_m ? glm::dvec3(*body.position_m) : centre;
        const glm::dmat3 rotation = rotation_from_degrees(body.rotation_deg);
        const uint32_t offset = static_cast<uint32_t>(all.positions.size());
        first_source_vertex.push_back(offset);
        for (const glm::vec3& p : body.mesh.positions) {
            const glm::dvec3 arm = rotation * (glm::dvec3(p) - centre);
            const glm::dvec3 placed = target + arm;
            if (!std::isfinite(placed.x) || !std::isfinite(placed.y) || !std::isfinite(placed.z)) {
                return R::failure(where + body_label(desc, b) +
                                  " is placed outside the range of float coordinates");
            }
            all.positions.push_back(glm::vec3(placed));
            source_velocity.push_back(glm::vec3(glm::dvec3(body.velocity_m_s) +
                                                glm::cross(glm::dvec3(body.angular_velocity_rad_s),
                                                           arm)));
        }
        for (const glm::uvec4& t : body.mesh.tets) {
            all.tets.push_back(t + glm::uvec4(offset));
        }
        skins.push_back(moved_surface(body.mesh.skin, [&](const glm::vec3& p) {
            return glm::vec3(target + rotation * (glm::dvec3(p) - centre));
        }));
        if (body.pinned) {
            for (uint32_t v : body.mesh.pinned_vertices) {
                all.pinned_vertices.push_back(v + offset);
            }
        }
    }

    Result<TetMesh> prepared = prepare_tet_mesh(all, progress);
    if (!prepared) {
        return R::failure(prepared.error());
    }
    World world;
    world.name = desc.name;
    world.obstacles = desc.obstacles;
    world.gravity_m_s2 = desc.gravity_m_s2;
    world.ground = desc.ground;
    const TetMesh& mesh = prepared.value();

    // Preparation keeps the vertices' order (dropping unused ones), so each
    // body's vertices, tets and surface triangles stay together, in order.
    world.vertex_body.resize(mesh.vertex_count());
    world.initial_velocities.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const uint32_t source = mesh.source_vertex[v];
        const auto next = std::upper_bound(first_source_vertex.begin(), first_source_vertex.end(),
                                           source);
        world.vertex_body[v] = static_cast<uint32_t>(next - first_source_vertex.begin() - 1);
        world.initial_velocities[v] = source_velocity[source];
    }
    const auto at_rest = [](const glm::vec3& v) { return v == glm::vec3(0.0f); };
    if (std::all_of(world.initial_velocities.begin(), world.initial_velocities.end(), at_rest)) {
        std::vector<glm::vec3>().swap(world.initial_velocities);
    }
    world.bodies.resize(desc.bodies.size());
    for (size_t b = 0; b < desc.bodies.size(); ++b) {
        WorldBody& body = world.bodies[b];
        body.name = desc.bodies[b].mesh.name;
        body.preset = desc.bodies[b].preset;
        body.material = desc.bodies[b].material;
        body.skin = skins[b];
    }
    const auto count_ranges = [&](size_t items, auto body_of, auto first, auto count) {
        for (size_t i = items; i-- > 0;) {
            WorldBody& body = world.bodies[body_of(i)];
            body.*first = static_cast<uint32_t>(i);
            ++(body.*count);
        }
    };
    count_ranges(mesh.vertex_count(), [&](size_t v) { return world.vertex_body[v]; },
                 &WorldBody::first_vertex, &WorldBody::vertex_count);
    count_ranges(mesh.tet_count(), [&](size_t t) { return world.vertex_body[mesh.tets[t].x]; },
                 &WorldBody::first_tet, &WorldBody::tet_count);
    count_ranges(mesh.surface_triangles.size(),
                 [&](size_t f) { return world.vertex_body[mesh.surface_triangles[f].x]; },
                 &WorldBody::first_triangle, &WorldBody::triangle_count);
    for (size_t b = 0; b < world.bodies.size(); ++b) {
        if (world.bodies[b].tet_count == 0) {
            return R::failure(where + body_label(desc, b) + " has no tetrahedron with volume");
        }
    }
    world.mesh = std::make_shared<const TetMesh>(std::move(prepared).value());
    return world;
}

std::shared_ptr<const World> single_body_world(std::shared_ptr<const TetMesh> mesh)
{
    auto world = std::make_shared<World>();
    world->name = mesh->name;
    const uint32_t nv = static_cast<uint32_t>(mesh->vertex_count());
    const uint32_t nt = static_cast<uint32_t>(mesh->tet_count());
    const uint32_t nf = static_cast<uint32_t>(mesh->surface_triangles.size());
    WorldBody body;
    body.name = mesh->name;
    body.vertex_count = nv;
    body.tet_count = nt;
    body.triangle_count = nf;
    body.skin = mesh->skin;
    world->bodies.push_back(body);
    world->vertex_body.assign(nv, 0);
    world->mesh = std::move(mesh);
    return world;
}

std::vector<glm::vec3> start_velocities(const World& world)
{
    if (world.initial_velocities.empty()) {
        return std::vector<glm::vec3>(world.mesh->vertex_count(), glm::vec3(0.0f));
    }
    return world.initial_velocities;
}

std::vector<BodyDesc> placed_body_descs(const World& world)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<BodyDesc> descs(world.body_count());
    for (size_t b = 0; b < descs.size(); ++b) {
        const WorldBody& body = world.bodies[b];
        BodyDesc& desc = descs[b];
        desc.mesh.name = body.name;
        desc.preset = body.preset;
        desc.material = body.material;
        desc.mesh.skin = body.skin;  // placed already, like the rest positions
        const uint32_t first = body.first_vertex;
        desc.mesh.positions.assign(mesh.rest_positions.begin() + first,
                                   mesh.rest_positions.begin() + first + body.vertex_count);
        for (uint32_t t = body.first_tet; t < body.first_tet + body.tet_count; ++t) {
            desc.mesh.tets.push_back(mesh.tets[t] - glm::uvec4(first));
        }
        for (uint32_t v = 0; v < body.vertex_count; ++v) {
            if (mesh.pinned[first + v]) {
                desc.mesh.pinned_vertices.push_back(v);
            }
        }
    }
    return descs;
}

WorldDesc world_desc_without_bodies(const World& world)
{
    WorldDesc desc;
    desc.name = world.name;
    desc.obstacles = world.obstacles;
    desc.gravity_m_s2 = world.gravity_m_s2;
    desc.ground = world.ground;
    return desc;
}

double body_mass_kg(const World& world, size_t body, float density_kg_m3)
{
    const WorldBody& range = world.bodies[body];
    double volume_m3 = 0.0;
    for (uint32_t t = range.first_tet; t < range.first_tet + range.tet_count; ++t) {
        volume_m3 += world.mesh->rest_volumes_m3[t];
    }
    return volume_m3 * density_kg_m3;
}
