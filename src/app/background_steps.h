// One job at a time on a thread of its own: the window's CPU simulation
// steps, so that a step that takes longer than a displayed frame (a fine
// mesh, many iterations) never holds the window. The window keeps drawing
// the state the steps started from and answering the panel; whatever needs
// the solver itself waits for the job (wait()).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

class BackgroundSteps {
public:
    BackgroundSteps();
    ~BackgroundSteps();  // waits for the job, then ends the thread
    BackgroundSteps(const BackgroundSteps&) = delete;
    BackgroundSteps& operator=(const BackgroundSteps&) = delete;

    // Runs `job` on the thread. Only while idle (!busy()).
    void start(std::function<void()> job);
    // Whether a job is running. Once false, everything the job wrote is
    // visible to the caller.
    bool busy() const { return busy_.load(std::memory_order_acquire); }
    // Until the job (if any) is done. An exception the job threw is thrown
    // again here (or by wait_for), on the caller's thread, once.
    void wait() const;
    // The same for at most `seconds`; whether it is done.
    bool wait_for(double seconds) const;

private:
    void run();

    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::function<void()> job_;
    mutable std::exception_ptr failure_;  // what the last job threw, until reported
    std::atomic<bool> busy_{false};
    bool stopping_ = false;
    std::thread thread_;  // last: starts once the rest exists
};
