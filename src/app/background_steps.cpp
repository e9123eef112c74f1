#include "app/background_steps.h"

#include <cassert>
#include <cmath>
#include <utility>

BackgroundSteps::BackgroundSteps() : thread_([this] { run(); }) {}

BackgroundSteps::~BackgroundSteps()
{
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !busy_.load(std::memory_order_relaxed); });
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void BackgroundSteps::start(std::function<void()> job)
{
    {
        std::lock_guard lock(mutex_);
        assert(!busy_.load(std::memory_order_relaxed) && "BackgroundSteps::start while busy");
        job_ = std::move(job);
        busy_.store(true, std::memory_order_release);
    }
    changed_.notify_all();
}

void BackgroundSteps::wait() const
{
    wait_for(INFINITY);
}

bool BackgroundSteps::wait_for(double seconds) const
{
    std::unique_lock lock(mutex_);
    const auto done = [this] { return !busy_.load(std::memory_order_acquire); };
    if (std::isinf(seconds)) {
        changed_.wait(lock, done);
    } else if (!changed_.wait_for(lock, std::chrono::duration<double>(seconds), done)) {
        return false;
    }
    if (failure_) {
        std::rethrow_exception(std::exchange(failure_, nullptr));
    }
    return true;
}

void BackgroundSteps::run()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || job_ != nullptr; });
        if (stopping_) {
            return;
        }
        std::function<void()> job = std::move(job_);
        job_ = nullptr;
        lock.unlock();
        std::exception_ptr failure;
        try {
            job();
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        failure_ = failure;
        busy_.store(false, std::memory_order_release);
        changed_.notify_all();
    }
}
