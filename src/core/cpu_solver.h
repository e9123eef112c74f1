// The CPU reference solver: substepped tetrahedral XPBD exactly as DESIGN.md
// section 4 describes it, one pass per function with the names the compute
// shaders use. The per-tet maths is tet_math.glsl, shared with the GPU.
#pragma once

#include "core/body_contacts.h"
#include "core/material.h"
#include "core/obstacle_grid.h"
#include "core/simd/tet_blocks.h"
#include "core/solver.h"
#include "core/thread_chooser.h"
#include "core/worker_team.h"

#include <memory>
#include <vector>

class CpuSolver final : public Solver {
public:
    const char* name() const override { return "cpu"; }
    SurfaceSource surface_source() const override
    {
        SurfaceSource source;
        source.positions = &positions_;
        source.normals = &normals_;
        return source;
    }
    std::string how_it_runs() const override;
    using Solver::load;
    void load(std::shared_ptr<const World> world) override;
    void set_state(const std::vector<glm::vec3>& positions,
                   const std::vector<glm::vec3>& velocities) override;
    void step_frame(const SimParams& params) override;
    void read_positions(std::vector<glm::vec3>& out) const override { out = positions_; }
    void read_velocities(std::vector<glm::vec3>& out) const override { out = velocities_; }
    const TetMesh& mesh() const override { return *mesh_; }
    const World& world() const override { return *world_; }
    void set_grab(const std::optional<Grab>& grab) override;
    std::optional<SurfaceHit> pick(const Ray& ray) const override;
    glm::vec3 read_position(uint32_t vertex) const override { return positions_[vertex]; }
    std::optional<float> latest_mean_residual() override { return mean_residual_; }
    void set_pass_timing(bool enabled) override
    {
        pass_timing_ = enabled;
        pass_times_.reset();
    }
    std::optional<PassTimes> last_pass_times() const override { return pass_times_; }

    // The Gauss-Seidel pass runs on SIMD blocks of tets with the widest
    // kernel this CPU has; tests pick the others to compare them.
    void set_tet_kernel(const TetBlockKernelInfo& kernel);
    const TetBlockKernelInfo& tet_kernel() const { return kernel_; }

    // Threads for the Gauss-Seidel pass (each colour split among them);
    // the results are the same, bit for bit, whatever the count. Default 1.
    // A mesh whose colours are too small to share runs on fewer.
    void set_threads(int threads);
    int threads_in_use() const { return team_->size(); }
    // Whether the latest frames ran on one thread although the team has
    // more: timed faster (ThreadChooser).
    bool running_on_one_thread() const { return team_->size() > 1 && !chooser_.team_chosen(); }

    // Direct views for the CPU-side renderer fallback and the tests.
    const std::vector<glm::vec3>& positions() const { return positions_; }
    const std::vector<glm::vec3>& velocities() const { return velocities_; }
    const std::vector<glm::vec3>& normals() const { return normals_; }
    const BodyContacts& body_contacts() const { return contacts_; }
    bool volume_barrier_engaged() const { return volume_barrier_engaged_; }

private:
    // Per substep of length h (DESIGN.md 4.1 - 4.4).
    void predict(const SimParams& params, float h);
    // The multipliers a substep starts from: zero (Jacobi, the grab), or
    // what the Gauss-Seidel blocks kept, then scaled by warm_start.
    void reset_lambda(const SimParams& params);
    void forget_multipliers();  // a cold start for the next substep
    // Makes the Jacobi method's arrays once it first runs on this mesh.
    void make_jacobi_arrays();
    bool jacobi_arrays_made() const { return !deltas_.empty(); }
    void forget_rotations();  // every tet's back to the identity
    // What every tet step of a substep shares.
    struct TetStepConstants {
        bool volume_enabled;  // some body has a volume term
        float inv_h2;
        float jacobi_k;
        bool ground;  // the ground is on: its hold (tm_ground_held_mass)
    };
    TetStepConstants tet_step_constants(const SimParams& params, float h) const;

