#version 430 core
// Body contact, once per substep, 3 of 6, when the near lists are stale:
// the counts become bucket offsets (an inclusive prefix sum over counts
// stored one bucket late), and each bucket's cursor, which the fill
// advances, starts at its offset. Tables that each fit one chunk of
// CHUNK_ITEMS buckets take a workgroup a table (u_phase 3); otherwise the
// tables' chunks, three dispatches:
//   0. a workgroup per chunk: its buckets' items counted, the total kept in
//      the cursor of its first bucket (the cursors are free until phase 2);
//   1. one workgroup: those totals become each chunk's first offset, a
//      table's from 0;
//   2. a workgroup per chunk: its buckets scanned from there.
// Within a chunk each lane takes a run of buckets, the lanes' totals are
// scanned in shared memory, then each lane rewrites its run.
#define SIM_NO_GATHER_OR_SURFACE
#include "sim_common.glsl"
#include "contact_common.glsl"
#include "chunk_size.glsl"
#define SCAN_GROUP 64u
layout(local_size_x = SCAN_GROUP) in;
uniform uint u_phase;
const uint WHOLE_TABLES = 3u;

shared uint lane_totals[SCAN_GROUP];

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

// Lane `lane`'s run of buckets first..end - 1.
void lane_run(uint first, uint end, uint lane, out uint run_first, out uint run_end)
{
    uint run = (end - first + SCAN_GROUP - 1u) / SCAN_GROUP;
    run_first = min(first + lane * run, end);
    run_end = min(run_first + run, end);
}

// The items counted in buckets run_first..run_end - 1 of `table`.
uint items_in(uint table, uint run_first, uint run_end)
{
    uint counts = bucket_offset_slot(table, 1u);  // bucket h's count at counts + h
    uint total = 0u;
    for (uint h = run_first; h < run_end; ++h) {
        total += contact_hash[counts + h];
    }
    return total;
}

// Buckets first..end - 1 of `table` scanned, the first's offset `offset`.
void scan_buckets(uint table, uint first, uint end, uint offset, uint lane)
{
    uint run_first;
    uint run_end;
    lane_run(first, end, lane, run_first, run_end);
    lane_totals[lane] = items_in(table, run_first, run_end);
    barrier();
    if (lane == 0u) {
        uint sum = offset;
        for (uint i = 0u; i < SCAN_GROUP; ++i) {
            uint t = lane_totals[i];
            lane_totals[i] = sum;
            sum += t;
        }
    }
    barrier();
    uint counts = bucket_offset_slot(table, 1u);
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
    if (u_phase == 1u) {
        if (lane == 0u) {
            uint triangle_chunks = table_chunks(TRIANGLE_TABLE);
            uint chunks = triangle_chunks + (tets_hashed() ? table_chunks(TET_TABLE) : 0u);
            uint offset = 0u;
            for (uint k = 0u; k < chunks; ++k) {
                uint table;
                uint first;
                uint end;
                chunk_buckets(k, table, first, end);
                offset = k == triangle_chunks ? 0u : offset;
                uint slot = bucket_cursor_slot(table, first);
                uint total = contact_hash[slot];
                contact_hash[slot] = offset;
                offset += total;
            }
        }
        return;
    }
    uint table;
    uint first;
    uint end;
    chunk_buckets(g, table, first, end);
    uint kept = bucket_cursor_slot(table, first);
    if (u_phase == 0u) {
        uint run_first;
        uint run_end;
        lane_run(first, end, lane, run_first, run_end);
        lane_totals[lane] = items_in(table, run_first, run_end);
        barrier();
        if (lane == 0u) {
            uint total = 0u;
            for (uint i = 0u; i < SCAN_GROUP; ++i) {
                total += lane_totals[i];
            }
            contact_hash[kept] = total;
        }
    } else {
        // Read by every lane before scan_buckets, two barriers later,
        // writes the first bucket's cursor.
        scan_buckets(table, first, end, contact_hash[kept], lane);
    }
}
