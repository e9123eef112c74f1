#include "app/scene.h"

#include "app/scene_file.h"
#include "core/cpu_solver.h"
#include "core/warm_start.h"
#include "gpu/gpu_solver.h"

#include <algorithm>
#include <cassert>
#include <chrono>

Scene::Scene(ShaderLibrary shaders, bool compute_available)
    : shaders_(std::move(shaders)),
      compute_available_(compute_available),
      drawn_(std::make_unique<DrawnBodies>(shaders_, compute_available))
{
    kind_ = compute_available ? SolverKind::gpu : SolverKind::cpu;
}

Result<std::unique_ptr<Solver>> Scene::make_solver(SolverKind kind)
{
    using R = Result<std::unique_ptr<Solver>>;
    if (kind == SolverKind::cpu) {
        auto cpu = std::make_unique<CpuSolver>();
        cpu->set_threads(cpu_threads_);
        cpu->set_tet_kernel(cpu_kernel_);
        return R(std::move(cpu));
    }
    if (!compute_available_) {
        return R::failure("the GPU solver needs OpenGL 4.3 compute shaders, which this context "
                          "lacks; running on the CPU");
    }
    Result<std::unique_ptr<GpuSolver>> gpu = GpuSolver::create(shaders_);
    if (!gpu) {
        return R::failure(gpu.error());
    }
    return R(std::move(gpu).value());
}

Result<std::string> Scene::load_preset(PresetId id)
{
    Result<TetMeshDesc> desc = make_preset_mesh(id);
    if (!desc) {
        return Result<std::string>::failure(desc.error());
    }
    return install_body(prepare_tet_mesh(desc.value()), id);
}

Result<std::string> Scene::load_file(const std::string& path, int resolution)
{
    return install_body(prepare_body_from_file(path, resolution), std::nullopt);
}

Result<std::string> Scene::load_builtin_scene(const std::string& name)
{
    return install_world(load_scene_world(name, kDefaultMeshResolution), std::nullopt, name);
}

Result<std::string> Scene::install_body(Result<TetMesh> prepared, std::optional<PresetId> preset)
{
    if (!prepared) {
        return Result<std::string>::failure(prepared.error());
    }
    return install_world(
        *single_body_world(std::make_shared<const TetMesh>(std::move(prepared).value())), preset);
}

Result<std::string> Scene::install_world(Result<World> prepared, std::optional<PresetId> preset,
                                         std::optional<std::string> scene)
{
    finish_steps();
    if (!prepared) {
        return Result<std::string>::failure(prepared.error());
    }
    const TetMesh& mesh = *prepared.value().mesh;
    if (kind_ == SolverKind::gpu) {
        const size_t largest = std::max(mesh.tet_count(), mesh.vertex_count());
        if (largest > GpuSolver::max_items_per_dispatch()) {
            return Result<std::string>::failure(
                "mesh '" + mesh.name + "' is too large for this GPU (" +
                std::to_string(largest) + " elements in one dispatch, at most " +
                std::to_string(GpuSolver::max_items_per_dispatch()) +
                "): lower the resolution or use the CPU solver");
        }
    }
    std::string note = dropped_tets_warning(mesh);
    Result<std::unique_ptr<Solver>> solver = make_solver(kind_);
    if (!solver && kind_ == SolverKind::gpu) {
        // Keep the program useful: fall back to the CPU solver.
        if (!note.empty()) note += "; ";
        note += solver.error() + " (running the CPU solver instead)";
        kind_ = SolverKind::cpu;
        solver = make_solver(kind_);
    }
    if (!solver) {
        return Result<std::string>::failure(solver.error());
    }
    world_ = std::make_shared<const World>(std::move(prepared).value());
    small_tet_sizes_m_ = small_tet_sizes_m(*world_);
    preset_ = preset;
    builtin_scene_ = std::move(scene);
    solver_ = std::move(solver).value();
    reset();
    drawn_->set_world(*world_, drawn_surface_);
    drawn_->set_highlighted(std::nullopt);
    if (!drawn_->surface_note().empty()) {
        note += (note.empty() ? "" : "; ") + drawn_->surface_note();
    }
    return note;
}

void Scene::reset()
{
    if (!loaded()) {
        return;
    }
    finish_steps();
    solver_->load(world_);
    initial_min_ = glm::vec3(INFINITY);
    initial_max_ = glm::vec3(-INFINITY);
    for (const glm::vec3& p : mesh().rest_positions) {
        initial_min_ = glm::min(initial_min_, p);
        initial_max_ = glm::max(initial_max_, p);
    }
}

bool Scene::diverged()
{
    if (!loaded()) {
        return false;
    }
    const std::optional<float> residual = solver().latest_mean_residual();
    return residual && !std::isfinite(*residual);
}

