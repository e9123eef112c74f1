// Items listed in the buckets of a hashed grid of cells, by a counting sort:
// the CPU's side of the contact search's tables (contact_hash_*.comp build
// the same on the GPU, in an order of their own within a bucket). Within a
// bucket the items keep their index order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

class CellTable {
public:
    // table_size buckets, room for max_entries listings: sized once, so that
    // building allocates nothing.
    void resize(uint32_t table_size, size_t max_entries)
    {
        offsets_.assign(table_size + 1, 0u);
        cursors_.assign(table_size, 0u);
        entries_.assign(max_entries, 0u);
    }

    // Lists items 0 .. items - 1; for_each_bucket(item, visit) calls
    // visit(bucket) for every bucket the item goes in, the same buckets on
    // both calls, at most max_entries in all.
    template <typename ForEachBucket>
    void build(uint32_t items, const ForEachBucket& for_each_bucket)
    {
        std::fill(offsets_.begin(), offsets_.end(), 0u);
        for (uint32_t i = 0; i < items; ++i) {
            for_each_bucket(i, [&](uint32_t h) { ++offsets_[h + 1]; });
        }
        for (size_t h = 0; h < cursors_.size(); ++h) {
            offsets_[h + 1] += offsets_[h];
            cursors_[h] = offsets_[h];
        }
        for (uint32_t i = 0; i < items; ++i) {
            for_each_bucket(i, [&](uint32_t h) { entries_[cursors_[h]++] = i; });
        }
    }

    // Bucket h's items are entry(e) for e in [bucket_begin(h), bucket_end(h)).
    uint32_t bucket_begin(uint32_t h) const { return offsets_[h]; }
    uint32_t bucket_end(uint32_t h) const { return offsets_[h + 1]; }
    uint32_t entry(uint32_t e) const { return entries_[e]; }
    uint32_t table_size() const { return static_cast<uint32_t>(cursors_.size()); }

private:
    std::vector<uint32_t> offsets_;  // table_size + 1
    std::vector<uint32_t> cursors_;  // table_size
    std::vector<uint32_t> entries_;
};
