// The GPU solver: the same substepped XPBD as CpuSolver, one compute shader
// per pass (shaders/*.comp), the state living in shader storage buffers that
// the renderer draws straight from. Nothing is read back per frame.
#pragma once

#include "core/body_contacts.h"
#include "core/solver.h"
#include "core/tet_math.h"
#include "gpu/dispatch_profile.h"
#include "gpu/gl_objects.h"
#include "gpu/pass_timer.h"
#include "gpu/shader_library.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

class GpuSolver final : public Solver {
public:
    // Compiles the passes. Needs a current GL 4.3+ context.
    static Result<std::unique_ptr<GpuSolver>> create(const ShaderLibrary& shaders);

    const char* name() const override { return "gpu"; }
    bool runs_on_gpu() const override { return true; }
    SurfaceSource surface_source() const override;
    // From the files of the library it was created with.
    Result<bool> reload_shaders() override { return reload_shaders(shaders_); }
    using Solver::load;
    void load(std::shared_ptr<const World> world) override;
    void set_state(const std::vector<glm::vec3>& positions,
                   const std::vector<glm::vec3>& velocities) override;
    void step_frame(const SimParams& params) override;
    void read_positions(std::vector<glm::vec3>& out) const override;
    void read_velocities(std::vector<glm::vec3>& out) const override;
    const TetMesh& mesh() const override { return *mesh_; }
    const World& world() const override { return *world_; }
    void set_grab(const std::optional<Grab>& grab) override;
    std::optional<SurfaceHit> pick(const Ray& ray) const override;
    glm::vec3 read_position(uint32_t vertex) const override;
    // The newest readout the GPU has finished (a frame or few behind).
    std::optional<float> latest_mean_residual() override;
    void set_pass_timing(bool enabled) override;
    std::optional<PassTimes> last_pass_times() const override { return pass_times_; }

    // Gauss-Seidel may run in one workgroup (solve_tets_colored_one_group.comp)
    // while no colour has more tets than this; larger colours always get a
    // dispatch each. On llvmpipe a dispatch costs 7-40 us (waking its
    // threads), more than a small colour's work on one core; on a GPU with
    // many cores one group of 8 lanes would leave it idle. load() times one
    // iteration both ways and keeps the faster.
    static constexpr uint32_t kOneGroupLargestColor = 1024;
    // A mesh coloured by region (RegionSweep, core/tet_mesh.h) may run each
    // sweep's colours in one dispatch (region_sweep.glsl): `wide`, a
    // workgroup of 32 per region (a GPU's warps), or `narrow`, a workgroup
    // of 8 per group of regions of about kTetsPerRegionGroup tets (a GPU of
    // few wide cores, as llvmpipe); or `off`, colour by colour. load() times
    // an iteration each way and keeps the fastest; the result is the same
    // bit for bit.
    enum class SweepMode { off, wide, narrow };
    SweepMode sweep_mode() const { return sweep_mode_; }
    // Overrides load()'s choice (tests); `off` when the mesh has no sweeps.
    void set_sweep_mode(SweepMode mode) { sweep_mode_ = sweeps_.empty() ? SweepMode::off : mode; }
    // The single workgroup's width: 8 lanes (llvmpipe's SIMD row) or 256 (a
    // lane a tet of a colour, for a GPU of many cores). load() times both
    // where the mesh runs it (its colours all small, or a tail of small
    // colours) and keeps the faster; the result is the same bit for bit.
    bool one_group_wide() const { return one_group_wide_; }
    void set_one_group_wide(bool wide) { one_group_wide_ = wide; }  // tests
    bool colors_in_one_group() const { return colors_in_one_group_; }
    void set_colors_in_one_group(bool in_one_group)  // tests; only for meshes without sweeps
    {
        colors_in_one_group_ = in_one_group && sweeps_.empty();
    }
    // How many of the last, smallest colours share one dispatch when the
    // colours are dispatched one by one (0: none do).
    uint32_t colors_sharing_a_dispatch() const
    {
        return static_cast<uint32_t>(mesh_->tet_colors.rows()) - first_merged_color_;
    }

