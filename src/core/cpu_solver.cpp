#include "core/cpu_solver.h"

#include "core/body_materials.h"
#include "core/body_shares.h"
#include "core/contact_math.h"
#include "core/substep_math.h"
#include "core/flush_denormals.h"
#include "core/grab_math.h"
#include "core/material.h"
#include "core/tet_math.h"
#include "core/warm_start.h"
#include "core/wobble_damping.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>

namespace {

// A per-vertex pass runs on the team from this many vertices times (one
// plus the obstacles): see CpuSolver::vertex_team.
constexpr size_t kMinVertexWorkToShare = 4096;

// Adds the time since the last mark to one pass's total, when timing is on.
class PassClock {
public:
    explicit PassClock(bool enabled) : enabled_(enabled) { mark_ = now(); }
    void charge(double& pass_ms)
    {
        if (enabled_) {
            const Clock::time_point t = now();
            pass_ms += std::chrono::duration<double, std::milli>(t - mark_).count();
            mark_ = t;
        }
    }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point now() const { return enabled_ ? Clock::now() : Clock::time_point(); }
    bool enabled_;
    Clock::time_point mark_;
};

}  // namespace

void CpuSolver::load(std::shared_ptr<const World> world)
{
    assert(world && world->mesh && "CpuSolver::load needs a world");
    world_ = std::move(world);
    mesh_ = world_->mesh;
    const size_t nv = mesh_->vertex_count();
    positions_ = mesh_->rest_positions;
    velocities_ = start_velocities(*world_);
    obstacles_.clear();
    obstacle_boxes_.clear();
    for (const Obstacle& o : world_->obstacles) {
        obstacles_.push_back(glm::vec4(o.a, o.radius_m));
        obstacles_.push_back(glm::vec4(o.b, static_cast<float>(o.shape)));
        obstacle_boxes_.push_back(obstacle_min(o));
        obstacle_boxes_.push_back(obstacle_max(o));
    }
    obstacle_grid_.build(obstacle_boxes_);
    contacts_.load(*world_);
    small_tet_sizes_m_ = small_tet_sizes_m(*world_);
    normals_.assign(nv, glm::vec3(0.0f, 1.0f, 0.0f));
    predicted_positions_ = positions_;  // lay_out_blocks adds the dummy vertices
    start_positions_.assign(nv, glm::vec4(0.0f));  // predict writes them
    corrections_.assign(nv, glm::vec3(0.0f));
    static_push_m_.assign(nv, 0.0f);
    // The Jacobi method's per-tet arrays (132 bytes a tet) are made when it
    // first runs (make_jacobi_arrays): Gauss-Seidel keeps its multipliers,
    // rest shapes and compliances in the blocks and moves the vertices
    // directly.
    std::vector<glm::mat3>().swap(lambda_shape_);
    std::vector<float>().swap(lambda_volume_);
    std::vector<glm::vec4>().swap(rotations_);
    std::vector<glm::vec3>().swap(deltas_);
    std::vector<glm::mat3>().swap(inv_rest_shapes_);
    std::vector<float>().swap(slivers_);
    corners_ = Csr{};
    std::vector<float>().swap(shape_compliance_);
    std::vector<float>().swap(volume_compliance_);
    face_normals_.assign(mesh_->surface_triangles.size(), glm::vec3(0.0f));
    lay_out_blocks();
    grab_.reset();
    mean_residual_.reset();
    grab_max_step_m_ = grab_max_step_m(*mesh_);
    forget_volume_barrier();
    rebuild_normals();
}

void CpuSolver::set_state(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::vec3>& velocities)
{
    assert(positions.size() == positions_.size() && velocities.size() == velocities_.size() &&
           "CpuSolver::set_state: vertex count differs from the mesh");
    positions_ = positions;
    velocities_ = velocities;
    forget_rotations();
    forget_multipliers();
    forget_volume_barrier();
    rebuild_normals();
}

void CpuSolver::forget_volume_barrier()
{
    volume_barrier_engaged_ = false;
    volume_squeezed_seen_ = true;  // until a substep's steps find none
}

