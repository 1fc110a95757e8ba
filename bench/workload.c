/* workload.c -- the Datagrind benchmark program.
 *
 * Copyright (C) 2024 the Datagrind authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One deterministic, CPU- and memory-bound program whose data accesses look
 * like those of real programs, so that the cost of tracing them can be
 * compared between Valgrind tools.  Each "round" does, on freshly malloc'd
 * data:
 *
 *   1. a blocked matrix multiply (heap arrays, strided block walks),
 *   2. a 5-point stencil over a 2-D grid (neighbour loads, row strides),
 *   3. a chained hash table: many small mallocs, lookups, frees,
 *   4. pointer chasing through a linked list laid out in shuffled order,
 *   5. a recursive binary search tree: deep call stacks, small mallocs.
 *
 * The work is the same in every round (only the seed changes), so the
 * instruction count grows linearly with the number of rounds and a run with
 * few rounds has the same mix as a run with many.  The program prints one
 * checksum per phase and a total, so the compiler cannot drop any work, and
 * the output is identical on every run.
 *
 * Usage: workload [ROUNDS]      (default 13, about 300 M instructions)
 *
 * Built with -DDG_EVENTS (and -I tool/), each phase of a round is a user
 * event of Datagrind's (labels matmul, stencil, hash, chase, tree) and the
 * stencil's two grids are tracked ranges while it runs (label grid): a
 * large trace for --events user: and --ranges filters.  The sizes below
 * may be set with -D (tests/progs/phases.c makes a small round).
 */

#include <stdint.h>
#include <stdio.h>
#ifdef DG_EVENTS
#include "datagrind.h"
#define EVENT(label, call) \
    do { DATAGRIND_START_EVENT(label); v = (call); DATAGRIND_END_EVENT(label); } while (0)
#define TRACK(p, n)   DATAGRIND_TRACK_RANGE(p, n, "double", "grid")
#define UNTRACK(p, n) DATAGRIND_UNTRACK_RANGE(p, n)
#else
#define EVENT(label, call) (v = (call))
#define TRACK(p, n)   ((void)0)
#define UNTRACK(p, n) ((void)0)
#endif
#include <stdlib.h>
#include <string.h>

#define DEFAULT_ROUNDS 13

/* ------------------------------------------------------------ utilities */

static uint64_t rng_state;

static void rng_seed(uint64_t s)
{
    rng_state = s * 0x9E3779B97F4A7C15ull + 1;
}

/* xorshift64*: deterministic on every platform. */
static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "workload: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

/* Fold a double into an integer checksum exactly (no rounding games). */
static uint64_t fold_double(uint64_t h, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    h = (h ^ bits) * 0x100000001B3ull;
    return h ^ (h >> 29);
}

/* ------------------------------------------------------- 1. matmul */

#ifndef MM_N
#define MM_N  80
#endif
#define MM_BS 16

/* C[bi.., bj..] += A[bi.., bk..] * B[bk.., bj..] for one block triple. */
static __attribute__((noinline)) void
mm_block(const double *a, const double *b, double *c, int n,
         int bi, int bj, int bk)
{
    for (int i = bi; i < bi + MM_BS; i++) {
        double *crow = c + (size_t)i * n;
        for (int k = bk; k < bk + MM_BS; k++) {
            double aik = a[(size_t)i * n + k];
            const double *brow = b + (size_t)k * n;
            for (int j = bj; j < bj + MM_BS; j++)
                crow[j] += aik * brow[j];
        }
    }
}

static __attribute__((noinline)) uint64_t phase_matmul(void)
{
    int n = MM_N;
    double *a = xmalloc(sizeof(double) * n * n);
    double *b = xmalloc(sizeof(double) * n * n);
    double *c = xmalloc(sizeof(double) * n * n);

    for (int i = 0; i < n * n; i++) {
        a[i] = (double)(rng_next() % 1000) / 64.0;
        b[i] = (double)(rng_next() % 1000) / 64.0;
        c[i] = 0.0;
    }
    for (int bi = 0; bi < n; bi += MM_BS)
        for (int bk = 0; bk < n; bk += MM_BS)
            for (int bj = 0; bj < n; bj += MM_BS)
                mm_block(a, b, c, n, bi, bj, bk);

    /* Read the result down the columns: a large-stride walk. */
    uint64_t h = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            h = fold_double(h, c[(size_t)i * n + j]);

    free(c);
    free(b);
    free(a);
    return h;
}

/* ------------------------------------------------------- 2. stencil */

#ifndef ST_W
#define ST_W     160
#endif
#ifndef ST_H
#define ST_H     160
#endif
#ifndef ST_STEPS
#define ST_STEPS 12
#endif

