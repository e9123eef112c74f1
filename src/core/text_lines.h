// Line-by-line reading of the small text formats (.tet, TetGen .node/.ele):
// comments from '#' to the end of a line, blank lines skipped, the line
// number kept for messages, numbers parsed strictly.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

class TextLines {
public:
    TextLines(const std::string& text, const std::string& name) : in_(text), name_(name) {}

    // The next line with content, split into words; false at the end.
    bool next(std::vector<std::string>& words)
    {
        std::string raw;
        while (std::getline(in_, raw)) {
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

    // "'file' line N: " and "'file': " message prefixes.
    std::string where() const { return "'" + name_ + "' line " + std::to_string(number_) + ": "; }
    std::string file() const { return "'" + name_ + "': "; }

private:
    std::istringstream in_;
    std::string name_;
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

// The whole word as an integer.
inline bool parse_integer(const std::string& word, long long& out)
{
    char* end = nullptr;
    errno = 0;
    out = std::strtoll(word.c_str(), &end, 10);
    return end == word.c_str() + word.size() && !word.empty() && errno == 0;
}

// The whole file as text, or why not: missing, not a regular file (a
// directory), unreadable.
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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "'" + path + "': cannot open the file (no permission?)";
        return false;
    }
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) {
        error = "'" + path + "': read error";
        return false;
    }
    text = s.str();
    return true;
}
