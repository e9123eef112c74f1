#include "gpu/gpu_solver.h"

#include "gpu/sim_parameters.h"

#include "core/body_materials.h"
#include "core/tet_coloring.h"
#include "core/material.h"
#include "core/substep_math.h"
#include "core/tet_math.h"
#include "core/warm_start.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>

namespace {

// Neighbours a body's list holds on the GPU (MAX_BODY_NEIGHBOURS in
// contact_common.glsl); a body with more tries every body.
constexpr size_t kMaxBodyNeighbours = 63;

// The smallest local_size_x of the passes that cover one item per invocation
// (max_items_per_dispatch); the shaders declare their own sizes.
constexpr GLuint kSmallestGroupSize = 64;

// std430 block PickResult of shaders/pick.comp.
struct PickResultBlock {
    GLuint distance_bits;
    GLuint triangle;
    GLuint corner[3];
    float weight[3];
};

// std430 struct TetRest of shaders/sim_common.glsl.
struct TetRestBlock {
    glm::vec4 b0;  // w rest volume
    glm::vec4 b1;  // w shape compliance
    glm::vec4 b2;  // w volume compliance, -1 without volume term
};

template <typename T>
void upload(GlBuffer& buffer, const std::vector<T>& data, GLenum usage = GL_DYNAMIC_DRAW)
{
    buffer = make_storage_buffer(data, usage);
}

std::vector<glm::vec4> to_vec4(const std::vector<glm::vec3>& v)
{
    std::vector<glm::vec4> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        out[i] = glm::vec4(v[i], 0.0f);
    }
    return out;
}

// Items a workgroup of the chunked sums takes, as the shaders read it.
namespace chunk_size {
using uint = uint32_t;
#include "chunk_size.glsl"
}  // namespace chunk_size
constexpr uint32_t kChunkItems = chunk_size::CHUNK_ITEMS;

GLuint chunks_of(size_t items)
{
    return static_cast<GLuint>((items + kChunkItems - 1) / kChunkItems);
}

// The one-dispatch phases of damp_wobble.comp, contact_rigid_motion.comp
// and contact_hash_scan.comp.
constexpr GLuint kWholeBodiesPhase = 5;
constexpr GLuint kOneChunkPhase = 4;
constexpr GLuint kWholeTablesPhase = 3;

}  // namespace

Result<GpuSolver::Programs> GpuSolver::compile(const ShaderLibrary& shaders)
{
    Programs p;
    struct Entry {
        ComputePass* pass;
        const char* file;
    };
    const Entry entries[] = {{&p.predict, "predict.comp"},
                             {&p.warm_fraction, "warm_fraction.comp"},
                             {&p.solve_tets, "solve_tets.comp"},
                             {&p.apply_deltas, "apply_deltas.comp"},
                             {&p.update_velocities, "update_velocities.comp"},
                             {&p.damp_wobble, "damp_wobble.comp"},
                             {&p.rebuild_normals_faces, "rebuild_normals_faces.comp"},
                             {&p.rebuild_normals_vertices, "rebuild_normals_vertices.comp"},
                             {&p.solve_grab, "solve_grab.comp"},
                             {&p.pick, "pick.comp"},
                             {&p.solve_tets_colored, "solve_tets_colored.comp"},
                             {&p.solve_tets_colored_one_group,
                              "solve_tets_colored_one_group.comp"},
                             {&p.solve_tets_colored_one_group_wide,
                              "solve_tets_colored_one_group_wide.comp"},
                             {&p.solve_tets_region_sweep, "solve_tets_region_sweep.comp"},
                             {&p.solve_tets_region_sweep_narrow,
                              "solve_tets_region_sweep_narrow.comp"},
                             {&p.project_static, "project_static.comp"},
                             {&p.reduce_residual, "reduce_residual.comp"},
                             {&p.contact_rigid_motion, "contact_rigid_motion.comp"},
                             {&p.contact_body_boxes, "contact_body_boxes.comp"},
                             {&p.contact_body_neighbours, "contact_body_neighbours.comp"},
                             {&p.contact_moved, "contact_moved.comp"},
                             {&p.contact_hash_clear, "contact_hash_clear.comp"},
                             {&p.contact_hash_count, "contact_hash_count.comp"},
                             {&p.contact_hash_scan, "contact_hash_scan.comp"},
                             {&p.contact_hash_fill, "contact_hash_fill.comp"},
                             {&p.contact_search, "contact_search.comp"},
                             {&p.contact_pick, "contact_pick.comp"},
                             {&p.contact_count, "contact_count.comp"},
                             {&p.contact_solve, "contact_solve.comp"},
                             {&p.contact_apply, "contact_apply.comp"}};
    for (const Entry& e : entries) {
        Result<GlProgram> program = shaders.compute_program(e.file);
        if (!program) {
            return Result<Programs>::failure(program.error());
        }
        e.pass->program = std::move(program).value();
        GLint size[3] = {1, 1, 1};
        glGetProgramiv(e.pass->program.get(), GL_COMPUTE_WORK_GROUP_SIZE, size);
        e.pass->group_size = static_cast<GLuint>(size[0]);
        std::string name = e.file;
        p.names.emplace_back(e.pass->program.get(), name.substr(0, name.rfind('.')));
    }
    p.predict_clears_multipliers =
        glGetUniformLocation(p.predict.program.get(), "u_clear_tet_multipliers");
    const auto chunked = [](const ComputePass& pass) {
        return Programs::ChunkedUniforms{glGetUniformLocation(pass.program.get(), "u_phase"),
                                         glGetUniformLocation(pass.program.get(), "u_state_base")};
    };
    p.warm_fraction_sums = chunked(p.warm_fraction);
    p.reduce_residual_sums = chunked(p.reduce_residual);
    p.damp_wobble_sums = chunked(p.damp_wobble);
    p.rigid_motion_sums = chunked(p.contact_rigid_motion);
    p.hash_scan_phase = glGetUniformLocation(p.contact_hash_scan.program.get(), "u_phase");
    p.damp_wobble_bodies = glGetUniformLocation(p.damp_wobble.program.get(), "u_bodies");
    const GLuint colored = p.solve_tets_colored.program.get();
    p.color_begin = glGetUniformLocation(colored, "u_color_begin");
    p.color_size = glGetUniformLocation(colored, "u_color_size");
    p.colored_tet_pass = glGetUniformLocation(colored, "u_tet_pass");
    p.jacobi_tet_pass = glGetUniformLocation(p.solve_tets.program.get(), "u_tet_pass");
    const GLuint one_groups[2] = {p.solve_tets_colored_one_group.program.get(),
                                  p.solve_tets_colored_one_group_wide.program.get()};
    for (int i = 0; i < 2; ++i) {
        p.one_group_first_color[i] = glGetUniformLocation(one_groups[i], "u_first_color");
        p.one_group_color_end[i] = glGetUniformLocation(one_groups[i], "u_color_end");
        p.one_group_iterations[i] = glGetUniformLocation(one_groups[i], "u_iterations");
        p.one_group_project_static[i] = glGetUniformLocation(one_groups[i], "u_project_static");
        p.one_group_tet_pass[i] = glGetUniformLocation(one_groups[i], "u_tet_pass");
    }
    const GLuint sweeps[2] = {p.solve_tets_region_sweep.program.get(),
                              p.solve_tets_region_sweep_narrow.program.get()};
    for (int i = 0; i < 2; ++i) {
        p.sweep_start[i] = glGetUniformLocation(sweeps[i], "u_sweep_start");
        p.sweep_colors[i] = glGetUniformLocation(sweeps[i], "u_colors");
        p.sweep_regions[i] = glGetUniformLocation(sweeps[i], "u_regions");
        p.sweep_regions_per_group[i] = glGetUniformLocation(sweeps[i], "u_regions_per_group");
        p.sweep_tet_pass[i] = glGetUniformLocation(sweeps[i], "u_tet_pass");
    }
    return p;
}

