// A small seeded pseudo-random generator (mulberry32), for what must come out the same on every run
// with the same seed: the benchmark's generated pages, the mixes of roads an end-to-end test tries.

/// A function giving numbers in [0, 1) from `seed`, the same sequence for the same seed.
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
