#version 430 core
// Pass 3b (DESIGN.md 4.3): every vertex gathers its slots in CSR order (the
// same order as the CPU solver, so both sum identically), adds them to the
// substep's correction, and projects out of the ground and obstacles.
#include "sim_common.glsl"
#include "contact_math.glsl"
#include "static_contact.glsl"
layout(local_size_x = 64) in;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= u_counts.x || inverse_masses[v] == 0.0f) {
        return;
    }
    vec3 sum = vec3(0.0f);
    for (uint s = slot_offsets[v]; s < slot_offsets[v + 1u]; ++s) {
        sum += deltas[slot_entries[s]].xyz;
    }
    vec4 correction = corrections[v];
    correction.xyz += sum;
    vec3 x = predicted[v].xyz + correction.xyz;
    project_out_of_static(x, correction);
    corrections[v] = correction;
    positions[v] = vec4(x, 0.0f);
}