static __attribute__((noinline)) void
stencil_step(const double *src, double *dst, int w, int h)
{
    for (int y = 1; y < h - 1; y++) {
        const double *up = src + (size_t)(y - 1) * w;
        const double *mid = src + (size_t)y * w;
        const double *down = src + (size_t)(y + 1) * w;
        double *out = dst + (size_t)y * w;
        for (int x = 1; x < w - 1; x++)
            out[x] = 0.2 * (mid[x] + mid[x - 1] + mid[x + 1] + up[x] + down[x]);
    }
}

static __attribute__((noinline)) uint64_t phase_stencil(void)
{
    size_t cells = (size_t)ST_W * ST_H;
    double *g0 = xmalloc(sizeof(double) * cells);
    double *g1 = xmalloc(sizeof(double) * cells);

    TRACK(g0, sizeof(double) * cells);
    TRACK(g1, sizeof(double) * cells);
    for (size_t i = 0; i < cells; i++)
        g0[i] = g1[i] = (double)(rng_next() % 4096);
    for (int s = 0; s < ST_STEPS; s++) {
        stencil_step(g0, g1, ST_W, ST_H);
        double *t = g0;
        g0 = g1;
        g1 = t;
    }
    uint64_t h = 0;
    for (size_t i = 0; i < cells; i += 7)
        h = fold_double(h, g0[i]);
    UNTRACK(g0 < g1 ? g0 : g1, sizeof(double) * cells);
    UNTRACK(g0 < g1 ? g1 : g0, sizeof(double) * cells);
    free(g1);
    free(g0);
    return h;
}

/* ------------------------------------------------------- 3. hash table */

#define HT_BUCKETS 4096
#ifndef HT_KEYS
#define HT_KEYS    6000
#endif

struct ht_node {
    struct ht_node *next;
    uint64_t key;
    uint32_t len;
    unsigned char val[]; /* 8 .. 71 bytes: allocations of varied size */
};

static uint32_t ht_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key & (HT_BUCKETS - 1);
}

static __attribute__((noinline)) void
ht_insert(struct ht_node **tab, uint64_t key)
{
    uint32_t len = 8 + (uint32_t)(key % 64);
    struct ht_node *n = xmalloc(sizeof *n + len);
    n->key = key;
    n->len = len;
    for (uint32_t i = 0; i < len; i++)
        n->val[i] = (unsigned char)(key >> (i % 8));
    uint32_t b = ht_hash(key);
    n->next = tab[b];
    tab[b] = n;
}

static __attribute__((noinline)) const struct ht_node *
ht_find(struct ht_node *const *tab, uint64_t key)
{
    for (const struct ht_node *n = tab[ht_hash(key)]; n; n = n->next)
        if (n->key == key)
            return n;
    return NULL;
}

static __attribute__((noinline)) int
ht_delete(struct ht_node **tab, uint64_t key)
{
    for (struct ht_node **pp = &tab[ht_hash(key)]; *pp; pp = &(*pp)->next) {
        if ((*pp)->key == key) {
            struct ht_node *dead = *pp;
            *pp = dead->next;
            free(dead);
            return 1;
        }
    }
    return 0;
}

