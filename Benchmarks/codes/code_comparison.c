// Block success of candidate payload codes for the QixKit watermark on a Gaussian tile channel
// (docs/watermark.md, section 7): 56 payload bits (32 ID + 24 check bits, a random function of the
// ID standing in for the keyed HMAC check) carried by the 432 data tiles of a frame, each tile
// rho * chip + N(0, 1). A block counts as decoded when the first list entry that passes the check
// is the payload sent.
//   - format 1's code: convolutional, rate 1/3, K = 9 (557, 663, 711 octal), zero tail, 192 coded
//     bits, tile t carrying coded bit t mod 192; most likely path (L1) and the CRC-aided parallel
//     list Viterbi decoder with the L best paths per state (L4, L32, L64);
//   - a polar code, N = 512 punctured to the 432 tiles (quasi-uniform puncturing: the bit-reversed
//     first 80 positions), frozen set by Bhattacharyya parameters at design z (argument 2, default
//     0.93 as format 2 uses; 0.88 is rho = 0.5) with punctured positions at z = 1; successive
//     cancellation (SC) and CRC-aided list decoding (SCL8, SCL32, SCL64), min-sum.
// Build and run: cc -O2 -o /tmp/code_comparison Benchmarks/codes/code_comparison.c -lm
//                /tmp/code_comparison 300          (300 blocks per point; about 5 minutes)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>

