// Line-by-line reading of the small text formats (.tet, TetGen .node/.ele):
// a UTF-8 byte-order mark skipped, comments from '#' to the end of a line,
// blank lines skipped, the line number kept for messages, numbers parsed
// strictly, and the counts that headers announce checked against the bytes
// that are left (mesh_limits.h).
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

// The UTF-8 byte-order mark some editors put at the start of a text file.
constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

// `text` without a leading byte-order mark: read as text, it would glue
// itself to the first word ("\xEF\xBB\xBFsoftbody-tet", "\xEF\xBB\xBFv")
// and that line would be lost.
inline std::string_view without_byte_order_mark(std::string_view text)
{
    if (text.substr(0, kUtf8ByteOrderMark.size()) == kUtf8ByteOrderMark) {
        text.remove_prefix(kUtf8ByteOrderMark.size());
    }
    return text;
}

// `text` must outlive the reader: it is read in place.
class TextLines {
public:
    TextLines(const std::string& text, const std::string& name)
        : text_(without_byte_order_mark(text)), name_(name)
    {
    }

    // The next line with content, split into words; false at the end.
    bool next(std::vector<std::string>& words)
    {
        while (position_ < text_.size()) {
            size_t end = text_.find('\n', position_);
            if (end == std::string_view::npos) end = text_.size();
            std::string raw(text_.substr(position_, end - position_));
            position_ = end + 1;
            ++number_;
            const size_t hash = raw.find('#');
            if (hash != std::string::npos) raw.resize(hash);
            std::istringstream line(raw);
            words.clear();
            for (std::string w; line >> w;) words.push_back(w);
            if (!words.empty()) return true;
        }
        return false;
    }

    // Bytes after the line last read.
    size_t bytes_left() const { return position_ < text_.size() ? text_.size() - position_ : 0; }

    // Why the current line's announced `count` of `what` (one a line, each
    // at least `shortest_line` characters) cannot be right, or "" when it
    // can: more lines than the rest of the file has room for, or more than
    // `limit`. Ask before reserving anything for them.
    std::string check_count(long long count, const std::string& what, size_t shortest_line,
                            size_t limit) const
    {
        // n lines need n * shortest_line characters and n - 1 newlines.
        const size_t room = (bytes_left() + 1) / (shortest_line + 1);
        if (count < 0) {
            return where() + "a negative number of " + what;
        }
        if (static_cast<unsigned long long>(count) > room) {
            return where() + std::to_string(count) + " " + what + " announced, but the " +
                   std::to_string(bytes_left()) + " bytes left in the file hold at most " +
                   std::to_string(room) + " (a wrong count, or a file cut short)";
        }
        if (static_cast<unsigned long long>(count) > limit) {
            return where() + std::to_string(count) + " " + what + ", more than the " +
                   std::to_string(limit) + " this program can load";
        }
        return "";
    }

    // "'file' line N: " and "'file': " message prefixes.
    std::string where() const { return "'" + name_ + "' line " + std::to_string(number_) + ": "; }
    std::string file() const { return "'" + name_ + "': "; }

private:
    std::string_view text_;
    std::string name_;
    size_t position_ = 0;
    int number_ = 0;
};

// The whole word as a number (strtod: "nan" and "inf" parse, so that the
// caller can say "non-finite" instead of "not a number").
inline bool parse_double(const std::string& word, double& out)
{
    char* end = nullptr;
    errno = 0;
    out = std::strtod(word.c_str(), &end);
    return end == word.c_str() + word.size() && !word.empty();
}

// Why a coordinate read in double cannot be stored as a float, or "": it is
// NaN or infinite, or beyond +-3.4e38 (converting such a double to float is
// undefined behaviour, in practice infinity).
inline std::string float_coordinate_problem(double value)
{
    if (!std::isfinite(value)) return "a non-finite coordinate";
    if (std::abs(value) > static_cast<double>(std::numeric_limits<float>::max())) {
        return "a coordinate beyond the float range (+-3.4e38)";
    }
    return "";
}

// The whole word as an integer.
inline bool parse_integer(const std::string& word, long long& out)
{
    char* end = nullptr;
    errno = 0;
    out = std::strtoll(word.c_str(), &end, 10);
    return end == word.c_str() + word.size() && !word.empty() && errno == 0;
}

// The largest mesh file read: a .tet file of the largest loadable mesh
// (mesh_limits.h), written with 9 significant digits, is about 1.5 GB.
constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(4) << 30;

// The whole file as text, or why not: missing, not a regular file (a
// directory), larger than kMaxMeshFileBytes, unreadable, or more than the
// memory left.
inline bool read_text_file(const std::string& path, std::string& text, std::string& error)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        error = "'" + path + "': no such file";
        return false;
    }
    if (!std::filesystem::is_regular_file(path, ec)) {
        error = "'" + path + "': not a regular file";
        return false;
    }
    const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    if (!ec && bytes > kMaxMeshFileBytes) {
        error = "'" + path + "': " + std::to_string(bytes) + " bytes, larger than the " +
                std::to_string(kMaxMeshFileBytes) + " of the largest mesh this program loads";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "'" + path + "': cannot open the file (no permission?)";
        return false;
    }
    try {
        std::ostringstream s;
        s << in.rdbuf();
        if (in.bad()) {
            error = "'" + path + "': read error";
            return false;
        }
        text = std::move(s).str();
    } catch (const std::bad_alloc&) {
        error = "'" + path + "': not enough memory to read the file";
        return false;
    }
    return true;
}