Result<bool> Scene::set_solver(SolverKind kind)
{
    finish_steps();
    if (kind == kind_ && solver_) {
        return true;
    }
    Result<std::unique_ptr<Solver>> next = make_solver(kind);
    if (!next) {
        return Result<bool>::failure(next.error());
    }
    if (!loaded()) {
        kind_ = kind;  // the first body will start on it
        return true;
    }
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> velocities;
    solver_->read_positions(positions);
    solver_->read_velocities(velocities);
    solver_ = std::move(next).value();
    solver_->load(world_);
    solver_->set_state(positions, velocities);
    kind_ = kind;
    return true;
}

Result<SolverTrial> Scene::time_solvers(const SimParams& params, double seconds_each)
{
    using R = Result<SolverTrial>;
    if (!loaded()) {
        return R::failure("no world to time the solvers on");
    }
    finish_steps();
    SolverTrial trial;
    for (const SolverKind kind : {SolverKind::gpu, SolverKind::cpu}) {
        Result<std::unique_ptr<Solver>> made = make_solver(kind);
        if (!made) {
            return R::failure(made.error());
        }
        Solver& solver = *made.value();
        solver.load(world_);
        (kind == SolverKind::cpu ? trial.cpu : trial.gpu) =
            time_solver_frames(solver, params, seconds_each);
    }
    return trial;
}

Result<bool> Scene::reload_shaders()
{
    finish_steps();
    return solver_->reload_shaders();
}

void Scene::step_frame(const SimParams& params)
{
    finish_steps();
    solver_->step_frame(params);
}

void Scene::start_steps(std::vector<SimParams> frames)
{
    assert(kind_ == SolverKind::cpu && loaded() && "Scene::start_steps: the CPU solver only");
    finish_steps();
    const SurfaceSource source = solver_->surface_source();
    shown_positions_ = *source.positions;
    shown_normals_ = *source.normals;
    background_.start([this, frames = std::move(frames)] {
        const auto start = std::chrono::steady_clock::now();
        for (const SimParams& params : frames) {
            solver_->step_frame(params);
        }
        background_ms_ = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    });
}

BodyDrawData Scene::draw_data(const std::vector<LameParameters>& stress_lame)
{
    if (!loaded()) {
        return BodyDrawData{};
    }
    SurfaceSource source = solver_->surface_source();
    if (stepping()) {
        source.positions = &shown_positions_;
        source.normals = &shown_normals_;
    }
    BodyDrawData data = drawn_->draw_data(source, stress_lame);
    // The shadow map is fitted to the region the body started in, padded by
    // the distance it may travel: the body's bounds are not read back.
    const glm::vec3 pad(3.0f, 0.5f, 3.0f);
    data.bounds_min = glm::vec3(initial_min_.x, 0.0f, initial_min_.z) - pad;
    data.bounds_max = initial_max_ + pad;
    return data;
}

void Scene::set_drawn_surface(DrawnSurface choice)
{
    if (choice == drawn_surface_) {
        return;
    }
    drawn_surface_ = choice;
    if (loaded()) {
        drawn_->set_world(*world_, drawn_surface_);
    }
}

const std::vector<glm::vec3>& Scene::current_positions() const
{
    if (stepping()) {
        return shown_positions_;  // the CPU solver's, as drawn
    }
    if (const std::vector<glm::vec3>* positions = solver_->surface_source().positions) {
        return *positions;  // the CPU solver's own
    }
    solver_->read_positions(read_back_);
    return read_back_;
}

Grab Scene::grab_patch(const SurfaceHit& hit, float radius_fraction,
                       float stiffness_n_per_m) const
{
    finish_steps();  // the patch around where the surface is now
    const World& w = world();
    const float radius_m = grab_radius_m(w, w.vertex_body[hit.vertices.x], radius_fraction);
    return spread_grab(w, current_positions(), hit, radius_m, stiffness_n_per_m);
}

bool Scene::sweeps_keep_up(const SimParams& params) const
{
    std::vector<BodyMaterial> materials(world_->body_count());
    for (size_t b = 0; b < materials.size(); ++b) {
        materials[b] = params.body_material(b);
    }
    const float h = kFrameSeconds / static_cast<float>(params.substeps);
    return ::sweeps_keep_up(materials, small_tet_sizes_m_, h, params.iterations);
}

