#include "core/body_contacts.h"

#include "core/box_tree.h"
#include "core/contact_math.h"
#include "core/flush_denormals.h"
#include "core/point_triangle_distance.h"
#include "core/rest_sphere.h"
#include "core/tet_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace cm = contact_math;

static_assert(kNearTrianglesPerVertex == cm::CM_NEAR_SLOTS);
static_assert(kNoContact == cm::CM_NO_TRIANGLE);
static_assert(kContactsPerVertex == cm::CM_PICKS);
static_assert(kMaxCellsPerTriangle == static_cast<uint32_t>(cm::CM_MAX_CELLS_PER_AXIS *
                                                            cm::CM_MAX_CELLS_PER_AXIS *
                                                            cm::CM_MAX_CELLS_PER_AXIS));
static_assert(kMaxCellsPerTet == kMaxCellsPerTriangle);

// The search's surface vertices are taken by the team in runs of this many:
// a vertex in a heap costs many times one alone in the air, so an even
// split left one member waiting on the other.
static constexpr size_t kVerticesPerChunk = 64;

// Per surface triangle, the third corner of the face beyond each edge
// (ContactLayout::triangle_far_corners). A closed surface meets each edge
// once in each direction; an edge met otherwise (an open or non-manifold
// surface) has no face beyond.
static std::vector<glm::uvec3> far_corners_beyond_edges(const std::vector<glm::uvec3>& triangles)
{
    // Directed edge (from, to) -> the far corner of the one face that runs
    // it, or kNoContact where more than one does.
    std::unordered_map<uint64_t, uint32_t> far_corner_of_edge;
    const auto key = [](uint32_t from, uint32_t to) { return (uint64_t{from} << 32) | to; };
    for (const glm::uvec3& f : triangles) {
        for (int k = 0; k < 3; ++k) {
            const auto [it, fresh] =
                far_corner_of_edge.try_emplace(key(f[(k + 1) % 3], f[(k + 2) % 3]), f[k]);
            if (!fresh) {
                it->second = kNoContact;
            }
        }
    }
    std::vector<glm::uvec3> far(triangles.size(), glm::uvec3(kNoContact));
    for (size_t i = 0; i < triangles.size(); ++i) {
        const glm::uvec3& f = triangles[i];
        for (int k = 0; k < 3; ++k) {
            // The edge opposite corner k runs f[k + 1] -> f[k + 2] here and
            // the other way around the face beyond.
            const auto beyond = far_corner_of_edge.find(key(f[(k + 2) % 3], f[(k + 1) % 3]));
            if (beyond != far_corner_of_edge.end()) {
                far[i][k] = beyond->second;
            }
        }
    }
    return far;
}

// Per mesh tet, the surface triangle of its body nearest to the tet's
// centre in the rest shape (ContactLayout::tet_exit_triangle); of equally
// near ones, the lowest index the tree's search meets (fixed by the rest
// shape alone; both solvers use this one table).
static std::vector<uint32_t> tet_exit_triangles(const World& world)
{
    const TetMesh& mesh = *world.mesh;
    const auto rest = [&](uint32_t v) { return glm::dvec3(mesh.rest_positions[v]); };
    std::vector<uint32_t> exits(mesh.tets.size(), kNoContact);
    for (const WorldBody& body : world.bodies) {
        std::vector<BoxD> boxes(body.triangle_count);
        for (uint32_t i = 0; i < body.triangle_count; ++i) {
            const glm::uvec3& f = mesh.surface_triangles[body.first_triangle + i];
            boxes[i].add(rest(f.x));
            boxes[i].add(rest(f.y));
            boxes[i].add(rest(f.z));
        }
        const BoxTree tree(boxes);
        for (uint32_t t = body.first_tet; t < body.first_tet + body.tet_count; ++t) {
            const glm::uvec4& tet = mesh.tets[t];
            const glm::dvec3 centre =
                0.25 * (rest(tet.x) + rest(tet.y) + rest(tet.z) + rest(tet.w));
            double best = std::numeric_limits<double>::infinity();
            tree.nearest(centre, [&](const glm::dvec3& p, uint32_t i) {
                const uint32_t f = body.first_triangle + i;
                const glm::uvec3& corners = mesh.surface_triangles[f];
                const double d =
                    point_triangle_distance(p, rest(corners.x), rest(corners.y), rest(corners.z));
                if (d < best || (d == best && f < exits[t])) {
                    best = d;
                    exits[t] = f;
                }
                return d;
            });
        }
    }
    return exits;
}

