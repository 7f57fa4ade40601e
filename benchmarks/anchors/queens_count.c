/* The anchor of benchmarks/bench_count.py: Somers' bitmask counter of the n-queens solutions, one thread,
   the first row's queen in the left half only (counted twice, the middle one of an odd n once).
   cc -O2 -o queens_count queens_count.c && ./queens_count 14   prints 365596 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long below(unsigned long long full, unsigned long long cols, unsigned long long left,
                                unsigned long long right) {
    if (cols == full) return 1;
    unsigned long long total = 0, free = full & ~(cols | left | right);
    while (free) {
        unsigned long long bit = free & -free;
        free ^= bit;
        total += below(full, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 63) { fprintf(stderr, "n from 1 to 63\n"); return 2; }
    unsigned long long full = (1ULL << n) - 1, total = 0;
    for (int c = 0; c < (n + 1) / 2; c++) {
        unsigned long long bit = 1ULL << c, weight = (n % 2 && c == n / 2) ? 1 : 2;
        total += weight * below(full, bit, (bit << 1) & full, bit >> 1);
    }
    printf("%llu\n", total);
    return 0;
}
