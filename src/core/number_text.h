// Numbers in messages: a length of 1e-40 or 6e38 reads as such, where
// std::to_string would print "0.000000" or 39 digits.
#pragma once

#include <cstdio>
#include <string>

// 3 significant digits, any magnitude ("%.3g").
inline std::string short_number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}
