#include "core/lattice.h"

TetMeshDesc kuhn_lattice(const LatticeSpec& spec,
                         const std::function<glm::vec3(int, int, int)>& position)
{
    const int ni = spec.cells_i + 1;
    const int nj = spec.cells_j + 1;
    const int nk = spec.periodic_k ? spec.cells_k : spec.cells_k + 1;
    auto index = [&](int i, int j, int k) {
        return static_cast<uint32_t>(i + ni * (j + nj * (k % nk)));
    };

    TetMeshDesc desc;
    desc.positions.reserve(static_cast<size_t>(ni) * nj * nk);
    for (int k = 0; k < nk; ++k) {
        for (int j = 0; j < nj; ++j) {
            for (int i = 0; i < ni; ++i) {
                desc.positions.push_back(position(i, j, k));
            }
        }
    }

    // The six monotone paths from corner 000 to 111, one per permutation of
    // the axes; each path's four corners form one tet.
    static const int kAxisOrder[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                         {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    desc.tets.reserve(static_cast<size_t>(spec.cells_i) * spec.cells_j * spec.cells_k * 6);
    for (int k = 0; k < spec.cells_k; ++k) {
        for (int j = 0; j < spec.cells_j; ++j) {
            for (int i = 0; i < spec.cells_i; ++i) {
                for (const auto& order : kAxisOrder) {
                    glm::ivec3 c(i, j, k);
                    uint32_t corners[4];
                    corners[0] = index(c.x, c.y, c.z);
                    for (int step = 0; step < 3; ++step) {
                        c[order[step]] += 1;
                        corners[step + 1] = index(c.x, c.y, c.z);
                    }
                    desc.tets.emplace_back(corners[0], corners[1], corners[2], corners[3]);
                }
            }
        }
    }
    return desc;
}

TetMeshDesc box_lattice(glm::ivec3 cells, glm::vec3 min_corner_m, glm::vec3 size_m)
{
    const glm::vec3 cell_size = size_m / glm::vec3(cells);
    return kuhn_lattice({cells.x, cells.y, cells.z, false}, [&](int i, int j, int k) {
        return min_corner_m + glm::vec3(i, j, k) * cell_size;
    });
}
