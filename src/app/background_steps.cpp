#include "app/background_steps.h"

#include <cassert>

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
    if (!busy()) {
        return;
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !busy_.load(std::memory_order_acquire); });
}

bool BackgroundSteps::wait_for(double seconds) const
{
    if (!busy()) {
        return true;
    }
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::duration<double>(seconds),
                             [this] { return !busy_.load(std::memory_order_acquire); });
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
        job();
        lock.lock();
        busy_.store(false, std::memory_order_release);
        changed_.notify_all();
    }
}
