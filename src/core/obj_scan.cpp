#include "core/obj_scan.h"

#include "core/mesh_limits.h"
#include "core/text_lines.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace {

using R = Result<ObjScan>;

// One line as tinyobjloader cuts the text: at "\n", "\r\n" or a lone "\r".
class ObjLines {
public:
    explicit ObjLines(std::string_view text) : text_(text) {}

    bool next(std::string_view& line)
    {
        if (position_ >= text_.size()) return false;
        size_t end = text_.find_first_of("\r\n", position_);
        if (end == std::string_view::npos) end = text_.size();
        line = text_.substr(position_, end - position_);
        position_ = end;
        if (position_ < text_.size()) {
            const bool crlf = text_[position_] == '\r' && position_ + 1 < text_.size() &&
                              text_[position_ + 1] == '\n';
            position_ += crlf ? 2 : 1;
        }
        ++number_;
        return true;
    }
    int number() const { return number_; }

private:
    std::string_view text_;
    size_t position_ = 0;
    int number_ = 0;
};

// Words separated by spaces and tabs, as tinyobjloader separates them. A
// comment after the numbers of a 'v' line is fine for tinyobjloader, one
// after a face is not: `comment_ends_line` says which.
std::vector<std::string> words_of(std::string_view line, bool comment_ends_line)
{
    std::vector<std::string> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i == line.size() || (comment_ends_line && line[i] == '#')) break;
        const size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        words.emplace_back(line.substr(start, i - start));
    }
    return words;
}

// The line's tag as tinyobjloader tells it: "v" in "v 1 2 3" counts only
// when a space or tab follows it ("v" alone is no vertex there).
std::string_view tag_of(std::string_view line, bool& followed_by_space)
{
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos) return {};
    const size_t end = std::min(line.find_first_of(" \t", i), line.size());
    followed_by_space = end < line.size();
    return line.substr(i, end - i);
}

// [+-] digits [. digits] [e [+-] digits], at least one mantissa digit: what
// an OBJ exporter writes; no hexadecimal, no "nan", no "1,5".
bool is_decimal_number(std::string_view w)
{
    size_t i = 0, digits = 0;
    auto skip_digits = [&] {
        size_t n = 0;
        while (i < w.size() && w[i] >= '0' && w[i] <= '9') ++i, ++n;
        return n;
    };
    if (i < w.size() && (w[i] == '+' || w[i] == '-')) ++i;
    digits += skip_digits();
    if (i < w.size() && w[i] == '.') {
        ++i;
        digits += skip_digits();
    }
    if (digits == 0) return false;
    if (i < w.size() && (w[i] == 'e' || w[i] == 'E')) {
        ++i;
        if (i < w.size() && (w[i] == '+' || w[i] == '-')) ++i;
        if (skip_digits() == 0) return false;
    }
    return i == w.size();
}