// Per surface triangle, a sphere about its rest corners (rest_sphere.h),
// grown by 1e-5 of the largest coordinate of the triangle's body and of its
// exclusion radius.
static std::vector<glm::vec4> rest_spheres(const World& world, const ContactLayout& layout)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<float> body_reach(world.body_count(), 0.0f);
    for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        const glm::vec3 a = glm::abs(mesh.rest_positions[v]);
        float& reach = body_reach[world.vertex_body[v]];
        reach = std::max({reach, a.x, a.y, a.z});
    }
    std::vector<glm::vec4> spheres;
    spheres.reserve(mesh.surface_triangles.size());
    for (const glm::uvec3& f : mesh.surface_triangles) {
        const uint32_t body = world.vertex_body[f.x];
        const double margin = 1e-5 * (body_reach[body] + layout.rest_exclusion_m[body]) + 1e-30;
        spheres.push_back(rest_sphere(mesh.rest_positions[f.x], mesh.rest_positions[f.y],
                                      mesh.rest_positions[f.z], margin));
    }
    return spheres;
}

ContactLayout ContactLayout::make(const World& world)
{
    const TetMesh& mesh = *world.mesh;
    ContactLayout layout;
    std::vector<uint8_t> on_surface(mesh.vertex_count(), 0);
    float extent = 0.0f;  // the largest side of a triangle's box
    std::vector<float> longest_edge(world.body_count(), 0.0f);  // per body
    for (const glm::uvec3& f : mesh.surface_triangles) {
        const glm::vec3 a = mesh.rest_positions[f.x];
        const glm::vec3 b = mesh.rest_positions[f.y];
        const glm::vec3 c = mesh.rest_positions[f.z];
        const glm::vec3 side = glm::max(glm::max(a, b), c) - glm::min(glm::min(a, b), c);
        extent = std::max({extent, side.x, side.y, side.z});
        float& longest = longest_edge[world.vertex_body[f.x]];
        longest = std::max({longest, glm::length(b - a), glm::length(c - b), glm::length(a - c)});
        on_surface[f.x] = on_surface[f.y] = on_surface[f.z] = 1;
        layout.triangle_body.push_back(world.vertex_body[f.x]);
    }
    layout.triangle_far_corners = far_corners_beyond_edges(mesh.surface_triangles);
    std::vector<uint32_t> first_surface_of_body(world.body_count(),
                                                std::numeric_limits<uint32_t>::max());
    for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        if (on_surface[v]) {
            const auto s = static_cast<uint32_t>(layout.surface_vertices.size());
            uint32_t& first = first_surface_of_body[world.vertex_body[v]];
            first = std::min(first, s);
            layout.surface_vertices.push_back(v);
            layout.surface_body_reference.push_back(first);
        }
    }
    // A box of side L spans at most ceil(L / cell) + 1 cells per axis: a
    // triangle's box grown by the list radius fits CM_MAX_CELLS_PER_AXIS
    // until the triangle is stretched past 1.5 times its rest size (a wildly
    // stretched one is listed partly).
    layout.cell_size_m = (1.5f * extent + 2.0f * kContactListRadiusM) /
                         static_cast<float>(cm::CM_MAX_CELLS_PER_AXIS - 1);
    const size_t triangles = mesh.surface_triangles.size();
    while (layout.table_size < 2 * triangles && layout.table_size < (1u << 24)) {
        layout.table_size <<= 1;
    }
    for (const float longest : longest_edge) {
        layout.rest_exclusion_m.push_back(std::max(2.0f * kContactSearchRadiusM, 2.0f * longest));
    }
    if (world.body_count() >= 2 && !mesh.tets.empty()) {
        layout.tet_exit_triangle = tet_exit_triangles(world);
        float tet_extent = 0.0f;
        for (const glm::uvec4& t : mesh.tets) {
            glm::vec3 lo, hi;
            cm::cm_tet_box(mesh.rest_positions[t.x], mesh.rest_positions[t.y],
                           mesh.rest_positions[t.z], mesh.rest_positions[t.w], lo, hi);
            tet_extent = std::max({tet_extent, hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
        }
        // As the triangles': a tet spans at most CM_MAX_CELLS_PER_AXIS cells
        // per axis until it is stretched past 1.5 times its rest size. Cells
        // of the largest tet's whole side listed fewer tets but held twice
        // as many per bucket: the search took 1.6 ms more than without the
        // tets on the pile, against 0.7 ms with these.
        const float cells_per_axis = static_cast<float>(cm::CM_MAX_CELLS_PER_AXIS - 1);
        layout.tet_cell_size_m = tet_extent > 0.0f ? 1.5f * tet_extent / cells_per_axis : 1.0f;
        layout.tet_table_size = 1;
        while (layout.tet_table_size < 2 * mesh.tets.size() && layout.tet_table_size < (1u << 24)) {
            layout.tet_table_size <<= 1;
        }
    }
    return layout;
}

void BodyContacts::load(const World& world)
{
    world_ = &world;
    layout_ = ContactLayout::make(world);
    const size_t surface = layout_.surface_vertices.size();
    const size_t triangles = world.mesh->surface_triangles.size();
    triangle_table_.resize(layout_.table_size);
    triangle_boxes_.assign(triangles, Bounds{});
    triangle_rest_spheres_ = rest_spheres(world, layout_);
    const size_t hashed_tets = layout_.tets_hashed() ? world.mesh->tets.size() : 0;
    tet_table_.resize(layout_.tet_table_size);
    tet_boxes_.assign(hashed_tets, Bounds{});
    tet_listed_.assign(hashed_tets, 0);
    const size_t bodies = layout_.tets_hashed() ? world.body_count() : 0;
    body_boxes_.assign(bodies, Bounds{});
    body_neighbour_offsets_.assign(bodies + 1, 0u);
    body_neighbours_.assign(bodies * bodies, 0u);
    near_.assign(surface * kNearTrianglesPerVertex, kNoContact);
    deep_.assign(surface, kNoContact);
    anchors_.assign(surface, glm::vec3(0.0f));
    allowed_moves_.assign(surface, 0.0f);
    allowed_move_ = 0.0f;  // no list is fresh before the first search
    search_count_ = 0;
    candidates_.assign(surface * kContactsPerVertex, kNoContact);
    member_sums_.clear();  // sized by solve() for the team it is given
    member_contacts_.clear();
    touched_.clear();
    touched_.reserve(world.mesh->vertex_count());
    pair_counts_.assign(world.mesh->vertex_count(), 0u);
}

size_t BodyContacts::candidate_count() const
{
    return static_cast<size_t>(
        std::count_if(candidates_.begin(), candidates_.end(),
                      [](uint32_t f) { return f != kNoContact; }));
}

size_t BodyContacts::deep_vertex_count() const
{
    return static_cast<size_t>(
        std::count_if(deep_.begin(), deep_.end(), [](uint32_t f) { return f != kNoContact; }));
}

void BodyContacts::find(const std::vector<glm::vec3>& positions, WorkerTeam& team)
{
    if (near_lists_stale(positions)) {
        search(positions, team);
    }
    share_out(team, layout_.surface_vertices.size(),
              [&](size_t s) { pick_for_vertex(s, positions); });
}

bool BodyContacts::near_lists_stale(const std::vector<glm::vec3>& positions) const
{
    // The largest moves, plain and beside the bodies, as the GPU gathers
    // them; a NaN move (a diverged vertex) makes the lists stale at once.
    // The rigid motion is fitted only when those two do not already find
    // the lists fresh.
    if (anchors_.empty()) {
        return false;
    }
    const auto moved = [&](size_t s) {
        return positions[layout_.surface_vertices[s]] - anchors_[s];
    };
    const glm::vec3 world_moved = moved(0);
    float largest = 0.0f;
    float largest_beside_bodies = 0.0f;
    for (size_t s = 0; s < anchors_.size(); ++s) {
        const glm::vec3 vertex_moved = moved(s);
        const float move = glm::length(vertex_moved);
        if (std::isnan(move)) {
            return true;
        }
        largest = std::max(largest, move);
        largest_beside_bodies = std::max(
            largest_beside_bodies,
            cm::cm_move_beside_bodies(vertex_moved, moved(layout_.surface_body_reference[s]),
                                      world_moved));
    }
    if (cm::cm_near_lists_fresh(largest, largest_beside_bodies, cm::CM_NO_MOVE_BOUND,
                                allowed_move_)) {
        return false;  // the rigid motion's fit could only confirm it
    }
    if (layout_.tets_hashed()) {
        return true;  // a world of several bodies fits no rigid motion
    }
    return !cm::cm_near_lists_fresh(largest, largest_beside_bodies,
                                    largest_move_beside_rigid_motion(positions), allowed_move_);
}

float BodyContacts::largest_move_beside_rigid_motion(const std::vector<glm::vec3>& positions) const
{
    // The rotation and shift that best carry the anchors onto the positions
    // (contact_rigid_motion.comp fits the same, its sums in another order).
    const std::vector<uint32_t>& surface = layout_.surface_vertices;
    glm::vec3 anchor_sum(0.0f);
    glm::vec3 position_sum(0.0f);
    for (size_t s = 0; s < anchors_.size(); ++s) {
        anchor_sum += anchors_[s];
        position_sum += positions[surface[s]];
    }
    const float inv_count = 1.0f / static_cast<float>(anchors_.size());
    const glm::vec3 anchor_centroid = anchor_sum * inv_count;
    const glm::vec3 position_centroid = position_sum * inv_count;
    glm::mat3 covariance(0.0f);
    for (size_t s = 0; s < anchors_.size(); ++s) {
        covariance += glm::outerProduct(anchors_[s] - anchor_centroid,
                                        positions[surface[s]] - position_centroid);
    }
    glm::mat3 U, V;
    glm::vec3 sigma;
    tet_math::tm_signed_svd(covariance, U, sigma, V);
    const glm::mat3 rotation = cm::cm_rigid_rotation(U, V);
    float largest = 0.0f;
    for (size_t s = 0; s < anchors_.size(); ++s) {
        largest = std::max(largest,
                           cm::cm_move_beside_rigid_motion(positions[surface[s]], anchors_[s],
                                                           rotation, anchor_centroid,
                                                           position_centroid));
    }
    return largest;
}

// Calls visit(bucket) for every cell the box is listed in (cm_box_cells).
template <typename Visit>
static void for_each_box_bucket(const Bounds& box, float inv_cell, uint32_t table_size,
                                const Visit& visit)
{
    glm::ivec3 lo, hi;
    cm::cm_box_cells(box.lo, box.hi, inv_cell, lo, hi);
    for (int z = lo.z; z <= hi.z; ++z) {
        for (int y = lo.y; y <= hi.y; ++y) {
            for (int x = lo.x; x <= hi.x; ++x) {
                visit(cm::cm_cell_hash(glm::ivec3(x, y, z), table_size));
            }
        }
    }
}

void BodyContacts::search(const std::vector<glm::vec3>& positions, WorkerTeam& team)
{
    ++search_count_;
    const std::vector<glm::uvec3>& triangles = world_->mesh->surface_triangles;
    share_out(team, triangles.size(), [&](size_t f) {
        const glm::uvec3& t = triangles[f];
        cm::cm_triangle_box(positions[t.x], positions[t.y], positions[t.z], kContactListRadiusM,
                            triangle_boxes_[f].lo, triangle_boxes_[f].hi);
    });
    if (layout_.tets_hashed()) {
        find_tet_boxes(positions, team);
    }
    build_tables(team);

    const float inv_cell = 1.0f / layout_.cell_size_m;
    share_out_in_chunks(team, layout_.surface_vertices.size(), kVerticesPerChunk,
                        [&](size_t s) { search_for_vertex(s, positions, inv_cell); });
    allowed_move_ = allowed_moves_.empty()
                        ? 0.0f
                        : *std::min_element(allowed_moves_.begin(), allowed_moves_.end());
}

void BodyContacts::build_tables(WorkerTeam& team)
{
    const auto list_triangles = [&](WorkerTeam& builders) {
        const float inv_cell = 1.0f / layout_.cell_size_m;
        const auto count = static_cast<uint32_t>(triangle_boxes_.size());
        triangle_table_.build(count, builders, [&](uint32_t f, auto visit) {
            for_each_box_bucket(triangle_boxes_[f], inv_cell, layout_.table_size, visit);
        });
    };
    const auto list_tets = [&](WorkerTeam& builders) {
        const float inv_cell = 1.0f / layout_.tet_cell_size_m;
        const auto count = static_cast<uint32_t>(tet_boxes_.size());
        tet_table_.build(count, builders, [&](uint32_t t, auto visit) {
            if (tet_listed_[t]) {
                for_each_box_bucket(tet_boxes_[t], inv_cell, layout_.tet_table_size, visit);
            }
        });
    };
    if (!layout_.tets_hashed()) {
        list_triangles(team);
        return;
    }
    if (team.size() == 1) {
        list_triangles(team);
        list_tets(team);
        return;
    }
    // A member builds each table alone, side by side: shared out, a build
    // gains little from a second thread (the members' listings write to the
    // same buckets' cache lines; on the pile the triangles' build took as
    // long on two threads as on one), and the two builds cost about the
    // same. A bucket lists its items in index order whoever builds it.
    team.run([&](int member) {
        WorkerTeam alone(1);
        if (member == 0) {
            list_triangles(alone);
        } else if (member == 1) {
            list_tets(alone);
        }
    });
}

void BodyContacts::find_body_neighbours(const std::vector<glm::vec3>& positions)
{
    const size_t bodies = world_->body_count();
    for (size_t b = 0; b < bodies; ++b) {
        const WorldBody& body = world_->bodies[b];
        Bounds box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
        for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
            box.lo = glm::min(box.lo, positions[v]);
            box.hi = glm::max(box.hi, positions[v]);
        }
        body_boxes_[b] = box;
    }
    uint32_t count = 0;
    for (size_t b = 0; b < bodies; ++b) {
        body_neighbour_offsets_[b] = count;
        for (size_t c = 0; c < bodies; ++c) {
            if (c != b && body_boxes_[b].overlaps(body_boxes_[c])) {
                body_neighbours_[count++] = static_cast<uint32_t>(c);
            }
        }
    }
    body_neighbour_offsets_[bodies] = count;
}

