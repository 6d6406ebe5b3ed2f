// Prints kernel_float's element-type promotion (`kernel_float::promote_t<A, B>`) for
// every ordered pair of the element types its documentation covers, as a JSON array of
// cases on stdout: ["lhs", "rhs", "result"] or ["lhs", "rhs", null, "why"].
//
// Built by kernel_float_oracle.sh with g++ against a kernel_float checkout and the CUDA
// headers of NVIDIA's pip packages (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h), so that the
// library's own fp16.h, bf16.h and fp8.h are compiled as they are. A pair for which
// promote_t names no type is detected with SFINAE, so the program always compiles.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "kernel_float.h"
#include "kernel_float/complex.h"
#include "kernel_float/fp8.h"  // not pulled in by kernel_float.h

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
NAME(__nv_fp8_e4m3, "f8e4m3fn")
NAME(__nv_fp8_e5m2, "f8e5m2")
NAME(__half, "f16")
NAME(__nv_bfloat16, "bf16")
NAME(float, "f32")
NAME(double, "f64")
NAME(kernel_float::complex_type<float>, "c64")
NAME(kernel_float::complex_type<double>, "c128")
#undef NAME

static_assert(std::is_same<kernel_float::half_t, __half>::value, "half_t is __half");
static_assert(std::is_same<kernel_float::bfloat16_t, __nv_bfloat16>::value, "bfloat16_t is __nv_bfloat16");

bool first = true;

template<typename T>
struct is_complex: std::false_type {};
template<typename T>
struct is_complex<kernel_float::complex_type<T>>: std::true_type {};

template<typename A, typename B>
void cell() {
    std::printf("%s[\"%s\", \"%s\", ", first ? "" : ",\n", name<A>::value, name<B>::value);
    first = false;
    if constexpr (std::is_same<A, B>::value && is_complex<A>::value) {
        // A hard error, not a substitution failure, so it cannot be probed here:
        // kernel_float_oracle.sh compiles it separately and checks that it fails.
        std::printf("null, \"kernel_float::promote_t<%s, %s> is ambiguous (meta.h's promote_type<T, T> and "
                    "complex.h's promote_type<complex_type<L>, complex_type<R>> both match)\"]",
                    name<A>::value, name<B>::value);
    } else if constexpr (promoted<A, B>::exists) {
        std::printf("\"%s\"]", name<typename promoted<A, B>::type>::value);
    } else {
        std::printf("null, \"kernel_float::promote_t<%s, %s> names no type\"]", name<A>::value, name<B>::value);
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
           std::uint32_t, std::uint64_t, __nv_fp8_e4m3, __nv_fp8_e5m2, __half, __nv_bfloat16, float,
           double, kernel_float::complex_type<float>, kernel_float::complex_type<double>>();
    std::printf("\n]\n");
}