void CpuSolver::forget_rotations()
{
    std::fill(rotations_.begin(), rotations_.end(), tet_math::TM_IDENTITY_ROTATION);
    set_block_rotations_to_identity(blocks_);
}

void CpuSolver::set_tet_kernel(const TetBlockKernelInfo& kernel)
{
    kernel_ = kernel;
    if (mesh_) {
        lay_out_blocks();
    }
}

void CpuSolver::lay_out_blocks()
{
    // Whole bodies per thread where they split evenly; else each colour is
    // split among the threads.
    const std::vector<uint32_t> tet_share = share_bodies_among(*world_, requested_threads_);
    const size_t shares = tet_share.empty() ? 1 : static_cast<size_t>(requested_threads_);
    blocks_ = make_tet_blocks(*mesh_, kernel_.lanes, tet_share, shares);
    // Each share's dummy vertex, after the mesh's.
    // (Reserved first: a vector grown by resize doubles its capacity.)
    const size_t with_dummies = vertex_count_with_dummies();
    for (std::vector<glm::vec3>* array :
         {&predicted_positions_, &corrections_, &warm_start_moves_}) {
        array->reserve(with_dummies);
        array->resize(with_dummies, glm::vec3(0.0f));
    }
    start_positions_.reserve(with_dummies);
    start_positions_.resize(with_dummies, glm::vec4(0.0f));
    block_sums_.assign(blocks_.block_count, BlockSums{0.0, 0.0, 0u, 0u});
    forget_multipliers();
    materials_.clear();  // the new blocks need their inverse masses and compliances
    start_team();                     // how many threads help depends on the blocks
}

std::string CpuSolver::how_it_runs() const
{
    // Only the Gauss-Seidel pass is vectorized; Jacobi is the scalar reference.
    const int threads = threads_in_use();
    return std::string(kernel_.name) + " kernel, " + std::to_string(kernel_.lanes) +
           " tets per vector, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
           (running_on_one_thread() ? " (now 1: timed faster, the cores are busy)" : "");
}

void CpuSolver::set_threads(int threads)
{
    requested_threads_ = std::max(1, threads);
    if (mesh_) {
        lay_out_blocks();  // the bodies may be shared out among them
    }
}

void CpuSolver::start_team()
{
    // Split by colour, each colour ends in a barrier: a member must get
    // enough blocks of a colour to outweigh waiting for the others.
    // Measured on 2 cores: the cube (3 blocks of 16 per colour) runs 4x
    // slower on two threads than on one, the bunny (10 per colour) 1.25x
    // faster, a 10k-tet lattice (25 per colour) 1.6x faster.
    constexpr size_t kMinBlocksPerThread = 4;
    size_t useful = 1;
    if (blocks_.most_shares > 1) {
        useful = blocks_.most_shares;  // one thread per share of bodies or regions
    } else if (mesh_ && blocks_.colors > 0) {
        useful = std::max<size_t>(1, blocks_.block_count / blocks_.colors / kMinBlocksPerThread);
    }
    const int threads = static_cast<int>(std::min<size_t>(requested_threads_, useful));
    if (threads != team_->size()) {
        team_ = std::make_unique<WorkerTeam>(threads);
    }
    active_team_ = team_.get();
    chooser_.restart();
}

WorkerTeam& CpuSolver::vertex_team() const
{
    // Waking the team costs a pass about 3 microseconds (2-vCPU AMD EPYC),
    // and a vertex about 3 ns on the ground and up to 2 more per obstacle: the
    // bunny's 1,192 vertices on the ground ran these passes slower shared
    // out, the pile's 3,619 in a bin of four walls faster (its static
    // projection 1.8 instead of 2.8 ms a frame on two threads).
    const size_t work = positions_.size() * (1 + obstacles_.size() / 2);
    return work >= kMinVertexWorkToShare ? *active_team_ : *one_thread_;
}