bool BodyContacts::overlaps_neighbour_body(uint32_t body, const Bounds& box) const
{
    for (uint32_t i = body_neighbour_offsets_[body]; i < body_neighbour_offsets_[body + 1]; ++i) {
        if (box.overlaps(body_boxes_[body_neighbours_[i]])) {
            return true;
        }
    }
    return false;
}

void BodyContacts::find_tet_boxes(const std::vector<glm::vec3>& positions, WorkerTeam& team)
{
    const std::vector<glm::uvec4>& tets = world_->mesh->tets;
    find_body_neighbours(positions);
    // Only a tet whose box meets another body's box can hold another body's
    // vertex (every vertex lies in its body's box): in a heap most tets lie
    // away from the other bodies and are not listed, which leaves the deep
    // pairs exactly as they were and the search cheaper (docs/algorithm.md,
    // 5). The compute shaders leave out the same tets (meets_other_body).
    share_out(team, tets.size(), [&](size_t t) {
        const glm::uvec4& tet = tets[t];
        Bounds& box = tet_boxes_[t];
        cm::cm_tet_box(positions[tet.x], positions[tet.y], positions[tet.z], positions[tet.w],
                       box.lo, box.hi);
        tet_listed_[t] = overlaps_neighbour_body(tet_body(*world_, t), box) ? 1 : 0;
    });
}

