// The window's loads of mesh and scene files. Each runs in the background
// (BackgroundLoad) while the window keeps simulating and drawing; this keeps
// the panel's progress bar up to date, logs when a load starts, how it goes
// (once a second, with the frames drawn meanwhile) and how it ends, and
// hands the finished world to the window thread, which swaps it in.
#pragma once

#include "app/background_load.h"
#include "app/panel.h"

#include <optional>
#include <string>

// What a finished load is for: the world it brings replaces the running
// one, or its one body joins it (the panel's "Add to the world").
enum class LoadPurpose { replace_world, add_to_world };

class WindowLoads {
public:
    // Starts loading `path`; while another load runs, refuses, saying so in
    // the panel (by the Load button) and the log.
    void request(const std::string& path, int resolution, LoadPurpose purpose,
                 PanelState& panel);
    void cancel();

    // Once per drawn frame: refreshes the panel's progress and returns the
    // outcome once the load has ended (a failure, a cancel included, is
    // already logged and shown by the Load button).
    std::optional<Result<World>> poll(PanelState& panel);
    // What the latest load was requested for.
    LoadPurpose purpose() const { return purpose_; }
    // The file it reads.
    const std::string& path() const { return load_.path(); }

    // Closing the window: stops a running load and waits for it (it checks
    // for a cancel at least every few hundred milliseconds).
    void cancel_and_wait();

private:
    void report_end(const Result<World>& outcome, PanelState* panel);

    BackgroundLoad load_;
    LoadPurpose purpose_ = LoadPurpose::replace_world;
    int frames_drawn_ = 0;       // while the current load runs
    double next_progress_log_s_ = 0.0;
};
