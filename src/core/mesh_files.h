// Loading a body from a file, whatever its kind, and placing it in the world.
//
// Kinds, by extension (case-insensitive):
//   .obj          a triangle surface, tetrahedralized on load
//                 (tetrahedralizer.h; the resolution is an option);
//   .node / .ele  a TetGen tet mesh (either name may be given; the other is
//                 found next to it), loaded as it is;
//   .tet          this project's own text format, below.
//
// The .tet format, version 1 (plain text, whitespace-separated; '#' starts
// a comment that runs to the end of the line; blank lines are ignored):
//
//   softbody-tet 1
//   vertices N
//   x y z          N lines: rest positions, metres (y up)
//   tets M
//   a b c d        M lines: 0-based vertex indices
//   pinned K       optional section
//   i              K lines: 0-based indices of vertices that never move
//
// Every function returns a Result whose message names the file and the
// reason; a bad file never crashes the program.
#pragma once

#include "core/result.h"
#include "core/tet_mesh.h"
#include "core/tetrahedralizer.h"

#include <string>

// Loads any of the kinds above and checks it as the solvers will
// (prepare_tet_mesh), so a mesh that loads can be simulated. The mesh keeps
// the file's coordinates: see place_above_ground(). Its name is the path.
// options.progress, if set, sees every stage (reading, tetrahedralizing,
// the check's preparation) and may cancel them (load_progress.h).
Result<TetMeshDesc> load_mesh_file(const std::string& path, const TetrahedralizeOptions& options);

// The same without the solvers' checks, for a caller that prepares the mesh
// itself once it is placed (preparing twice costs a large mesh seconds).
Result<TetMeshDesc> read_mesh_file(const std::string& path, const TetrahedralizeOptions& options);

// The .tet format alone.
Result<TetMeshDesc> load_tet_file(const std::string& path);
Result<TetMeshDesc> parse_tet_text(const std::string& text, const std::string& name);
Result<bool> save_tet_file(const std::string& path, const TetMeshDesc& mesh);

// TetGen's .node and .ele files (either path; the other has the same stem).
// Point numbers may start at 0 or 1, as the .node file's first point says;
// attributes, boundary markers and the 6 extra nodes of 10-node tets are
// ignored.
Result<TetMeshDesc> load_tetgen_files(const std::string& node_or_ele_path);

// Puts a loaded body in the world: scales it uniformly so that its longest
// side is `target_size_m`, centres its bounding box on x = z = 0, tilts it
// by `tilt_rad` about a horizontal axis through its centre, and lifts it so
// that its lowest point is at `lowest_y_m` (the ground is y = 0). Computed
// in double, so that a body of any float size (1e-40 or 3e38 file units)
// can be placed; fails, naming the mesh and leaving it as it was, when all
// its vertices are at one point or the placed coordinates are not finite.
Result<bool> place_above_ground(TetMeshDesc& mesh, float target_size_m, float lowest_y_m,
                                float tilt_rad);
