#version 430 core
// Body contact, once per substep, 3 of 6, when the near lists are stale:
// the counts become bucket offsets (an inclusive prefix sum over counts
// stored one bucket late), and each bucket's cursor, which the fill
// advances, starts at its offset. A table that fits one chunk of
// chunk_sums.glsl is scanned by one workgroup (u_phase 3, a workgroup per
// table); otherwise the tables' chunks in three dispatches:
//   0. a workgroup per chunk of buckets: its items counted;
//   1. one workgroup: each chunk's first offset, a table's from 0;
//   2. a workgroup per chunk: its buckets scanned from there.
// Within a chunk each lane takes a run of buckets, the lanes' totals are
// scanned in shared memory, then each lane rewrites its run.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "chunk_sums.glsl"
layout(local_size_x = CHUNK_GROUP) in;
uniform uint u_phase;
const uint WHOLE_TABLES = 3u;

shared uint lane_totals[CHUNK_GROUP];

uint table_chunks(uint table)
{
    return (table_buckets(table) + CHUNK_ITEMS - 1u) / CHUNK_ITEMS;
}

// Chunk g's table and buckets: the triangles' table's chunks, then the tets'.
void chunk_buckets(uint g, out uint table, out uint first, out uint end)
{
    uint triangle_chunks = table_chunks(TRIANGLE_TABLE);
    table = g < triangle_chunks ? TRIANGLE_TABLE : TET_TABLE;
    first = (g < triangle_chunks ? g : g - triangle_chunks) * CHUNK_ITEMS;
    end = min(first + CHUNK_ITEMS, table_buckets(table));
}

// Buckets first..end - 1 of `table` scanned, the first's offset `offset`.
void scan_buckets(uint table, uint first, uint end, uint offset, uint lane)
{
    uint counts = bucket_offset_slot(table, 1u);  // bucket h's count at counts + h
    uint run = (end - first + CHUNK_GROUP - 1u) / CHUNK_GROUP;
    uint run_first = min(first + lane * run, end);
    uint run_end = min(run_first + run, end);
    uint total = 0u;
    for (uint h = run_first; h < run_end; ++h) {
        total += contact_hash[counts + h];
    }
    lane_totals[lane] = total;
    barrier();
    if (lane == 0u) {
        uint sum = offset;
        for (uint i = 0u; i < CHUNK_GROUP; ++i) {
            uint t = lane_totals[i];
            lane_totals[i] = sum;
            sum += t;
        }
    }
    barrier();
    uint at = lane_totals[lane];
    for (uint h = run_first; h < run_end; ++h) {
        contact_hash[bucket_cursor_slot(table, h)] = at;  // = bucket h's offset
        at += contact_hash[counts + h];
        contact_hash[counts + h] = at;
    }
}

void main()
{
    if (near_lists_fresh()) {
        return;
    }
    uint lane = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    if (u_phase == WHOLE_TABLES) {
        uint table = g == 0u ? TRIANGLE_TABLE : TET_TABLE;
        scan_buckets(table, 0u, table_buckets(table), 0u, lane);
        return;
    }
    uint table;
    uint first;
    uint end;
    if (u_phase == 0u) {
        chunk_buckets(g, table, first, end);
        uint counts = bucket_offset_slot(table, 1u);
        float total = 0.0f;  // exact: fewer than 2^24 items
        for (uint h = first + lane; h < end; h += CHUNK_GROUP) {
            total += float(contact_hash[counts + h]);
        }
        sum_a[lane] = vec4(total, 0.0f, 0.0f, 0.0f);
        sum_b[lane] = vec4(0.0f);
        sum_c[lane] = vec4(0.0f);
        store_chunk_sums(g, lane);
    } else if (u_phase == 1u) {
        // Each chunk's first offset, in y as the bits of a uint.
        if (lane == 0u) {
            uint triangle_chunks = table_chunks(TRIANGLE_TABLE);
            uint chunks = triangle_chunks + (tets_hashed() ? table_chunks(TET_TABLE) : 0u);
            uint offset = 0u;
            for (uint k = 0u; k < chunks; ++k) {
                offset = k == triangle_chunks ? 0u : offset;
                partial_sums[3u * k].y = uintBitsToFloat(offset);
                offset += uint(partial_sums[3u * k].x);
            }
        }
    } else {
        chunk_buckets(g, table, first, end);
        scan_buckets(table, first, end, floatBitsToUint(partial_sums[3u * g].y), lane);
    }
}
