// The two pieces of JSON the program writes by hand: numbers and strings.
#pragma once

#include <string>

// A number, or null where JSON has no word for it (NaN, infinity).
std::string json_number(double value);

// A string literal with quotes, backslashes and control characters escaped.
std::string json_string(const std::string& text);