void CpuSolver::refresh_materials(const SimParams& params)
{
    if (!update_body_materials(*world_, params, materials_)) {
        return;
    }
    MaterialArrays arrays = material_arrays(*world_, materials_);
    inverse_masses_ = std::move(arrays.inverse_masses);
    // The blocks' padding lanes gather the dummy vertices' 0.
    inverse_masses_.reserve(vertex_count_with_dummies());
    inverse_masses_.resize(vertex_count_with_dummies(), 0.0f);
    any_volume_term_ = arrays.any_volume_term;
    std::vector<LameParameters> body_lame;
    for (const BodyMaterial& material : materials_) {
        body_lame.push_back(lame_parameters(material.youngs_modulus_pa, material.poisson_ratio));
    }
    set_block_compliances(blocks_, world_->vertex_body, body_lame);
    if (jacobi_arrays_made()) {
        shape_compliance_ = std::move(arrays.shape_compliance);
        volume_compliance_ = std::move(arrays.volume_compliance);
    }
}

void CpuSolver::step_frame(const SimParams& raw_params)
{
    const ScopedFlushDenormals flush_denormals;
    sanitize_into(raw_params, params_);
    const SimParams& params = params_;
    if (params.method == SolverMethod::jacobi) {
        make_jacobi_arrays();
    }
    refresh_materials(params);
    const bool choosing = team_->size() > 1;
    active_team_ = !choosing || chooser_.team_next() ? team_.get() : one_thread_.get();
    const auto frame_start = std::chrono::steady_clock::now();
    const bool body_contact = params.body_contact;
    const float h = kFrameSeconds / static_cast<float>(params.substeps);
    sweeps_keep_up_ = sweeps_keep_up(materials_, small_tet_sizes_m_, h, params.iterations);
    if (h != multipliers_h_ || params.method != multipliers_method_) {
        // A multiplier is a force times h^2: kept across a change of h, it
        // would start the substep with the wrong force. Jacobi keeps its own
        // (and starts each substep from zero): after it, Gauss-Seidel starts
        // cold.
        forget_multipliers();
        multipliers_h_ = h;
        multipliers_method_ = params.method;
    }
    PassTimes times;
    times.clock = "wall clock";
    PassClock clock(pass_timing_);
    for (int substep = 0; substep < params.substeps; ++substep) {
        volume_barrier_engaged_ = volume_barrier_engaged_ || !volume_squeezed_seen_;
        volume_squeezed_seen_ = false;
        predict(params, h);
        reset_lambda(params);
        clock.charge(times.predict_ms);
        if (body_contact) {
            contacts_.find(predicted_positions_, *active_team_);
            clock.charge(times.contact_find_ms);
        }
        if (params.method == SolverMethod::gauss_seidel) {
            warm_start(params, h);
            clock.charge(times.solve_ms);
        }
        for (int iteration = 0; iteration < params.iterations; ++iteration) {
            if (params.method == SolverMethod::gauss_seidel) {
                const bool first_or_last =
                    iteration == 0 || iteration == params.iterations - 1;
                const double shape_steps = solve_tets_colored(params, h, first_or_last);
                if (iteration == 0) {
                    first_shape_steps_ = shape_steps;
                }
                last_shape_steps_ = shape_steps;
                clock.charge(times.solve_ms);
                project_static(params);
            } else {
                solve_tets(params, h);
                clock.charge(times.solve_ms);
                apply_deltas(params);
            }
            clock.charge(times.apply_ms);
            if (body_contact) {
                contacts_.solve(positions_, predicted_positions_, corrections_, velocities_,
                                inverse_masses_, h, params.static_friction,
                                params.dynamic_friction, *active_team_);
                clock.charge(times.contact_solve_ms);
                // The static world has the last word: a contact may have
                // pushed a vertex into the ground or an obstacle.
                for (const uint32_t v : contacts_.moved_vertices()) {
                    if (inverse_masses_[v] != 0.0f) {
                        project_out_of_static(params, v, positions_[v]);
                    }
                }
                clock.charge(times.contact_solve_ms);
            }
            solve_grab(h);
            clock.charge(times.grab_ms);
        }
        recover_inverted_tets(params, h);
        clock.charge(times.solve_ms);
        update_velocities(params, h);
        if (params.material_damping_s > 0.0f) {
            damp_strain_rates(params, h);
        }
        clock.charge(times.velocity_ms);
    }
    if (params.wobble_damping_per_s > 0.0f) {
        damp_wobble(*world_, inverse_masses_, positions_, velocities_,
                    substep_math::sm_wobble_keep(params.wobble_damping_per_s, kFrameSeconds));
        clock.charge(times.velocity_ms);
    }
    rebuild_normals();
    clock.charge(times.normals_ms);
    if (pass_timing_) {
        pass_times_ = times;
    }
    if (choosing) {
        chooser_.record(std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                      frame_start)
                            .count());
    }
}

