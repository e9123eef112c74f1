#include "core/body_contacts.h"

#include "core/contact_math.h"
#include "core/flush_denormals.h"

#include <algorithm>
#include <cmath>

namespace cm = contact_math;

ContactLayout ContactLayout::make(const World& world, float search_radius_m)
{
    const TetMesh& mesh = *world.mesh;
    ContactLayout layout;
    std::vector<uint8_t> on_surface(mesh.vertex_count(), 0);
    float reach = 0.0f;  // the farthest a triangle's corner lies from its centroid
    std::vector<float> longest_edge(world.body_count(), 0.0f);  // per body
    for (const glm::uvec3& f : mesh.surface_triangles) {
        const glm::vec3 a = mesh.rest_positions[f.x];
        const glm::vec3 b = mesh.rest_positions[f.y];
        const glm::vec3 c = mesh.rest_positions[f.z];
        const glm::vec3 centroid = (a + b + c) / 3.0f;
        reach = std::max({reach, glm::length(a - centroid), glm::length(b - centroid),
                          glm::length(c - centroid)});
        float& longest = longest_edge[world.vertex_body[f.x]];
        longest = std::max({longest, glm::length(b - a), glm::length(c - b), glm::length(a - c)});
        on_surface[f.x] = on_surface[f.y] = on_surface[f.z] = 1;
    }
    for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        if (on_surface[v]) {
            layout.surface_vertices.push_back(v);
        }
    }
    // A triangle's grown box spans at most two cells per axis until it is
    // stretched past 1.5 times its rest size.
    layout.cell_size_m = 1.5f * reach + search_radius_m;
    const size_t triangles = mesh.surface_triangles.size();
    while (layout.table_size < 2 * triangles && layout.table_size < (1u << 24)) {
        layout.table_size <<= 1;
    }
    for (const float longest : longest_edge) {
        layout.rest_exclusion_m.push_back(std::max(2.0f * search_radius_m, 2.0f * longest));
    }
    return layout;
}

void BodyContacts::load(const World& world)
{
    world_ = &world;
    layout_ = ContactLayout::make(world, kContactSearchRadiusM);
    bucket_offsets_.assign(layout_.table_size + 1, 0);
    bucket_cursor_.assign(layout_.table_size, 0);
    bucket_entries_.assign(world.mesh->surface_triangles.size() * kMaxCellsPerTriangle, 0);
    candidates_.assign(layout_.surface_vertices.size() * kContactsPerVertex, kNoContact);
    sums_.assign(world.mesh->vertex_count(), glm::ivec3(0));
    counts_.assign(world.mesh->vertex_count(), 0);
    touched_.clear();
    touched_.reserve(world.mesh->vertex_count());
}

size_t BodyContacts::candidate_count() const
{
    return static_cast<size_t>(
        std::count_if(candidates_.begin(), candidates_.end(),
                      [](uint32_t f) { return f != kNoContact; }));
}

void BodyContacts::find(const std::vector<glm::vec3>& positions, WorkerTeam& team)
{
    const TetMesh& mesh = *world_->mesh;
    const std::vector<glm::uvec3>& triangles = mesh.surface_triangles;
    const float inv_cell = 1.0f / layout_.cell_size_m;
    // Calls `visit(bucket)` for every cell triangle f is listed in.
    const auto for_each_bucket = [&](uint32_t f, auto visit) {
        const glm::uvec3& t = triangles[f];
        glm::ivec3 lo, hi;
        cm::cm_triangle_cells(positions[t.x], positions[t.y], positions[t.z],
                              kContactSearchRadiusM, inv_cell, lo, hi);
        for (int z = lo.z; z <= hi.z; ++z) {
            for (int y = lo.y; y <= hi.y; ++y) {
                for (int x = lo.x; x <= hi.x; ++x) {
                    visit(cm::cm_cell_hash(glm::ivec3(x, y, z), layout_.table_size));
                }
            }
        }
    };

    // Counting sort of the triangles into buckets.
    std::fill(bucket_offsets_.begin(), bucket_offsets_.end(), 0u);
    for (uint32_t f = 0; f < triangles.size(); ++f) {
        for_each_bucket(f, [&](uint32_t h) { ++bucket_offsets_[h + 1]; });
    }
    for (uint32_t h = 0; h < layout_.table_size; ++h) {
        bucket_offsets_[h + 1] += bucket_offsets_[h];
        bucket_cursor_[h] = bucket_offsets_[h];
    }
    for (uint32_t f = 0; f < triangles.size(); ++f) {
        for_each_bucket(f, [&](uint32_t h) { bucket_entries_[bucket_cursor_[h]++] = f; });
    }

    // The vertices' searches are independent: the team shares them out.
    const size_t count = layout_.surface_vertices.size();
    const size_t members = static_cast<size_t>(team.size());
    team.run([&](int member) {
        const ScopedFlushDenormals flush_denormals;  // as the caller's, whichever thread
        const size_t each = (count + members - 1) / members;
        const size_t begin = std::min(count, each * static_cast<size_t>(member));
        const size_t end = std::min(count, begin + each);
        for (size_t s = begin; s < end; ++s) {
            find_for_vertex(s, positions, inv_cell);
        }
    });
}

