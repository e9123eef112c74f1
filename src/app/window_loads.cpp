#include "app/window_loads.h"

#include "app/added_body.h"
#include "app/log.h"
#include "app/scene_file.h"

namespace {

// How often the log says how a load is going.
constexpr double kProgressLogInterval_s = 1.0;

}  // namespace

void WindowLoads::request(const std::string& path, int resolution, LoadPurpose purpose,
                          PanelState& panel)
{
    if (purpose == LoadPurpose::add_to_world && names_scene_file(path)) {
        // Refused before minutes of loading: a scene is not added, it is loaded.
        panel.show_mesh_file_section = true;
        panel.load_error = "cannot add " + path + ": " + kSceneFileIsNotAdded;
        spdlog::warn("{}", panel.load_error);
        return;
    }
    Result<bool> started = load_.start(path, resolution);
    panel.show_mesh_file_section = true;
    if (!started) {
        spdlog::warn("{}", started.error());
        panel.load_error = started.error();
        return;
    }
    purpose_ = purpose;
    spdlog::info("loading {} in the background{} (OBJ resolution {})", path,
                 purpose == LoadPurpose::add_to_world ? " to add to the world" : "", resolution);
    panel.load_error.clear();
    frames_drawn_ = 0;
    next_progress_log_s_ = kProgressLogInterval_s;
}

void WindowLoads::cancel()
{
    if (load_.running() && !load_.cancel_requested()) {
        spdlog::info("cancelling the load of {}", load_.path());
        load_.cancel();
    }
}

std::optional<Result<World>> WindowLoads::poll(PanelState& panel)
{
    std::optional<Result<World>> finished = load_.take_finished();
    if (finished && finished->ok() && load_.cancel_requested()) {
        // Cancelled after its last check: the user asked for no swap.
        *finished = Result<World>::failure(load_cancelled_message(load_.path()));
    }
    if (finished) {
        panel.loading.reset();
        report_end(*finished, &panel);
        return finished;
    }
    if (!load_.running()) {
        panel.loading.reset();
        return std::nullopt;
    }
    ++frames_drawn_;
    const double elapsed_s = load_.elapsed_s();
    panel.loading = PanelState::LoadingView{load_.path(), load_.stage_name(), load_.fraction(),
                                            elapsed_s, load_.cancel_requested()};
    if (elapsed_s >= next_progress_log_s_) {
        next_progress_log_s_ = elapsed_s + kProgressLogInterval_s;
        spdlog::info("loading {}: {} {:.0f}% after {:.1f} s, {} frames drawn meanwhile",
                     load_.path(), load_.stage_name(), 100.0f * load_.fraction(), elapsed_s,
                     frames_drawn_);
    }
    return std::nullopt;
}

void WindowLoads::cancel_and_wait()
{
    if (!load_.running()) {
        return;
    }
    spdlog::info("closing: cancelling the load of {}", load_.path());
    if (std::optional<Result<World>> outcome = load_.cancel_and_wait()) {
        report_end(*outcome, nullptr);
    }
}

void WindowLoads::report_end(const Result<World>& outcome, PanelState* panel)
{
    const double took_s = load_.elapsed_s();
    std::string message;
    if (outcome) {
        spdlog::info("loaded {} in {:.1f} s ({} frames drawn meanwhile)", load_.path(), took_s,
                     frames_drawn_);
    } else if (load_.cancel_requested()) {
        message = outcome.error();
        spdlog::info("{} after {:.1f} s", message, took_s);
    } else {
        message = outcome.error();
        spdlog::error("{}", message);
    }
    if (panel) {
        panel->load_error = message;
        panel->show_mesh_file_section = !message.empty();
    }
}