void CpuSolver::predict(const SimParams& params, float h)
{
    const float damping = substep_math::sm_velocity_damping(params.air_damping_per_s, h);
    share_out(vertex_team(), positions_.size(), [&](size_t v) {
        static_push_m_[v] = 0.0f;
        corrections_[v] = glm::vec3(0.0f);
        if (inverse_masses_[v] != 0.0f) {
            substep_math::sm_predict(positions_[v], velocities_[v], damping, params.gravity_m_s2,
                                     h);
        }
        predicted_positions_[v] = positions_[v];
        // Where it began, as the GPU's tet step reconstructs it (tet_step.glsl).
        start_positions_[v] = glm::vec4(positions_[v] - h * velocities_[v], inverse_masses_[v]);
    });
}

void CpuSolver::make_jacobi_arrays()
{
    if (jacobi_arrays_made()) {
        return;
    }
    const size_t nt = mesh_->tet_count();
    lambda_shape_.assign(nt, glm::mat3(0.0f));
    lambda_volume_.assign(nt, 0.0f);
    rotations_.assign(nt, tet_math::TM_IDENTITY_ROTATION);
    deltas_.assign(nt * 4, glm::vec3(0.0f));
    corners_ = vertex_tet_corners(*mesh_);
    inv_rest_shapes_.resize(nt);
    slivers_.resize(nt);
    for (size_t t = 0; t < nt; ++t) {
        inv_rest_shapes_[t] = inv_rest_shape(*mesh_, t);
        slivers_[t] = is_sliver(*mesh_, t) ? 1.0f : 0.0f;
    }
    materials_.clear();  // refresh_materials keeps the compliances from now on
}

void CpuSolver::reset_lambda(const SimParams& params)
{
    // Jacobi is DESIGN.md's XPBD as it stands: every substep from zero.
    if (params.method == SolverMethod::jacobi) {
        std::fill(lambda_shape_.begin(), lambda_shape_.end(), glm::mat3(0.0f));
        std::fill(lambda_volume_.begin(), lambda_volume_.end(), 0.0f);
    }
    std::fill(grab_lambdas_.begin(), grab_lambdas_.end(), 0.0f);
}

void CpuSolver::forget_multipliers()
{
    set_block_multipliers_to_zero(blocks_);
    first_shape_steps_ = 0.0;
    last_shape_steps_ = 0.0;
}

TetBlockStep CpuSolver::block_step(const SimParams& params, float h)
{
    const TetStepConstants k = tet_step_constants(params, h);
    // The kernels read the vertex arrays as flat x y z floats (the start
    // positions as x y z w).
    static_assert(sizeof(glm::vec3) == 3 * sizeof(float));
    static_assert(sizeof(glm::vec4) == 4 * sizeof(float));
    TetBlockStep step{&predicted_positions_[0].x, &corrections_[0].x, &start_positions_[0].x,
                      k.inv_h2, k.volume_enabled, volume_barrier_engaged_};
    step.ground = k.ground;
    if (tet_math::tm_hold_discounts_sink(params.ground_enabled, params.iterations)) {
        step.warm_start_moves = &warm_start_moves_[0].x;
    }
    return step;
}

void CpuSolver::recover_inverted_tets(const SimParams& params, float h)
{
    if (params.method == SolverMethod::jacobi) {
        recover_inverted_tets_jacobi(params, h);
        return;
    }
    TetBlockStep step = block_step(params, h);
    step.recover = true;
    int sweeps = 0;
    uint32_t recovered = 0;
    do {
        run_blocks(step);
        // The first sweep's projection always: the contacts and the grab
        // after the iterations may have left a vertex below the ground.
        project_static(params);
        ++sweeps;
        recovered = 0;
        for (const BlockSums& block : block_sums_) recovered += block.recovered;
    } while (recovered > 0 && sweeps < tet_math::TM_LAST_SWEEPS_MAX);
}