Result<std::unique_ptr<GpuSolver>> GpuSolver::create(const ShaderLibrary& shaders)
{
    using R = Result<std::unique_ptr<GpuSolver>>;
    if (gl_context_version() < kMinimumComputeGlVersion) {
        return R::failure("the GPU solver needs OpenGL 4.3 compute shaders; this context is " +
                          gl_context_description());
    }
    Result<Programs> programs = compile(shaders);
    if (!programs) {
        return R::failure(programs.error());
    }
    std::unique_ptr<GpuSolver> solver(new GpuSolver());
    solver->programs_ = std::move(programs).value();
    solver->shaders_ = shaders;
    solver->parameters_ = make_buffer();
    glBindBuffer(GL_UNIFORM_BUFFER, solver->parameters_.get());
    glBufferData(GL_UNIFORM_BUFFER, sizeof(SimParametersBlock), nullptr, GL_DYNAMIC_DRAW);
    solver->grab_anchors_ = make_buffer();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, solver->grab_anchors_.get());
    glBufferData(GL_SHADER_STORAGE_BUFFER, kMaxGrabAnchors * sizeof(GrabAnchorBlock), nullptr,
                 GL_DYNAMIC_DRAW);
    solver->pick_result_ = make_buffer();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, solver->pick_result_.get());
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(PickResultBlock), nullptr, GL_DYNAMIC_READ);
    return R(std::move(solver));
}

size_t GpuSolver::max_items_per_dispatch()
{
    GLint groups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
    return static_cast<size_t>(std::max(groups, 0)) * kSmallestGroupSize;
}

Result<bool> GpuSolver::reload_shaders(const ShaderLibrary& shaders)
{
    Result<Programs> programs = compile(shaders);
    if (!programs) {
        return Result<bool>::failure(programs.error());
    }
    programs_ = std::move(programs).value();
    name_programs_for_profile();
    return true;
}

void GpuSolver::name_programs_for_profile()
{
    for (const auto& [program, name] : programs_.names) {
        profile_.name_program(program, name);
    }
}

void GpuSolver::load(std::shared_ptr<const World> world)
{
    assert(world && world->mesh && "GpuSolver::load needs a world");
    world_ = std::move(world);
    mesh_ = world_->mesh;
    const TetMesh& m = *mesh_;
    const size_t nv = m.vertex_count();
    const size_t nf = m.surface_triangles.size();

    upload_body_at_rest();
    materials_.clear();
    refresh_materials(SimParams());
    small_tet_sizes_m_ = small_tet_sizes_m(*world_);
    upload(buffers_[kNormals], std::vector<glm::vec4>(nv, glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)));

    upload(buffers_[kTets], m.tets, GL_STATIC_DRAW);
    // The Jacobi pass's corrections per tet corner (64 bytes a tet) and each
    // vertex's corner slots (16 bytes a tet and 4 a vertex) are made when it
    // first runs (size_jacobi_deltas); until then each buffer holds the 16
    // bytes that binding it to its block needs.
    upload(buffers_[kDeltas], std::vector<glm::vec4>());
    upload(buffers_[kSlotOffsets], std::vector<uint32_t>());
    upload(buffers_[kSlotEntries], std::vector<uint32_t>());
    jacobi_delta_slots_ = 0;

    upload(buffers_[kFaceNormals], std::vector<glm::vec4>(nf, glm::vec4(0.0f)));
    upload(buffers_[kFaceOffsets], m.vertex_triangles.offsets, GL_STATIC_DRAW);
    upload(buffers_[kFaceEntries], m.vertex_triangles.entries, GL_STATIC_DRAW);
    upload(color_tets_, m.tet_colors.entries, GL_STATIC_DRAW);
    upload(color_offsets_, m.tet_colors.offsets, GL_STATIC_DRAW);
    upload_contact_layout();
    upload_chunk_tables();

    grab_.reset();
    grab_max_step_m_ = grab_max_step_m(m);
    mean_residual_.reset();
    drop_residual_readouts();
    for (ResidualReadout& readout : residual_readouts_) {
        if (!readout.result) {
            readout.result = make_buffer();
            glBindBuffer(GL_SHADER_STORAGE_BUFFER, readout.result.get());
            glBufferData(GL_SHADER_STORAGE_BUFFER, 16, nullptr, GL_DYNAMIC_READ);
        }
    }
    upload_parameters(SimParams());
    const auto color_size = [&](size_t c) { return m.tet_colors.end(c) - m.tet_colors.begin(c); };
    uint32_t largest_color = 0;
    for (size_t c = 0; c < m.tet_colors.rows(); ++c) {
        largest_color = std::max(largest_color, color_size(c));
    }
    upload_region_sweeps();
    const uint32_t swept_colors = sweeps_.empty() ? 0u : sweeps_.back().color_end;
    // The tail of colours that each fill at most one workgroup of the
    // per-colour pass (merging a single colour would save nothing).
    first_merged_color_ = static_cast<uint32_t>(m.tet_colors.rows());
    while (first_merged_color_ > swept_colors &&
           color_size(first_merged_color_ - 1) <= programs_.solve_tets_colored.group_size) {
        --first_merged_color_;
    }
    if (m.tet_colors.rows() - first_merged_color_ < 2) {
        first_merged_color_ = static_cast<uint32_t>(m.tet_colors.rows());
    }
    colors_in_one_group_ = false;
    one_group_wide_ = false;
    sweep_mode_ = SweepMode::off;
    tet_pass_layout_ = "colour by colour (a colour too large for one group: nothing timed)";
    const bool merged_tail = first_merged_color_ < m.tet_colors.rows();
    const bool small_colors = sweeps_.empty() && largest_color <= kOneGroupLargestColor;
    std::string group_width;
    if (merged_tail || small_colors) {
        // The width first: the layouts below are timed with it.
        one_group_wide_ = wide_group_is_faster(small_colors ? 0 : first_merged_color_, group_width);
    }
    if (!sweeps_.empty()) {
        // A mesh this large would leave all but one of the GPU's (or
        // llvmpipe's) cores idle in one group.
        sweep_mode_ = fastest_sweep_mode();
    } else if (small_colors) {
        colors_in_one_group_ = one_group_is_faster();
        if (!colors_in_one_group_ && merged_tail) {
            // The group runs the small colours' tail only: its width is
            // timed on them.
            one_group_wide_ = wide_group_is_faster(first_merged_color_, group_width);
        }
    }
    if (colors_in_one_group_ || merged_tail) {
        tet_pass_layout_ += "; " + group_width;
    }
    upload_body_at_rest();  // undo the timed iterations
    upload_parameters(SimParams());
    // Normals of the initial pose, so that it draws lit before the first step.
    rebuild_normals();
}

