// Pass 3a, Gauss-Seidel, in a single workgroup that walks colours in order
// (barrier() between them); barrier() synchronises a workgroup only, hence
// one group. Two uses:
// - meshes whose colours are all small: u_iterations whole iterations in
//   one dispatch, each ending with the ground and obstacle projection
//   (u_project_static), instead of a dispatch per colour, whose launch costs
//   more than a small colour's work;
// - the tail of small colours of a larger mesh (u_first_color on), after
//   the large colours' own dispatches: one dispatch instead of one each.
// Same order of tets and colours as the CPU solver either way. With
// u_tet_pass the substep's warm start (or the material damping) walks the
// colours first (u_iterations may then be 0). Included by
// solve_tets_colored_one_group.comp and solve_tets_colored_one_group_wide.comp,
// which set ONE_GROUP_SIZE: the tets of a colour share no vertex, so the
// result is the same for any size.
#define SIM_NO_GATHER_OR_SURFACE
#define SIM_COHERENT_VERTICES
#define SIM_COHERENT_PREDICTED
#include "sim_common.glsl"
#include "tet_math.glsl"
#include "tet_step.glsl"
#include "contact_math.glsl"
#include "static_contact.glsl"
layout(local_size_x = ONE_GROUP_SIZE) in;

layout(std430, binding = 17) readonly buffer ColorTets { uint color_tets[]; };
layout(std430, binding = 18) readonly buffer ColorOffsets { uint color_offsets[]; };  // CSR
uniform uint u_first_color;
uniform uint u_color_end;  // colours u_first_color .. u_color_end - 1
uniform uint u_iterations;
uniform uint u_project_static;  // 0: the caller projects
// Not TET_PASS_STEP: that pass (tet_step.glsl) walks the colours first.
uniform uint u_tet_pass;

// Makes every invocation's buffer writes visible to the whole group.
void group_sync()
{
    memoryBarrierBuffer();
    barrier();
}

// Every colour in turn, each tet given tet_pass, the group in step between
// colours.
void walk_colors(uint lane, uint tet_pass)
{
    for (uint c = u_first_color; c < u_color_end; ++c) {
        uint begin = color_offsets[c];
        uint end = color_offsets[c + 1u];
        // A trip count the same for every lane: llvmpipe runs a loop's
        // body once more, masked off, after a lane-dependent exit.
        uint rounds = (end - begin + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        for (uint r = 0u; r < rounds; ++r) {
            uint e = begin + r * gl_WorkGroupSize.x + lane;
            if (e < end) {
                run_tet_pass_in_place(color_tets[e], tet_pass);
            }
        }
        group_sync();
    }
}

void main()
{
    uint lane = gl_LocalInvocationID.x;
    if (u_tet_pass != TET_PASS_STEP) {
        walk_colors(lane, u_tet_pass);
    }
    for (uint iteration = 0u; iteration < u_iterations; ++iteration) {
        walk_colors(lane, TET_PASS_STEP);
        if (u_project_static == 0u) {
            continue;
        }
        uint rounds = (u_counts.x + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        for (uint r = 0u; r < rounds; ++r) {
            uint v = r * gl_WorkGroupSize.x + lane;
            if (v < u_counts.x) {
                project_vertex_out_of_static(v);
            }
        }
        group_sync();
    }
}
