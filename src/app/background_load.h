// One mesh or scene file loading on a thread of its own, so that the window
// keeps simulating and drawing meanwhile. The thread does everything that
// needs no GL (a mesh: prepare_body_from_file, read, tetrahedralize, place,
// prepare, as a world of one body; a scene file: read_scene_file and
// assemble_world); the window thread, which owns the GL context, takes the
// prepared world and makes the solver and buffers (Scene::install_world).
//
// One load at a time: a request while one runs is refused with a message
// that says how to stop it, rather than silently dropping minutes of work.
#pragma once

#include "core/load_progress.h"
#include "core/result.h"
#include "core/world.h"

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>

class BackgroundLoad {
public:
    BackgroundLoad() = default;
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;
    // A load still running is cancelled and waited for: its thread reads
    // nothing of the caller's, but it must end before the program does.
    ~BackgroundLoad();

    // Starts loading `path`: a scene file (.json) or a mesh file (an OBJ is
    // tetrahedralized at `resolution`).
    // Fails, saying why, while another load runs.
    Result<bool> start(const std::string& path, int resolution);

    // Asks the running load to stop; it ends at its next check (a fraction
    // of a second) with "loading PATH cancelled".
    void cancel();

    // The outcome, once, when the load has ended; nullopt while it runs or
    // when none was started.
    std::optional<Result<World>> take_finished();
    // Cancels a running load and waits for it to end; its outcome, or
    // nullopt when none was running.
    std::optional<Result<World>> cancel_and_wait();

    bool running() const { return result_.valid(); }
    const std::string& path() const { return path_; }
    float fraction() const { return progress_ ? progress_->fraction() : 0.0f; }
    const char* stage_name() const { return progress_ ? progress_->stage_name() : ""; }
    bool cancel_requested() const { return progress_ && progress_->cancel_requested(); }
    // Since start(), or how long the last load took once it has ended.
    double elapsed_s() const;

private:
    std::string path_;
    // A fresh one per load: the previous thread may still hold the old one
    // until its future is taken.
    std::unique_ptr<LoadProgress> progress_;
    std::future<Result<World>> result_;
    std::chrono::steady_clock::time_point started_;
    std::optional<double> took_s_;
};