    void solve_tets(const SimParams& params, float h);
    // One tet's step with weight omega; its four corrections go to d[0..3].
    // Returns its residual |C + alpha~ lambda| before the step.
    float solve_tet(size_t t, const TetStepConstants& constants, float omega, glm::vec3* d);
    void apply_deltas(const SimParams& params);
    // Gauss-Seidel iteration: colour by colour, SIMD block by block, into
    // the corrections; then the positions follow, projected onto the ground.
    // With `sums`, returns the sum of the tets' shape steps and updates the
    // mean residual; without, returns 0 (an iteration between the first and
    // the last, whose sums nothing reads).
    double solve_tets_colored(const SimParams& params, float h, bool sums);
    // After the last iteration: one more sweep in which the tets left
    // inside out or flat take their volume steps (tm_recover_tet), then the
    // static projection; again while the sweep before turned some tet, up
    // to TM_LAST_SWEEPS_MAX. Colour by colour for Gauss-Seidel; for Jacobi
    // (recover_inverted_tets_jacobi) as its iterations, every tet's
    // corrections summed at once.
    void recover_inverted_tets(const SimParams& params, float h);
    void recover_inverted_tets_jacobi(const SimParams& params, float h);
    // Tet t's step of a Jacobi last sweep into d[0..3] (zero, and false, for
    // a tet the right way out).
    bool recover_tet(size_t t, const TetStepConstants& k, float omega, glm::vec3* d);
    // Makes a Jacobi tet step's corrections d[0..3] free of torque about
    // where the corners began the substep (tm_keep_angular_momentum).
    void keep_angular_momentum(const glm::uvec4& tet, const glm::vec4& w, glm::vec3* d) const;
    // Before the first Gauss-Seidel iteration: the last substep's multipliers,
    // scaled by the fraction its convergence allows, applied to the
    // predicted positions (docs/algorithm.md 4, "Stiffer materials").
    void warm_start(const SimParams& params, float h);
    // Material damping of the velocities after a substep (tm_damp_strain_rate).
    void damp_strain_rates(const SimParams& params, float h);
    // The blocks colour by colour on the team, each with `step`.
    void run_blocks(const TetBlockStep& step);
    // What the kernel needs of a substep: the vertex arrays and constants.
    TetBlockStep block_step(const SimParams& params, float h);
    void project_static(const SimParams& params);
    // The ground and the obstacles: moves x out of them, adding the moves to
    // the correction and the vertex's push (friction).
    void project_out_of_static(const SimParams& params, size_t v, glm::vec3& x);
    // The normal of the static surface nearest to x: the one a vertex pushed
    // out this substep rests on.
    glm::vec3 static_surface_normal(const SimParams& params, const glm::vec3& x) const;
    void solve_grab(float h);
    void update_velocities(const SimParams& params, float h);
    // Once per frame.
    void rebuild_normals();

    // Per body material: inverse masses and compliances, when it changed.
    void refresh_materials(const SimParams& params);
    // The mesh's vertices and each share's dummy vertex after them, which
    // the blocks' padding lanes use.
    size_t vertex_count_with_dummies() const { return mesh_->vertex_count() + blocks_.most_shares; }

    std::shared_ptr<const World> world_;
    std::shared_ptr<const TetMesh> mesh_;  // the world's
    std::vector<glm::vec4> obstacles_;     // two per obstacle, as contact_math.glsl takes them
    ObstacleGrid obstacle_grid_;           // which obstacles a vertex's column meets
    std::vector<glm::vec3> obstacle_boxes_;  // min, max per obstacle: outside, nothing to do
    BodyContacts contacts_;
    SimParams params_;                     // this frame's, sanitized (no allocation per frame)

    // State.
    std::vector<glm::vec3> positions_;
    std::vector<glm::vec3> velocities_;
    std::vector<glm::vec3> normals_;

