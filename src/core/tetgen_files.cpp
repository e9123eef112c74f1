// TetGen's .node / .ele pair (https://wias-berlin.de/software/tetgen/fformats.html):
//   .node: "<points> <dimension = 3> <attributes> <boundary markers 0|1>",
//          then "<point number> <x> <y> <z> [attributes] [marker]" per point;
//   .ele:  "<tets> <nodes per tet = 4|10> <attributes>",
//          then "<tet number> <n1> <n2> <n3> <n4> [...]" per tet.
// Numbering starts at 0 or 1, whichever the first point uses, and the .ele
// file uses the same.
#include "core/mesh_files.h"

#include "core/mesh_limits.h"
#include "core/text_lines.h"

#include <cctype>
#include <cmath>
#include <filesystem>

namespace {

using R = Result<TetMeshDesc>;

R read_nodes(const std::string& text, const std::string& path, long long& base)
{
    TextLines lines(text, path);
    std::vector<std::string> w;
    if (!lines.next(w)) return R::failure(lines.file() + "the file is empty");
    long long n = -1, dim = 0, attributes = 0, markers = 0;
    if (w.size() < 2 || !parse_integer(w[0], n) || n < 0 || !parse_integer(w[1], dim) ||
        (w.size() > 2 && !parse_integer(w[2], attributes)) ||
        (w.size() > 3 && !parse_integer(w[3], markers)) || attributes < 0) {
        return R::failure(lines.where() +
                          "expected the header '<points> 3 <attributes> <boundary markers>'");
    }
    if (dim != 3) {
        return R::failure(lines.where() + "dimension " + std::to_string(dim) +
                          ", only 3D meshes can be simulated");
    }
    const std::string too_many =
        lines.check_count(n, "points", kShortestNodeLine, kMaxMeshVertices);
    if (!too_many.empty()) return R::failure(too_many);
    TetMeshDesc mesh;
    mesh.name = path;
    mesh.positions.reserve(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) {
        if (!lines.next(w)) return R::failure(lines.file() + "ends after " + std::to_string(i) + " of " + std::to_string(n) + " points");
        long long number = 0;
        double x[3];
        if (w.size() < 4 || !parse_integer(w[0], number) || !parse_double(w[1], x[0]) ||
            !parse_double(w[2], x[1]) || !parse_double(w[3], x[2])) {
            return R::failure(lines.where() + "expected '<point number> <x> <y> <z>'");
        }
        if (i == 0) {
            if (number != 0 && number != 1) {
                return R::failure(lines.where() + "the first point is numbered " +
                                  std::to_string(number) + ", not 0 or 1");
            }
            base = number;
        } else if (number != base + i) {
            return R::failure(lines.where() + "point numbered " + std::to_string(number) +
                              ", expected " + std::to_string(base + i) + " (consecutive)");
        }
        for (double c : x) {
            const std::string problem = float_coordinate_problem(c);
            if (!problem.empty()) {
                return R::failure(lines.where() + "point " + std::to_string(number) + " has " +
                                  problem);
            }
        }
        mesh.positions.emplace_back(x[0], x[1], x[2]);
    }
    if (mesh.positions.empty()) return R::failure(lines.file() + "has no points");
    return mesh;
}

R read_elements(const std::string& text, const std::string& path, long long base, TetMeshDesc mesh)
{
    TextLines lines(text, path);
    std::vector<std::string> w;
    if (!lines.next(w)) return R::failure(lines.file() + "the file is empty");
    long long n = -1, per_tet = 0;
    if (w.size() < 2 || !parse_integer(w[0], n) || n < 0 || !parse_integer(w[1], per_tet)) {
        return R::failure(lines.where() +
                          "expected the header '<tetrahedra> <nodes per tet> <attributes>'");
    }
    if (per_tet != 4 && per_tet != 10) {
        return R::failure(lines.where() + std::to_string(per_tet) +
                          " nodes per tet: expected 4 (or 10)");
    }
    const std::string too_many = lines.check_count(n, "tets", kShortestEleLine, kMaxMeshTets);
    if (!too_many.empty()) return R::failure(too_many);
    mesh.tets.reserve(static_cast<size_t>(n));
    const long long nv = static_cast<long long>(mesh.positions.size());
    for (long long t = 0; t < n; ++t) {
        if (!lines.next(w)) return R::failure(lines.file() + "ends after " + std::to_string(t) + " of " + std::to_string(n) + " tets");
        long long number = 0, idx[4];
        if (w.size() < static_cast<size_t>(1 + per_tet) || !parse_integer(w[0], number) ||
            !parse_integer(w[1], idx[0]) || !parse_integer(w[2], idx[1]) ||
            !parse_integer(w[3], idx[2]) || !parse_integer(w[4], idx[3])) {
            return R::failure(lines.where() + "expected '<tet number> <n1> <n2> <n3> <n4>'");
        }
        for (long long& i : idx) {
            if (i < base || i >= base + nv) {
                return R::failure(lines.where() + "tet " + std::to_string(number) +
                                  " uses point " + std::to_string(i) + ", out of range (" +
                                  std::to_string(base) + "-" + std::to_string(base + nv - 1) +
                                  ")");
            }
            i -= base;
        }
        mesh.tets.emplace_back(idx[0], idx[1], idx[2], idx[3]);
    }
    if (mesh.tets.empty()) return R::failure(lines.file() + "has no tets");
    return mesh;
}

struct TetGenPair {
    std::string node;
    std::string ele;
};

// The two files of the pair: the path given, as it is, and its partner with
// the same stem and the extension in the case of the given one ("M.NODE"
// goes with "M.ELE"), or in the other case where only that one exists.
TetGenPair tetgen_pair(const std::string& given)
{
    const std::filesystem::path path(given);
    std::string ext = path.extension().string();
    const bool upper = ext.size() > 1 && std::isupper(static_cast<unsigned char>(ext[1]));
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool given_is_node = ext == ".node";
    auto with_extension = [&](std::string partner_ext, bool in_upper) {
        if (in_upper) {
            for (char& c : partner_ext) {
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
        }
        return std::filesystem::path(path).replace_extension(partner_ext).string();
    };
    const std::string partner_ext = given_is_node ? ".ele" : ".node";
    std::string partner = with_extension(partner_ext, upper);
    const std::string other_case = with_extension(partner_ext, !upper);
    std::error_code ec;
    if (!std::filesystem::exists(partner, ec) && std::filesystem::exists(other_case, ec)) {
        partner = other_case;
    }
    return given_is_node ? TetGenPair{given, partner} : TetGenPair{partner, given};
}

}  // namespace

Result<TetMeshDesc> load_tetgen_files(const std::string& node_or_ele_path)
{
    const TetGenPair pair = tetgen_pair(node_or_ele_path);
    std::string node_text, ele_text, error;
    if (!read_text_file(pair.node, node_text, error) ||
        !read_text_file(pair.ele, ele_text, error)) {
        // Name the file asked for too, when it is its partner that is bad.
        const bool partner = error.find("'" + node_or_ele_path + "'") == std::string::npos;
        return R::failure(partner ? "'" + node_or_ele_path + "': TetGen pair incomplete: " + error
                                  : error);
    }
    // A fault in the partner is told as the given file's, which is what the
    // user asked for: "'m.ele': in its TetGen partner: 'm.node' line 1: ...".
    auto in_partner = [&](const R& failed, const std::string& faulty) {
        return faulty == node_or_ele_path
                   ? failed
                   : R::failure("'" + node_or_ele_path + "': in its TetGen partner: " +
                                failed.error());
    };
    long long base = 0;
    R nodes = read_nodes(node_text, pair.node, base);
    if (!nodes) return in_partner(nodes, pair.node);
    R mesh = read_elements(ele_text, pair.ele, base, std::move(nodes).value());
    if (!mesh) return in_partner(mesh, pair.ele);
    mesh.value().name = node_or_ele_path;
    return mesh;
}