uint32_t BodyContacts::deep_triangle_for_vertex(size_t s,
                                                const std::vector<glm::vec3>& positions) const
{
    const uint32_t v = layout_.surface_vertices[s];
    const glm::vec3 x = positions[v];
    const uint32_t body = world_->vertex_body[v];
    if (!overlaps_neighbour_body(body, Bounds{x, x})) {
        return kNoContact;  // in no other body's box, so in none of its tets
    }
    const uint32_t h = cm::cm_cell_hash(cm::cm_cell_of(x, 1.0f / layout_.tet_cell_size_m),
                                        layout_.tet_table_size);
    uint32_t exit = kNoContact;
    for (uint32_t e = tet_table_.bucket_begin(h); e < tet_table_.bucket_end(h); ++e) {
        const uint32_t t = tet_table_.entry(e);
        if (tet_body(*world_, t) == body || layout_.tet_exit_triangle[t] >= exit ||
            !cm::cm_in_box(x, tet_boxes_[t].lo, tet_boxes_[t].hi)) {
            continue;
        }
        const glm::uvec4& tet = world_->mesh->tets[t];
        if (cm::cm_inside_tet(x, positions[tet.x], positions[tet.y], positions[tet.z],
                              positions[tet.w])) {
            exit = layout_.tet_exit_triangle[t];
        }
    }
    return exit;
}

