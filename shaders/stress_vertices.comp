#version 430 core
// The strain view, step 2: every simulation vertex takes the mean stress of
// its tets, so that colours blend across the surface.
#include "skin_buffers.glsl"
#include "stress_buffers.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.z) {
        return;
    }
    uint begin = corner_offsets[v];
    uint end = corner_offsets[v + 1u];
    float sum = 0.0f;
    for (uint s = begin; s < end; ++s) {
        sum += tet_stress[corner_entries[s] / 4u];
    }
    vertex_stress[v] = end > begin ? sum / float(end - begin) : 0.0f;
}
