// Shape figures of a tet mesh: what the tetrahedralizer tool prints and the
// tests check.
#pragma once

#include "core/tet_mesh.h"

#include <string>

struct TetQuality {
    size_t vertices = 0;                // used by at least one tet
    size_t tets = 0;
    double min_dihedral_deg = 0.0;      // over every edge of every tet
    double max_dihedral_deg = 0.0;
    double volume_m3 = 0.0;             // sum of the signed tet volumes
    size_t nonpositive_tets = 0;        // signed volume <= 0
};

TetQuality measure_tet_quality(const TetMeshDesc& mesh);

// The six dihedral angles of a tet, in degrees.
void dihedral_angles_deg(const glm::vec3& x0, const glm::vec3& x1, const glm::vec3& x2,
                         const glm::vec3& x3, double out[6]);

// Whether the boundary (the faces that one tet has) is a closed 2-manifold:
// every boundary edge shared by exactly two boundary triangles, in opposite
// directions, and the triangles around every boundary vertex forming a
// single fan. On failure `why` (if given) says where.
bool boundary_is_closed_manifold(const TetMeshDesc& mesh, std::string* why = nullptr);

