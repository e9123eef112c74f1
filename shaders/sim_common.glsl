// Buffers and parameters shared by the simulation's compute passes. The
// buffers' layout mirrors GpuSolver (src/gpu/gpu_solver.cpp): binding
// numbers and struct layouts must change together there; the parameter
// block is declared once for both (sim_parameters.glsl).

#define SIM_PARAMETERS_BEGIN layout(std140, binding = 0) uniform SimParameters {
#define SIM_PARAMETERS_END };
#include "sim_parameters.glsl"

// A pass whose invocations read, after barrier(), the positions and
// corrections that others of their workgroup wrote defines
// SIM_COHERENT_VERTICES: without `coherent` GLSL does not promise that those
// writes are visible (GLSL 4.60, 4.10, "Memory Qualifiers").
#ifdef SIM_COHERENT_VERTICES
#define SIM_VERTEX_WRITES_SEEN coherent
#else
#define SIM_VERTEX_WRITES_SEEN
#endif
// The same for the warm start's sink in Predicted's w, which a pass that
// runs the warm start and the iterations in one dispatch (one_group.glsl)
// reads after other invocations wrote it.
#ifdef SIM_COHERENT_PREDICTED
#define SIM_PREDICTED_WRITES_SEEN coherent
#else
#define SIM_PREDICTED_WRITES_SEEN
#endif

// Per vertex.
layout(std430, binding = 0) SIM_VERTEX_WRITES_SEEN buffer Positions { vec4 positions[]; };  // xyz m
// xyz m/s; the material damping's region sweeps read what their group wrote.
layout(std430, binding = 1) SIM_VERTEX_WRITES_SEEN buffer Velocities { vec4 velocities[]; };
// xyz x after predict; w the warm start's sink (tet_step.glsl, record_sink).
layout(std430, binding = 2) SIM_PREDICTED_WRITES_SEEN buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 3) SIM_VERTEX_WRITES_SEEN buffer Corrections { vec4 corrections[]; };  // xyz correction, w ground push
layout(std430, binding = 4) readonly buffer InverseMasses { float inverse_masses[]; };  // 0: pinned
// Some drivers count every declared block against the per-shader limit (16
// on llvmpipe), used or not: a pass that needs more blocks of its own
// defines SIM_NO_GATHER_OR_SURFACE before including this file to leave out
// the gather and surface blocks it does not use, or SIM_NO_SURFACE to
// leave out the surface blocks alone.
#ifndef SIM_NO_GATHER_OR_SURFACE
layout(std430, binding = 5) readonly buffer SlotOffsets { uint slot_offsets[]; };    // CSR, NV + 1
layout(std430, binding = 6) readonly buffer SlotEntries { uint slot_entries[]; };    // tet * 4 + corner
#ifndef SIM_NO_SURFACE
layout(std430, binding = 7) buffer Normals { vec4 normals[]; };
#endif
#endif

// Per tet.
// Columns of B = Dm^-1 in xyz; in w the rest volume and the compliances of
// its body's material (48 bytes a tet).
struct TetRest {
    vec4 b0;  // w rest volume V0 (m^3)
    vec4 b1;  // w shape compliance 1 / (2 mu V0)
    vec4 b2;  // w volume compliance 1 / (lambda V0), or -1 without volume term
};
layout(std430, binding = 8) readonly buffer Tets { uvec4 tets[]; };
layout(std430, binding = 9) readonly buffer TetRests { TetRest tet_rests[]; };
// What each tet's steps report: x the size |dLambda| of its shape step in
// the substep's first iteration (-1 until that step), y the same in its
// latest step (both for the warm start's fraction), z the residual |C +
// alpha~ lambda| of its latest step (the convergence readout), w 1 where it
// is a sliver (tm_is_sliver; set at upload, never changed), else 0; after the
// tets, one entry per grab anchor holds its lambda in x. The tets'
// multipliers themselves are in TetMultipliers (tet_step.glsl).
layout(std430, binding = 10) buffer Lambdas { vec4 lambdas[]; };
#ifndef SIM_NO_GATHER_OR_SURFACE
layout(std430, binding = 11) buffer Deltas { vec4 deltas[]; };               // per slot
#ifndef SIM_NO_SURFACE

// Per surface triangle.
layout(std430, binding = 12) readonly buffer Triangles { uint triangles[]; };  // 3 per triangle
layout(std430, binding = 13) buffer FaceNormals { vec4 face_normals[]; };
layout(std430, binding = 14) readonly buffer FaceOffsets { uint face_offsets[]; };  // CSR, NV + 1
layout(std430, binding = 15) readonly buffer FaceEntries { uint face_entries[]; };
#endif
#endif

// Inverse mass of vertex v: 1 / (its body's density * lumped volume), 0 when pinned.
float inverse_mass(uint v)
{
    return inverse_masses[v];
}
