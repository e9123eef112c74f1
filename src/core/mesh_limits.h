// How large a mesh file may say it is, and how short its lines can be: the
// loaders check every count a header announces against both BEFORE they
// reserve memory for it, so a hostile count ("vertices 9223372036854775807")
// is refused with a message instead of ending the program in bad_alloc.
#pragma once

#include <cstddef>

// At most 2^24 (16,777,216) vertices and as many tets per body. Far beyond
// real time: at the reference schedule (10 substeps x 8 iterations, 60
// frames per second) 2^24 tets need 8.1e10 tet solves per second, 2,700
// times the CPU solver's 30 M/s per core, and the largest mesh benchmarked
// has 280k tets. Yet small enough that what a loader may reserve stays
// modest: 2^24 positions are 192 MiB and 2^24 tets 256 MiB of indices, and
// the prepared mesh takes about 130 bytes a tet more (rest shape, volume,
// adjacency, colours): some 2 GiB, within a 24 GB machine.
constexpr size_t kMaxMeshVertices = size_t(1) << 24;
constexpr size_t kMaxMeshTets = size_t(1) << 24;
// The same for an OBJ surface's vertices and triangles.
constexpr size_t kMaxSurfaceVertices = size_t(1) << 24;
constexpr size_t kMaxSurfaceTriangles = size_t(1) << 24;
// Corners of one OBJ polygon. tinyobjloader cuts polygons into triangles by
// ear clipping, quadratic in the corners: measured on the 2-core AMD EPYC
// development machine, 1,024 corners take 0.02 s, 4,096 0.18 s and 16,384
// 2.1 s, so a file of a few huge polygons would hang the loader.
constexpr size_t kMaxObjFaceCorners = 1024;

// The fewest characters a record's line can have, its newline not counted.
constexpr size_t kShortestTetVertexLine = 5;   // .tet vertex "0 0 0"
constexpr size_t kShortestTetTetLine = 7;      // .tet tet "0 1 2 3"
constexpr size_t kShortestTetPinnedLine = 1;   // .tet pinned "0"
constexpr size_t kShortestNodeLine = 7;        // .node point "0 0 0 0"
constexpr size_t kShortestEleLine = 9;         // .ele tet "0 0 1 2 3"
