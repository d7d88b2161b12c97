/**
 * A small seeded pseudo-random generator for simulations, tests and the change-point evaluation.
 * Why seeded: a statistical test that fails once in a while is worse than none; every simulation
 * here must give the same numbers on every machine.
 *
 * Uniforms: mulberry32 (Tommy Ettinger, public domain; a 32-bit generator with full period 2^32,
 * good enough for Monte-Carlo checks, not for cryptography).
 * Gaussians: the Box–Muller transform (Box & Muller 1958, "A Note on the Generation of Random
 * Normal Deviates", Ann. Math. Statist. 29(2)).
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Normal with the given mean and standard deviation. */
  gaussian(mean?: number, sd?: number): number;
  /** Uniform integer in [0, maxExclusive). */
  integer(maxExclusive: number): number;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  let spareGaussian: number | null = null;

  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const standardGaussian = (): number => {
    if (spareGaussian !== null) {
      const value = spareGaussian;
      spareGaussian = null;
      return value;
    }
    // 1 - uniform() is in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
    const angle = 2 * Math.PI * uniform();
    spareGaussian = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };

  return {
    uniform,
    gaussian: (mean = 0, sd = 1) => mean + sd * standardGaussian(),
    integer: (maxExclusive) => Math.floor(uniform() * maxExclusive),
  };
}

/** `count` independent normal values with mean `mean` and coefficient of variation `cv` (sd = cv × mean). */
export function generateNormalSample(random: SeededRandom, count: number, mean: number, cv: number): number[] {
  return Array.from({ length: count }, () => random.gaussian(mean, cv * mean));
}