std::optional<Bounds> Scene::current_bounds(std::optional<size_t> body) const
{
    if (!loaded() || (body && *body >= world().body_count())) {
        return std::nullopt;
    }
    const std::vector<glm::vec3>& positions = current_positions();
    size_t first = 0;
    size_t count = positions.size();
    if (body) {
        first = world().bodies[*body].first_vertex;
        count = world().bodies[*body].vertex_count;
    }
    if (count == 0 || first + count > positions.size()) {
        return std::nullopt;
    }
    Bounds bounds{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (size_t v = first; v < first + count; ++v) {
        bounds.lo = glm::min(bounds.lo, positions[v]);
        bounds.hi = glm::max(bounds.hi, positions[v]);
    }
    const bool finite = glm::all(glm::lessThan(glm::abs(bounds.lo), glm::vec3(INFINITY))) &&
                        glm::all(glm::lessThan(glm::abs(bounds.hi), glm::vec3(INFINITY)));
    return finite ? std::optional<Bounds>(bounds) : std::nullopt;
}

void Scene::set_highlighted_body(std::optional<size_t> body)
{
    drawn_->set_highlighted(body);
}

Result<std::string> Scene::add_body(BodyDesc body)
{
    if (!loaded()) {
        return Result<std::string>::failure("no world to add a body to yet");
    }
    std::vector<BodyDesc> bodies = placed_body_descs(*world_);
    std::vector<size_t> kept(bodies.size());
    for (size_t b = 0; b < kept.size(); ++b) kept[b] = b;
    bodies.push_back(std::move(body));
    return rebuild_world(std::move(bodies), kept);
}

Result<std::string> Scene::remove_body(size_t body)
{
    if (!loaded() || body >= world_->body_count()) {
        return Result<std::string>::failure("no such body");
    }
    if (world_->body_count() == 1) {
        return Result<std::string>::failure("the last body stays: load another world instead");
    }
    std::vector<BodyDesc> bodies = placed_body_descs(*world_);
    bodies.erase(bodies.begin() + static_cast<std::ptrdiff_t>(body));
    std::vector<size_t> kept;
    for (size_t b = 0; b < world_->body_count(); ++b) {
        if (b != body) kept.push_back(b);
    }
    return rebuild_world(std::move(bodies), kept);
}

Result<std::string> Scene::replace_obstacles(std::vector<Obstacle> obstacles)
{
    if (!loaded()) {
        return Result<std::string>::failure("no world yet");
    }
    if (obstacles.size() > kMaxObstacles) {
        return Result<std::string>::failure(
            "a world holds at most " + std::to_string(kMaxObstacles) + " obstacles, not " +
            std::to_string(obstacles.size()));
    }
    std::vector<size_t> kept(world_->body_count());
    for (size_t b = 0; b < kept.size(); ++b) kept[b] = b;
    return rebuild_world(placed_body_descs(*world_), kept, std::move(obstacles));
}

Result<std::string> Scene::rebuild_world(std::vector<BodyDesc> bodies,
                                         const std::vector<size_t>& kept,
                                         std::optional<std::vector<Obstacle>> obstacles)
{
    finish_steps();
    const std::shared_ptr<const World> old = world_;
    std::vector<glm::vec3> old_positions;
    std::vector<glm::vec3> old_velocities;
    solver_->read_positions(old_positions);
    solver_->read_velocities(old_velocities);
    WorldDesc desc = world_desc_without_bodies(*old);
    desc.bodies = std::move(bodies);
    if (obstacles) {
        desc.obstacles = std::move(*obstacles);
    }
    Result<World> assembled = assemble_world(desc);
    if (!assembled) {
        return Result<std::string>::failure(assembled.error());
    }
    // The kept bodies come first, in order, each with as many vertices as
    // before (their rest shapes were prepared once already).
    const World& next = assembled.value();
    std::vector<glm::vec3> positions = next.mesh->rest_positions;
    std::vector<glm::vec3> velocities = start_velocities(next);
    for (size_t b = 0; b < kept.size(); ++b) {
        const WorldBody& from = old->bodies[kept[b]];
        const WorldBody& to = next.bodies[b];
        if (from.vertex_count != to.vertex_count) {
            return Result<std::string>::failure("body " + std::to_string(b + 1) +
                                                " changed when the world was rebuilt");
        }
        std::copy_n(old_positions.begin() + from.first_vertex, from.vertex_count,
                    positions.begin() + to.first_vertex);
        std::copy_n(old_velocities.begin() + from.first_vertex, from.vertex_count,
                    velocities.begin() + to.first_vertex);
    }
    const std::optional<std::string> scene = builtin_scene_;
    // The same bodies with other obstacles are still the preset they were.
    const std::optional<PresetId> preset = obstacles ? preset_ : std::nullopt;
    Result<std::string> installed = install_world(std::move(assembled), preset, scene);
    if (installed) {
        solver_->set_state(positions, velocities);
    }
    return installed;
}
