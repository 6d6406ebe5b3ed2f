// Prints kernel_float's element-type promotion (`kernel_float::promote_t<A, B>`) for
// every ordered pair of the element types its documentation covers, as JSON on stdout.
//
// Built by kernel_float_oracle.sh against a kernel_float checkout. bool, the integers,
// float and double come from the library's own meta.h as it is; the CUDA types
// (__half, __nv_bfloat16, __nv_fp8_e4m3, __nv_fp8_e5m2) need CUDA headers, so the
// script declares empty stand-in types and includes the promotion declarations it
// extracts from fp16.h, bf16.h and fp8.h (`kf_cuda_promotions.h`).

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "kernel_float/meta.h"
#include "kf_cuda_promotions.h"

namespace {

template<typename A, typename B, typename = void>
struct promoted {
    static constexpr bool exists = false;
    using type = void;
};

template<typename A, typename B>
struct promoted<A, B, std::void_t<kernel_float::promote_t<A, B>>> {
    static constexpr bool exists = true;
    using type = kernel_float::promote_t<A, B>;
};

template<typename T>
struct name;
#define NAME(T, S) \
    template<> \
    struct name<T> { \
        static constexpr const char* value = S; \
    };
NAME(bool, "bool")
NAME(std::int8_t, "i8")
NAME(std::int16_t, "i16")
NAME(std::int32_t, "i32")
NAME(std::int64_t, "i64")
NAME(std::uint8_t, "u8")
NAME(std::uint16_t, "u16")
NAME(std::uint32_t, "u32")
NAME(std::uint64_t, "u64")
NAME(kernel_float::half_t, "f16")
NAME(kernel_float::bfloat16_t, "bf16")
NAME(float, "f32")
NAME(double, "f64")
NAME(__nv_fp8_e4m3, "f8e4m3fn")
NAME(__nv_fp8_e5m2, "f8e5m2")
#undef NAME

bool first = true;

template<typename A, typename B>
void cell() {
    std::printf("%s[\"%s\", \"%s\", ", first ? "" : ",\n", name<A>::value, name<B>::value);
    first = false;
    if constexpr (promoted<A, B>::exists) {
        std::printf("\"%s\"]", name<typename promoted<A, B>::type>::value);
    } else {
        std::printf("null, \"kernel_float::promote_t has no type for this pair\"]");
    }
}

template<typename A, typename... Bs>
void row() {
    (cell<A, Bs>(), ...);
}

template<typename... Ts>
void matrix() {
    (row<Ts, Ts...>(), ...);
}

}  // namespace

int main() {
    std::printf("[\n");
    matrix<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
           std::uint32_t, std::uint64_t, __nv_fp8_e4m3, __nv_fp8_e5m2, kernel_float::half_t,
           kernel_float::bfloat16_t, float, double>();
    std::printf("\n]\n");
}