void GpuSolver::refresh_materials(const SimParams& params)
{
    if (!update_body_materials(*world_, params, materials_)) {
        return;
    }
    const MaterialArrays arrays = material_arrays(*world_, materials_);
    const TetMesh& m = *mesh_;
    std::vector<TetRestBlock> rests(m.tet_count());
    for (size_t t = 0; t < rests.size(); ++t) {
        const glm::mat3 B = inv_rest_shape(m, t);
        rests[t] = {glm::vec4(B[0], m.rest_volumes_m3[t]),
                    glm::vec4(B[1], arrays.shape_compliance[t]),
                    glm::vec4(B[2], arrays.volume_compliance[t])};
    }
    upload(buffers_[kTetRests], rests);
    upload(buffers_[kInverseMasses], arrays.inverse_masses);
}

void GpuSolver::upload_contact_layout()
{
    const TetMesh& m = *mesh_;
    contact_layout_ = ContactLayout::make(*world_);
    // The surface triangles' corners, then the far corners beyond their
    // edges (ContactLayout::triangle_far_corners), 3 a triangle each.
    std::vector<uint32_t> triangles;
    triangles.reserve(m.surface_triangles.size() * 6);
    for (const glm::uvec3& f : m.surface_triangles) {
        triangles.insert(triangles.end(), {f.x, f.y, f.z});
    }
    for (const glm::uvec3& far : contact_layout_.triangle_far_corners) {
        triangles.insert(triangles.end(), {far.x, far.y, far.z});
    }
    upload(buffers_[kTriangles], triangles, GL_STATIC_DRAW);
    std::vector<glm::vec4> vertices(m.vertex_count());
    for (size_t v = 0; v < vertices.size(); ++v) {
        float body = 0.0f;
        std::memcpy(&body, &world_->vertex_body[v], sizeof body);  // uintBitsToFloat
        vertices[v] = glm::vec4(m.rest_positions[v], body);
    }
    upload(contact_vertices_, vertices, GL_STATIC_DRAW);
    // The triangles' table, then the tets' (contact_common.glsl).
    const size_t buckets = contact_layout_.table_size;
    const size_t triangle_table =
        2 * buckets + 1 + kMaxCellsPerTriangle * m.surface_triangles.size();
    hashed_tets_ = contact_layout_.tets_hashed() ? static_cast<uint32_t>(m.tet_count()) : 0u;
    const size_t tet_table = contact_layout_.tets_hashed()
                                 ? 2 * size_t{contact_layout_.tet_table_size} + 1 +
                                       kMaxCellsPerTet * size_t{hashed_tets_}
                                 : 0;
    tet_table_base_ = static_cast<uint32_t>(triangle_table);
    // Then, where the tets are hashed, each body's box and neighbours at the
    // search (contact_common.glsl).
    body_boxes_base_ = static_cast<uint32_t>(triangle_table + tet_table);
    const size_t body_boxes =
        contact_layout_.tets_hashed() ? (6 + 1 + kMaxBodyNeighbours) * world_->body_count() : 0;
    upload(contact_hash_, std::vector<uint32_t>(triangle_table + tet_table + body_boxes, 0u));
    // A buffer is bound even where no tet is hashed.
    upload(contact_tet_exits_, contact_layout_.tets_hashed() ? contact_layout_.tet_exit_triangle
                                                             : std::vector<uint32_t>(1, kNoContact),
           GL_STATIC_DRAW);
    upload(surface_vertices_, contact_layout_.surface_vertices, GL_STATIC_DRAW);
    const size_t surface = contact_layout_.surface_vertices.size();
    upload(contact_candidates_,
           std::vector<uint32_t>(surface * (kContactsPerVertex + kNearTrianglesPerVertex + 1),
                                 kNoContact));
    upload(contact_sums_, std::vector<int32_t>(4 * m.vertex_count(), 0));
    // The largest moves (plain, beside the bodies, beside the rigid
    // motion), the allowed move (0: the first substep searches) and the next
    // one, padding, the rigid motion, then the anchors, each with its body's
    // reference vertex (contact_common.glsl's ContactAnchors).
    constexpr size_t kAnchorsHeaderFloats = 8 + 16;
    std::vector<float> anchors(kAnchorsHeaderFloats + 4 * surface, 0.0f);
    for (size_t s = 0; s < surface; ++s) {
        anchors[kAnchorsHeaderFloats + 4 * s + 3] =
            std::bit_cast<float>(contact_layout_.surface_body_reference[s]);
    }
    upload(contact_anchors_, anchors);
}

void GpuSolver::upload_body_at_rest()
{
    const std::vector<glm::vec4> positions = to_vec4(mesh_->rest_positions);
    upload(buffers_[kPositions], positions);
    upload(buffers_[kVelocities], to_vec4(start_velocities(*world_)));
    upload(buffers_[kPredicted], positions);
    upload(buffers_[kCorrections], std::vector<glm::vec4>(mesh_->vertex_count(), glm::vec4(0.0f)));
    // Per tet whether it is a sliver in w, then the grab's anchors.
    std::vector<glm::vec4> lambdas(mesh_->tet_count() + kMaxGrabAnchors, glm::vec4(0.0f));
    for (size_t t = 0; t < mesh_->tet_count(); ++t) {
        lambdas[t].w = is_sliver(*mesh_, t) ? 1.0f : 0.0f;
    }
    upload(buffers_[kLambdas], lambdas);
    upload_cold_tet_state();
}

void GpuSolver::upload_cold_tet_state()
{
    upload(tet_multipliers_, std::vector<float>(10 * mesh_->tet_count(), 0.0f));
    // The warm fraction 0, the volume barrier not engaged, and a tet inside
    // out assumed until a substep's steps find none (tet_pass_state.glsl).
    upload(tet_pass_state_, std::vector<TetPassStateBlock>{{0.0f, 0u, 1u, 0u, 0u, {}}});
    // A body set down anew may be inside out anywhere: every last sweep
    // until a frame from it is read back, none of the frames before.
    last_sweeps_ = tet_math::TM_LAST_SWEEPS_MAX;
    last_sweeps_frame_ = frames_stepped_;
    // Packed as tet_step.glsl packs it.
    const glm::vec4 q = tet_math::TM_IDENTITY_ROTATION;
    const glm::uvec2 identity(glm::packSnorm2x16(glm::vec2(q.x, q.y)),
                              glm::packSnorm2x16(glm::vec2(q.z, q.w)));
    upload(tet_rotations_, std::vector<glm::uvec2>(mesh_->tet_count(), identity));
}

void GpuSolver::clear_tet_multipliers()
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, tet_multipliers_.get());
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32F, GL_RED, GL_FLOAT, nullptr);
    profile_.after_command("clear multipliers");
}

void GpuSolver::upload_region_sweeps()
{
    // The wide pass launches a workgroup per region; a driver that cannot
    // launch that many runs the sweeps' colours one by one, as any colours.
    GLint most_groups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &most_groups);
    sweeps_.clear();
    std::vector<uint32_t> starts;
    for (const RegionSweep& sweep : mesh_->region_sweeps) {
        if (sweep.regions > static_cast<uint32_t>(std::max(most_groups, 0))) {
            sweeps_.clear();
            starts.clear();
            break;
        }
        sweeps_.push_back({sweep.first_color, sweep.color_end, sweep.regions,
                           static_cast<uint32_t>(starts.size()),
                           static_cast<uint32_t>(regions_per_group(sweep))});
        starts.insert(starts.end(), sweep.region_starts.begin(), sweep.region_starts.end());
    }
    upload(region_starts_, starts, GL_STATIC_DRAW);
}

