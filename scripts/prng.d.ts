/** Types of prng.js, for the tests that make deterministic data with it. */
export declare function mulberry32(seed: number): () => number;