// Each surface vertex keeps its nearest triangles within the list radius
// among those listed in its cell, apart from its own body's triangles near
// it in the rest shape, and its deep pair if it lies inside another body.
void BodyContacts::search_for_vertex(size_t s, const std::vector<glm::vec3>& positions,
                                     float inv_cell)
{
    const TetMesh& mesh = *world_->mesh;
    const std::vector<glm::uvec3>& triangles = mesh.surface_triangles;
    const uint32_t v = layout_.surface_vertices[s];
    const glm::vec3 x = positions[v];
    anchors_[s] = x;
    cm::CmNearest nearest;
    cm::cm_nearest_clear(nearest);
    const bool finite = std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z);
    if (finite) {
        const uint32_t body = world_->vertex_body[v];
        const glm::vec3 rest = mesh.rest_positions[v];
        const float exclusion = layout_.rest_exclusion_m[body];
        const uint32_t h = cm::cm_cell_hash(cm::cm_cell_of(x, inv_cell), layout_.table_size);
        const uint32_t bucket_end = triangle_table_.bucket_end(h);
        // The boxes first, a run at a time: they need no corner of a
        // triangle, and the entries whose boxes hold the vertex are gathered
        // without a branch (about a quarter do, at no predictable entry).
        constexpr uint32_t kRun = 64;
        uint32_t held[kRun];
        for (uint32_t run = triangle_table_.bucket_begin(h); run < bucket_end; run += kRun) {
            const uint32_t n = std::min(bucket_end - run, kRun);
            uint32_t count = 0;
            for (uint32_t k = 0; k < n; ++k) {
                const uint32_t f = triangle_table_.entry(run + k);
                held[count] = f;
                const Bounds& box = triangle_boxes_[f];
                count += cm::cm_in_box(x, box.lo, box.hi) ? 1u : 0u;
            }
            for (uint32_t i = 0; i < count; ++i) {
                const uint32_t f = held[i];
                if (layout_.triangle_body[f] == body && rest_neighbours(rest, f, exclusion)) {
                    continue;  // its own corners among them
                }
                const glm::uvec3& t = triangles[f];
                const float d = cm::cm_point_triangle_distance(x, positions[t.x], positions[t.y],
                                                               positions[t.z]);
                if (d < kContactListRadiusM) {
                    cm::cm_nearest_insert(nearest, kNearTrianglesPerVertex, f, d, 0u);
                }
            }
        }
    }
    std::copy_n(nearest.triangle, kNearTrianglesPerVertex, &near_[s * kNearTrianglesPerVertex]);
    deep_[s] =
        layout_.tets_hashed() && finite ? deep_triangle_for_vertex(s, positions) : kNoContact;
    allowed_moves_[s] =
        cm::cm_near_list_allowed_move(nearest, kContactSearchRadiusM, kContactListRadiusM);
}