static __attribute__((noinline)) uint64_t phase_hash(void)
{
    struct ht_node **tab = calloc(HT_BUCKETS, sizeof *tab);
    uint64_t *keys = xmalloc(sizeof(uint64_t) * HT_KEYS);
    uint64_t h = 0;

    if (!tab) {
        fprintf(stderr, "workload: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < HT_KEYS; i++) {
        keys[i] = rng_next() % (HT_KEYS * 4);
        ht_insert(tab, keys[i]);
    }
    /* Lookups: half present, half (mostly) absent. */
    for (int i = 0; i < 2 * HT_KEYS; i++) {
        uint64_t k = (i & 1) ? keys[(i * 7) % HT_KEYS] : rng_next() % (HT_KEYS * 8);
        const struct ht_node *n = ht_find(tab, k);
        if (n)
            h += n->val[n->len - 1] + n->len;
    }
    /* Delete every other key, then re-insert new ones (malloc/free churn). */
    for (int i = 0; i < HT_KEYS; i += 2)
        h += (uint64_t)ht_delete(tab, keys[i]);
    for (int i = 0; i < HT_KEYS / 2; i++)
        ht_insert(tab, rng_next() % (HT_KEYS * 4));
    /* Tear down. */
    for (int b = 0; b < HT_BUCKETS; b++) {
        struct ht_node *n = tab[b];
        while (n) {
            struct ht_node *next = n->next;
            h = h * 31 + n->key;
            free(n);
            n = next;
        }
    }
    free(keys);
    free(tab);
    return h;
}

/* ------------------------------------------------------- 4. pointer chase */

#ifndef LL_NODES
#define LL_NODES 8192
#endif
#ifndef LL_LAPS
#define LL_LAPS  12
#endif

struct ll_node {
    struct ll_node *next;
    uint64_t payload;
    uint64_t pad[2]; /* 32-byte nodes, allocated one by one */
};

static __attribute__((noinline)) uint64_t ll_walk(const struct ll_node *head)
{
    uint64_t s = 0;
    for (const struct ll_node *n = head; n; n = n->next)
        s = s * 3 + n->payload;
    return s;
}

static __attribute__((noinline)) uint64_t phase_chase(void)
{
    struct ll_node **nodes = xmalloc(sizeof *nodes * LL_NODES);
    for (int i = 0; i < LL_NODES; i++) {
        nodes[i] = xmalloc(sizeof **nodes);
        nodes[i]->payload = rng_next() & 0xffff;
        nodes[i]->pad[0] = nodes[i]->pad[1] = 0;
    }
    /* Fisher-Yates shuffle of the link order: the walk jumps around. */
    for (int i = LL_NODES - 1; i > 0; i--) {
        int j = (int)(rng_next() % (uint64_t)(i + 1));
        struct ll_node *t = nodes[i];
        nodes[i] = nodes[j];
        nodes[j] = t;
    }
    for (int i = 0; i < LL_NODES - 1; i++)
        nodes[i]->next = nodes[i + 1];
    nodes[LL_NODES - 1]->next = NULL;

    uint64_t h = 0;
    for (int lap = 0; lap < LL_LAPS; lap++)
        h = h * 31 + ll_walk(nodes[0]) + (uint64_t)lap;
    for (int i = 0; i < LL_NODES; i++)
        free(nodes[i]);
    free(nodes);
    return h;
}

/* ------------------------------------------------------- 5. recursive tree */

#ifndef BT_KEYS
#define BT_KEYS 6000
#endif

struct bt_node {
    struct bt_node *left, *right;
    uint64_t key;
    uint64_t count;
};

static struct bt_node *bt_insert(struct bt_node *t, uint64_t key)
{
    if (!t) {
        t = xmalloc(sizeof *t);
        t->left = t->right = NULL;
        t->key = key;
        t->count = 1;
    } else if (key < t->key) {
        t->left = bt_insert(t->left, key);
    } else if (key > t->key) {
        t->right = bt_insert(t->right, key);
    } else {
        t->count++;
    }
    return t;
}

static uint64_t bt_sum(const struct bt_node *t, unsigned depth)
{
    if (!t)
        return depth;
    return bt_sum(t->left, depth + 1) * 7 + t->key * t->count +
           bt_sum(t->right, depth + 1);
}

static void bt_free(struct bt_node *t)
{
    if (!t)
        return;
    bt_free(t->left);
    bt_free(t->right);
    free(t);
}

static __attribute__((noinline)) uint64_t phase_tree(void)
{
    struct bt_node *root = NULL;
    for (int i = 0; i < BT_KEYS; i++)
        root = bt_insert(root, rng_next() % (BT_KEYS * 2));
    uint64_t h = bt_sum(root, 0);
    bt_free(root);
    return h;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    long rounds = DEFAULT_ROUNDS;
    if (argc > 1) {
        char *end;
        rounds = strtol(argv[1], &end, 10);
        if (*end || rounds < 1 || rounds > 1000000) {
            fprintf(stderr, "usage: %s [ROUNDS]   (ROUNDS >= 1, default %d)\n",
                    argv[0], DEFAULT_ROUNDS);
            return 2;
        }
    }

    uint64_t sum[5] = {0, 0, 0, 0, 0}, v;
    for (long r = 0; r < rounds; r++) {
        rng_seed((uint64_t)r);
        EVENT("matmul", phase_matmul());
        sum[0] ^= v + (uint64_t)r;
        EVENT("stencil", phase_stencil());
        sum[1] ^= v + (uint64_t)r;
        EVENT("hash", phase_hash());
        sum[2] ^= v + (uint64_t)r;
        EVENT("chase", phase_chase());
        sum[3] ^= v + (uint64_t)r;
        EVENT("tree", phase_tree());
        sum[4] ^= v + (uint64_t)r;
    }
    uint64_t total = 0;
    for (int i = 0; i < 5; i++)
        total = total * 1000003 + sum[i];
    printf("rounds %ld matmul %016llx stencil %016llx hash %016llx "
           "chase %016llx tree %016llx checksum %016llx\n",
           rounds, (unsigned long long)sum[0], (unsigned long long)sum[1],
           (unsigned long long)sum[2], (unsigned long long)sum[3],
           (unsigned long long)sum[4], (unsigned long long)total);
    return 0;
}