// Each surface vertex keeps its nearest triangles within the search
// radius, ordered by (distance, triangle): the set and its order do not
// depend on the order the buckets list them in. A triangle listed twice
// in a bucket (two of its cells sharing it) ties with itself and is kept
// once.
void BodyContacts::find_for_vertex(size_t s, const std::vector<glm::vec3>& positions,
                                   float inv_cell)
{
    const TetMesh& mesh = *world_->mesh;
    const std::vector<glm::uvec3>& triangles = mesh.surface_triangles;
    const uint32_t v = layout_.surface_vertices[s];
    uint32_t* best = &candidates_[s * kContactsPerVertex];
    float best_distance[kContactsPerVertex];
    std::fill_n(best, kContactsPerVertex, kNoContact);
    std::fill_n(best_distance, kContactsPerVertex, INFINITY);
    const glm::vec3 x = positions[v];
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) {
        return;
    }
    const uint32_t body = world_->vertex_body[v];
    const uint32_t h =
        cm::cm_cell_hash(cm::cm_cell_of(x, inv_cell), layout_.table_size);
    for (uint32_t e = bucket_offsets_[h]; e < bucket_offsets_[h + 1]; ++e) {
        const uint32_t f = bucket_entries_[e];
        const glm::uvec3& t = triangles[f];
        if (world_->vertex_body[t.x] == body &&
            cm::cm_rest_neighbours(mesh.rest_positions[v], mesh.rest_positions[t.x],
                                   mesh.rest_positions[t.y], mesh.rest_positions[t.z],
                                   layout_.rest_exclusion_m[body])) {
            continue;  // its own corners among them
        }
        if (!cm::cm_near_triangle_box(x, positions[t.x], positions[t.y],
                                      positions[t.z], kContactSearchRadiusM)) {
            continue;
        }
        const float d = cm::cm_point_triangle_distance(
            x, positions[t.x], positions[t.y], positions[t.z]);
        if (!(d < kContactSearchRadiusM)) {
            continue;
        }
        // Insert in order; a triangle met twice (two cells
        // sharing a bucket) ties with itself and is skipped.
        int at = kContactsPerVertex;
        bool seen = false;
        for (int i = kContactsPerVertex - 1; i >= 0; --i) {
            if (best[i] == f) {
                seen = true;
                break;
            }
            if (d < best_distance[i] ||
                (d == best_distance[i] && f < best[i])) {
                at = i;
            }
        }
        if (seen || at == static_cast<int>(kContactsPerVertex)) {
            continue;
        }
        for (int i = kContactsPerVertex - 1; i > at; --i) {
            best[i] = best[i - 1];
            best_distance[i] = best_distance[i - 1];
        }
        best[at] = f;
        best_distance[at] = d;
    }
    // A vertex behind several faces of one body crossed the nearest of them:
    // pushing it out through a farther one too, across the body, would
    // fight that (and leave it wedged inside under a load). Only the nearest
    // face behind which it lies acts, per body.
    uint32_t kept = 0;
    for (uint32_t i = 0; i < kContactsPerVertex && best[i] != kNoContact; ++i) {
        const glm::uvec3& t = triangles[best[i]];
        bool drop = false;
        if (cm::cm_behind_triangle(x, positions[t.x], positions[t.y], positions[t.z])) {
            for (uint32_t j = 0; j < kept && !drop; ++j) {
                const glm::uvec3& u = triangles[best[j]];
                drop = world_->vertex_body[u.x] == world_->vertex_body[t.x] &&
                       cm::cm_behind_triangle(x, positions[u.x], positions[u.y], positions[u.z]);
            }
        }
        if (!drop) {
            best[kept++] = best[i];
        }
    }
    std::fill(best + kept, best + kContactsPerVertex, kNoContact);
}

void BodyContacts::solve(std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& predicted,
                         std::vector<glm::vec3>& corrections,
                         const std::vector<glm::vec3>& velocities,
                         const std::vector<float>& inverse_masses, float h, float mu_static,
                         float mu_dynamic)
{
    const std::vector<glm::uvec3>& triangles = world_->mesh->surface_triangles;
    touched_.clear();
    const auto gather = [&](uint32_t v, const glm::vec3& d) {
        if (counts_[v]++ == 0) {
            touched_.push_back(v);
        }
        sums_[v] += cm::cm_to_fixed(d);
    };
    for (size_t slot = 0; slot < candidates_.size(); ++slot) {
        const uint32_t f = candidates_[slot];
        if (f == kNoContact) {
            continue;
        }
        const uint32_t v = layout_.surface_vertices[slot / kContactsPerVertex];
        const glm::uvec3& t = triangles[f];
        const glm::vec4 w(inverse_masses[v], inverse_masses[t.x], inverse_masses[t.y],
                          inverse_masses[t.z]);
        glm::vec3 d[4];
        if (cm::cm_vertex_triangle_step(
                positions[v], positions[t.x], positions[t.y], positions[t.z], w,
                kContactThicknessM,
                kContactRecoverySpeedMS * h,
                h * velocities[v] + corrections[v],
                h * velocities[t.x] + corrections[t.x], h * velocities[t.y] + corrections[t.y],
                h * velocities[t.z] + corrections[t.z], mu_static, mu_dynamic, d[0], d[1], d[2],
                d[3])) {
            gather(v, d[0]);
            gather(t.x, d[1]);
            gather(t.y, d[2]);
            gather(t.z, d[3]);
        }
    }
    // Averaged per vertex (Macklin et al. 2014, 4.2): a vertex pushed by
    // several contacts moves by their mean, not their sum.
    for (const uint32_t v : touched_) {
        corrections[v] += cm::cm_from_fixed(sums_[v]) / static_cast<float>(counts_[v]);
        positions[v] = predicted[v] + corrections[v];
        sums_[v] = glm::ivec3(0);
        counts_[v] = 0;
    }
}