bool BodyContacts::rest_neighbours(const glm::vec3& rest, uint32_t f, float exclusion) const
{
    switch (rest_neighbours_by_sphere(triangle_rest_spheres_[f], rest, exclusion)) {
    case SphereSays::neighbours:
        return true;
    case SphereSays::not_neighbours:
        return false;
    case SphereSays::undecided:
        break;
    }
    const TetMesh& mesh = *world_->mesh;
    const glm::uvec3& t = mesh.surface_triangles[f];
    return cm::cm_rest_neighbours(rest, mesh.rest_positions[t.x], mesh.rest_positions[t.y],
                                  mesh.rest_positions[t.z], exclusion);
}

// The nearest few of the near list within the search radius, at most one
// face per body the vertex lies behind.
void BodyContacts::pick_for_vertex(size_t s, const std::vector<glm::vec3>& positions)
{
    const std::vector<glm::uvec3>& triangles = world_->mesh->surface_triangles;
    const glm::vec3 x = positions[layout_.surface_vertices[s]];
    const uint32_t body = world_->vertex_body[layout_.surface_vertices[s]];
    cm::CmNearest picked;
    cm::cm_nearest_clear(picked);
    const uint32_t* near = &near_[s * kNearTrianglesPerVertex];
    for (uint32_t i = 0; i < kNearTrianglesPerVertex && near[i] != kNoContact; ++i) {
        const glm::uvec3& t = triangles[near[i]];
        const glm::vec3 a = positions[t.x];
        const glm::vec3 b = positions[t.y];
        const glm::vec3 c = positions[t.z];
        if (!cm::cm_near_triangle_box(x, a, b, c, kContactSearchRadiusM)) {
            continue;
        }
        const float d = cm::cm_point_triangle_distance(x, a, b, c);
        if (d < kContactSearchRadiusM) {
            const uint32_t triangle_body = layout_.triangle_body[near[i]];
            const bool behind = cm::cm_behind_triangle(x, a, b, c);
            if (behind && !cm::cm_pair_behind_may_touch(body, triangle_body)) {
                continue;
            }
            cm::cm_nearest_insert(picked, kContactsPerVertex, near[i], d,
                                  2u * triangle_body + (behind ? 1u : 0u));
        }
    }
    cm::cm_nearest_keep_one_behind_per_body(picked, kContactsPerVertex);
    if (deep_[s] != kNoContact) {
        const glm::uvec3& exit = triangles[deep_[s]];
        cm::cm_add_deep_pair(picked, kContactsPerVertex, deep_[s], layout_.triangle_body[deep_[s]],
                             cm::cm_behind_triangle(x, positions[exit.x], positions[exit.y],
                                                    positions[exit.z]));
    }
    std::copy_n(picked.triangle, kContactsPerVertex, &candidates_[s * kContactsPerVertex]);
}