namespace {

// The second of two runs, so that the driver's first-use work (llvmpipe
// compiles a shader variant on its first dispatch) is not counted.
template <typename Run>
double time_second_run_ms(const Run& run)
{
    run();
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    run();
    glFinish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// Each of `runs` timed as time_second_run_ms does, in up to three rounds
// taken in turn, keeping each one's best: a GPU idle before a load starts
// at a low clock (an H200 at 345 MHz, 1,980 under load), and a single
// round misjudged (the bunny's colour by colour took 0.69 and 2.54 ms an
// iteration on two loads, 0.38 on a third, and once lost to one
// workgroup's 1.7). The rounds stop once they have taken 0.1 s, so that
// llvmpipe's slow iterations of a large mesh are timed once.
std::vector<double> best_of_rounds_ms(const std::vector<std::function<void()>>& runs)
{
    std::vector<double> best(runs.size(), INFINITY);
    const auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < 3; ++round) {
        for (size_t r = 0; r < runs.size(); ++r) {
            best[r] = std::min(best[r], time_second_run_ms(runs[r]));
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(100)) {
            break;
        }
    }
    return best;
}

const char* sweep_mode_name(GpuSolver::SweepMode mode)
{
    switch (mode) {
    case GpuSolver::SweepMode::off: return "colour by colour";
    case GpuSolver::SweepMode::wide: return "wide";
    case GpuSolver::SweepMode::narrow: return "narrow";
    }
    return "?";
}

std::string milliseconds_text(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g ms", ms);
    return text;
}

}  // namespace

GpuSolver::SweepMode GpuSolver::fastest_sweep_mode()
{
    // A whole iteration's tet pass each way: on llvmpipe a dispatch costs
    // little beside the work, and one region per group of 32 lost to colour
    // by colour (the lattice-50k's frame took 1.8-2.1 s against 0.9-1.1 s),
    // while narrow groups of many regions held even (0.7-0.9 s); on a GPU of
    // many cores the wide sweeps should win. Timing the first sweep alone
    // misled: the later, smaller sweeps fill the groups less.
    const SweepMode modes[] = {SweepMode::off, SweepMode::wide, SweepMode::narrow};
    std::vector<std::function<void()>> runs;
    for (const SweepMode mode : modes) {
        runs.emplace_back([this, mode] {
            sweep_mode_ = mode;
            solve_colors(TetPass::step);
        });
    }
    const std::vector<double> ms = best_of_rounds_ms(runs);
    SweepMode fastest = SweepMode::off;
    double fastest_ms = INFINITY;
    std::string timings;
    for (size_t m = 0; m < ms.size(); ++m) {
        if (ms[m] < fastest_ms) {
            fastest = modes[m];
            fastest_ms = ms[m];
        }
        timings += std::string(timings.empty() ? "" : ", ") + sweep_mode_name(modes[m]) + " " +
                   milliseconds_text(ms[m]);
    }
    tet_pass_layout_ = std::string(fastest == SweepMode::off ? "" : "region sweeps, ") +
                       sweep_mode_name(fastest) + " (an iteration: " + timings + ")";
    return fastest;
}

bool GpuSolver::wide_group_is_faster(uint32_t first_color, std::string& note)
{
    // An iteration of the colours from first_color in one group each wide.
    // On llvmpipe every lane past a colour's end runs the tet step masked
    // off; on a GPU the 8 lanes walk a colour in rounds, one after another.
    const bool whole_mesh = first_color == 0;
    std::vector<std::function<void()>> runs;
    for (const bool wide : {false, true}) {
        runs.emplace_back([this, wide, first_color, whole_mesh] {
            one_group_wide_ = wide;
            solve_colors_in_one_group(1, first_color, whole_mesh, TetPass::step);
        });
    }
    const std::vector<double> ms = best_of_rounds_ms(runs);
    const bool wide = ms[1] < ms[0];
    note = std::string(whole_mesh ? "" : "the merged colours in ") + "one group of " +
           (wide ? "256" : "8") + " lanes (an iteration " + (whole_mesh ? "" : "of them ") +
           "in 8 lanes " + milliseconds_text(ms[0]) + ", in 256 " + milliseconds_text(ms[1]) + ")";
    return wide;
}

bool GpuSolver::one_group_is_faster()
{
    const std::vector<double> ms = best_of_rounds_ms({
        [this] {
            solve_colors(TetPass::step);
            dispatch(programs_.project_static, mesh_->vertex_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        },
        [this] { solve_colors_in_one_group(1, 0, true, TetPass::step); },
    });
    const double per_color_ms = ms[0];
    const double one_group_ms = ms[1];
    tet_pass_layout_ = std::string(one_group_ms < per_color_ms ? "one workgroup" : "colour by colour") +
                       " (an iteration: colour by colour " + milliseconds_text(per_color_ms) +
                       ", one workgroup " + milliseconds_text(one_group_ms) + ")";
    return one_group_ms < per_color_ms;
}

void GpuSolver::rebuild_normals()
{
    dispatch(programs_.rebuild_normals_faces, mesh_->surface_triangles.size());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.rebuild_normals_vertices, mesh_->vertex_count());
    // The renderer reads positions and normals as vertex attributes next, and
    // the grab overlay reads positions through a texture buffer.
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                    GL_TEXTURE_FETCH_BARRIER_BIT);
}

void GpuSolver::set_state(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::vec3>& velocities)
{
    assert(positions.size() == mesh_->vertex_count() &&
           velocities.size() == mesh_->vertex_count() &&
           "GpuSolver::set_state: vertex count differs from the mesh");
    const std::vector<glm::vec4> p = to_vec4(positions);
    const std::vector<glm::vec4> v = to_vec4(velocities);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the shaders' writes
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[kPositions].get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(p.size() * 16), p.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[kVelocities].get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(v.size() * 16), v.data());
    upload_cold_tet_state();
    upload_parameters(SimParams());
    rebuild_normals();
}

