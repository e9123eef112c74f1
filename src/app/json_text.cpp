#include "app/json_text.h"

#include <cmath>
#include <cstdio>
#include <sstream>

std::string json_number(double value)
{
    // JSON has no NaN or infinity: a blown-up run reports null, not invalid JSON.
    if (!std::isfinite(value)) {
        return "null";
    }
    std::ostringstream out;
    out.precision(9);
    out << value;
    return out.str();
}

std::string json_string(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}