BodyContacts::CandidatePair BodyContacts::candidate_pair(
    size_t slot, const std::vector<glm::vec3>& corrections,
    const std::vector<glm::vec3>& velocities, const std::vector<float>& inverse_masses,
    float h) const
{
    const glm::uvec3& t = world_->mesh->surface_triangles[candidates_[slot] & ~cm::CM_DEEP_PAIR];
    CandidatePair pair;
    pair.v = {layout_.surface_vertices[slot / kContactsPerVertex], t.x, t.y, t.z};
    for (int k = 0; k < 4; ++k) {
        pair.w[k] = inverse_masses[pair.v[k]];
        pair.dx[k] = h * velocities[pair.v[k]] + corrections[pair.v[k]];
    }
    return pair;
}

bool BodyContacts::pair_in_contact(uint32_t candidate, const CandidatePair& pair,
                                   const std::vector<glm::vec3>& positions, float h,
                                   contact_math::CmContact& contact) const
{
    const glm::vec3& p = positions[pair.v[0]];
    const glm::vec3& a = positions[pair.v[1]];
    const glm::vec3& b = positions[pair.v[2]];
    const glm::vec3& c = positions[pair.v[3]];
    const bool deep = (candidate & cm::CM_DEEP_PAIR) != 0;
    const float max_recovery = kContactRecoverySpeedMS * h;
    if (cm::cm_vertex_triangle_contact(p, a, b, c, pair.w, deep, kContactThicknessM, max_recovery,
                                       pair.dx[0], pair.dx[1], pair.dx[2], pair.dx[3], contact)) {
        return true;
    }
    const uint32_t f = candidate & ~cm::CM_DEEP_PAIR;
    if (deep || !cm::cm_pair_behind_may_touch(world_->vertex_body[pair.v[0]],
                                              layout_.triangle_body[f])) {
        return false;
    }
    const uint32_t edge = cm::cm_edge_behind_beside(p, a, b, c);
    if (edge > 2) {
        return false;
    }
    const uint32_t far = layout_.triangle_far_corners[f][static_cast<int>(edge)];
    return far != kNoContact &&
           cm::cm_vertex_in_valley_contact(p, a, b, c, positions[far], edge, pair.w,
                                           kContactThicknessM, max_recovery, pair.dx[0],
                                           pair.dx[1], pair.dx[2], pair.dx[3], contact);
}