void GpuSolver::upload_parameters(const SimParams& params)
{
    // Every derived value is computed here, in float, exactly as the CPU
    // solver computes it, so both run the same arithmetic.
    const float h = kFrameSeconds / static_cast<float>(params.substeps);
    SimParametersBlock block{};
    block.u_gravity_h = glm::vec4(params.gravity_m_s2, h);
    block.u_solver = glm::vec4(params.jacobi_k,
                               substep_math::sm_velocity_damping(params.air_damping_per_s, h),
                             1.0f / h, 1.0f / (h * h));
    block.u_material_damping = glm::vec4(
        params.material_damping_s > 0.0f ? 1.0f / (h * params.material_damping_s) : 0.0f,
        substep_math::sm_wobble_keep(params.wobble_damping_per_s, kFrameSeconds), 0.0f, 0.0f);
    // The same decision as CpuSolver's, from the same floats.
    const bool keep_up = sweeps_keep_up(materials_, small_tet_sizes_m_, h, params.iterations);
    const bool discounts_sink =
        tet_math::tm_hold_discounts_sink(params.ground_enabled, params.iterations);
    block.u_warm_start =
        glm::vec4(keep_up ? 1.0f : 0.0f, discounts_sink ? 1.0f : 0.0f, 0.0f, 0.0f);
    block.u_contact = glm::vec4(params.static_friction, params.dynamic_friction,
                              params.ground_enabled ? 1.0f : 0.0f, kContactRecoverySpeedMS);
    block.u_counts = glm::uvec4(mesh_->vertex_count(), mesh_->tet_count(),
                              mesh_->surface_triangles.size(), world_->obstacles.size());
    block.u_contact_hash = glm::vec4(1.0f / contact_layout_.cell_size_m, kContactThicknessM,
                                   kContactSearchRadiusM, kContactListRadiusM);
    for (size_t b = 0; b < contact_layout_.rest_exclusion_m.size(); ++b) {
        block.u_body_exclusion[b / 4][static_cast<int>(b % 4)] = contact_layout_.rest_exclusion_m[b];
    }
    block.u_contact_counts = glm::uvec4(contact_layout_.table_size,
                                      contact_layout_.surface_vertices.size(),
                                      body_contact_on(params) ? 1u : 0u, body_boxes_base_);
    block.u_contact_tets =
        glm::uvec4(contact_layout_.tet_table_size, tet_table_base_, hashed_tets_,
                   static_cast<uint32_t>(world_->body_count()));
    block.u_contact_tet_cell = glm::vec4(1.0f / contact_layout_.tet_cell_size_m, 0.0f, 0.0f, 0.0f);
    for (size_t o = 0; o < world_->obstacles.size(); ++o) {
        const Obstacle& obstacle = world_->obstacles[o];
        block.u_obstacles[2 * o] = glm::vec4(obstacle.a, obstacle.radius_m);
        block.u_obstacles[2 * o + 1] = glm::vec4(obstacle.b, static_cast<float>(obstacle.shape));
    }
    if (grab_) {
        // The same float expression as CpuSolver::solve_grab.
        const float alpha_tilde = 1.0f / (sanitized_grab_stiffness(grab_->stiffness_n_per_m) * h * h);
        block.u_grab = glm::uvec4(grab_anchor_count_, 0u, 0u, 0u);
        block.u_grab_compliance = glm::vec4(alpha_tilde, 0.0f, 0.0f, 0.0f);
        block.u_grab_target = glm::vec4(grab_->target_m, grab_max_step_m_);
    } else {
        block.u_grab = glm::uvec4(0u);
        block.u_grab_compliance = glm::vec4(0.0f);
        block.u_grab_target = glm::vec4(0.0f);
    }
    glBindBuffer(GL_UNIFORM_BUFFER, parameters_.get());
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof(block), &block);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, parameters_.get());
    for (GLuint b = 0; b < kBindingCount; ++b) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, buffers_[b].get());
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactVertices, contact_vertices_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactHash, contact_hash_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kSurfaceVertices, surface_vertices_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactCandidates, contact_candidates_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactSums, contact_sums_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactAnchors, contact_anchors_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kContactTetExits, contact_tet_exits_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTetRotations, tet_rotations_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTetMultipliers, tet_multipliers_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTetPassState, tet_pass_state_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBodyChunks, body_chunks_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPartialSums, partial_sums_.get());
}

bool GpuSolver::body_contact_on(const SimParams& params) const
{
    return params.body_contact && !contact_layout_.surface_vertices.empty();
}

void GpuSolver::find_contacts()
{
    // Both tables' buckets are cleared by one pass, and both tables' items
    // (the triangles, then the tets) counted and listed by one each.
    const size_t buckets = std::max(contact_layout_.table_size, contact_layout_.tet_table_size);
    const size_t items = mesh_->surface_triangles.size() + hashed_tets_;
    const size_t surface = contact_layout_.surface_vertices.size();
    // The largest moves start at 0 each substep; the search passes return
    // at once while the near lists are fresh.
    const GLuint zero = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last substep's atomics
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, contact_anchors_.get());
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, 3 * sizeof zero, GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &zero);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (hashed_tets_ == 0) {  // a world of one body: its rigid motion
        const GLuint chunks = chunks_of(surface);
        if (chunks == 1) {
            dispatch_phases(programs_.contact_rigid_motion, programs_.rigid_motion_sums,
                            {{kOneChunkPhase, 1}});
        } else {
            dispatch_phases(programs_.contact_rigid_motion, programs_.rigid_motion_sums,
                            {{0, chunks}, {1, 1}, {2, chunks}, {3, 1}});
        }
    }
    dispatch(programs_.contact_moved, surface);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (hashed_tets_ > 0) {
        // The bodies' boxes, which keep the tets away from the other bodies
        // out of the hash (contact_body_boxes.comp).
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, contact_hash_.get());
        glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI,
                             GLintptr{body_boxes_base_} * GLintptr{sizeof zero},
                             GLsizeiptr(6 * world_->body_count() * sizeof zero), GL_RED_INTEGER,
                             GL_UNSIGNED_INT, &zero);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatch(programs_.contact_body_boxes, mesh_->vertex_count());
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatch(programs_.contact_body_neighbours, world_->body_count());
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    dispatch(programs_.contact_hash_clear, buckets + 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.contact_hash_count, items);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    const GLuint tables = hashed_tets_ > 0 ? 2 : 1;
    const GLuint table_chunks = hash_table_chunks();
    const Programs::ChunkedUniforms scan{programs_.hash_scan_phase, -1};  // no sums kept
    if (table_chunks == tables) {  // a workgroup per table
        dispatch_phases(programs_.contact_hash_scan, scan, {{kWholeTablesPhase, tables}});
    } else {
        dispatch_phases(programs_.contact_hash_scan, scan,
                        {{0, table_chunks}, {1, 1}, {2, table_chunks}});
    }
    dispatch(programs_.contact_hash_fill, items);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.contact_search, surface);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.contact_pick, surface);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuSolver::solve_contacts()
{
    const size_t slots = contact_layout_.surface_vertices.size() * kContactsPerVertex;
    dispatch(programs_.contact_count, slots);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.contact_solve, slots);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(programs_.contact_apply, mesh_->vertex_count());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuSolver::dispatch_phases(const ComputePass& pass, const Programs::ChunkedUniforms& uniforms,
                                const std::vector<Phase>& phases) const
{
    glUseProgram(pass.program.get());
    glUniform1ui(uniforms.state_base, partial_sums_state_base_);
    for (const Phase& phase : phases) {
        glUniform1ui(uniforms.phase, phase.phase);
        dispatch_groups(phase.groups);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
}

GLuint GpuSolver::hash_table_chunks() const
{
    return chunks_of(contact_layout_.table_size) +
           (hashed_tets_ > 0 ? chunks_of(contact_layout_.tet_table_size) : 0);
}

void GpuSolver::upload_chunk_tables()
{
    // The bodies, then their chunks (damp_wobble.comp's BodyChunks).
    std::vector<glm::uvec4> body_chunks;
    std::vector<glm::uvec4> chunks;
    for (size_t b = 0; b < world_->bodies.size(); ++b) {
        const WorldBody& body = world_->bodies[b];
        const uint32_t count = chunks_of(body.vertex_count);
        body_chunks.emplace_back(body.first_vertex, body.vertex_count, chunks.size(), count);
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t first = body.first_vertex + k * kChunkItems;
            const uint32_t end =
                std::min<uint32_t>(first + kChunkItems, body.first_vertex + body.vertex_count);
            chunks.emplace_back(b, first, end, 0u);
        }
    }
    body_chunk_count_ = static_cast<uint32_t>(chunks.size());
    body_chunks.insert(body_chunks.end(), chunks.begin(), chunks.end());
    upload(body_chunks_, body_chunks, GL_STATIC_DRAW);
    // Three vec4 a chunk for the largest of the chunked sums, then three a
    // body (or for the one world-wide state).
    const size_t most_chunks =
        std::max({size_t{body_chunk_count_}, size_t{chunks_of(mesh_->vertex_count())},
                  size_t{chunks_of(mesh_->tet_count())},
                  size_t{chunks_of(contact_layout_.surface_vertices.size())}});
    partial_sums_state_base_ = static_cast<uint32_t>(3 * most_chunks);
    upload(partial_sums_, std::vector<glm::vec4>(3 * most_chunks +
                                                     3 * std::max<size_t>(world_->body_count(), 1),
                                                 glm::vec4(0.0f)));
}

