/* Min-conflicts for n queens, the anchor of bench_local_search.py: a greedy randomized start (each row takes
   the first of 32 random free columns whose diagonals are free, else the least attacked of them), then steps
   that move an attacked queen to a least-attacked column of its row (an empty column free of attacks, else
   64 random draws for a column attacked at most once, else a scan of the row).  No restarts: for large n.
   Prints n, the steps and whether the board checks from scratch.  Build: cc -O2 */
#include <stdio.h>
#include <stdlib.h>
static unsigned long long s = 88172645463325252ULL;
static long rnd(long k) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (long)(s % (unsigned long long)k); }
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000, steps = 0, size = 0, t = 0;
    int *q = calloc(n + 1, 4), *col = calloc(n + 1, 4), *dg = calloc(2 * n + 1, 4), *ad = calloc(2 * n + 1, 4);
    int *fr = malloc(4 * n), *att = malloc(4 * n);
    for (long i = 0; i < n; i++) fr[i] = (int)(i + 1);
    for (long r = 1; r <= n; r++, t++) {
        long best = -1, least = 3, left = n - t;
        for (long k = 0; k < (left > 32 ? 32 : left) && least; k++) {
            long i = left > 32 ? t + rnd(left) : t + k, c = fr[i], a = dg[r - c + n] + ad[r + c];
            if (a < least) { best = i; least = a; }
        }
        int c = fr[best]; fr[best] = fr[t]; fr[t] = c;
        q[r] = c; col[c]++; dg[r - c + n]++; ad[r + c]++;
    }
    int *cx = calloc(n + 1, 4), *dx = calloc(2 * n + 1, 4), *ax = calloc(2 * n + 1, 4);  /* xor of the rows */
    char *on = calloc(n + 1, 1);  /* on the list of attacked rows */
    int *e = malloc(4 * n), *ew = malloc(4 * (n + 1)), m = 0;  /* the empty columns, and where each one is in e */
    for (long r = 1; r <= n; r++) { cx[q[r]] ^= r; dx[r - q[r] + n] ^= r; ax[r + q[r]] ^= r; }
    for (long r = 1; r <= n; r++)
        if (col[q[r]] + dg[r - q[r] + n] + ad[r + q[r]] > 3) { att[size++] = (int)r; on[r] = 1; }
    while (size) {
        long i = rnd(size), r = att[i], c = q[r], b = 0, least = 3 * n, ties = 0;
        if (col[c] + dg[r - c + n] + ad[r + c] == 3) { att[i] = att[--size]; on[r] = 0; continue; }
        steps++; col[c]--; dg[r - c + n]--; ad[r + c]--; cx[c] ^= r; dx[r - c + n] ^= r; ax[r + c] ^= r;
        if (!col[c]) { ew[c] = m; e[m++] = (int)c; }
        for (long k = 0, u = 0; k < m; k++) if (!dg[r - e[k] + n] && !ad[r + e[k]] && rnd(++u) == 0) b = e[k];
        for (int k = 0; k < 64 && !b; k++) { long x = 1 + rnd(n); if (col[x] + dg[r - x + n] + ad[r + x] <= 1) b = x; }
        for (long x = 1; x <= n && !b; x++) {  /* a least-attacked column, at random among the ties */
            long a = col[x] + dg[r - x + n] + ad[r + x];
            if (a < least) { least = a; ties = 0; }
            if (a == least && rnd(++ties) == 0) c = x;
        }
        if (!b) b = c;
        q[r] = (int)b; col[b]++; dg[r - b + n]++; ad[r + b]++; cx[b] ^= r;
        if (col[b] == 1) { e[ew[b]] = e[--m]; ew[e[m]] = ew[b]; } dx[r - b + n] ^= r; ax[r + b] ^= r;
        long other[3] = {col[b] == 2 ? cx[b] ^ r : 0, dg[r - b + n] == 2 ? dx[r - b + n] ^ r : 0,
                         ad[r + b] == 2 ? ax[r + b] ^ r : 0};  /* a line of two: its other queen is attacked */
        for (int k = 0; k < 3; k++) if (other[k] && !on[other[k]]) { att[size++] = (int)other[k]; on[other[k]] = 1; }
    }
    long ok = 1;  /* check from scratch: one queen per column and diagonal */
    int *seen = calloc(5 * n + 3, 4);
    for (long r = 1; r <= n; r++) ok &= !seen[q[r]]++ & !seen[n + 1 + r - q[r] + n]++ & !seen[3 * n + 2 + r + q[r]]++;
    printf("%ld %ld %s\n", n, steps, ok ? "verified" : "WRONG");
    return !ok;
}
