import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * Password hashes: scrypt with N = 2^cost, r = 8, p = 1, stored as `scrypt$N$r$p$salt$hash`
 * (base64url parts), so each hash says how it was made and older, cheaper ones are still
 * verified, then upgraded at the next successful sign-in (needsRehash).
 *
 * The default cost is 17: N = 131,072, 128 MiB of memory a hash (OWASP's minimum for scrypt).
 * That much memory per hash would let a burst of sign-ins exhaust the server, so at most
 * MAX_CONCURRENT_HASHES run at once; the others wait their turn.
 */
export const DEFAULT_HASH_COST = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
/** Scrypt refuses to use more than maxmem: 128 * N * r bytes plus a little. */
const memoryFor = (n: number) => 128 * n * R + 16 * 1024 * 1024;
/** Hashes running at once: each holds 128 MiB at the default cost. */
export const MAX_CONCURRENT_HASHES = 2;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than MAX_CONCURRENT_HASHES hashes are running. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** Hashes a password with N = 2^cost. */
export async function hashPassword(password: string, cost: number = DEFAULT_HASH_COST): Promise<string> {
  const n = 2 ** cost;
  const salt = crypto.randomBytes(16);
  const hash = await inTurn(() =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: memoryFor(n) }),
  );
  return ['scrypt', n, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Parses a stored hash; null when it is not one of ours or its parameters are out of range. */
function parse(stored: string): { n: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return null;
  const params = { n: Number(n), r: Number(r), p: Number(p) };
  // Refuse parameters nobody would store, so a tampered row cannot make verification eat the machine.
  if (!Number.isInteger(Math.log2(params.n)) || params.n < 2 ** 10 || params.n > 2 ** 20) return null;
  if (params.r < 1 || params.r > 16 || params.p < 1 || params.p > 4) return null;
  return { ...params, salt: Buffer.from(saltText, 'base64url'), hash: Buffer.from(hashText, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.hash.length === 0) return false;
  const { n, r, p, salt, hash } = parsed;
  const actual = await inTurn(() =>
    scrypt(password.normalize('NFKC'), salt, hash.length, { N: n, r, p, maxmem: 128 * n * r + 16 * 1024 * 1024 }),
  );
  return crypto.timingSafeEqual(actual, hash);
}

/** True when a stored hash was made cheaper than `cost` (or is not ours): hash the password again. */
export function needsRehash(stored: string, cost: number = DEFAULT_HASH_COST): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n < 2 ** cost || parsed.r < R;
}

/** A hash to verify against when the account does not exist, so timing does not reveal it (one per cost). */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(cost: number = DEFAULT_HASH_COST): Promise<string> {
  let known = dummyHashes.get(cost);
  if (!known) {
    known = hashPassword(crypto.randomBytes(16).toString('hex'), cost);
    dummyHashes.set(cost, known);
  }
  return known;
}