void CpuSolver::recover_inverted_tets_jacobi(const SimParams& params, float h)
{
    const TetStepConstants k = tet_step_constants(params, h);
    int sweeps = 0;
    size_t recovered = 0;
    do {
        recovered = 0;
        for (size_t t = 0; t < mesh_->tet_count(); ++t) {
            const float valence = max_corner_valence(corners_, mesh_->tets[t]);
            recovered += recover_tet(t, k, jacobi_weight(k.jacobi_k, valence), &deltas_[t * 4]);
        }
        // Projected, as after the first sweep of Gauss-Seidel; a sweep that
        // turned none has only zeros to sum.
        if (recovered > 0) {
            apply_deltas(params);
        } else {
            project_static(params);
        }
        ++sweeps;
    } while (recovered > 0 && sweeps < tet_math::TM_LAST_SWEEPS_MAX);
}

bool CpuSolver::recover_tet(size_t t, const TetStepConstants& k, float omega, glm::vec3* d)
{
    const glm::uvec4& tet = mesh_->tets[t];
    const glm::vec4 w(inverse_masses_[tet.x], inverse_masses_[tet.y], inverse_masses_[tet.z],
                      inverse_masses_[tet.w]);
    const bool volume_on = volume_compliance_[t] >= 0.0f;
    if (!tet_math::tm_recover_tet(positions_[tet.x], positions_[tet.y], positions_[tet.z],
                                  positions_[tet.w], w, mesh_->rest_volumes_m3[t],
                                  volume_on ? volume_compliance_[t] * k.inv_h2 : 0.0f, volume_on,
                                  volume_barrier_engaged_, k.ground,
                                  glm::vec4(0.0f),  // Jacobi: no warm start, nothing sunk
                                  omega, lambda_volume_[t], d[0], d[1], d[2], d[3])) {
        return false;
    }
    keep_angular_momentum(tet, w, d);
    return true;
}

void CpuSolver::warm_start(const SimParams& params, float h)
{
    TetBlockStep step = block_step(params, h);
    step.warm_start = true;
    step.warm_fraction = tet_math::tm_warm_start_fraction(static_cast<float>(first_shape_steps_),
                                                          static_cast<float>(last_shape_steps_),
                                                          sweeps_keep_up_ ? 1.0f : 0.0f);
    run_blocks(step);
    // The corrections are the warm start's alone until the first
    // iteration: kept for the ground's hold (tm_ground_held_mass).
    if (tet_math::tm_hold_discounts_sink(params.ground_enabled, params.iterations)) {
        std::copy(corrections_.begin(), corrections_.end(), warm_start_moves_.begin());
    }
}

void CpuSolver::damp_strain_rates(const SimParams& params, float h)
{
    // Colour by colour for either method: a pass over the velocities, not
    // part of the constraint solve that the method names. The blocks'
    // padding lanes point past the mesh's vertices, so the pass runs on
    // copies that have room for them: the substep's start positions and
    // corrections, which the next predict writes anew, lend theirs. The
    // positions go beside the inverse masses, as the start positions hold
    // them: one load a corner brings both.
    const size_t nv = positions_.size();
    share_out(vertex_team(), nv, [&](size_t v) {
        start_positions_[v] = glm::vec4(positions_[v], inverse_masses_[v]);
    });
    std::copy(velocities_.begin(), velocities_.end(), corrections_.begin());
    TetBlockStep step = block_step(params, h);
    step.damp = true;
    step.positions = &start_positions_[0].x;
    step.velocities = &corrections_[0].x;
    step.damping_inv_h_tau = 1.0f / (h * params.material_damping_s);
    run_blocks(step);
    std::copy(corrections_.begin(), corrections_.begin() + static_cast<std::ptrdiff_t>(nv),
              velocities_.begin());
}

CpuSolver::TetStepConstants CpuSolver::tet_step_constants(const SimParams& params,
                                                          float h) const
{
    return {any_volume_term_, 1.0f / (h * h), params.jacobi_k, params.ground_enabled};
}

