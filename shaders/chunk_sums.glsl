// Sums over many workgroups that give the same bits on every run. The items
// (tets, vertices, a body's vertices) are cut into chunks of CHUNK_ITEMS; a
// workgroup of CHUNK_GROUP lanes sums one chunk, each lane a stride of it,
// then a tree in shared memory adds the lanes' sums in a fixed order, and
// the chunk's sums go to partial_sums; a later dispatch adds a segment's
// chunks' sums in chunk order the same way. One workgroup walking a
// million items alone took milliseconds on a GPU (one multiprocessor's
// bandwidth); where a sum has a single chunk (the presets), one workgroup
// does all of it in one dispatch, as dispatches are what llvmpipe pays for.
#include "chunk_size.glsl"
#define CHUNK_GROUP 64u

// Three vec4 per chunk, then, from u_state_base, what the segments' sums
// give (a body's centroid, say), three vec4 per segment.
layout(std430, binding = 30) buffer PartialSums { vec4 partial_sums[]; };
uniform uint u_state_base;

shared vec4 sum_a[CHUNK_GROUP];
shared vec4 sum_b[CHUNK_GROUP];
shared vec4 sum_c[CHUNK_GROUP];

// Adds the lanes' sums into entry 0 of each array, seen by every lane.
void add_up(uint lane)
{
    for (uint half_size = CHUNK_GROUP / 2u; half_size > 0u; half_size /= 2u) {
        barrier();
        if (lane < half_size) {
            sum_a[lane] += sum_a[lane + half_size];
            sum_b[lane] += sum_b[lane + half_size];
            sum_c[lane] += sum_c[lane + half_size];
        }
    }
    barrier();
}

// The lanes' sums (each lane's own entry of the arrays) added, and the
// group's written to chunk `chunk`'s slots.
void store_chunk_sums(uint chunk, uint lane)
{
    add_up(lane);
    if (lane == 0u) {
        partial_sums[3u * chunk] = sum_a[0];
        partial_sums[3u * chunk + 1u] = sum_b[0];
        partial_sums[3u * chunk + 2u] = sum_c[0];
    }
}

// Chunks first_chunk .. first_chunk + chunks - 1 added up: entry 0 of the
// arrays, seen by every lane.
void add_chunk_sums(uint first_chunk, uint chunks, uint lane)
{
    vec4 a = vec4(0.0f);
    vec4 b = vec4(0.0f);
    vec4 c = vec4(0.0f);
    for (uint k = lane; k < chunks; k += CHUNK_GROUP) {
        a += partial_sums[3u * (first_chunk + k)];
        b += partial_sums[3u * (first_chunk + k) + 1u];
        c += partial_sums[3u * (first_chunk + k) + 2u];
    }
    sum_a[lane] = a;
    sum_b[lane] = b;
    sum_c[lane] = c;
    add_up(lane);
}
