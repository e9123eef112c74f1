// Contact between bodies, and of a body with itself, on the CPU solver:
// small lattice worlds whose outcome is plain (a cube rests on a cube, two
// cubes bounce apart, a thrown cube stops at a plate), each also run with
// body contact off where that shows the assertion can fail.
#include "contact_worlds.h"
#include "test_support.h"

#include "app/drag_script.h"
#include "core/point_triangle_distance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

using namespace contact_worlds;

namespace {

// How deep vertex v lies in the part of its own body away from it: inside a
// tet whose corners all lay farther than `neighbourhood_m` from v in the
// rest shape, measured to the nearest surface triangle that does not have v
// as a corner; 0 when it is in no such tet. measure_penetration for one
// vertex, blind to the squeeze of a bend near it.
double depth_in_far_part(const TetMesh& mesh, const std::vector<glm::vec3>& positions,
                         uint32_t v, float neighbourhood_m)
{
    const glm::dvec3 p(positions[v]);
    const auto far = [&](uint32_t u) {
        return glm::length(mesh.rest_positions[u] - mesh.rest_positions[v]) > neighbourhood_m;
    };
    bool inside = false;
    for (const glm::uvec4& t : mesh.tets) {
        if (!far(t.x) || !far(t.y) || !far(t.z) || !far(t.w)) continue;
        const glm::dvec3 a(positions[t.x]), e1 = glm::dvec3(positions[t.y]) - a,
            e2 = glm::dvec3(positions[t.z]) - a, e3 = glm::dvec3(positions[t.w]) - a, r = p - a;
        const double det = glm::dot(e1, glm::cross(e2, e3));
        if (det == 0.0) continue;
        const double l1 = glm::dot(r, glm::cross(e2, e3)) / det;
        const double l2 = glm::dot(e1, glm::cross(r, e3)) / det;
        const double l3 = glm::dot(e1, glm::cross(e2, r)) / det;
        if (l1 > 0.0 && l2 > 0.0 && l3 > 0.0 && l1 + l2 + l3 < 1.0) {
            inside = true;
            break;
        }
    }
    if (!inside) return 0.0;
    double depth = INFINITY;
    for (const glm::uvec3& f : mesh.surface_triangles) {
        if (f.x == v || f.y == v || f.z == v) continue;
        depth = std::min(depth, point_triangle_distance(p, glm::dvec3(positions[f.x]),
                                                        glm::dvec3(positions[f.y]),
                                                        glm::dvec3(positions[f.z])));
    }
    return depth;
}

}  // namespace

TEST(BodyContact, CubeDroppedOnCubeComesToRestOnIt)
{
    const std::shared_ptr<const World> world = assembled(cube_dropped_on_cube(4));
    ASSERT_TRUE(world);
    for (const bool contact : {true, false}) {
        CpuSolver solver;
        solver.load(world);
        SimParams params = world_params(*world);
        params.body_contact = contact;
        const auto start = std::chrono::steady_clock::now();
        run_frames(solver, params, 180);  // 3 s
        const std::vector<glm::vec3> p = positions_now(solver);
        const std::vector<BodyStats> bodies = compute_body_stats(*world, p);
        const float lower_top = body_max_y(*world, p, 0);
        const double depth = deepest_penetration_m(*world, p);
        const float fastest = max_speed(velocities_now(solver));
        std::printf("contact %s: %.2f s; after 3 s: upper centroid y %.4f m, its lowest vertex "
                    "%.4f m, lower top %.4f m, deepest penetration %.3g m, fastest vertex %.4f "
                    "m/s\n",
                    contact ? "on" : "off", seconds_since(start), bodies[1].centroid_m.y,
                    bodies[1].min_y_m, lower_top, depth, fastest);
        if (contact) {
            // Measured: fastest 0.008 m/s, no vertex inside, the upper cube's
            // centroid 0.15 m above the lower's top.
            EXPECT_LT(fastest, 0.05f) << "both at rest";
            EXPECT_LE(depth, 1e-3) << "neither inside the other";
            EXPECT_GT(bodies[1].centroid_m.y, lower_top) << "the upper cube lies on the lower";
            EXPECT_LT(bodies[1].min_y_m, lower_top + 0.01f) << "on it, not floating above";
            EXPECT_EQ(bodies[0].inverted_tets + bodies[1].inverted_tets, 0u);
        } else {
            // Without contact the same drop ends with the cubes inside each
            // other: the checks above are the contact's doing.
            EXPECT_GT(depth, 0.05);
            EXPECT_LT(bodies[1].centroid_m.y, lower_top);
        }
    }
}

