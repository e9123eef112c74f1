#include "app/background_load.h"

#include "core/render_surface.h"

#include "app/scene_file.h"
#include "core/presets.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace {

// The load runs below the window's priority. With two cores, its threads
// (the winding numbers use every core) otherwise take the CPU from the
// window's thread and from the GL driver's (llvmpipe renders on the CPU):
// measured on a shared 2-core machine, 0.35 frames/s during a load at the
// same priority against 3 frames/s with no load.
constexpr int kLoadNiceness = 10;

void lower_this_threads_priority()
{
#ifdef __linux__
    // Linux keeps a niceness per thread, and the threads this one starts
    // inherit it.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kLoadNiceness);
#endif
}

Result<World> load_world(const std::string& path, int resolution, LoadProgress* progress)
{
    if (names_scene_file(path)) {
        return load_scene_world(path, resolution, progress);
    }
    Result<TetMesh> mesh = prepare_body_from_file(path, resolution, progress);
    if (!mesh) {
        return Result<World>::failure(mesh.error());
    }
    return *single_body_world(std::make_shared<const TetMesh>(std::move(mesh).value()));
}

Result<World> load_in_background(const std::string& path, int resolution,
                                 LoadProgress* progress)
{
    lower_this_threads_priority();
    Result<World> world = load_world(path, resolution, progress);
    if (world) {
        // The drawn surface here too: embedding a large OBJ's surface in
        // its tets takes a good part of a second.
        world.value().own_surface = std::make_shared<const RenderSurface>(
            build_render_surface(world.value(), DrawnSurface::own));
    }
    return world;
}

}  // namespace

BackgroundLoad::~BackgroundLoad()
{
    if (result_.valid()) {
        cancel();
        result_.wait();
    }
}

Result<bool> BackgroundLoad::start(const std::string& path, int resolution)
{
    if (result_.valid()) {
        return Result<bool>::failure("already loading " + path_ +
                                     ": wait for it or cancel it before loading " + path);
    }
    path_ = path;
    progress_ = std::make_unique<LoadProgress>();
    started_ = std::chrono::steady_clock::now();
    took_s_.reset();
    // std::async's thread is joined by the future: whoever holds it waits
    // for the load to end, so no thread outlives this object.
    result_ = std::async(std::launch::async, load_in_background, path, resolution,
                         progress_.get());
    return true;
}

void BackgroundLoad::cancel()
{
    if (progress_) {
        progress_->request_cancel();
    }
}

std::optional<Result<World>> BackgroundLoad::take_finished()
{
    if (!result_.valid() ||
        result_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        return std::nullopt;
    }
    took_s_ = elapsed_s();
    return result_.get();
}

std::optional<Result<World>> BackgroundLoad::cancel_and_wait()
{
    if (!result_.valid()) {
        return std::nullopt;
    }
    cancel();
    result_.wait();
    return take_finished();
}

double BackgroundLoad::elapsed_s() const
{
    if (took_s_) {
        return *took_s_;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}
