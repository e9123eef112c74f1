// A value or an error message: how the core reports bad input (a broken mesh,
// an unreadable file) to the program, which shows the message and goes on.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}
    static Result failure(std::string message) { return Result(std::move(message), 0); }

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { assert(ok() && "Result::value() on a failure"); return *value_; }
    T& value() & { assert(ok() && "Result::value() on a failure"); return *value_; }
    T&& value() && { assert(ok() && "Result::value() on a failure"); return std::move(*value_); }
    const std::string& error() const { return error_; }

private:
    Result(std::string message, int) : error_(std::move(message)) {}
    std::optional<T> value_;
    std::string error_;
};