void GpuSolver::dispatch(const ComputePass& pass, size_t items) const
{
    if (items == 0) {
        return;
    }
    glUseProgram(pass.program.get());
    dispatch_groups(static_cast<GLuint>((items + pass.group_size - 1) / pass.group_size));
}

void GpuSolver::size_jacobi_deltas()
{
    const size_t slots = mesh_->tet_count() * 4;
    if (jacobi_delta_slots_ != slots) {
        upload(buffers_[kDeltas], std::vector<glm::vec4>(slots, glm::vec4(0.0f)));
        const Csr corners = vertex_tet_corners(*mesh_);
        upload(buffers_[kSlotOffsets], corners.offsets, GL_STATIC_DRAW);
        upload(buffers_[kSlotEntries], corners.entries, GL_STATIC_DRAW);
        jacobi_delta_slots_ = slots;
    }
}

size_t GpuSolver::buffer_bytes() const
{
    size_t bytes = 0;
    const auto add = [&](const GlBuffer& buffer) {
        if (!buffer) {
            return;  // not made for this world (no contact, say)
        }
        GLint64 size = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, buffer.get());
        glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        bytes += static_cast<size_t>(size);
    };
    for (const GlBuffer& buffer : buffers_) add(buffer);
    for (const GlBuffer* buffer :
         {&parameters_, &pick_result_, &color_tets_, &color_offsets_, &region_starts_,
          &contact_vertices_,
          &contact_hash_, &surface_vertices_, &contact_candidates_, &contact_sums_,
          &contact_anchors_, &contact_tet_exits_, &tet_rotations_, &tet_multipliers_,
          &tet_pass_state_, &body_chunks_, &partial_sums_, &grab_anchors_}) {
        add(*buffer);
    }
    for (const ResidualReadout& readout : residual_readouts_) add(readout.result);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return bytes;
}

void GpuSolver::dispatch_groups(GLuint groups) const
{
    profile_.before_dispatch();
    glDispatchCompute(groups, 1, 1);
    ++dispatches_;
    profile_.after_dispatch();
}

void GpuSolver::set_dispatch_profile(bool enabled)
{
    name_programs_for_profile();
    profile_.set_enabled(enabled);
}

void GpuSolver::set_pass_timing(bool enabled)
{
    pass_timing_ = enabled;
    if (!enabled) {
        pass_times_.reset();
    }
}

void GpuSolver::step_frame(const SimParams& raw_params)
{
    sanitize_into(raw_params, params_);
    const SimParams& params = params_;
    dispatches_ = 0;
    pass_timer_.begin_frame(pass_timing_);
    profile_.begin_frame();
    refresh_materials(params);
    if (params.method == SolverMethod::jacobi) {
        size_jacobi_deltas();
    }
    upload_parameters(params);  // binds the buffers
    read_back();  // the last sweeps to dispatch
    pass_timer_.end(PassGroup::other);
    const size_t nv = mesh_->vertex_count();
    const size_t nt = mesh_->tet_count();
    const bool gauss_seidel = params.method == SolverMethod::gauss_seidel;
    const float h = kFrameSeconds / static_cast<float>(params.substeps);
    if (h != multipliers_h_) {
        // A multiplier is a force times h^2: kept across a change of h, it
        // would start the substep with the wrong force (as CpuSolver).
        clear_tet_multipliers();
        multipliers_h_ = h;
    }
    for (int substep = 0; substep < params.substeps; ++substep) {
        if (gauss_seidel) {
            // From the last substep's steps, before predict marks them old.
            dispatch_phases(programs_.warm_fraction, programs_.warm_fraction_sums,
                            one_or_two_phases(chunks_of(nt)));
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        // Jacobi starts every substep's multipliers from zero (DESIGN.md's
        // XPBD): predict clears them.
        glUseProgram(programs_.predict.program.get());
        glUniform1ui(programs_.predict_clears_multipliers, gauss_seidel ? 0u : 1u);
        dispatch(programs_.predict, std::max(nv, nt + (grab_ ? grab_anchor_count_ : 0)));
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        pass_timer_.end(PassGroup::predict);
        if (body_contact_on(params)) {
            find_contacts();
            pass_timer_.end(PassGroup::contact_find);
        }
        iterate(params);
        recover_inverted_tets(params.method);
        pass_timer_.end(PassGroup::solve);
        dispatch(programs_.update_velocities, nv);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        if (params.material_damping_s > 0.0f) {
            damp_strain_rates();
        }
        pass_timer_.end(PassGroup::velocity);
    }
    if (params.wobble_damping_per_s > 0.0f) {
        const GLuint bodies = static_cast<GLuint>(world_->body_count());
        glUseProgram(programs_.damp_wobble.program.get());
        glUniform1ui(programs_.damp_wobble_bodies, bodies);
        const GLuint chunks = body_chunk_count_;
        if (chunks == bodies) {  // one chunk a body: one dispatch
            dispatch_phases(programs_.damp_wobble, programs_.damp_wobble_sums,
                            {{kWholeBodiesPhase, bodies}});
        } else {
            dispatch_phases(programs_.damp_wobble, programs_.damp_wobble_sums,
                            {{0, chunks}, {1, bodies}, {2, chunks}, {3, bodies}, {4, chunks}});
        }
        pass_timer_.end(PassGroup::velocity);
    }
    rebuild_normals();
    pass_timer_.end(PassGroup::normals);

    // The convergence readout, reduced now into the oldest slot and read
    // back later, once ready.
    ++frames_stepped_;
    ResidualReadout& readout = residual_readouts_[frames_stepped_ % kResidualReadouts];
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPickResult, readout.result.get());
    dispatch_phases(programs_.reduce_residual, programs_.reduce_residual_sums,
                    one_or_two_phases(chunks_of(std::max(nv, nt))));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    // Beside it, the frame's deepest last sweep that turned a tet
    // (choose_last_sweeps), then cleared for the next frame.
    glBindBuffer(GL_COPY_READ_BUFFER, tet_pass_state_.get());
    glBindBuffer(GL_COPY_WRITE_BUFFER, readout.result.get());
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
                        offsetof(TetPassStateBlock, last_sweeps_deepest), sizeof(float),
                        sizeof(GLuint));
    set_tet_pass_words(offsetof(TetPassStateBlock, last_sweeps_deepest), 1, 0u);
    readout.last_sweeps = last_sweeps_;
    if (readout.fence != nullptr) {
        glDeleteSync(readout.fence);
    }
    readout.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    readout.frame = frames_stepped_;
    glUseProgram(0);
    pass_timer_.end(PassGroup::other);
    dispatches_last_frame_ = dispatches_;
    if (pass_timing_) {
        pass_times_ = pass_timer_.finish_frame();
    }
    profile_.finish_frame();
}

