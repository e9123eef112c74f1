// Pass 3a, Gauss-Seidel, for a run of colours laid out region by region
// (RegionSweep, src/core/tet_mesh.h): each workgroup owns a run of
// consecutive regions, whose tets share no vertex with another region's,
// and walks every colour of the sweep with barrier() between them: one
// dispatch for the sweep instead of one per colour. Each tet sees what the
// colours before it wrote to its corners, as colour by colour, so the CPU
// solver's colour order gives the same result. Included by
// solve_tets_region_sweep.comp and solve_tets_region_sweep_narrow.comp,
// which set SWEEP_GROUP_SIZE.
#define SIM_NO_GATHER_OR_SURFACE
#define SIM_COHERENT_VERTICES
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "tet_step.glsl"
layout(local_size_x = SWEEP_GROUP_SIZE) in;

layout(std430, binding = 17) readonly buffer ColorTets { uint color_tets[]; };
// Every sweep's region_starts, one after another.
layout(std430, binding = 18) readonly buffer RegionStarts { uint region_starts[]; };
uniform uint u_sweep_start;  // this sweep's first entry in region_starts
uniform uint u_colors;       // colours in the sweep
uniform uint u_regions;      // regions in the sweep
uniform uint u_regions_per_group;  // consecutive regions a workgroup owns
uniform uint u_tet_pass;           // what each tet gets: TET_PASS_* (tet_step.glsl)

// Makes every invocation's buffer writes visible to the whole group.
void group_sync()
{
    memoryBarrierBuffer();
    barrier();
}

void main()
{
    uint first_region = gl_WorkGroupID.x * u_regions_per_group;
    uint region_end = min(u_regions, first_region + u_regions_per_group);
    uint lane = gl_LocalInvocationID.x;
    for (uint c = 0u; c < u_colors; ++c) {
        // The group's regions' tets of colour c lie side by side.
        uint at = u_sweep_start + c * u_regions;
        uint begin = region_starts[at + first_region];
        uint end = region_starts[at + region_end];
        // A trip count the same for every lane: llvmpipe runs a loop's
        // body once more, masked off, after a lane-dependent exit.
        uint rounds = (end - begin + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        for (uint r = 0u; r < rounds; ++r) {
            uint e = begin + r * gl_WorkGroupSize.x + lane;
            if (e < end) {
                run_tet_pass_in_place(color_tets[e], u_tet_pass);
            }
        }
        group_sync();
    }
}