float CpuSolver::solve_tet(size_t t, const TetStepConstants& k, float omega, glm::vec3* d)
{
    const TetMesh& mesh = *mesh_;
    const glm::uvec4& tet = mesh.tets[t];
    const float rest_volume = mesh.rest_volumes_m3[t];
    const glm::vec4 w(inverse_masses_[tet.x], inverse_masses_[tet.y], inverse_masses_[tet.z],
                      inverse_masses_[tet.w]);
    const bool volume_on = volume_compliance_[t] >= 0.0f;
    const float alpha_volume = volume_on ? volume_compliance_[t] * k.inv_h2 : 0.0f;
    float residual = 0.0f;
    float shape_step = 0.0f;
    bool squeezed = false;
    tet_math::tm_solve_tet(positions_[tet.x], positions_[tet.y], positions_[tet.z],
                           positions_[tet.w], w, inv_rest_shapes_[t], rest_volume, slivers_[t],
                           shape_compliance_[t] * k.inv_h2, alpha_volume, volume_on,
                           volume_barrier_engaged_, k.ground,
                           glm::vec4(0.0f),  // Jacobi: no warm start, nothing sunk
                           omega, lambda_shape_[t],
                           lambda_volume_[t], rotations_[t], d[0], d[1], d[2], d[3], residual,
                           shape_step, squeezed);
    volume_squeezed_seen_ = volume_squeezed_seen_ || squeezed;
    keep_angular_momentum(tet, w, d);
    return residual;
}

void CpuSolver::keep_angular_momentum(const glm::uvec4& tet, const glm::vec4& w,
                                      glm::vec3* d) const
{
    tet_math::tm_keep_angular_momentum(glm::vec3(start_positions_[tet.x]),
                                       glm::vec3(start_positions_[tet.y]),
                                       glm::vec3(start_positions_[tet.z]),
                                       glm::vec3(start_positions_[tet.w]), w,
                                       d[0], d[1], d[2], d[3]);
}

void CpuSolver::solve_tets(const SimParams& params, float h)
{
    const TetStepConstants k = tet_step_constants(params, h);
    double residual = 0.0;
    for (size_t t = 0; t < mesh_->tet_count(); ++t) {
        const float valence = max_corner_valence(corners_, mesh_->tets[t]);
        residual += solve_tet(t, k, jacobi_weight(k.jacobi_k, valence), &deltas_[t * 4]);
    }
    mean_residual_ = static_cast<float>(residual / mesh_->tet_count());
}

double CpuSolver::solve_tets_colored(const SimParams& params, float h, bool sums)
{
    TetBlockStep step = block_step(params, h);
    step.sums = sums;
    run_blocks(step);
    uint32_t squeezed = 0;
    for (const BlockSums& block : block_sums_) squeezed += block.squeezed;
    volume_squeezed_seen_ = volume_squeezed_seen_ || squeezed > 0;
    if (!sums) return 0.0;
    double residual = 0.0;
    double shape_steps = 0.0;
    for (const BlockSums& block : block_sums_) {
        residual += block.residual;
        shape_steps += block.shape_step;
    }
    mean_residual_ = static_cast<float>(residual / mesh_->tet_count());
    return shape_steps;
}

void CpuSolver::run_blocks(const TetBlockStep& step)
{
    const TetBlockArrays arrays = block_arrays(blocks_);
    const size_t members = static_cast<size_t>(active_team_->size());
    const auto solve_segment = [&](size_t segment, size_t begin, size_t end) {
        begin = std::max<size_t>(begin, blocks_.color_blocks[segment]);
        end = std::min<size_t>(end, blocks_.color_blocks[segment + 1]);
        if (begin < end) {
            kernel_.solve(arrays, step, begin, end, block_sums_.data());
        }
    };
    active_team_->run([&](int member) {
        const ScopedFlushDenormals flush_denormals;  // the workers' own FPU state
        for (const BlockPhase& phase : blocks_.phases) {
            if (phase.shares > 1) {
                // Each member owns a run of whole shares (bodies, or groups
                // of regions; one thread: all of them in turn): all their
                // colours in turn, with no wait between them. A run, so that
                // the members' vertices meet only at its two ends.
                const size_t m = static_cast<size_t>(member);
                const size_t share_end = phase.shares * (m + 1) / members;
                for (size_t share = phase.shares * m / members; share < share_end; ++share) {
                    const size_t first = phase.first_segment + share * phase.colors;
                    for (size_t c = first; c < first + phase.colors; ++c) {
                        solve_segment(c, 0, SIZE_MAX);
                    }
                }
                if (&phase != &blocks_.phases.back()) {
                    active_team_->barrier();  // the next phase reads what this one wrote
                }
                continue;
            }
            for (size_t c = phase.first_segment; c < phase.first_segment + phase.colors; ++c) {
                // Within a colour no vertex is shared: the blocks are
                // independent, and each member takes a run of them.
                const size_t first = blocks_.color_blocks[c];
                const size_t end = blocks_.color_blocks[c + 1];
                const size_t each = (end - first + members - 1) / members;
                solve_segment(c, first + each * member, first + each * (member + 1));
                active_team_->barrier();  // the next colour reads what this one wrote
            }
        }
    });
}

