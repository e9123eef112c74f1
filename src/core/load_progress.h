// How far a load has come (a fraction of the whole and the stage's name),
// and a way to stop it. The loading thread reports; any other thread reads
// the fraction and the stage and may ask it to stop. Loading functions take
// a `LoadProgress*`; nullptr means nobody is watching: no reports, no cancel.
//
// Reports and cancel checks are coarse (per lattice row, per chunk of
// winding-number points, per preparation step), never per tet in a hot loop.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>

// A stage of a load and the share of the whole it covers. Measured in the
// window on a 2-core machine with the hierarchical winding number (a
// 1,280-triangle sphere at 20 cells, 53k tets, 5.6 s under load): winding
// numbers about a quarter, cut points and filling (with the repairs after
// them) half, preparation the last fifth.
struct LoadStage {
    const char* name;
    float begin;
    float end;
};
inline constexpr LoadStage kReadingStage{"reading", 0.00f, 0.02f};
inline constexpr LoadStage kWindingNumbersStage{"winding numbers", 0.02f, 0.30f};
inline constexpr LoadStage kStuffingStage{"stuffing", 0.30f, 0.80f};
inline constexpr LoadStage kPreparingStage{"preparing", 0.80f, 1.00f};

class LoadProgress {
public:
    // Loading thread: enters a stage (its fraction starts at the stage's
    // begin) and reports how far into it the load is, 0..1. The whole
    // fraction never goes back, whatever is reported.
    void enter(const LoadStage& stage)
    {
        stage_ = stage;
        stage_name_.store(stage.name, std::memory_order_relaxed);
        publish(stage.begin);
    }
    void report(double fraction_of_stage)
    {
        const double t = std::clamp(fraction_of_stage, 0.0, 1.0);
        publish(stage_.begin + static_cast<float>(t) * (stage_.end - stage_.begin));
    }

    // Any thread.
    float fraction() const { return fraction_.load(std::memory_order_relaxed); }
    const char* stage_name() const { return stage_name_.load(std::memory_order_relaxed); }
    void request_cancel() { cancel_.store(true, std::memory_order_relaxed); }
    bool cancel_requested() const { return cancel_.load(std::memory_order_relaxed); }

    // Called on the loading thread after every report, with the whole
    // fraction: lets a test act at a given point of a load.
    std::function<void(float fraction)> on_report;

private:
    void publish(float fraction)
    {
        const float kept = std::max(fraction, fraction_.load(std::memory_order_relaxed));
        fraction_.store(kept, std::memory_order_relaxed);
        if (on_report) on_report(kept);
    }

    LoadStage stage_{kReadingStage};  // loading thread only
    std::atomic<float> fraction_{0.0f};
    std::atomic<const char*> stage_name_{kReadingStage.name};
    std::atomic<bool> cancel_{false};
};

// The same, for a pointer that may be null (nobody watching).
inline void enter_stage(LoadProgress* progress, const LoadStage& stage)
{
    if (progress) progress->enter(stage);
}
inline void report_progress(LoadProgress* progress, double fraction_of_stage)
{
    if (progress) progress->report(fraction_of_stage);
}
inline bool load_cancelled(const LoadProgress* progress)
{
    return progress != nullptr && progress->cancel_requested();
}

// The failure a cancelled load returns.
inline std::string load_cancelled_message(const std::string& name)
{
    return "loading " + name + " cancelled";
}