TEST(BodyContact, HeadOnCollisionConservesMomentumAndSeparates)
{
    // The collide scene's set-up in small: two 0.3 m cubes of one material,
    // no gravity, no ground, no air. Unequal speeds and a small offset across
    // the line of flight, so that the total momentum is not zero (a relative
    // error needs a magnitude) and the impact is not perfectly symmetric.
    WorldDesc desc = weightless_world("collide small");
    desc.bodies.push_back(lattice_cube(0.3f, 4, {-0.5f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.3f, 4, {0.5f, 1.05f, 0.02f}));
    desc.bodies[0].velocity_m_s = {3.0f, 0.0f, 0.0f};
    desc.bodies[1].velocity_m_s = {-1.0f, 0.0f, 0.0f};
    const std::shared_ptr<const World> world = assembled(desc);
    ASSERT_TRUE(world);
    SimParams params = world_params(*world);
    params.air_damping_per_s = 0.0f;
    const float density = desc.bodies[0].material->density_kg_m3;

    CpuSolver solver;
    solver.load(world);
    const glm::dvec3 before = linear_momentum(*world->mesh, velocities_now(solver), density);
    const auto centre_distance = [&] {
        const std::vector<BodyStats> b = compute_body_stats(*world, positions_now(solver));
        return glm::length(b[1].centroid_m - b[0].centroid_m);
    };
    float closest = centre_distance();
    int closest_frame = 0;
    double worst_momentum_error = 0.0;
    for (int f = 1; f <= 60; ++f) {
        solver.step_frame(params);
        const glm::dvec3 now = linear_momentum(*world->mesh, velocities_now(solver), density);
        worst_momentum_error = std::max(worst_momentum_error, glm::length(now - before));
        const float distance = centre_distance();
        if (distance < closest) {
            closest = distance;
            closest_frame = f;
        }
    }
    const std::vector<glm::vec3> v = velocities_now(solver);
    const glm::dvec3 after = linear_momentum(*world->mesh, v, density);
    const double relative_error = glm::length(after - before) / glm::length(before);
    const double separating_m_s = body_velocity(*world, v, 1).x - body_velocity(*world, v, 0).x;
    const double depth = deepest_penetration_m(*world, positions_now(solver));
    std::printf("momentum before (%.4f, %.4f, %.4f), after (%.4f, %.4f, %.4f) kg m/s: "
                "relative error %.3g at the end, %.3g at worst\n",
                before.x, before.y, before.z, after.x, after.y, after.z, relative_error,
                worst_momentum_error / glm::length(before));
    std::printf("centres closest %.4f m at frame %d, %.4f m at frame 60; separating at %.3f m/s; "
                "deepest penetration %.3g m\n",
                closest, closest_frame, centre_distance(), separating_m_s, depth);
    // Measured: 1.4e-7 relative error (4.4e-4 while each vertex took the
    // mean of its contacts, which did not keep momentum; the bound
    // was 1%); closest at frame 12, then apart at 2.26 m/s (from 4 m/s
    // closing); nothing inside the other.
    EXPECT_LT(relative_error, 1e-5);
    EXPECT_LT(worst_momentum_error / glm::length(before), 1e-5) << "during the impact too";
    EXPECT_GT(closest_frame, 0) << "they met";
    EXPECT_LT(closest_frame, 60) << "and parted";
    EXPECT_GT(centre_distance(), closest + 0.05f);
    EXPECT_GT(separating_m_s, 0.1) << "moving apart";
    EXPECT_LE(depth, kContactThicknessM);
}

TEST(BodyContact, CubeThrownAtAPinnedPlateDoesNotTunnelThrough)
{
    // A 0.1 m plate held still by pinning every vertex, and a 0.2 m cube
    // thrown straight down at it at 10 m/s, no gravity: 17 mm per substep,
    // a sixth of the plate's thickness.
    const float plate_top = 1.0f;
    const float plate_thickness = 0.1f;
    WorldDesc desc = weightless_world("plate");
    BodyDesc plate = lattice_box("plate", {0.8f, plate_thickness, 0.8f}, {8, 2, 8},
                                 {0.0f, plate_top - 0.5f * plate_thickness, 0.0f});
    for (uint32_t v = 0; v < plate.mesh.positions.size(); ++v) {
        plate.mesh.pinned_vertices.push_back(v);
    }
    desc.bodies.push_back(plate);
    desc.bodies.push_back(lattice_cube(0.2f, 4, {0.05f, plate_top + 0.25f, -0.03f}));
    desc.bodies[1].velocity_m_s = {0.0f, -10.0f, 0.0f};
    const std::shared_ptr<const World> world = assembled(desc);
    ASSERT_TRUE(world);
    const float far_face = plate_top - plate_thickness;

    for (const bool contact : {true, false}) {
        CpuSolver solver;
        solver.load(world);
        SimParams params = world_params(*world);
        params.body_contact = contact;
        float lowest = INFINITY;  // of the cube, over the whole run
        double deepest = 0.0;
        for (int f = 0; f < 30; ++f) {  // half a second; it reaches the plate in the first frame
            solver.step_frame(params);
            const std::vector<glm::vec3> p = positions_now(solver);
            lowest = std::min(lowest, compute_body_stats(*world, p)[1].min_y_m);
            deepest = std::max(deepest, deepest_penetration_m(*world, p));
        }
        const glm::dvec3 v = body_velocity(*world, velocities_now(solver), 1);
        std::printf("contact %s: cube's lowest vertex y %.4f m (plate top %.2f m, far face %.2f "
                    "m), deepest penetration %.3g m, cube's velocity y %.3f m/s at 0.5 s\n",
                    contact ? "on" : "off", lowest, plate_top, far_face, deepest, v.y);
        if (contact) {
            // Measured: the lowest vertex stops exactly one contact
            // thickness above the plate (1.0040 m); nothing inside it.
            EXPECT_GT(lowest, far_face) << "no vertex went through the plate";
            EXPECT_GT(lowest, plate_top - kContactThicknessM) << "nor into it";
            EXPECT_LE(deepest, kContactThicknessM);
            EXPECT_GT(v.y, 0.0) << "it bounced back";
        } else {
            EXPECT_LT(lowest, far_face - 0.1f) << "without contact it flies through";
        }
    }
}

namespace {

struct FoldOutcome {
    double end_depth_m = 0.0;  // deepest the free end went into the beam's far part
    double deepest_m = 0.0;    // measure_penetration over the whole beam, deepest
    glm::vec3 end_m{0.0f};     // where the free end is at the end
};

// The beam preset (pinned at its left face, x = -0.6 m; no gravity, so that
// the soft default material stays straight), the middle of its free end's
// top edge grabbed, lifted 0.8 m, carried back over the beam and pressed
// `press_m` below the top face of the beam's middle in 2 s, and held there
// for 1 s: folded onto itself. The grab holds that one vertex (no patch), so
// that it is the vertex that is pressed in. The wobble damping stills the
// fold as it goes; without it the beam swings through it.
FoldOutcome fold_beam_end_onto_its_middle(float press_m, bool contact,
                                          float wobble_damping_per_s)
{
    Result<TetMeshDesc> beam = make_preset_mesh(PresetId::beam);
    EXPECT_TRUE(beam.ok()) << beam.error();
    const std::shared_ptr<const TetMesh> mesh = prepare_or_fail(beam.value());
    const std::shared_ptr<const World> world = single_body_world(mesh);
    const glm::vec3 end_rest(0.6f, 1.4f, 0.0f);
    uint32_t end = 0;
    for (uint32_t v = 0; v < mesh->vertex_count(); ++v) {
        if (glm::length(mesh->rest_positions[v] - end_rest) < 1e-4f) end = v;
    }
    EXPECT_LT(glm::length(mesh->rest_positions[end] - end_rest), 1e-4f);
    // What the self-contact leaves alone (body_contacts.h): the vertex's
    // neighbourhood, 0.28 m here.
    const float neighbourhood_m =
        ContactLayout::make(*world).rest_exclusion_m[0];

    CpuSolver solver;
    solver.load(world);
    SimParams params;
    params.gravity_m_s2 = glm::vec3(0.0f);
    params.body_contact = contact;
    params.wobble_damping_per_s = wobble_damping_per_s;
    const glm::vec3 pressed(-0.6f, -press_m, 0.0f);  // from the end to the middle's top, and down
    DragScript script({DragSpec{0, 40, end, {0.0f, 0.8f, 0.0f}},
                       DragSpec{40, 80, end, {-0.7f, 0.6f, 0.0f}},
                       DragSpec{80, 120, end, pressed},
                       DragSpec{120, 180, end, pressed}},
                      kDefaultGrabStiffness, 0.0f);  // the end's one vertex, pressed in
    FoldOutcome out;
    for (int f = 0; f < 180; ++f) {
        script.before_frame(f, solver);
        solver.step_frame(params);
        const std::vector<glm::vec3>& p = solver.positions();
        out.end_depth_m =
            std::max(out.end_depth_m, depth_in_far_part(*mesh, p, end, neighbourhood_m));
        out.deepest_m = std::max(out.deepest_m, deepest_penetration_m(*world, p));
    }
    out.end_m = solver.read_position(end);
    std::printf("pressed %.2f m, contact %s: free end at (%.3f, %.3f, %.3f) m, at most %.4f m "
                "inside the beam's far part; whole beam's deepest penetration %.4f m\n",
                press_m, contact ? "on" : "off", out.end_m.x, out.end_m.y, out.end_m.z,
                out.end_depth_m, out.deepest_m);
    return out;
}

}  // namespace

TEST(BodyContact, BeamEndPressedOntoItsMiddleStaysOutOfIt)
{
    // Pressed 0.1 m into the swinging beam, the free end stays out of it
    // (measured: 0 deep; 0.04-0.07 m without contact, over press points 5 cm
    // either way). The wobble damping is off: with it the still beam's middle
    // gives way under the fold by 0.14 m, and a press of 0.1 m does not reach
    // it even without contact (the next test presses deeper with it on).
    const FoldOutcome with = fold_beam_end_onto_its_middle(0.1f, true, 0.0f);
    const FoldOutcome without = fold_beam_end_onto_its_middle(0.1f, false, 0.0f);
    EXPECT_LE(with.end_depth_m, 3e-3) << "the free end stays out of the beam";
    EXPECT_GT(without.end_depth_m, 0.02) << "without contact the same drag pushes it in";
    // The beam's deepest vertex with contact lies in the bend (measured
    // 0.011-0.012 m): the inner faces of a fold tighter than the body's
    // contact neighbourhood are squeezed into each other, which the
    // self-contact does not look at by design (ContactLayout::rest_exclusion_m).
    EXPECT_LT(with.deepest_m, 0.025);
}

TEST(BodyContact, BeamEndPressedDeepIntoItsMiddleStaysOutOfIt)
{
    // Pressed 0.2 m into the beam with the default grab and damping, the free
    // end stays out of it (measured: 0 deep; 0.032 m without contact, 0.116
    // without the wobble damping, whose still beam gives way under the fold).
    // Before a vertex found behind a triangle of its own body, beyond its
    // neighbourhood, was pushed back out like one of another body's, it went
    // through (0.10 m).
    const SimParams defaults;
    const FoldOutcome with =
        fold_beam_end_onto_its_middle(0.2f, true, defaults.wobble_damping_per_s);
    const FoldOutcome without =
        fold_beam_end_onto_its_middle(0.2f, false, defaults.wobble_damping_per_s);
    EXPECT_GT(without.end_depth_m, 0.02) << "without contact the drag pushes it in";
    EXPECT_LE(with.end_depth_m, 3e-3) << "the free end stays out of its own body";
}

TEST(BodyContact, ABodySquashedFlatterThanTheSearchRadiusDoesNotTouchItself)
{
    // A 0.5 m cube squashed to 2 cm, every tet the right way out: each top
    // vertex lies behind the bottom faces under it, 2 cm away, far from its
    // neighbourhood. That is the body's inside, not a contact: pushed out
    // through the bottom, the top vertices turned the tets between inside out
    // (cm_pair_behind_may_touch). Two such cubes laid one on the other still
    // touch each other.
    WorldDesc desc = weightless_world("squashed cubes");
    desc.bodies.push_back(lattice_cube(0.5f, 6, {0.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.5f, 6, {0.0f, 2.0f, 0.0f}));
    const std::shared_ptr<const World> world = assembled(desc);
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    std::vector<glm::vec3> x = mesh.rest_positions;
    const float squash = 0.04f;
    for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        // Each to 2 cm about y = 1 m, the second cube's bottom 1 mm above the first's top.
        const float centre = world->vertex_body[v] == 0 ? 1.0f : 1.021f;
        const float rest_centre = world->vertex_body[v] == 0 ? 1.0f : 2.0f;
        x[v].y = centre + squash * (mesh.rest_positions[v].y - rest_centre);
    }
    ASSERT_EQ(compute_stats(mesh, x, {}).inverted_tets, 0u);
    // Behind their own bottom faces within reach: what was pushed before.
    size_t behind_own = 0;
    const ContactLayout layout = ContactLayout::make(*world);
    for (const uint32_t v : layout.surface_vertices) {
        for (uint32_t f = 0; f < mesh.surface_triangles.size(); ++f) {
            const glm::uvec3& t = mesh.surface_triangles[f];
            behind_own += layout.triangle_body[f] == world->vertex_body[v] &&
                          contact_math::cm_behind_triangle(x[v], x[t.x], x[t.y], x[t.z]) &&
                          contact_math::cm_point_triangle_distance(x[v], x[t.x], x[t.y], x[t.z]) <
                              kContactSearchRadiusM &&
                          !contact_math::cm_rest_neighbours(
                              mesh.rest_positions[v], mesh.rest_positions[t.x],
                              mesh.rest_positions[t.y], mesh.rest_positions[t.z],
                              layout.rest_exclusion_m[world->vertex_body[v]]);
        }
    }
    BodyContacts contacts;
    contacts.load(*world);
    WorkerTeam one(1);
    contacts.find(x, one);
    size_t own_behind = 0;
    size_t across = 0;
    for (size_t s = 0; s < layout.surface_vertices.size(); ++s) {
        const uint32_t v = layout.surface_vertices[s];
        for (uint32_t i = 0; i < kContactsPerVertex; ++i) {
            const uint32_t f = contacts.candidate_triangles()[s * kContactsPerVertex + i];
            if (f == kNoContact) continue;
            const glm::uvec3& t = mesh.surface_triangles[f & ~contact_math::CM_DEEP_PAIR];
            if (layout.triangle_body[f & ~contact_math::CM_DEEP_PAIR] != world->vertex_body[v]) {
                ++across;
            } else if (contact_math::cm_behind_triangle(x[v], x[t.x], x[t.y], x[t.z])) {
                ++own_behind;
            }
        }
    }
    std::printf("%zu vertex-face pairs across a body within reach; candidates: %zu of them, "
                "%zu between the two bodies\n",
                behind_own, own_behind, across);
    EXPECT_GT(behind_own, 100u);
    EXPECT_EQ(own_behind, 0u);
    EXPECT_GT(across, 20u);
}

TEST(BodyContact, DeepVerticesAreExactlyThoseInsideAnotherBodysTets)
{
    // Three cubes overlapping each other and one far from them: the search
    // lists only the tets near another body, and must still find every
    // surface vertex that lies in another body's tet, as a look at every
    // tet does.
    const std::shared_ptr<const World> world = assembled(overlapping_cubes());
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    const std::vector<glm::vec3>& x = mesh.rest_positions;
    BodyContacts contacts;
    contacts.load(*world);
    WorkerTeam one(1);
    contacts.find(x, one);
    size_t inside = 0;
    for (const uint32_t v : contacts.layout().surface_vertices) {
        for (size_t t = 0; t < mesh.tets.size(); ++t) {
            const glm::uvec4& tet = mesh.tets[t];
            if (tet_body(*world, t) != world->vertex_body[v] &&
                contact_math::cm_inside_tet(x[v], x[tet.x], x[tet.y], x[tet.z], x[tet.w])) {
                ++inside;
                break;
            }
        }
    }
    std::printf("%zu surface vertices inside another body's tets; the search found %zu\n",
                inside, contacts.deep_vertex_count());
    EXPECT_GT(inside, 20u);
    EXPECT_EQ(contacts.deep_vertex_count(), inside);
}

// The candidates a look at every surface triangle and every tet picks for
// each surface vertex of the world at `x`: the nearest within the search
// radius, apart from the vertex's own neighbourhood and its own body's
// faces it lies behind, one face behind per other body, and the deep pair
// of the least exit triangle over the other bodies' tets that hold it
// (BodyContacts::find's result, without its hashes, near
// lists, boxes or rest spheres).
static std::vector<uint32_t> candidates_of_a_look_at_everything(const World& world,
                                                         const ContactLayout& layout,
                                                         const std::vector<glm::vec3>& x)
{
    namespace cm = contact_math;
    const TetMesh& mesh = *world.mesh;
    const std::vector<glm::vec3>& rest = mesh.rest_positions;
    std::vector<uint32_t> candidates;
    for (const uint32_t v : layout.surface_vertices) {
        const uint32_t body = world.vertex_body[v];
        cm::CmNearest picked;
        cm::cm_nearest_clear(picked);
        for (uint32_t f = 0; f < mesh.surface_triangles.size(); ++f) {
            const glm::uvec3& t = mesh.surface_triangles[f];
            if (layout.triangle_body[f] == body &&
                cm::cm_rest_neighbours(rest[v], rest[t.x], rest[t.y], rest[t.z],
                                       layout.rest_exclusion_m[body])) {
                continue;
            }
            if (!cm::cm_near_triangle_box(x[v], x[t.x], x[t.y], x[t.z], kContactSearchRadiusM)) {
                continue;
            }
            const float d = cm::cm_point_triangle_distance(x[v], x[t.x], x[t.y], x[t.z]);
            if (d < kContactSearchRadiusM) {
                const bool behind = cm::cm_behind_triangle(x[v], x[t.x], x[t.y], x[t.z]);
                if (behind && layout.triangle_body[f] == body) {
                    continue;  // across its own body (cm_pair_behind_may_touch)
                }
                cm::cm_nearest_insert(picked, kContactsPerVertex, f,
                                      d, 2u * layout.triangle_body[f] + (behind ? 1u : 0u));
            }
        }
        cm::cm_nearest_keep_one_behind_per_body(picked, kContactsPerVertex);
        uint32_t exit = kNoContact;
        for (size_t t = 0; layout.tets_hashed() && t < mesh.tets.size(); ++t) {
            const glm::uvec4& tet = mesh.tets[t];
            if (tet_body(world, t) != body &&
                cm::cm_inside_tet(x[v], x[tet.x], x[tet.y], x[tet.z], x[tet.w])) {
                exit = std::min(exit, layout.tet_exit_triangle[t]);
            }
        }
        if (exit != kNoContact) {
            const glm::uvec3& e = mesh.surface_triangles[exit];
            cm::cm_add_deep_pair(picked, kContactsPerVertex, exit, layout.triangle_body[exit],
                                 cm::cm_behind_triangle(x[v], x[e.x], x[e.y], x[e.z]));
        }
        candidates.insert(candidates.end(), picked.triangle, picked.triangle + kContactsPerVertex);
    }
    return candidates;
}

TEST(BodyContact, CandidatesAreThoseOfALookAtEveryTriangleAndTet)
{
    // A bar folded into a hairpin, its legs' inner faces 2 cm apart: it
    // meets its own far part, and along the fold its own triangles come
    // within reach from about its neighbourhood's edge in the rest shape,
    // where the rest spheres may not decide. Two cubes overlap each other
    // (other-body pairs, vertices deep inside). A coarse cube far from them
    // sets the cells, large enough that the fold's stretched triangles and
    // tets are listed whole (past 1.5 times their size a hash lists them
    // partly, on both solvers). The search's hashes, boxes and rest spheres
    // must pick exactly what a look at everything picks.
    WorldDesc desc = weightless_world("hairpin and cubes");
    desc.bodies.push_back(
        lattice_box("bar", {1.2f, 0.06f, 0.1f}, {24, 2, 2}, {0.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.2f, 4, {3.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.2f, 4, {3.15f, 1.05f, 0.03f}));
    desc.bodies.push_back(lattice_cube(0.6f, 3, {-3.0f, 1.0f, 0.0f}));
    const std::shared_ptr<const World> world = assembled(desc);
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    std::vector<glm::vec3> x = mesh.rest_positions;
    const WorldBody& bar = world->bodies[0];
    const float fold_radius = 0.04f;  // of the bar's middle: its inner face 1 cm from the axis
    const float fold_length = 3.14159265f * fold_radius;
    for (uint32_t v = bar.first_vertex; v < bar.first_vertex + bar.vertex_count; ++v) {
        // Past x = 0 the bar goes round a half circle about (0, 0.96, 0) and
        // back along -x below itself.
        const glm::vec3 r = mesh.rest_positions[v] - glm::vec3(0.0f, 1.0f, 0.0f);
        if (r.x <= 0.0f) {
            x[v] = glm::vec3(r.x, 1.0f + r.y, r.z);
            continue;
        }
        const float angle = std::min(r.x, fold_length) / fold_radius;
        const float radius = fold_radius + r.y;
        const glm::vec3 on_fold(radius * std::sin(angle), 0.96f + radius * std::cos(angle), r.z);
        x[v] = on_fold - glm::vec3(std::max(r.x - fold_length, 0.0f), 0.0f, 0.0f);
    }
    BodyContacts contacts;
    contacts.load(*world);
    WorkerTeam two(2);
    contacts.find(x, two);
    const std::vector<uint32_t> expected =
        candidates_of_a_look_at_everything(*world, contacts.layout(), x);
    const auto count = [](const std::vector<uint32_t>& c) {
        return std::count_if(c.begin(), c.end(), [](uint32_t f) { return f != kNoContact; });
    };
    const auto bar_triangle = [&](uint32_t f) {
        return f != kNoContact && contacts.layout().triangle_body[f & ~contact_math::CM_DEEP_PAIR] == 0;
    };
    size_t bar_with_bar = 0;
    size_t deep = 0;
    for (size_t s = 0; s < contacts.layout().surface_vertices.size(); ++s) {
        const uint32_t v = contacts.layout().surface_vertices[s];
        for (uint32_t i = 0; i < kContactsPerVertex; ++i) {
            const uint32_t f = expected[s * kContactsPerVertex + i];
            bar_with_bar += world->vertex_body[v] == 0 && bar_triangle(f) ? 1 : 0;
            deep += f != kNoContact && (f & contact_math::CM_DEEP_PAIR) != 0 ? 1 : 0;
        }
    }
    std::printf("%td candidate pairs, %zu of the bar with itself, %zu deep\n", count(expected),
                bar_with_bar, deep);
    EXPECT_GT(bar_with_bar, 50u) << "the hairpin's legs face each other";
    EXPECT_GT(deep, 10u) << "the cubes lie partly inside each other";
    EXPECT_EQ(contacts.candidate_triangles(), expected);
}

TEST(BodyContact, AnIterationsContactCorrectionsKeepMomentum)
{
    // Two cubes of different lattices (so that a vertex and the corners it
    // pushes meet different numbers of pairs) pressed 1.5 cm into each
    // other, the upper one sliding over the lower at 0.5 m/s, and one
    // iteration's contact step with friction: mass times the corrections
    // sums to zero. While each vertex took the mean of its contacts'
    // corrections, it did not (docs/algorithm.md, 5).
    WorldDesc desc = weightless_world("two cubes pressed together");
    desc.bodies.push_back(lattice_cube(0.2f, 4, {0.0f, 1.0f, 0.0f}));
    desc.bodies.push_back(lattice_cube(0.2f, 5, {0.03f, 1.185f, 0.02f}));
    const std::shared_ptr<const World> world = assembled(desc);
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    const std::vector<float> w = inverse_masses(mesh, 1000.0f);
    std::vector<glm::vec3> positions = mesh.rest_positions;
    const std::vector<glm::vec3> predicted = positions;
    std::vector<glm::vec3> corrections(mesh.vertex_count(), glm::vec3(0.0f));
    std::vector<glm::vec3> velocities(mesh.vertex_count(), glm::vec3(0.1f, -0.2f, 0.05f));
    const WorldBody& upper = world->bodies[1];
    for (uint32_t v = upper.first_vertex; v < upper.first_vertex + upper.vertex_count; ++v) {
        velocities[v] += glm::vec3(0.4f, 0.0f, 0.3f);  // sliding: friction has work to do
    }
    BodyContacts contacts;
    contacts.load(*world);
    WorkerTeam one(1);
    contacts.find(positions, one);
    contacts.solve(positions, predicted, corrections, velocities, w, 1.0f / 600.0f, 0.6f, 0.4f,
                   one);
    glm::dvec3 momentum(0.0);
    double moved = 0.0;  // the sum of mass times each correction's length
    for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        momentum += glm::dvec3(corrections[v]) / static_cast<double>(w[v]);
        moved += glm::length(glm::dvec3(corrections[v])) / static_cast<double>(w[v]);
    }
    std::printf("%zu vertices moved; mass times corrections (%.3e, %.3e, %.3e) kg m, %.3e kg m "
                "moved in all\n",
                contacts.moved_vertices().size(), momentum.x, momentum.y, momentum.z, moved);
    EXPECT_GT(contacts.moved_vertices().size(), 50u) << "the cubes overlap";
    EXPECT_LT(glm::length(momentum), 1e-4 * moved);
}

TEST(BodyContact, CubeWhollyInsideABlockIsPushedOutThroughTheNearestFace)
{
    // No surface of the block lies within the search radius of the small
    // cube: only the tets that hold its vertices know it is inside, and
    // their way out, the block's +x face. Without contact it stays inside.
    const std::shared_ptr<const World> world = assembled(cube_inside_block());
    ASSERT_TRUE(world);
    for (const bool contact : {true, false}) {
        CpuSolver solver;
        solver.load(world);
        SimParams params = world_params(*world);
        params.body_contact = contact;
        const double depth_before = deepest_penetration_m(*world, positions_now(solver));
        run_frames(solver, params, 1);
        const size_t deep_at_start = solver.body_contacts().deep_vertex_count();
        run_frames(solver, params, 119);  // 2 s
        const std::vector<glm::vec3> p = positions_now(solver);
        const std::vector<BodyStats> bodies = compute_body_stats(*world, p);
        const double depth = deepest_penetration_m(*world, p);
        float cube_min_x = INFINITY;
        const WorldBody& cube = world->bodies[1];
        for (uint32_t v = cube.first_vertex; v < cube.first_vertex + cube.vertex_count; ++v) {
            cube_min_x = std::min(cube_min_x, p[v].x);
        }
        float block_max_x = -INFINITY;
        const WorldBody& block = world->bodies[0];
        for (uint32_t v = block.first_vertex; v < block.first_vertex + block.vertex_count; ++v) {
            block_max_x = std::max(block_max_x, p[v].x);
        }
        std::printf("contact %s: deepest %.4f m at the start, %zu surface vertices found "
                    "inside; after 2 s deepest %.3g m, the cube's lowest x %.4f m, the block's "
                    "highest x %.4f m, inverted tets %zu\n",
                    contact ? "on" : "off", depth_before, deep_at_start, depth, cube_min_x,
                    block_max_x, bodies[0].inverted_tets + bodies[1].inverted_tets);
        EXPECT_GT(depth_before, 0.09);
        if (contact) {
            const std::vector<uint32_t>& surface = solver.body_contacts().layout().surface_vertices;
            EXPECT_EQ(deep_at_start, static_cast<size_t>(std::count_if(
                                         surface.begin(), surface.end(),
                                         [&](uint32_t v) { return world->vertex_body[v] == 1; })))
                << "every surface vertex of the cube is found inside";
            EXPECT_LE(depth, 1e-3) << "pushed out";
            EXPECT_GT(cube_min_x, block_max_x - 0.01f) << "through the nearest face, +x";
            EXPECT_EQ(bodies[0].inverted_tets + bodies[1].inverted_tets, 0u);
        } else {
            EXPECT_GT(depth, 0.09) << "without contact it stays inside";
        }
    }
}

TEST(BodyContact, RunsAreBitIdenticalWhateverTheThreadCount)
{
    // A cube dropped on a cube, fine enough (2 x 3,072 tets) that a second
    // thread gets a share of every colour and of the contact search.
    const std::shared_ptr<const World> world = assembled(cube_dropped_on_cube(8));
    ASSERT_TRUE(world);
    const SimParams params = world_params(*world);
    const auto run = [&](int threads) {
        CpuSolver solver;
        solver.set_threads(threads);
        solver.load(world);
        EXPECT_EQ(solver.threads_in_use(), threads);
        const auto start = std::chrono::steady_clock::now();
        run_frames(solver, params, 45);  // they meet at frame 6 and are still in contact
        std::printf("%d thread%s: %.2f s for 45 frames, deepest penetration %.3g m\n", threads,
                    threads == 1 ? "" : "s", seconds_since(start),
                    deepest_penetration_m(*world, solver.positions()));
        return std::make_pair(solver.positions(), solver.velocities());
    };
    const auto first = run(1);
    const auto again = run(1);
    const auto two_threads = run(2);
    const size_t bytes = first.first.size() * sizeof(glm::vec3);
    EXPECT_EQ(std::memcmp(first.first.data(), again.first.data(), bytes), 0) << "positions";
    EXPECT_EQ(std::memcmp(first.second.data(), again.second.data(), bytes), 0) << "velocities";
    EXPECT_EQ(std::memcmp(first.first.data(), two_threads.first.data(), bytes), 0) << "positions";
    EXPECT_EQ(std::memcmp(first.second.data(), two_threads.second.data(), bytes), 0)
        << "velocities";
    // And the comparison is of bodies that touched: the upper one landed.
    const std::vector<BodyStats> bodies = compute_body_stats(*world, first.first);
    EXPECT_LT(bodies[1].min_y_m, body_max_y(*world, first.first, 0) + 2.0f * kContactThicknessM);
}

TEST(BodyContact, BodiesFlyingTogetherKeepTheirNearLists)
{
    // Two cubes side by side thrown together, gravity on, the ground far
    // below: they fall 1.5 m and move 1.7 m sideways in the half second,
    // far past the lists' skin, but not beside each other, so the lists of
    // the first substep serve throughout. A spin of one of them is
    // movement beside the bodies, and the lists are searched again.
    const auto thrown_pair = [](glm::vec3 spin_rad_s) {
        WorldDesc desc = cube_dropped_on_cube(4);
        desc.ground = false;
        desc.bodies[1].position_m = glm::vec3(2.0f * kStackedCubeSideM, 0.5f * kStackedCubeSideM,
                                              0.0f);
        for (BodyDesc& body : desc.bodies) {
            body.velocity_m_s = glm::vec3(3.5f, 0.0f, 0.0f);
        }
        desc.bodies[1].angular_velocity_rad_s = spin_rad_s;
        return assembled(desc);
    };
    const std::shared_ptr<const World> world = thrown_pair(glm::vec3(0.0f));
    ASSERT_TRUE(world);
    CpuSolver flying;
    flying.load(world);
    run_frames(flying, world_params(*world), 30);
    EXPECT_EQ(flying.body_contacts().search_count(), 1u);
    const glm::vec3 travelled =
        flying.positions()[0] - world->mesh->rest_positions[0];
    EXPECT_GT(std::abs(travelled.x), 1.5f) << travelled.x;
    EXPECT_LT(travelled.y, -1.0f) << travelled.y;

    const std::shared_ptr<const World> spinning = thrown_pair(glm::vec3(0.0f, 0.0f, 2.0f));
    ASSERT_TRUE(spinning);
    CpuSolver spun;
    spun.load(spinning);
    run_frames(spun, world_params(*spinning), 30);
    EXPECT_GT(spun.body_contacts().search_count(), 5u);
}

TEST(BodyContact, ALoneBodyTurningWithoutDeformingKeepsItsNearLists)
{
    // One cube tumbling through free space at 3 rad/s: its far corners move
    // 0.2 m in the half second, beside any one of its vertices as well, but
    // it barely deforms, so the lists of the first substep serve (the
    // self-contact pairs keep their distances under any rigid motion). The
    // same cube dropped on the ground deforms where it lands, and searches
    // again.
    const auto lone_cube = [](bool flying) {
        WorldDesc desc;
        desc.name = "lone cube";
        desc.bodies.push_back(lattice_cube(kStackedCubeSideM, 4, {0.0f, 0.4f, 0.0f}));
        if (flying) {
            desc.gravity_m_s2 = glm::vec3(0.0f);
            desc.ground = false;
            desc.bodies[0].velocity_m_s = glm::vec3(1.0f, 0.5f, 0.0f);
            desc.bodies[0].angular_velocity_rad_s = glm::vec3(0.6f, 3.0f, 1.0f);
        }
        return assembled(desc);
    };
    const std::shared_ptr<const World> flying_world = lone_cube(true);
    ASSERT_TRUE(flying_world);
    CpuSolver flying;
    flying.load(flying_world);
    run_frames(flying, world_params(*flying_world), 30);
    EXPECT_EQ(flying.body_contacts().search_count(), 1u);
    const glm::vec3 corner = flying.positions()[0] - flying.positions()[1];
    const glm::vec3 rest_corner = flying_world->mesh->rest_positions[0] -
                                  flying_world->mesh->rest_positions[1];
    EXPECT_LT(glm::dot(glm::normalize(corner), glm::normalize(rest_corner)), 0.9f)
        << "the cube turned";

    const std::shared_ptr<const World> dropped_world = lone_cube(false);
    ASSERT_TRUE(dropped_world);
    CpuSolver dropped;
    dropped.load(dropped_world);
    run_frames(dropped, world_params(*dropped_world), 30);  // lands at about 0.2 s
    EXPECT_GT(dropped.body_contacts().search_count(), 2u);
}

TEST(BodyContact, NearListsAreSearchedAgainOnlyWhenSomethingMovedAndChangeNothing)
{
    // A cube dropped on a cube: the first substep searches, the fall
    // searches again and again; once both rest, the lists found seconds
    // earlier serve. A solver that starts
    // from the same state with lists searched afresh steps to the same bits:
    // when the lists were searched does not change the contacts.
    const std::shared_ptr<const World> world = assembled(cube_dropped_on_cube(4));
    ASSERT_TRUE(world);
    const SimParams params = world_params(*world);
    CpuSolver running;
    running.load(world);
    SimParams one_substep = params;
    one_substep.substeps = 1;
    running.step_frame(one_substep);
    EXPECT_EQ(running.body_contacts().search_count(), 1u);
    run_frames(running, params, 30);  // falling, then landing
    EXPECT_GT(running.body_contacts().search_count(), 10u);
    run_frames(running, params, 150);  // resting on the lower one
    const uint64_t searched = running.body_contacts().search_count();
    run_frames(running, params, 60);
    const uint64_t at_rest = running.body_contacts().search_count() - searched;
    std::printf("searches in the last second at rest: %llu of 600 substeps\n",
                static_cast<unsigned long long>(at_rest));
    EXPECT_LT(at_rest, 60u);

    CpuSolver fresh;
    fresh.load(world);
    fresh.set_state(running.positions(), running.velocities());
    running.set_state(running.positions(), running.velocities());  // the tets' rotations too
    run_frames(running, params, 30);
    run_frames(fresh, params, 30);
    EXPECT_GE(fresh.body_contacts().search_count(), 1u);
    const size_t bytes = running.positions().size() * sizeof(glm::vec3);
    EXPECT_EQ(std::memcmp(running.positions().data(), fresh.positions().data(), bytes), 0);
    EXPECT_EQ(std::memcmp(running.velocities().data(), fresh.velocities().data(), bytes), 0);

    // Moving the upper cube by more than half the skin makes the next
    // substep search.
    std::vector<glm::vec3> moved = running.positions();
    const WorldBody& upper = world->bodies[1];
    for (uint32_t v = upper.first_vertex; v < upper.first_vertex + upper.vertex_count; ++v) {
        moved[v].x += kContactSkinM;
    }
    const uint64_t before_move = running.body_contacts().search_count();
    running.set_state(moved, running.velocities());
    running.step_frame(one_substep);
    EXPECT_EQ(running.body_contacts().search_count(), before_move + 1);
}