    // Scratch, sized once per load; nothing is allocated inside a frame.
    // A substep keeps the predicted positions and the constraint correction
    // apart and adds them after every iteration: the correction is summed at
    // full float precision instead of being rounded into metre-sized
    // coordinates iteration after iteration (see docs/algorithm.md, 4.3).
    // Both hold one more entry per share of the blocks than there are
    // vertices: the dummy vertices the SIMD blocks' padding lanes point at.
    std::vector<glm::vec3> predicted_positions_;
    // Where each vertex began the substep (tm_keep_angular_momentum), and in
    // w its inverse mass, which the SIMD kernel reads in the same load; the
    // dummy vertices too (all 0), as predicted_positions_.
    std::vector<glm::vec4> start_positions_;
    std::vector<glm::vec3> corrections_;
    // What the Gauss-Seidel warm start moved each vertex this substep (its
    // corrections then), for the ground's hold; the dummy vertices too.
    std::vector<glm::vec3> warm_start_moves_;
    std::vector<float> static_push_m_;       // normal correction by ground and obstacles this substep
    // Jacobi only, empty until it first runs (make_jacobi_arrays).
    std::vector<glm::mat3> lambda_shape_;    // per tet
    std::vector<float> lambda_volume_;       // per tet
    std::vector<glm::vec4> rotations_;       // per tet, its last rotation (tm_tet_rotation)
    std::vector<glm::vec3> deltas_;          // per tet corner slot (tet * 4 + corner)
    std::vector<glm::mat3> inv_rest_shapes_;  // per tet, B = Dm^-1
    std::vector<float> slivers_;              // per tet, 1 where is_sliver(), else 0
    Csr corners_;                            // per vertex, its tet corner slots
    std::vector<float> shape_compliance_;    // per tet, 1 / (2 mu V0)
    std::vector<float> volume_compliance_;   // per tet, 1 / (lambda V0); -1: no volume term
    std::vector<glm::vec3> face_normals_;    // per surface triangle, area weighted

    TetBlockKernelInfo kernel_ = available_tet_block_kernels().front();
    TetBlocks blocks_;                       // the Gauss-Seidel pass's tets, colour by colour
    std::vector<BlockSums> block_sums_;      // per block, summed in block order
    // The shape steps' sums over every tet in the latest substep's first and
    // last iteration (Gauss-Seidel): they set how much of its multipliers
    // the next substep starts from (tm_warm_start_fraction).
    double first_shape_steps_ = 0.0;
    double last_shape_steps_ = 0.0;
    // Per body, its small tets' size (small_tet_sizes_m), and whether this
    // frame's sweeps keep up with every body's material (sweeps_keep_up):
    // then the warm start takes the whole of the last multipliers.
    std::vector<float> small_tet_sizes_m_;
    bool sweeps_keep_up_ = false;
    // The volume term's barrier (tm_volume_constraint) and its latch: engaged
    // once a whole substep's volume steps found every tet at J_b or above,
    // until the next load or set_state (shaders/tet_pass_state.glsl).
    bool volume_barrier_engaged_ = false;
    bool volume_squeezed_seen_ = true;
    void forget_volume_barrier();
    float multipliers_h_ = 0.0f;  // the substep length they were found at
    SolverMethod multipliers_method_ = SolverMethod::gauss_seidel;  // and the method
    int requested_threads_ = 1;
    std::unique_ptr<WorkerTeam> team_ = std::make_unique<WorkerTeam>(1);
    std::unique_ptr<WorkerTeam> one_thread_ = std::make_unique<WorkerTeam>(1);
    WorkerTeam* active_team_ = team_.get();  // this frame's: the team or one thread
    ThreadChooser chooser_;
    void start_team();
    // The team for a pass over the vertices: this frame's, or one thread
    // where the pass is too short to share.
    WorkerTeam& vertex_team() const;
    // The Gauss-Seidel blocks for the mesh and kernel, and what depends on them.
    void lay_out_blocks();

    std::optional<float> mean_residual_;  // after the last iteration stepped
    std::optional<Grab> grab_;
    std::vector<float> grab_lambdas_;  // one per anchor
    float grab_max_step_m_ = 0.05f;

    std::vector<float> inverse_masses_;      // depend on the densities; dummy vertices 0
    bool any_volume_term_ = false;
    std::vector<BodyMaterial> materials_;    // per body, what the above were computed for

    bool pass_timing_ = false;
    std::optional<PassTimes> pass_times_;
};
