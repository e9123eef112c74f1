// Floats in the JSON the program writes (--stats, remembered settings).
#pragma once

#include <charconv>
#include <cmath>

// A float as its own shortest decimal, not as the double it widens to:
// 0.3f is written 0.3, not 0.30000001192092896. NaN and infinity pass
// through; nlohmann's dump() writes them as null (JSON has no word for them).
inline double shortest_decimal(float value)
{
    if (!std::isfinite(value)) {
        return value;
    }
    char text[32];
    const char* end = std::to_chars(text, text + sizeof text, value).ptr;
    double widened = value;
    std::from_chars(text, end, widened);
    return widened;
}
