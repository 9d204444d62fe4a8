// A small seeded PRNG (mulberry32) so fault injection, jitter and generated
// ids are reproducible from `randomSeed`. Not for anything secret.
export type Rng = () => number;

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(rng: Rng, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += BASE62[Math.floor(rng() * 62)];
  return s;
}

export function randomSeedFromTime(): number {
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}
