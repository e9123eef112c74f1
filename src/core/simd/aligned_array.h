// A fixed-size array of trivially copyable values, 64-byte aligned, so that
// SIMD kernels can load whole cache lines of it with aligned loads.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

template <typename T>
class AlignedArray {
public:
    static constexpr size_t kAlignment = 64;

    AlignedArray() = default;
    // n values, zero-filled.
    explicit AlignedArray(size_t n) : size_(n)
    {
        const size_t bytes = (n * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
        if (bytes > 0) {
            void* memory = std::aligned_alloc(kAlignment, bytes);
            if (memory == nullptr) {
                throw std::bad_alloc();
            }
            std::memset(memory, 0, bytes);
            data_.reset(static_cast<T*>(memory));
        }
    }

    size_t size() const { return size_; }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    T& operator[](size_t i) { return data_.get()[i]; }
    const T& operator[](size_t i) const { return data_.get()[i]; }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> data_;
    size_t size_ = 0;
};