static uint64_t rs = 88172645463325252ULL;
static inline uint64_t xr(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static inline double ur(void) { return (xr() >> 11) * (1.0 / 9007199254740992.0); }
static double gauss(void) { double u = ur(), v = ur(); if (u < 1e-300) u = 1e-300; return sqrt(-2 * log(u)) * cos(2 * M_PI * v); }

#define KBITS 56
#define TILES 432
#define STEPS (KBITS + 8)
#define LVA_MAX 64
static const int G[3] = {0557, 0663, 0711};
static int parity(int x) { return __builtin_popcount(x) & 1; }
static void conv_encode(const uint8_t *in, uint8_t *out) {
  int state = 0, n = 0;
  for (int i = 0; i < STEPS; i++) {
    int bit = i < KBITS ? in[i] : 0;
    int reg = (bit << 8) | state;
    for (int g = 0; g < 3; g++) out[n++] = parity(reg & G[g]);
    state = reg >> 1;
  }
}
static uint32_t hash32(uint32_t x) { x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16; return x; }
static int check_ok(const uint8_t *b) {
  uint32_t id = 0;
  for (int i = 0; i < 32; i++) id = id << 1 | b[i];
  uint32_t h = hash32(id) & 0xFFFFFF;
  for (int i = 0; i < 24; i++)
    if (b[32 + i] != ((h >> (23 - i)) & 1)) return 0;
  return 1;
}
static void make_payload(uint8_t *b) {
  uint32_t id = (uint32_t)xr();
  for (int i = 0; i < 32; i++) b[i] = (id >> (31 - i)) & 1;
  uint32_t h = hash32(id) & 0xFFFFFF;
  for (int i = 0; i < 24; i++) b[32 + i] = (h >> (23 - i)) & 1;
}
// The first candidate passing the check: 1 if it is the payload, 0 otherwise (none, or a wrong one).
static int first_checked(uint8_t cand[][KBITS], int n, int L, const uint8_t *info) {
  for (int i = 0; i < n && i < L; i++) if (check_ok(cand[i])) return !memcmp(cand[i], info, KBITS);
  return 0;
}

// ---------------- convolutional code: parallel list Viterbi
// metrics[t][state][rank], back pointers (prevState, prevRank)
static float M[STEPS + 1][256][LVA_MAX]; static uint16_t BS[STEPS + 1][256][LVA_MAX]; static uint8_t BR[STEPS + 1][256][LVA_MAX]; static int CNT[STEPS + 1][256];
static int lva(const float *soft, int L, uint8_t out[][KBITS]) {
  memset(CNT, 0, sizeof CNT); CNT[0][0] = 1; M[0][0][0] = 0;
  for (int t = 0; t < STEPS; t++) {
    for (int ns = 0; ns < 256; ns++) {
      int bit = ns >> 7; if (t >= KBITS && bit) { CNT[t + 1][ns] = 0; continue; }
      // predecessors p = ((ns << 1) & 255) | c, c = 0/1; reg = bit<<8 | p
      float cm[2 * LVA_MAX]; int cs[2 * LVA_MAX], cr[2 * LVA_MAX], n = 0;
      for (int c = 0; c < 2; c++) { int p = ((ns << 1) & 255) | c; int reg = (bit << 8) | p; float bm = 0;
        for (int g = 0; g < 3; g++) bm += parity(reg & G[g]) ? soft[3 * t + g] : -soft[3 * t + g];
        for (int r = 0; r < CNT[t][p]; r++) { cm[n] = M[t][p][r] + bm; cs[n] = p; cr[n] = r; n++; } }
      // pick top L (partial selection sort)
      int keep = n < L ? n : L;
      for (int i = 0; i < keep; i++) { int b = i; for (int j = i + 1; j < n; j++) if (cm[j] > cm[b]) b = j;
        float tm = cm[i]; cm[i] = cm[b]; cm[b] = tm; int ts = cs[i]; cs[i] = cs[b]; cs[b] = ts; int tr = cr[i]; cr[i] = cr[b]; cr[b] = tr;
        M[t + 1][ns][i] = cm[i]; BS[t + 1][ns][i] = cs[i]; BR[t + 1][ns][i] = cr[i]; }
      CNT[t + 1][ns] = keep;
    }
  }
  int n = CNT[STEPS][0];
  for (int k = 0; k < n; k++) { int s = 0, r = k;
    for (int t = STEPS; t > 0; t--) { int bit = (s >> 7) & 1; if (t - 1 < KBITS) out[k][t - 1] = bit; int ps = BS[t][s][r], pr = BR[t][s][r]; s = ps; r = pr; } }
  return n;
}

// ---------------- polar
#define N 512
#define LOGN 9
static int frozen[N]; static int punct[N]; static int infoPos[KBITS];
static int bitrev(int x) { int r = 0; for (int i = 0; i < LOGN; i++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
static void polar_construct(double designZ) {
  // Bhattacharyya with punctured channels z=1 (QUP: punctured = bitrev(0..P-1)).
  double z[N]; int P = N - TILES;
  memset(punct, 0, sizeof punct);
  for (int i = 0; i < P; i++) punct[bitrev(i)] = 1;
  for (int i = 0; i < N; i++) z[i] = punct[i] ? 1.0 : designZ;
  // recursion: channel index u; transform x = u G_N (natural order, G = F^{kron n}).
  // Standard: at each stage with span h, pairs (j, j+h): z_minus = z_a + z_b - z_a z_b (upper), z_plus = z_a z_b (lower)
  for (int h = N / 2; h >= 1; h >>= 1)
    for (int i = 0; i < N; i += 2 * h)
      for (int j = i; j < i + h; j++) { double a = z[j], b = z[j + h]; z[j] = a + b - a * b; z[j + h] = a * b; }
  // choose KBITS smallest z
  int idx[N]; for (int i = 0; i < N; i++) idx[i] = i;
  for (int i = 0; i < N; i++) for (int j = i + 1; j < N; j++) if (z[idx[j]] < z[idx[i]]) { int t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
  for (int i = 0; i < N; i++) frozen[i] = 1;
  for (int k = 0; k < KBITS; k++) frozen[idx[k]] = 0;
  int k = 0; for (int i = 0; i < N; i++) if (!frozen[i]) infoPos[k++] = i;
}
static void polar_transform(uint8_t *x) { // in place x = u F^{kron n}
  for (int h = 1; h < N; h <<= 1) for (int i = 0; i < N; i += 2 * h) for (int j = i; j < i + h; j++) x[j] ^= x[j + h];
}
static void polar_encode(const uint8_t *in, uint8_t *x) {
  memset(x, 0, N); for (int k = 0; k < KBITS; k++) x[infoPos[k]] = in[k]; polar_transform(x);
}
// SCL decoder (recursive-free, LLR-based, straightforward: each path keeps full LLR tree and partial sums).
#define LMAX 64
typedef struct { float llr[LOGN + 1][N]; uint8_t bits[LOGN + 1][N]; uint8_t u[N]; double pm; int alive; } Path;
static Path paths[LMAX], tmpP[LMAX];
static inline float fop(float a, float b) { float s = (a < 0) ^ (b < 0) ? -1 : 1; return s * fminf(fabsf(a), fabsf(b)); }
// Layout: level s has blocks of size 2^s; llr[s][...] indexed by position within whole array (N entries per level).
// We compute with the standard recursive definition using natural-order F^{kron n}:
// x = u F: for stage h: x[j] = a ^ b, x[j+h] = b (pairs). Decoding goes from level LOGN (channel) down to level 0 (bits).
static void calc_llr(Path *p, int phase) {
  // recompute LLRs needed for bit 'phase' (naive: recompute along the path from the top level where phase's block changes)
  // Use the classic SC formulation: llr[level][i] for the node of size 2^level containing phase.
  for (int level = LOGN - 1; level >= 0; level--) {
    int size = 1 << level;          // child size
    int blockStart = phase & ~(2 * size - 1); // parent block start (size 2*size)
    int childIsRight = (phase & size) != 0;
    // only recompute when entering a new child: when phase is at the child's start
    if ((phase & (size - 1)) != 0) continue;
    for (int j = 0; j < size; j++) {
      float a = p->llr[level + 1][blockStart + j], b = p->llr[level + 1][blockStart + j + size];
      if (!childIsRight) p->llr[level][blockStart + j] = fop(a, b);
      else { uint8_t ul = p->bits[level][blockStart + j]; p->llr[level][blockStart + size + j] = (ul ? -a : a) + b; }
    }
  }
}
static void update_bits(Path *p, int phase) {
  // after deciding u[phase], propagate partial sums upward when a right child completes
  p->bits[0][phase] = p->u[phase];
  for (int level = 0; level < LOGN; level++) {
    int size = 1 << level;
    if (!(phase & size)) break; // left child: nothing to combine yet
    if (((phase + 1) & (size - 1)) != 0) break;
    int blockStart = phase & ~(2 * size - 1);
    for (int j = 0; j < size; j++) {
      uint8_t l = p->bits[level][blockStart + j], r = p->bits[level][blockStart + size + j];
      p->bits[level + 1][blockStart + j] = l ^ r; p->bits[level + 1][blockStart + size + j] = r;
    }
  }
}
// returns number of candidates; cand[i] are info bits sorted by metric
static int scl_decode(const float *chan, int L, uint8_t cand[][KBITS]) {
  for (int l = 0; l < L; l++) paths[l].alive = 0;
  memcpy(paths[0].llr[LOGN], chan, sizeof(float) * N); paths[0].pm = 0; paths[0].alive = 1;
  for (int phase = 0; phase < N; phase++) {
    for (int l = 0; l < L; l++) if (paths[l].alive) calc_llr(&paths[l], phase);
    if (frozen[phase]) {
      for (int l = 0; l < L; l++) if (paths[l].alive) { float x = paths[l].llr[0][phase]; if (x < 0) paths[l].pm += fabsf(x); paths[l].u[phase] = 0; update_bits(&paths[l], phase); }
      continue;
    }
    // fork
    double m[2 * LMAX]; int src[2 * LMAX], bit[2 * LMAX], n = 0;
    for (int l = 0; l < L; l++) if (paths[l].alive) { float x = paths[l].llr[0][phase];
      m[n] = paths[l].pm + (x < 0 ? fabsf(x) : 0); src[n] = l; bit[n] = 0; n++;
      m[n] = paths[l].pm + (x >= 0 ? fabsf(x) : 0); src[n] = l; bit[n] = 1; n++; }
    // select best min(L, n)
    int ord[2 * LMAX]; for (int i = 0; i < n; i++) ord[i] = i;
    for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (m[ord[j]] < m[ord[i]]) { int t = ord[i]; ord[i] = ord[j]; ord[j] = t; }
    int keep = n < L ? n : L;
    for (int i = 0; i < keep; i++) { int o = ord[i]; tmpP[i] = paths[src[o]]; tmpP[i].pm = m[o]; tmpP[i].u[phase] = bit[o]; }
    for (int i = 0; i < L; i++) paths[i].alive = 0;
    for (int i = 0; i < keep; i++) { paths[i] = tmpP[i]; paths[i].alive = 1; update_bits(&paths[i], phase); }
  }
  int ord[LMAX], n = 0; for (int l = 0; l < L; l++) if (paths[l].alive) ord[n++] = l;
  for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (paths[ord[j]].pm < paths[ord[i]].pm) { int t = ord[i]; ord[i] = ord[j]; ord[j] = t; }
  for (int i = 0; i < n; i++) for (int k = 0; k < KBITS; k++) cand[i][k] = paths[ord[i]].u[infoPos[k]];
  return n;
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 300;
  // Format 2 is built at design z = 0.93 (docs/watermark.md, section 1); 0.88 is rho = 0.5.
  polar_construct(argc > 2 ? atof(argv[2]) : 0.93);
  printf("rho    conv-L1 conv-L4 conv-L32 conv-L64 polar-SC polar-SCL8 polar-SCL32 polar-SCL64\n");
  for (double rho = 0.35; rho <= 0.651; rho += 0.05) {
    int ok[8] = {0};
    for (int b = 0; b < blocks; b++) {
      uint8_t info[KBITS]; make_payload(info);
      uint8_t cc[192]; conv_encode(info, cc); float soft[192] = {0};
      for (int t = 0; t < TILES; t++) soft[t % 192] += rho * (cc[t % 192] ? 1 : -1) + gauss();
      static uint8_t cand[LVA_MAX][KBITS];
      int n = lva(soft, LVA_MAX, cand);
      ok[0] += first_checked(cand, n, 1, info); ok[1] += first_checked(cand, n, 4, info);
      ok[2] += first_checked(cand, n, 32, info); ok[3] += first_checked(cand, n, 64, info);
      uint8_t x[N]; polar_encode(info, x); float llr[N];
      for (int i = 0; i < N; i++) llr[i] = punct[i] ? 0 : 2 * rho * (rho * (x[i] ? -1 : 1) + gauss());
      static uint8_t pc[LMAX][KBITS];
      n = scl_decode(llr, 1, pc); ok[4] += !memcmp(pc[0], info, KBITS);
      n = scl_decode(llr, 8, pc); ok[5] += first_checked(pc, n, 8, info);
      n = scl_decode(llr, 32, pc); ok[6] += first_checked(pc, n, 32, info);
      n = scl_decode(llr, 64, pc); ok[7] += first_checked(pc, n, 64, info);
    }
    printf("%.2f", rho); for (int i = 0; i < 8; i++) printf("  %6.3f", ok[i] / (double)blocks); printf("\n"); fflush(stdout);
  }
  return 0;
}