    // The most vertices, tets or triangles one dispatch can cover on this
    // driver (workgroup count limit x workgroup size).
    static size_t max_items_per_dispatch();

    // Recompiles every pass; on failure keeps the current ones and says why.
    Result<bool> reload_shaders(const ShaderLibrary& shaders);

    // Compute dispatches the last step_frame issued (the benchmark's
    // dispatches_per_frame): what a real GPU pays most for at large sizes.
    uint64_t dispatches_last_frame() const { return dispatches_last_frame_; }
    // On: the frames stepped from now are timed dispatch by dispatch (a GL
    // timestamp after each), summed per program.
    void set_dispatch_profile(bool enabled);
    std::vector<ProgramTime> dispatch_profile() const { return profile_.per_frame(); }
    // How load() laid out the Gauss-Seidel tet pass and what it timed to
    // choose, one iteration each way, e.g. "region sweeps, wide (an
    // iteration: colour by colour 0.41 ms, wide 0.12 ms, narrow 0.30 ms)";
    // the benchmark prints it beside each GPU row.
    const std::string& tet_pass_layout() const { return tet_pass_layout_; }
    // Bytes of every buffer the solver holds for its world, as the driver
    // reports their sizes.
    size_t buffer_bytes() const;

    // The body contacts' near lists as the last substep left them (a
    // read-back, for tests): the largest move of a surface vertex since
    // their search, plain, beside the bodies and beside the rigid motion
    // (BodyContacts::near_lists_stale), and the move that search allows.
    struct NearListMoves {
        float largest = 0.0f;
        float beside_bodies = 0.0f;
        float beside_rigid_motion = 0.0f;
        float allowed = 0.0f;
    };
    NearListMoves read_near_list_moves() const;
    // How many surface vertices the last search found inside another
    // body's tets (a read-back, for tests; BodyContacts::deep_vertex_count).
    size_t read_deep_vertex_count() const;

private:
    // Binding points; shaders/sim_common.glsl declares the same numbers.
    enum Binding {
        kPositions = 0,
        kVelocities,
        kPredicted,
        kCorrections,
        kInverseMasses,
        kSlotOffsets,
        kSlotEntries,
        kNormals,
        kTets,
        kTetRests,
        kLambdas,
        kDeltas,
        kTriangles,
        kFaceNormals,
        kFaceOffsets,
        kFaceEntries,
        kBindingCount,
        kPickResult = kBindingCount,  // used by pick.comp and reduce_residual.comp only
        kColorTets,                   // used by the Gauss-Seidel passes only
        kColorOffsets,
        kRegionStarts = kColorOffsets,  // solve_tets_region_sweep.comp's
        // The body contact passes' (shaders/contact_common.glsl).
        kContactVertices,
        kContactHash,
        kSurfaceVertices,
        kContactCandidates,
        kContactSums,
        kContactAnchors,
        kContactTetExits,
        kTetRotations,  // the tet passes' (shaders/tet_step.glsl)
        kTetMultipliers,
        kTetPassState,
        kBodyChunks,   // damp_wobble.comp's
        kPartialSums,  // the chunked sums' (shaders/chunk_sums.glsl)
        // solve_grab.comp's anchors, at the pick result's point (free while stepping).
        kGrabAnchors = kPickResult,
    };
    // Mirrors TetPassState in shaders/tet_pass_state.glsl (std430).
    struct TetPassStateBlock {
        float warm_fraction;
        uint32_t volume_barrier_engaged;
        uint32_t volume_squeezed_seen;
        uint32_t last_sweep;
        uint32_t last_sweeps_deepest;
        std::array<uint32_t, tet_math::TM_LAST_SWEEPS_MAX> last_sweep_turned;
    };
    // Mirrors GrabAnchor in shaders/solve_grab.comp (std430).
    struct GrabAnchorBlock {
        glm::vec4 offset_share;  // xyz offset (m), w share of the stiffness
        glm::uvec4 vertex;       // x vertex
    };
    // A compute program and its local_size_x, read back from the linked
    // program so that the shader alone decides its workgroup size.
    struct ComputePass {
        GlProgram program;
        GLuint group_size = 1;
    };
    struct Programs {
        ComputePass predict;  // with the grab's multipliers' reset
        ComputePass warm_fraction;
        ComputePass solve_tets;
        ComputePass apply_deltas;
        ComputePass update_velocities;
        ComputePass damp_wobble;
        ComputePass rebuild_normals_faces;
        ComputePass rebuild_normals_vertices;
        ComputePass solve_grab;
        ComputePass pick;
        ComputePass solve_tets_colored;
        ComputePass solve_tets_colored_one_group;       // narrow
        ComputePass solve_tets_colored_one_group_wide;
        ComputePass solve_tets_region_sweep;         // wide
        ComputePass solve_tets_region_sweep_narrow;
        ComputePass project_static;
        ComputePass reduce_residual;
        ComputePass contact_rigid_motion;
        ComputePass contact_body_boxes;
        ComputePass contact_body_neighbours;
        ComputePass contact_moved;
        ComputePass contact_hash_clear;
        ComputePass contact_hash_count;
        ComputePass contact_hash_scan;
        ComputePass contact_hash_fill;
        ComputePass contact_search;
        ComputePass contact_pick;
        ComputePass contact_count;
        ComputePass contact_solve;
        ComputePass contact_apply;
        // Uniform locations, looked up once.
        GLint predict_clears_multipliers = -1;
        // The passes summed chunk by chunk (chunk_sums.glsl): their phase,
        // where the sums' state starts, and damp_wobble's body count.
        struct ChunkedUniforms {
            GLint phase = -1;
            GLint state_base = -1;
        };
        ChunkedUniforms warm_fraction_sums;
        ChunkedUniforms reduce_residual_sums;
        ChunkedUniforms damp_wobble_sums;
        ChunkedUniforms rigid_motion_sums;
        GLint hash_scan_phase = -1;
        GLint damp_wobble_bodies = -1;
        GLint color_begin = -1;
        GLint color_size = -1;
        // The one-group passes' uniforms: [0] narrow, [1] wide.
        GLint one_group_first_color[2] = {-1, -1};
        GLint one_group_color_end[2] = {-1, -1};
        GLint one_group_iterations[2] = {-1, -1};
        GLint one_group_project_static[2] = {-1, -1};
        GLint one_group_tet_pass[2] = {-1, -1};
        GLint colored_tet_pass = -1;
        GLint jacobi_tet_pass = -1;  // solve_tets.comp's
        // The sweep passes' uniforms: [0] wide, [1] narrow.
        GLint sweep_start[2] = {-1, -1};
        GLint sweep_colors[2] = {-1, -1};
        GLint sweep_regions[2] = {-1, -1};
        GLint sweep_regions_per_group[2] = {-1, -1};
        GLint sweep_tet_pass[2] = {-1, -1};
        // Every program with its shader's name (DispatchProfile).
        std::vector<std::pair<GLuint, std::string>> names;
    };
    static Result<Programs> compile(const ShaderLibrary& shaders);