void BodyContacts::solve(std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& predicted,
                         std::vector<glm::vec3>& corrections,
                         const std::vector<glm::vec3>& velocities,
                         const std::vector<float>& inverse_masses, float h, float mu_static,
                         float mu_dynamic, WorkerTeam& team)
{
    const size_t members = static_cast<size_t>(team.size());
    if (member_sums_.size() < members) {
        member_sums_.resize(members,
                            std::vector<glm::ivec4>(world_->mesh->vertex_count(), glm::ivec4(0)));
        member_contacts_.resize(members);
    }
    // Each member sums into its own array, a surface vertex's candidates at
    // a time: integer sums, added up after, give the same bits however the
    // pairs were shared. Wrapping as the GPU's atomics do (a signed
    // overflow would be undefined).
    const auto add = [](glm::ivec4& sum, const glm::ivec4& more) {
        sum = glm::ivec4(glm::uvec4(sum) + glm::uvec4(more));
    };
    // 1. The pairs in contact, each member keeping those it found for its
    // step below, and each vertex's count of them, which the step splits
    // its inverse mass among.
    share_out(team, layout_.surface_vertices.size(), [&](size_t s, int member) {
        std::vector<glm::ivec4>& sums = member_sums_[static_cast<size_t>(member)];
        std::vector<InContact>& found = member_contacts_[static_cast<size_t>(member)];
        for (size_t slot = s * kContactsPerVertex; slot < (s + 1) * kContactsPerVertex; ++slot) {
            const uint32_t candidate = candidates_[slot];
            if (candidate == kNoContact) {
                break;
            }
            const CandidatePair pair =
                candidate_pair(slot, corrections, velocities, inverse_masses, h);
            InContact in_contact{static_cast<uint32_t>(slot), {}};
            if (pair_in_contact(candidate, pair, positions, h, in_contact.contact)) {
                found.push_back(in_contact);
                for (int k = 0; k < 4; ++k) add(sums[pair.v[k]], glm::ivec4(0, 0, 0, 1));
            }
        }
    });
    touched_.clear();
    for (const uint32_t v : layout_.surface_vertices) {
        uint32_t count = 0;
        for (size_t m = 0; m < members; ++m) {
            count += static_cast<uint32_t>(member_sums_[m][v].w);
            member_sums_[m][v].w = 0;
        }
        pair_counts_[v] = count;
        if (count > 0) {
            touched_.push_back(v);
        }
    }
    // 2. The pairs' steps.
    team.run([&](int member) {
        std::vector<glm::ivec4>& sums = member_sums_[static_cast<size_t>(member)];
        std::vector<InContact>& found = member_contacts_[static_cast<size_t>(member)];
        for (const InContact& in_contact : found) {
            const CandidatePair pair =
                candidate_pair(in_contact.slot, corrections, velocities, inverse_masses, h);
            glm::vec4 pairs;
            for (int k = 0; k < 4; ++k) pairs[k] = static_cast<float>(pair_counts_[pair.v[k]]);
            glm::vec3 d[4];
            cm::cm_vertex_triangle_push(in_contact.contact, pair.w, pairs, pair.dx[0], pair.dx[1],
                                        pair.dx[2], pair.dx[3], mu_static, mu_dynamic, d[0], d[1],
                                        d[2], d[3]);
            for (int k = 0; k < 4; ++k) add(sums[pair.v[k]], glm::ivec4(cm::cm_to_fixed(d[k]), 0));
        }
        found.clear();
    });
    // 3. Each vertex in contact takes the sum of its pairs' corrections.
    for (const uint32_t v : touched_) {
        glm::ivec4 sum(0);
        for (size_t m = 0; m < members; ++m) {
            add(sum, member_sums_[m][v]);
            member_sums_[m][v] = glm::ivec4(0);
        }
        corrections[v] += cm::cm_from_fixed(glm::ivec3(sum));
        positions[v] = predicted[v] + corrections[v];
    }
}