// Inlined into the passes over every vertex, where the call was a fifth of
// its cost (a vertex on the ground alone takes a few nanoseconds).
[[gnu::always_inline]] inline void CpuSolver::project_out_of_static(const SimParams& params,
                                                                   size_t v, glm::vec3& x)
{
    glm::vec3& correction = corrections_[v];
    if (params.ground_enabled && x.y < 0.0f) {
        static_push_m_[v] += -x.y;
        correction.y -= x.y;
        x.y = 0.0f;
    }
    // Outside its box a vertex is outside the obstacle: the exact test,
    // whose answer would be "outside" too, is skipped (the compute shader,
    // whose lanes run it anyway, does not look at boxes).
    const auto push_out = [&](size_t o) {
        const glm::vec3& lo = obstacle_boxes_[2 * o];
        const glm::vec3& hi = obstacle_boxes_[2 * o + 1];
        if (x.x < lo.x || x.y < lo.y || x.z < lo.z || x.x > hi.x || x.y > hi.y || x.z > hi.z) {
            return false;
        }
        const glm::vec3 before = x;
        const float push =
            contact_math::cm_push_out_of_obstacle(x, obstacles_[2 * o], obstacles_[2 * o + 1]);
        if (push <= 0.0f) {
            return false;
        }
        static_push_m_[v] += push;
        correction += x - before;
        return true;
    };
    // The obstacles in index order, as the compute shader takes them: first
    // those whose boxes reach the vertex's column, and once one has moved
    // the vertex (it may now lie in another column) every later one.
    const size_t count = obstacles_.size() / 2;
    if (count == 0) {
        return;  // no call for an empty column: the common case, every vertex every iteration
    }
    for (const uint32_t o : obstacle_grid_.near(x)) {
        if (push_out(o)) {
            for (size_t later = o + 1; later < count; ++later) {
                push_out(later);
            }
            break;
        }
    }
}

glm::vec3 CpuSolver::static_surface_normal(const SimParams& params, const glm::vec3& x) const
{
    float nearest = params.ground_enabled ? x.y : INFINITY;
    glm::vec3 normal(0.0f, 1.0f, 0.0f);
    for (size_t o = 0; o < obstacles_.size(); o += 2) {
        glm::vec3 n;
        const float d = contact_math::cm_obstacle_distance(x, obstacles_[o], obstacles_[o + 1], n);
        if (d < nearest) {
            nearest = d;
            normal = n;
        }
    }
    return normal;
}

void CpuSolver::project_static(const SimParams& params)
{
    // The tet pass wrote corrections only: the positions follow here.
    share_out(vertex_team(), positions_.size(), [&](size_t v) {
        glm::vec3 x = predicted_positions_[v] + corrections_[v];
        if (inverse_masses_[v] != 0.0f) {
            project_out_of_static(params, v, x);
        }
        positions_[v] = x;
    });
}