    GpuSolver() = default;

public:
    ~GpuSolver() override;

private:
    void upload_body_at_rest();
    // Every tet's rotation back to the identity (tm_tet_rotation's start)
    // and its multipliers to zero (a cold start), every last sweep
    // dispatched until a frame is read back.
    void upload_cold_tet_state();
    void clear_tet_multipliers();  // zero: the next substep starts cold
    // Per body material: inverse masses and the tets' compliances, when it changed.
    void refresh_materials(const SimParams& params);
    bool one_group_is_faster();
    bool wide_group_is_faster(uint32_t first_color, std::string& note);
    SweepMode fastest_sweep_mode();
    void upload_parameters(const SimParams& params);
    void rebuild_normals();
    void iterate(const SimParams& params);
    void upload_contact_layout();
    void upload_region_sweeps();
    bool body_contact_on(const SimParams& params) const;
    // Once per substep: the spatial hash and each surface vertex's candidates.
    void find_contacts();
    // Once per iteration: the candidates' steps, gathered and applied.
    void solve_contacts();
    // One dispatch per region sweep when they are on (sweep_mode_), then one
    // per colour up to the tail of small colours, which share one
    // (first_merged_color_).
    // What the colour passes do to each tet, as tet_step.glsl's TET_PASS_*.
    enum class TetPass : GLuint { step = 0, warm_start = 1, damp = 2, recover = 3 };
    // With another tet_pass than a step, that pass instead.
    void solve_colors(TetPass tet_pass) const;
    // Colours first_color to the last, `iterations` times, in one
    // workgroup; each iteration ends with the static projection if asked.
    // With another tet_pass than a step, that pass walks the colours first.
    void solve_colors_in_one_group(int iterations, uint32_t first_color, bool project_static,
                                   TetPass tet_pass) const;
    // Gauss-Seidel: the last sweep after a substep's iterations
    // (tm_recover_tet), colour by colour, then the static projection.
    // The last sweeps of a substep (tm_recover_tet), last_sweeps_ of them,
    // each but the first stepping only if the one before turned a tet; the
    // static projection after each. Colour by colour for Gauss-Seidel, as a
    // Jacobi iteration for Jacobi.
    void recover_inverted_tets(SolverMethod method) const;
    // Sets `count` words of TetPassState from byte `offset` to `value`.
    void set_tet_pass_words(size_t offset, size_t count, GLuint value) const;
    // How many last sweeps the next frames dispatch, from a frame read back
    // that dispatched `dispatched` and needed `needed` (the deepest that
    // turned a tet). CpuSolver stops once a sweep turned none; here the
    // count follows what the frames a few back needed.
    void choose_last_sweeps(int needed, int dispatched);
    // The newest readout that finished, if a newer one than last time: the
    // mean residual and the last sweeps to dispatch.
    void read_back();
    // Gauss-Seidel: the substep's warm start, colour by colour.
    void warm_start() const;
    // After a substep, either method: the material damping of the
    // velocities, colour by colour (tm_damp_strain_rate).
    void damp_strain_rates() const;
    void dispatch(const ComputePass& pass, size_t items) const;
    // A pass summed chunk by chunk (shaders/chunk_sums.glsl): its phases
    // in turn, a barrier after each.
    struct Phase {
        GLuint phase = 0;   // the shader's u_phase
        GLuint groups = 0;  // workgroups
    };
    void dispatch_phases(const ComputePass& pass, const Programs::ChunkedUniforms& uniforms,
                         const std::vector<Phase>& phases) const;
    // Phase 0 over `chunks` workgroups, then phase 1 adding their sums in
    // one, unless phase 0 had a single chunk (warm_fraction.comp,
    // reduce_residual.comp).
    static std::vector<Phase> one_or_two_phases(GLuint chunks)
    {
        if (chunks <= 1) {
            return {{0, 1}};
        }
        return {{0, chunks}, {1, 1}};
    }
    // Tells the dispatch profile each program's shader.
    void name_programs_for_profile();
    // Sizes the chunked sums' scratch and lists the bodies' chunks.
    void upload_chunk_tables();
    // The chunks of the contact hash's tables (contact_hash_scan.comp).
    GLuint hash_table_chunks() const;
    // Makes the Jacobi pass's buffer once it first runs on this world.
    void size_jacobi_deltas();
    // Every dispatch goes through here, to be counted.
    void dispatch_groups(GLuint groups) const;
    void read_vec4_buffer(Binding binding, std::vector<glm::vec3>& out) const;