void GpuSolver::iterate(const SimParams& params)
{
    const bool gauss_seidel = params.method == SolverMethod::gauss_seidel;
    const bool contact = body_contact_on(params);
    if (gauss_seidel && colors_in_one_group_ && !grab_ && !contact) {
        // Nothing between the iterations: the warm start and all of them
        // in one dispatch.
        solve_colors_in_one_group(params.iterations, 0, true, TetPass::warm_start);
        pass_timer_.end(PassGroup::solve);  // with the ground projection
        return;
    }
    if (gauss_seidel) {
        warm_start();
        pass_timer_.end(PassGroup::solve);
    }
    for (int iteration = 0; iteration < params.iterations; ++iteration) {
        if (gauss_seidel && colors_in_one_group_) {
            solve_colors_in_one_group(1, 0, true, TetPass::step);
            pass_timer_.end(PassGroup::solve);  // with the ground projection
        } else if (gauss_seidel) {
            solve_colors(TetPass::step);
            pass_timer_.end(PassGroup::solve);
            dispatch(programs_.project_static, mesh_->vertex_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            pass_timer_.end(PassGroup::apply);
        } else {
            glUseProgram(programs_.solve_tets.program.get());
            glUniform1ui(programs_.jacobi_tet_pass, static_cast<GLuint>(TetPass::step));
            dispatch(programs_.solve_tets, mesh_->tet_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            pass_timer_.end(PassGroup::solve);
            dispatch(programs_.apply_deltas, mesh_->vertex_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            pass_timer_.end(PassGroup::apply);
        }
        if (contact) {
            solve_contacts();
            pass_timer_.end(PassGroup::contact_solve);
        }
        if (grab_) {
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kGrabAnchors, grab_anchors_.get());
            dispatch(programs_.solve_grab, grab_anchor_count_);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            pass_timer_.end(PassGroup::grab);
        }
    }
}

GpuSolver::~GpuSolver()
{
    drop_residual_readouts();
}

void GpuSolver::drop_residual_readouts()
{
    for (ResidualReadout& readout : residual_readouts_) {
        if (readout.fence != nullptr) {
            glDeleteSync(readout.fence);
            readout.fence = nullptr;
        }
    }
}

std::optional<float> GpuSolver::latest_mean_residual()
{
    read_back();
    return mean_residual_;
}

void GpuSolver::read_back()
{
    // The newest finished readout; older ones are dropped with it. The
    // flush makes sure the fences reach the GPU, or a driver that buffers
    // commands (NVIDIA's) may never signal them while the CPU only polls.
    ResidualReadout* newest = nullptr;
    for (ResidualReadout& readout : residual_readouts_) {
        if (readout.fence == nullptr || (newest != nullptr && readout.frame < newest->frame)) {
            continue;
        }
        const GLenum state = glClientWaitSync(readout.fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
        if (state == GL_ALREADY_SIGNALED || state == GL_CONDITION_SATISFIED) {
            newest = &readout;
        }
    }
    if (newest == nullptr) {
        return;
    }
    struct {
        float residual;
        GLuint deepest;  // the most last sweeps that turned a tet in a substep
    } value = {};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, newest->result.get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof value, &value);
    mean_residual_ = value.residual;
    if (newest->frame > last_sweeps_frame_) {
        choose_last_sweeps(static_cast<int>(value.deepest), newest->last_sweeps);
        last_sweeps_frame_ = newest->frame;
    }
    for (ResidualReadout& readout : residual_readouts_) {
        if (readout.fence != nullptr && readout.frame <= newest->frame) {
            glDeleteSync(readout.fence);
            readout.fence = nullptr;
        }
    }
}

void GpuSolver::recover_inverted_tets(SolverMethod method) const
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    set_tet_pass_words(offsetof(TetPassStateBlock, last_sweep_turned),
                       static_cast<size_t>(last_sweeps_), 0u);
    for (int sweep = 0; sweep < last_sweeps_; ++sweep) {
        if (sweep > 0) {
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        }
        set_tet_pass_words(offsetof(TetPassStateBlock, last_sweep), 1, static_cast<GLuint>(sweep));
        if (method == SolverMethod::jacobi) {
            // As a Jacobi iteration: every tet's slots, then each vertex's
            // sum, projected.
            glUseProgram(programs_.solve_tets.program.get());
            glUniform1ui(programs_.jacobi_tet_pass, static_cast<GLuint>(TetPass::recover));
            dispatch(programs_.solve_tets, mesh_->tet_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            dispatch(programs_.apply_deltas, mesh_->vertex_count());
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            continue;
        }
        if (colors_in_one_group_) {
            solve_colors_in_one_group(0, 0, false, TetPass::recover);
        } else {
            solve_colors(TetPass::recover);
        }
        dispatch(programs_.project_static, mesh_->vertex_count());
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
}

void GpuSolver::set_tet_pass_words(size_t offset, size_t count, GLuint value) const
{
    // A clear, in the GPU's command order: no wait for the CPU.
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, tet_pass_state_.get());
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, static_cast<GLintptr>(offset),
                         static_cast<GLsizeiptr>(count * sizeof(GLuint)), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &value);
}

void GpuSolver::choose_last_sweeps(int needed, int dispatched)
{
    // The last one dispatched still turned tets: twice as many. Otherwise
    // twice those that turned some (at least one): a crushed body's need
    // goes up and down by a few from frame to frame (3 to 12 at 1 x 1 and
    // 100 Pa), and a sweep beyond it costs its dispatches alone.
    last_sweeps_ = std::min(needed >= dispatched ? 2 * dispatched : std::max(1, 2 * needed),
                            tet_math::TM_LAST_SWEEPS_MAX);
}

void GpuSolver::warm_start() const
{
    if (colors_in_one_group_) {
        solve_colors_in_one_group(0, 0, false, TetPass::warm_start);
    } else {
        solve_colors(TetPass::warm_start);
    }
}

void GpuSolver::damp_strain_rates() const
{
    if (colors_in_one_group_) {
        solve_colors_in_one_group(0, 0, false, TetPass::damp);
    } else {
        solve_colors(TetPass::damp);
    }
}

void GpuSolver::solve_colors(TetPass tet_pass) const
{
    const ComputePass& pass = programs_.solve_tets_colored;
    const GLuint pass_kind = static_cast<GLuint>(tet_pass);
    glUseProgram(pass.program.get());
    glUniform1ui(programs_.colored_tet_pass, pass_kind);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kColorTets, color_tets_.get());
    const Csr& colors = mesh_->tet_colors;
    uint32_t c = 0;
    if (sweep_mode_ != SweepMode::off) {
        const bool narrow = sweep_mode_ == SweepMode::narrow;
        const int u = narrow ? 1 : 0;
        glUseProgram(narrow ? programs_.solve_tets_region_sweep_narrow.program.get()
                            : programs_.solve_tets_region_sweep.program.get());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kRegionStarts, region_starts_.get());
        for (const SweepDispatch& sweep : sweeps_) {
            const uint32_t per_group = narrow ? sweep.narrow_regions_per_group : 1u;
            glUniform1ui(programs_.sweep_start[u], sweep.start);
            glUniform1ui(programs_.sweep_colors[u], sweep.color_end - sweep.first_color);
            glUniform1ui(programs_.sweep_regions[u], sweep.regions);
            glUniform1ui(programs_.sweep_regions_per_group[u], per_group);
            glUniform1ui(programs_.sweep_tet_pass[u], pass_kind);
            dispatch_groups((sweep.regions + per_group - 1) / per_group);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            c = sweep.color_end;
        }
        glUseProgram(pass.program.get());
    }
    for (; c < first_merged_color_; ++c) {
        const GLuint count = colors.end(c) - colors.begin(c);
        glUniform1ui(programs_.color_begin, colors.begin(c));
        glUniform1ui(programs_.color_size, count);
        dispatch_groups((count + pass.group_size - 1) / pass.group_size);
        // The next colour reads what this one wrote.
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    if (first_merged_color_ < colors.rows()) {
        solve_colors_in_one_group(tet_pass == TetPass::step ? 1 : 0, first_merged_color_, false,
                                  tet_pass);
    }
}

