/* Whole-number helpers the models share. Header-only. */
#ifndef ST_SIM_INTMATH_H
#define ST_SIM_INTMATH_H

#include <stdint.h>

/* The greatest common divisor of a and b (Euclid's algorithm); gcd(a, 0) = a. */
static inline int64_t st_gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

#endif
