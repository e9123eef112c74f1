#include "core/worker_team.h"

#include <algorithm>
#include <chrono>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {

// How long a waiting thread spins before it yields its core: a pause is
// 10-140 cycles depending on the CPU, so some 10 microseconds, about one
// colour's work on a small mesh. Longer spins cost dearly when another
// process shares the cores: the member being waited for is then often
// descheduled, and only yielding lets it run.
constexpr int kSpinsBeforeYield = 256;
// How long an idle worker keeps yielding before it sleeps on the job
// counter: a frame's jobs (one per iteration) follow each other within tens
// of microseconds, frames come milliseconds apart.
constexpr std::chrono::microseconds kIdleBeforeSleep(500);

void cpu_relax()
{
#if defined(__SSE2__)
    _mm_pause();
#endif
}

}  // namespace

int default_thread_count()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

WorkerTeam::WorkerTeam(int threads)
{
    for (int index = 1; index < threads; ++index) {
        workers_.emplace_back([this, index] { work(index); });
    }
}

WorkerTeam::~WorkerTeam()
{
    stopping_.store(true);
    generation_.fetch_add(1);
    generation_.notify_all();
    for (std::thread& worker : workers_) {
        worker.join();
    }
}

void WorkerTeam::spin_then_yield(int& spins)
{
    if (++spins < kSpinsBeforeYield) {
        cpu_relax();
    } else {
        std::this_thread::yield();
    }
}

void WorkerTeam::run_erased(const void* job, Invoke invoke)
{
    if (workers_.empty()) {
        invoke(job, 0);
        return;
    }
    job_ = job;
    invoke_ = invoke;
    finished_.store(0);
    generation_.fetch_add(1);  // releases the job to the workers
    generation_.notify_all();
    invoke(job, 0);
    int spins = 0;
    while (finished_.load() != static_cast<int>(workers_.size())) {
        spin_then_yield(spins);
    }
}

void WorkerTeam::work(int index)
{
    uint32_t seen = 0;
    for (;;) {
        int spins = 0;
        const auto idle_since = std::chrono::steady_clock::now();
        uint32_t now = generation_.load();
        while (now == seen) {
            if (spins < kSpinsBeforeYield) {
                spin_then_yield(spins);
            } else if (std::chrono::steady_clock::now() - idle_since < kIdleBeforeSleep) {
                std::this_thread::yield();
            } else {
                generation_.wait(seen);
            }
            now = generation_.load();
        }
        seen = now;
        if (stopping_.load()) {
            return;
        }
        invoke_(job_, index);
        finished_.fetch_add(1);
    }
}

void WorkerTeam::barrier()
{
    if (workers_.empty()) {
        return;
    }
    const uint32_t round = barrier_round_.load();
    if (arrived_.fetch_add(1) + 1 == size()) {
        arrived_.store(0);
        barrier_round_.store(round + 1);  // releases the others
        return;
    }
    int spins = 0;
    while (barrier_round_.load() == round) {
        spin_then_yield(spins);
    }
}