void GpuSolver::solve_colors_in_one_group(int iterations, uint32_t first_color,
                                          bool project_static, TetPass tet_pass) const
{
    const int w = one_group_wide_ ? 1 : 0;
    glUseProgram(one_group_wide_ ? programs_.solve_tets_colored_one_group_wide.program.get()
                                 : programs_.solve_tets_colored_one_group.program.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kColorTets, color_tets_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kColorOffsets, color_offsets_.get());
    glUniform1ui(programs_.one_group_first_color[w], first_color);
    glUniform1ui(programs_.one_group_color_end[w], static_cast<GLuint>(mesh_->tet_colors.rows()));
    glUniform1ui(programs_.one_group_iterations[w], static_cast<GLuint>(iterations));
    glUniform1ui(programs_.one_group_project_static[w], project_static ? 1u : 0u);
    glUniform1ui(programs_.one_group_tet_pass[w], static_cast<GLuint>(tet_pass));
    dispatch_groups(1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuSolver::set_grab(const std::optional<Grab>& grab)
{
    assert((!grab ||
            glm::all(glm::lessThan(grab->vertices, glm::uvec3(mesh_->vertex_count())))) &&
           "GpuSolver::set_grab: vertex out of range");
    grab_ = grab;
    grab_anchor_count_ = 0;
    if (!grab_ || grab_->anchors.empty()) {
        grab_.reset();  // nothing to pull
        return;
    }
    grab_anchor_blocks_.clear();
    for (const GrabAnchor& anchor : grab_->anchors) {
        if (grab_anchor_blocks_.size() == kMaxGrabAnchors) {
            break;  // as CpuSolver::set_grab keeps
        }
        assert(anchor.vertex < mesh_->vertex_count() && anchor.share > 0.0f &&
               "GpuSolver::set_grab: anchor out of range");
        grab_anchor_blocks_.push_back(
            {glm::vec4(anchor.offset_m, anchor.share), glm::uvec4(anchor.vertex, 0u, 0u, 0u)});
    }
    static_assert(sizeof(GrabAnchorBlock) == 32, "std430 layout of GrabAnchor");
    grab_anchor_count_ = static_cast<GLuint>(grab_anchor_blocks_.size());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, grab_anchors_.get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                    static_cast<GLsizeiptr>(grab_anchor_blocks_.size() * sizeof(GrabAnchorBlock)),
                    grab_anchor_blocks_.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

std::optional<SurfaceHit> GpuSolver::pick(const Ray& ray) const
{
    const GLuint triangle_count = static_cast<GLuint>(mesh_->surface_triangles.size());
    PickResultBlock result{0xffffffffu, 0xffffffffu, {0, 0, 0}, {0.0f, 0.0f, 0.0f}};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, pick_result_.get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(result), &result);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPositions, buffers_[kPositions].get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTriangles, buffers_[kTriangles].get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPickResult, pick_result_.get());
    const GLuint program = programs_.pick.program.get();
    glUseProgram(program);
    glUniform1ui(glGetUniformLocation(program, "u_triangle_count"), triangle_count);
    glUniform3fv(glGetUniformLocation(program, "u_ray_origin"), 1, &ray.origin_m.x);
    glUniform3fv(glGetUniformLocation(program, "u_ray_direction"), 1, &ray.direction.x);
    const GLint stage = glGetUniformLocation(program, "u_stage");
    const GLuint groups = (triangle_count + programs_.pick.group_size - 1) / programs_.pick.group_size;
    for (int s = 0; s < 3; ++s) {
        glUniform1i(stage, s);
        dispatch_groups(s == 2 ? 1 : groups);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    glUseProgram(0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, pick_result_.get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(result), &result);
    if (result.triangle == 0xffffffffu) {
        return std::nullopt;
    }
    SurfaceHit hit;
    hit.triangle = result.triangle;
    hit.vertices = glm::uvec3(result.corner[0], result.corner[1], result.corner[2]);
    hit.barycentric = glm::vec3(result.weight[0], result.weight[1], result.weight[2]);
    float t = 0.0f;
    std::memcpy(&t, &result.distance_bits, sizeof t);
    hit.distance_m = t;
    hit.point_m = ray.origin_m + t * ray.direction;
    return hit;
}

GpuSolver::NearListMoves GpuSolver::read_near_list_moves() const
{
    // The first four words of contact_common.glsl's ContactAnchors.
    float words[4] = {};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, contact_anchors_.get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof words, words);
    return {words[0], words[1], words[2], words[3]};
}

size_t GpuSolver::read_deep_vertex_count() const
{
    // The exit triangles after the candidates and near lists (deep_slot in
    // contact_common.glsl).
    const size_t surface = contact_layout_.surface_vertices.size();
    std::vector<uint32_t> exits(surface);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, contact_candidates_.get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER,
                       static_cast<GLintptr>(surface * (kContactsPerVertex + kNearTrianglesPerVertex) *
                                             sizeof(uint32_t)),
                       static_cast<GLsizeiptr>(surface * sizeof(uint32_t)), exits.data());
    return static_cast<size_t>(
        std::count_if(exits.begin(), exits.end(), [](uint32_t e) { return e != kNoContact; }));
}

glm::vec3 GpuSolver::read_position(uint32_t vertex) const
{
    glm::vec4 p(0.0f);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[kPositions].get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(vertex) * 16, 16, &p);
    return glm::vec3(p);
}

void GpuSolver::read_vec4_buffer(Binding binding, std::vector<glm::vec3>& out) const
{
    const size_t nv = mesh_->vertex_count();
    std::vector<glm::vec4> data(nv);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[binding].get());
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(nv * 16), data.data());
    out.resize(nv);
    for (size_t i = 0; i < nv; ++i) {
        out[i] = glm::vec3(data[i]);
    }
}

void GpuSolver::read_positions(std::vector<glm::vec3>& out) const
{
    read_vec4_buffer(kPositions, out);
}

void GpuSolver::read_velocities(std::vector<glm::vec3>& out) const
{
    read_vec4_buffer(kVelocities, out);
}

SurfaceSource GpuSolver::surface_source() const
{
    SurfaceSource source;
    source.position_buffer = buffers_[kPositions].get();
    source.normal_buffer = buffers_[kNormals].get();
    source.triangle_buffer = buffers_[kTriangles].get();
    return source;
}
