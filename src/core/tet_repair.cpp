#include "core/tet_repair.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

namespace {

// Union-find over tets, with path halving.
struct DisjointSets {
    std::vector<uint32_t> parent;
    explicit DisjointSets(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    uint32_t find(uint32_t x)
    {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
    void join(uint32_t a, uint32_t b) { parent[find(a)] = find(b); }
};

using FaceKey = std::array<uint32_t, 3>;

FaceKey face_key(uint32_t a, uint32_t b, uint32_t c)
{
    FaceKey k = {a, b, c};
    std::sort(k.begin(), k.end());
    return k;
}

// Faces of tet t: face f leaves out corner f.
FaceKey tet_face(const glm::uvec4& t, int f)
{
    uint32_t v[3];
    int n = 0;
    for (int a = 0; a < 4; ++a) {
        if (a != f) v[n++] = t[a];
    }
    return face_key(v[0], v[1], v[2]);
}

double tet_volume(const TetMeshDesc& mesh, const glm::uvec4& t)
{
    const glm::dvec3 x0(mesh.positions[t.x]);
    return glm::determinant(glm::dmat3(glm::dvec3(mesh.positions[t.y]) - x0,
                                       glm::dvec3(mesh.positions[t.z]) - x0,
                                       glm::dvec3(mesh.positions[t.w]) - x0)) /
           6.0;
}

}  // namespace

size_t drop_small_pieces(TetMeshDesc& mesh, double min_fraction)
{
    const size_t nt = mesh.tets.size();
    DisjointSets sets(nt);
    std::map<FaceKey, uint32_t> first_tet_of_face;
    for (uint32_t t = 0; t < nt; ++t) {
        for (int f = 0; f < 4; ++f) {
            auto [it, inserted] = first_tet_of_face.emplace(tet_face(mesh.tets[t], f), t);
            if (!inserted) {
                sets.join(t, it->second);
            }
        }
    }
    std::vector<double> piece_volume(nt, 0.0);
    for (uint32_t t = 0; t < nt; ++t) {
        piece_volume[sets.find(t)] += tet_volume(mesh, mesh.tets[t]);
    }
    const double largest = nt == 0 ? 0.0 : *std::max_element(piece_volume.begin(), piece_volume.end());
    std::vector<glm::uvec4> kept;
    kept.reserve(nt);
    for (uint32_t t = 0; t < nt; ++t) {
        if (piece_volume[sets.find(t)] >= min_fraction * largest) {
            kept.push_back(mesh.tets[t]);
        }
    }
    const size_t dropped = nt - kept.size();
    mesh.tets = std::move(kept);
    return dropped;
}

size_t split_pinched_vertices(TetMeshDesc& mesh)
{
    const size_t nt = mesh.tets.size();
    // The tets around each vertex, as (vertex, tet) pairs sorted by vertex.
    std::vector<std::pair<uint32_t, uint32_t>> incidence;
    incidence.reserve(nt * 4);
    for (uint32_t t = 0; t < nt; ++t) {
        for (int a = 0; a < 4; ++a) {
            incidence.emplace_back(mesh.tets[t][a], t);
        }
    }
    std::sort(incidence.begin(), incidence.end());
    size_t added = 0;
    for (size_t begin = 0; begin < incidence.size();) {
        size_t end = begin;
        const uint32_t v = incidence[begin].first;
        while (end < incidence.size() && incidence[end].first == v) ++end;
        const size_t n = end - begin;
        // Group the tets around v: two are joined when they share a face
        // through v (the face opposite some other corner).
        DisjointSets groups(n);
        std::map<FaceKey, uint32_t> seen;
        for (uint32_t i = 0; i < n; ++i) {
            const glm::uvec4& t = mesh.tets[incidence[begin + i].second];
            for (int f = 0; f < 4; ++f) {
                if (t[f] == v) continue;  // the face opposite v does not contain it
                auto [it, inserted] = seen.emplace(tet_face(t, f), i);
                if (!inserted) groups.join(i, it->second);
            }
        }
        // Every group but the first one met gets its own copy of v.
        std::map<uint32_t, uint32_t> copy_of_group;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t g = groups.find(i);
            auto [it, inserted] = copy_of_group.emplace(g, v);
            if (inserted && copy_of_group.size() > 1) {
                it->second = static_cast<uint32_t>(mesh.positions.size());
                mesh.positions.push_back(mesh.positions[v]);
                ++added;
            }
            if (it->second != v) {
                glm::uvec4& t = mesh.tets[incidence[begin + i].second];
                for (int a = 0; a < 4; ++a) {
                    if (t[a] == v) t[a] = it->second;
                }
            }
        }
        begin = end;
    }
    return added;
}

std::vector<uint8_t> repeated_tets(const std::vector<glm::uvec4>& tets)
{
    struct Keyed {
        std::array<uint32_t, 4> key;  // the vertices, sorted
        uint32_t tet;
    };
    std::vector<Keyed> keyed(tets.size());
    for (uint32_t t = 0; t < tets.size(); ++t) {
        keyed[t].key = {tets[t].x, tets[t].y, tets[t].z, tets[t].w};
        std::sort(keyed[t].key.begin(), keyed[t].key.end());
        keyed[t].tet = t;
    }
    // By key, then by tet, so the first tet of a group is the one kept.
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
        return a.key != b.key ? a.key < b.key : a.tet < b.tet;
    });
    std::vector<uint8_t> repeated(tets.size(), 0);
    for (size_t i = 1; i < keyed.size(); ++i) {
        if (keyed[i].key == keyed[i - 1].key) repeated[keyed[i].tet] = 1;
    }
    return repeated;
}

void drop_unused_vertices(TetMeshDesc& mesh)
{
    constexpr uint32_t kUnused = UINT32_MAX;
    std::vector<uint32_t> new_index(mesh.positions.size(), kUnused);
    for (const glm::uvec4& t : mesh.tets) {
        for (int a = 0; a < 4; ++a) new_index[t[a]] = 0;
    }
    std::vector<glm::vec3> positions;
    for (uint32_t v = 0; v < new_index.size(); ++v) {
        if (new_index[v] != kUnused) {
            new_index[v] = static_cast<uint32_t>(positions.size());
            positions.push_back(mesh.positions[v]);
        }
    }
    for (glm::uvec4& t : mesh.tets) {
        for (int a = 0; a < 4; ++a) t[a] = new_index[t[a]];
    }
    std::vector<uint32_t> pinned;
    for (uint32_t v : mesh.pinned_vertices) {
        if (v < new_index.size() && new_index[v] != kUnused) pinned.push_back(new_index[v]);
    }
    mesh.pinned_vertices = std::move(pinned);
    mesh.positions = std::move(positions);
}
