// Password hashes: Argon2id, counted so tests can prove a refused sign-in computed none.
import { hash, verify } from '@node-rs/argon2';

// algorithm 2 is Argon2id (a const enum the package does not export as a value).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
/** Argon2 computations so far: tests prove a blocked sign-in computes none. */
export const passwordHashes = { computed: 0 };
export const hashPassword = (password: string) => {
  passwordHashes.computed += 1;
  return hash(password, ARGON2);
};
export const verifyPassword = (stored: string, password: string) => {
  passwordHashes.computed += 1;
  return verify(stored, password).catch(() => false);
};