void CpuSolver::apply_deltas(const SimParams& params)
{
    const Csr& slots = corners_;
    share_out(vertex_team(), positions_.size(), [&](size_t v) {
        if (inverse_masses_[v] == 0.0f) {
            return;
        }
        // Fixed CSR order: the same sum, bit for bit, on every run.
        glm::vec3 sum(0.0f);
        for (uint32_t s = slots.begin(v); s < slots.end(v); ++s) {
            sum += deltas_[slots.entries[s]];
        }
        corrections_[v] += sum;
        glm::vec3 x = predicted_positions_[v] + corrections_[v];
        project_out_of_static(params, v, x);
        positions_[v] = x;
    });
}

void CpuSolver::solve_grab(float h)
{
    if (!grab_) {
        return;
    }
    // After the Jacobi tet pass, Gauss-Seidel style: the attachment sees the
    // positions the tets just produced and moves only its few vertices.
    const Grab& g = *grab_;
    const float alpha_tilde = 1.0f / (sanitized_grab_stiffness(g.stiffness_n_per_m) * h * h);
    // Each anchor its own attachment of its share of the stiffness; they move
    // distinct vertices, so the order does not matter (the GPU runs them at once).
    for (size_t a = 0; a < g.anchors.size(); ++a) {
        const GrabAnchor& anchor = g.anchors[a];
        const uint32_t v = anchor.vertex;
        const glm::vec3 x = positions_[v];
        glm::vec3 d[3];
        grab_math::tm_attachment_step(
            x, x, x, glm::vec3(inverse_masses_[v], 0.0f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f),
            g.target_m + anchor.offset_m, alpha_tilde / anchor.share, grab_max_step_m_,
            grab_lambdas_[a], d[0], d[1], d[2]);
        corrections_[v] += d[0];
        positions_[v] = predicted_positions_[v] + corrections_[v];
    }
}

void CpuSolver::set_grab(const std::optional<Grab>& grab)
{
    assert((!grab || glm::all(glm::lessThan(grab->vertices, glm::uvec3(positions_.size())))) &&
           "CpuSolver::set_grab: vertex out of range");
    assert((!grab || std::all_of(grab->anchors.begin(), grab->anchors.end(),
                                 [&](const GrabAnchor& a) {
                                     return a.vertex < positions_.size() && a.share > 0.0f;
                                 })) &&
           "CpuSolver::set_grab: anchor out of range");
    grab_ = grab;
    if (grab_ && grab_->anchors.size() > kMaxGrabAnchors) {
        grab_->anchors.resize(kMaxGrabAnchors);  // as the GPU solver's buffer holds
    }
    // Kept across frames like the tets' multipliers, reset each substep.
    grab_lambdas_.resize(grab_ ? grab_->anchors.size() : 0, 0.0f);
}

std::optional<SurfaceHit> CpuSolver::pick(const Ray& ray) const
{
    return pick_surface(*mesh_, positions_, ray);
}

void CpuSolver::update_velocities(const SimParams& params, float h)
{
    const float inv_h = 1.0f / h;
    share_out(vertex_team(), positions_.size(), [&](size_t v) {
        glm::vec3 velocity =
            substep_math::sm_velocity_after_substep(velocities_[v], corrections_[v], inv_h);
        const float push = static_push_m_[v];
        if (push > 0.0f) {
            velocity = contact_math::cm_apply_friction(
                velocity, static_surface_normal(params, positions_[v]), push, h,
                params.static_friction, params.dynamic_friction);
        }
        velocities_[v] = velocity;
    });
}

void CpuSolver::rebuild_normals()
{
    const TetMesh& mesh = *mesh_;
    for (size_t f = 0; f < mesh.surface_triangles.size(); ++f) {
        const glm::uvec3& tri = mesh.surface_triangles[f];
        // Length twice the area: summing these weights faces by area.
        face_normals_[f] = glm::cross(positions_[tri.y] - positions_[tri.x],
                                      positions_[tri.z] - positions_[tri.x]);
    }
    const Csr& faces = mesh.vertex_triangles;
    for (size_t v = 0; v < positions_.size(); ++v) {
        glm::vec3 sum(0.0f);
        for (uint32_t s = faces.begin(v); s < faces.end(v); ++s) {
            sum += face_normals_[faces.entries[s]];
        }
        const float length = glm::length(sum);
        normals_[v] = length > 0.0f ? sum / length : glm::vec3(0.0f, 1.0f, 0.0f);
    }
}
