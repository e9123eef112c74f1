// Items listed in the buckets of a hashed grid of cells, by a counting sort:
// the CPU's side of the contact search's tables (contact_hash_*.comp build
// the same on the GPU, in an order of their own within a bucket). The team
// shares the items, each member counting and listing a run of them; within
// a bucket the items keep their index order whatever the team's size.
#pragma once

#include "core/flush_denormals.h"
#include "core/worker_team.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

class CellTable {
public:
    // table_size buckets, and no listings yet. The listings' array grows to
    // the count a build needs, and a quarter more, so that later builds,
    // whose counts move a little as the items move, allocate nothing (nor do
    // the members' counts, but on the first build with a team of a new
    // size). Sizing it for the most cells an item may take (64) held 16
    // bytes a tet on a 200k-tet lattice and 256 a tet where tets are hashed.
    void resize(uint32_t table_size)
    {
        offsets_.assign(table_size + 1, 0u);
        std::vector<uint32_t>().swap(entries_);
        member_counts_.clear();
    }

    // Lists items 0 .. items - 1; for_each_bucket(item, visit) calls
    // visit(bucket) for every bucket the item goes in, the same buckets on
    // both calls.
    template <typename ForEachBucket>
    void build(uint32_t items, WorkerTeam& team, const ForEachBucket& for_each_bucket)
    {
        const size_t members = static_cast<size_t>(team.size());
        const size_t buckets = table_size();
        if (member_counts_.size() != members) {
            member_counts_.assign(members, std::vector<uint32_t>(buckets, 0u));
        }
        team.run([&](int member) {
            // Cells from positions as the caller computes them, whichever thread.
            const ScopedFlushDenormals flush_denormals;
            const size_t m = static_cast<size_t>(member);
            const uint32_t each = static_cast<uint32_t>((items + members - 1) / members);
            const uint32_t begin = std::min(items, each * static_cast<uint32_t>(m));
            const uint32_t end = std::min(items, begin + each);
            std::vector<uint32_t>& counts = member_counts_[m];
            std::fill(counts.begin(), counts.end(), 0u);
            for (uint32_t i = begin; i < end; ++i) {
                for_each_bucket(i, [&](uint32_t h) { ++counts[h]; });
            }
            team.barrier();
            if (m == 0) {
                // Each member's counts become its cursors: bucket by bucket,
                // the lower runs of items first.
                uint32_t offset = 0;
                for (size_t h = 0; h < buckets; ++h) {
                    offsets_[h] = offset;
                    for (std::vector<uint32_t>& c : member_counts_) {
                        const uint32_t count = c[h];
                        c[h] = offset;
                        offset += count;
                    }
                }
                offsets_[buckets] = offset;
                if (offset > entries_.size()) {
                    entries_.resize(size_t{offset} + offset / 4);
                }
            }
            team.barrier();
            for (uint32_t i = begin; i < end; ++i) {
                for_each_bucket(i, [&](uint32_t h) { entries_[counts[h]++] = i; });
            }
        });
    }

    // Bucket h's items are entry(e) for e in [bucket_begin(h), bucket_end(h)).
    uint32_t bucket_begin(uint32_t h) const { return offsets_[h]; }
    uint32_t bucket_end(uint32_t h) const { return offsets_[h + 1]; }
    uint32_t entry(uint32_t e) const { return entries_[e]; }
    uint32_t table_size() const { return static_cast<uint32_t>(offsets_.size() - 1); }

private:
    std::vector<uint32_t> offsets_;  // table_size + 1
    std::vector<uint32_t> entries_;
    // Per team member, per bucket: its count, then its cursor.
    std::vector<std::vector<uint32_t>> member_counts_;
};
