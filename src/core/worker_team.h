// A fixed team of threads for the CPU solver's data-parallel passes: the
// workers start once, spin briefly between jobs (a frame hands them one
// job per iteration, dozens per frame, too many for a sleeping wake-up
// each) and then sleep until the next job.
#pragma once

#include "core/flush_denormals.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

// What the program uses unless told otherwise: every hardware thread.
int default_thread_count();

class WorkerTeam {
public:
    // `threads` counts the caller: a team of 1 has no workers and runs jobs inline.
    explicit WorkerTeam(int threads);
    ~WorkerTeam();
    WorkerTeam(const WorkerTeam&) = delete;
    WorkerTeam& operator=(const WorkerTeam&) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    // Runs job(thread_index) on every member, the caller as index 0, and
    // returns once all have finished. Takes any callable by reference and
    // never copies it: a frame starts dozens of jobs and allocates nothing.
    template <typename Job>
    void run(const Job& job)
    {
        run_erased(&job, [](const void* erased, int index) {
            (*static_cast<const Job*>(erased))(index);
        });
    }

    // Inside a job: returns once every member has reached it.
    void barrier();

private:
    using Invoke = void (*)(const void* job, int index);
    void run_erased(const void* job, Invoke invoke);
    void work(int index);
    static void spin_then_yield(int& spins);

    std::vector<std::thread> workers_;
    const void* job_ = nullptr;
    Invoke invoke_ = nullptr;
    // Bumped per job; workers wait for a change (32 bits: std::atomic::wait
    // then sleeps on a futex directly).
    std::atomic<uint32_t> generation_{0};
    std::atomic<int> finished_{0};
    std::atomic<bool> stopping_{false};
    // Sense-reversing barrier.
    std::atomic<int> arrived_{0};
    std::atomic<uint32_t> barrier_round_{0};
};

// Runs work(i, member) for i in [begin, end); work(i) if it does not ask
// which member runs it.
template <typename Work>
void run_items(const Work& work, size_t begin, size_t end, int member)
{
    for (size_t i = begin; i < end; ++i) {
        if constexpr (std::is_invocable_v<Work, size_t, int>) {
            work(i, member);
        } else {
            work(i);
        }
    }
}

// Runs work for i in [0, count) (run_items), the team's members taking a
// run each. Each member flushes subnormals as the caller does.
template <typename Work>
void share_out(WorkerTeam& team, size_t count, const Work& work)
{
    const size_t members = static_cast<size_t>(team.size());
    team.run([&](int member) {
        const ScopedFlushDenormals flush_denormals;
        const size_t each = (count + members - 1) / members;
        const size_t begin = std::min(count, each * static_cast<size_t>(member));
        run_items(work, begin, std::min(count, begin + each), member);
    });
}

// As share_out, but the members take runs of `chunk` items in turn from a
// common counter, for work whose cost varies from item to item (a member
// that drew cheap items takes more of them).
template <typename Work>
void share_out_in_chunks(WorkerTeam& team, size_t count, size_t chunk, const Work& work)
{
    if (team.size() == 1) {
        share_out(team, count, work);
        return;
    }
    std::atomic<size_t> next{0};
    team.run([&](int member) {
        const ScopedFlushDenormals flush_denormals;
        for (size_t begin = next.fetch_add(chunk, std::memory_order_relaxed); begin < count;
             begin = next.fetch_add(chunk, std::memory_order_relaxed)) {
            run_items(work, begin, std::min(count, begin + chunk), member);
        }
    });
}