// [+-] digits.
bool is_integer(std::string_view w)
{
    const size_t sign = (!w.empty() && (w[0] == '+' || w[0] == '-')) ? 1 : 0;
    if (w.size() == sign) return false;
    return std::all_of(w.begin() + sign, w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct Counts {
    long long v = 0, vt = 0, vn = 0;
};

// Why one corner of a face ('a', 'a/t', 'a//n', 'a/t/n') is wrong, or "".
// `so_far` counts what the lines above define: what an index may name.
// tinyobjloader accepts a positive index to a vertex defined further down,
// but then drops a quad or polygon that uses one without a word, if an 'o'
// or 'g' line comes between; such forward references are refused here.
std::string corner_problem(const std::string& corner, const Counts& so_far)
{
    std::string_view parts[3];
    int n = 0;
    size_t start = 0;
    for (;;) {
        const size_t slash = corner.find('/', start);
        if (n == 3) return "too many '/' (expected 'a', 'a/t', 'a//n' or 'a/t/n')";
        parts[n++] = std::string_view(corner).substr(start, slash == std::string::npos
                                                                 ? std::string::npos
                                                                 : slash - start);
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    static const char* const kKinds[3] = {"vertex", "texture coordinate", "normal"};
    static const char* const kPlurals[3] = {"vertices", "texture coordinates", "normals"};
    const long long defined[3] = {so_far.v, so_far.vt, so_far.vn};
    for (int k = 0; k < n; ++k) {
        if (k == 1 && parts[k].empty() && n == 3) continue;  // 'a//n'
        if (!is_integer(parts[k])) {
            return "not an index (expected 'a', 'a/t', 'a//n' or 'a/t/n')";
        }
        // tinyobjloader reads indices with atoi: one beyond int wraps.
        long long index = 0;
        if (!parse_integer(std::string(parts[k]), index) ||
            index < INT_MIN || index > INT_MAX) {
            return "index beyond the int range";
        }
        if (index == 0) return "index 0 (OBJ counts from 1)";
        // Relative (negative) indices count back from the last one above.
        const long long absolute = index > 0 ? index : defined[k] + index + 1;
        if (absolute < 1 || absolute > defined[k]) {
            return std::string(kKinds[k]) + " index " + std::string(parts[k]) +
                   " out of range (" + std::to_string(defined[k]) + " " + kPlurals[k] +
                   " above this line)";
        }
    }
    return "";
}

std::string vertex_problem(const std::vector<std::string>& values, glm::vec3& position)
{
    if (values.size() != 3 && values.size() != 4 && values.size() != 6) {
        return "expected 'v x y z' (then an optional w, or r g b), found " +
               std::to_string(values.size()) + " numbers";
    }
    double x[3] = {0.0, 0.0, 0.0};
    for (size_t k = 0; k < values.size(); ++k) {
        double value = 0.0;
        if (!is_decimal_number(values[k])) {
            // "nan" and "inf" are numbers to strtod: name them for what they are.
            if (parse_double(values[k], value) && !std::isfinite(value)) {
                return "a vertex has a non-finite coordinate ('" + values[k] + "')";
            }
            return "'" + values[k] + "' is not a decimal number";
        }
        parse_double(values[k], value);
        const std::string problem = float_coordinate_problem(value);
        if (!problem.empty()) return "a vertex has " + problem + " ('" + values[k] + "')";
        if (k < 3) x[k] = value;
    }
    position = glm::vec3(x[0], x[1], x[2]);
    return "";
}

}  // namespace

Result<ObjScan> scan_obj_text(std::string_view text, const std::string& name)
{
    auto refuse = [&](int line, const std::string& why) {
        return R::failure("'" + name + "' line " + std::to_string(line) + ": " + why);
    };
    if (text.find('\0') != std::string_view::npos) {
        return R::failure("'" + name + "': binary data, not an OBJ text file");
    }
    ObjScan scan;
    Counts so_far;
    ObjLines lines(text);
    for (std::string_view line; lines.next(line);) {
        bool spaced = false;
        const std::string_view tag = tag_of(line, spaced);
        if (tag == "vt" && spaced) ++so_far.vt;
        if (tag == "vn" && spaced) ++so_far.vn;
        if (tag != "v" && tag != "f") continue;
        std::vector<std::string> words = words_of(line, tag == "v");
        words.erase(words.begin());  // the tag
        if (tag == "v") {
            glm::vec3 p;
            const std::string problem = vertex_problem(words, p);
            if (!problem.empty()) return refuse(lines.number(), problem);
            if (scan.positions.size() == kMaxSurfaceVertices) {
                return refuse(lines.number(), "more than " + std::to_string(kMaxSurfaceVertices) +
                                                  " vertices, more than this program can load");
            }
            scan.positions.push_back(p);
            ++so_far.v;
            continue;
        }
        if (words.size() < 3) {
            return refuse(lines.number(), "a face needs at least 3 corners, this one has " +
                                              std::to_string(words.size()));
        }
        if (words.size() > kMaxObjFaceCorners) {
            return refuse(lines.number(), "a face of " + std::to_string(words.size()) +
                                              " corners, more than the " +
                                              std::to_string(kMaxObjFaceCorners) + " allowed");
        }
        for (const std::string& corner : words) {
            const std::string problem = corner_problem(corner, so_far);
            if (!problem.empty()) {
                return refuse(lines.number(), "face corner '" + corner + "': " + problem);
            }
        }
        ++scan.faces;
        scan.triangles += words.size() - 2;
        if (scan.triangles > kMaxSurfaceTriangles) {
            return refuse(lines.number(), "more than " + std::to_string(kMaxSurfaceTriangles) +
                                              " triangles, more than this program can load");
        }
    }
    return scan;
}