    Programs programs_;
    ShaderLibrary shaders_;  // where reload_shaders() reads them again
    std::shared_ptr<const World> world_;
    std::shared_ptr<const TetMesh> mesh_;  // the world's
    std::vector<BodyMaterial> materials_;   // per body, what the buffers hold
    std::vector<float> small_tet_sizes_m_;  // per body (core/warm_start.h)
    SimParams params_;                      // this frame's, sanitized
    GlBuffer buffers_[kBindingCount];
    GlBuffer parameters_;
    GlBuffer pick_result_;
    GlBuffer color_tets_;
    GlBuffer color_offsets_;
    GlBuffer region_starts_;  // every sweep's RegionSweep::region_starts
    // The mesh's region sweeps as dispatched.
    struct SweepDispatch {
        uint32_t first_color = 0;
        uint32_t color_end = 0;
        uint32_t regions = 0;
        uint32_t start = 0;                    // its first entry in region_starts_
        uint32_t narrow_regions_per_group = 1;  // SweepMode::narrow's
    };
    std::vector<SweepDispatch> sweeps_;
    SweepMode sweep_mode_ = SweepMode::off;  // chosen at load by timing
    ContactLayout contact_layout_;
    GlBuffer contact_vertices_;
    GlBuffer contact_hash_;
    GlBuffer surface_vertices_;
    GlBuffer contact_candidates_;
    GlBuffer contact_sums_;
    GlBuffer contact_anchors_;
    GlBuffer contact_tet_exits_;
    GlBuffer tet_rotations_;  // per tet, its last rotation, packed (tet_step.glsl)
    GlBuffer tet_multipliers_;  // per tet, its ten multipliers (tet_step.glsl)
    GlBuffer tet_pass_state_;   // TetPassStateBlock
    GlBuffer body_chunks_;   // the bodies' vertices in chunks (damp_wobble.comp)
    GlBuffer partial_sums_;  // the chunked sums' scratch (chunk_sums.glsl)
    uint32_t body_chunk_count_ = 0;
    uint32_t partial_sums_state_base_ = 0;  // chunk_sums.glsl's u_state_base
    float multipliers_h_ = 0.0f;  // the substep length the multipliers were found at
    uint32_t body_boxes_base_ = 0;  // where the bodies' boxes start in contact_hash_
    // Where the tets' table starts in contact_hash_, and how many tets it
    // lists (0 when the layout does not hash them).
    uint32_t tet_table_base_ = 0;
    uint32_t hashed_tets_ = 0;
    // Gauss-Seidel in one workgroup (one_group.glsl) instead of a dispatch
    // per colour; chosen at load by timing both.
    bool colors_in_one_group_ = false;
    // That workgroup (and the merged colours' below) 256 lanes wide, not 8:
    // chosen at load by timing both where it runs.
    bool one_group_wide_ = false;
    // Otherwise, the colours from this one on (after the sweeps) are each
    // small enough for one workgroup of the per-colour pass: they run in a
    // single dispatch of the one-group pass instead of a dispatch each. The
    // colouring is greedy, so its last colours are its smallest (the
    // lattice-10k ends 53, 15, 4).
    uint32_t first_merged_color_ = 0;
    // The convergence readouts in flight, one a frame, oldest overwritten: a
    // real GPU runs a frame or more behind the CPU, and a single readout
    // replaced every frame was never ready when asked (NVIDIA's driver).
    struct ResidualReadout {
        // The mean residual (reduce_residual.comp), then the frame's deepest
        // last sweep that turned a tet.
        GlBuffer result;
        GLsync fence = nullptr;  // signalled once the result can be read
        uint64_t frame = 0;
        int last_sweeps = 1;  // the last sweeps a substep of that frame dispatched
    };
    static constexpr size_t kResidualReadouts = 4;
    std::array<ResidualReadout, kResidualReadouts> residual_readouts_;
    uint64_t frames_stepped_ = 0;
    // The last sweeps a substep dispatches (choose_last_sweeps), and the
    // newest frame whose readout chose them.
    int last_sweeps_ = 1;
    uint64_t last_sweeps_frame_ = 0;
    void drop_residual_readouts();
    std::optional<float> mean_residual_;
    std::optional<Grab> grab_;
    GlBuffer grab_anchors_;  // kMaxGrabAnchors GrabAnchorBlocks
    std::vector<GrabAnchorBlock> grab_anchor_blocks_;
    GLuint grab_anchor_count_ = 0;
    float grab_max_step_m_ = 0.05f;
    size_t jacobi_delta_slots_ = 0;    // 0: buffers_[kDeltas] not yet sized for Jacobi
    mutable uint64_t dispatches_ = 0;  // this frame's so far
    uint64_t dispatches_last_frame_ = 0;
    std::string tet_pass_layout_;
    bool pass_timing_ = false;
    PassTimer pass_timer_;
    mutable DispatchProfile profile_;
    std::optional<PassTimes> pass_times_;
};
