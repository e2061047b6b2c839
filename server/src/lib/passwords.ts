import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { type Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * Password hashes: Argon2id (RFC 9106, OWASP's first choice), stored in the PHC format
 * `$argon2id$v=19$m=<KiB>,t=<passes>,p=1$salt$hash`, so each hash says how it was made.
 *
 * The cost is the memory a hash fills, as a power of two in KiB: the default 17 is 128 MiB, filled
 * 3 times (t = 3), about 150 ms of one core. OWASP's minimum for Argon2id is 19 MiB and 2 passes.
 * The same number meant the same memory for the scrypt hashes this replaces (N = 2^cost, r = 8:
 * 2^cost KiB), which are still verified, then made again as Argon2id at the next successful
 * sign-in (needsRehash), as is any hash made with less memory or fewer passes than today's.
 *
 * A burst of sign-ins must not exhaust the server's memory, so at most MAX_CONCURRENT_HASHES run
 * at once; the others wait their turn, at most `maxWaiting` of them (MAX_WAITING_HASHES unless the
 * caller says otherwise: PASSWORD_HASH_QUEUE). Past that a hash is refused at once with
 * HashQueueFull, which says how long the queue needs to drain: waiting longer would only stall
 * every sign-in behind a flood.
 */
export const DEFAULT_HASH_COST = 17;
/** Passes over the memory (Argon2's t). */
const PASSES = 3;
/** Algorithm.Argon2id: a const enum, which isolated modules cannot read at run time. */
const ARGON2ID = 2 as Algorithm.Argon2id;
const LANES = 1;
const HASH_LENGTH = 32;
/** Hashes running at once: each holds 128 MiB at the default cost. */
export const MAX_CONCURRENT_HASHES = 2;
/** Hashes that may wait for a turn before more are refused (PASSWORD_HASH_QUEUE's default). */
export const MAX_WAITING_HASHES = 32;

/** The hash queue is full: answer "busy, try again in `retryAfterSeconds`" (503 with Retry-After). */
export class HashQueueFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('password hash queue full');
    this.name = 'HashQueueFull';
  }
}

export interface HashOptions {
  /** Hashes allowed to wait for a turn before this one is refused (MAX_WAITING_HASHES). */
  maxWaiting?: number;
}

let running = 0;
const waiting: Array<() => void> = [];
/** How long a hash takes here, as a moving average (for Retry-After). */
let averageMs = 150;

/**
 * Runs `work` as one of the hashes: now when fewer than MAX_CONCURRENT_HASHES run, else after the
 * ones waiting before it; refused (HashQueueFull) when `maxWaiting` already wait. A finished hash
 * hands its turn straight to the next in line, so a newcomer can never slip in between.
 */
export async function inHashTurn<T>(work: () => Promise<T>, { maxWaiting = MAX_WAITING_HASHES }: HashOptions = {}): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) {
    if (waiting.length >= maxWaiting) {
      const drainMs = ((waiting.length + running) / MAX_CONCURRENT_HASHES) * averageMs;
      throw new HashQueueFull(Math.max(1, Math.ceil(drainMs / 1000)));
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  const started = performance.now();
  try {
    return await work();
  } finally {
    averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

const normalized = (password: string) => password.normalize('NFKC');

/** Hashes a password with Argon2id over 2^cost KiB. */
export async function hashPassword(
  password: string,
  cost: number = DEFAULT_HASH_COST,
  options: HashOptions = {},
): Promise<string> {
  return inHashTurn(
    () =>
      argon2Hash(normalized(password), {
        algorithm: ARGON2ID,
        memoryCost: 2 ** cost,
        timeCost: PASSES,
        parallelism: LANES,
        outputLen: HASH_LENGTH,
        salt: crypto.randomBytes(16),
      }),
    options,
  );
}

type Parsed =
  | { scheme: 'argon2id'; memory: number; passes: number; lanes: number }
  | { scheme: 'scrypt'; n: number; r: number; p: number; salt: Buffer; hash: Buffer };

const ARGON2ID_PHC = /^\$argon2id\$v=19\$m=(\d{1,8}),t=(\d{1,3}),p=(\d{1,2})\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{22,128}$/;

/**
 * Parses a stored hash; null when it is not one of ours or its parameters are out of range, so a
 * tampered row cannot make verification eat the machine (at most 1 GiB, 10 passes, 4 lanes).
 */
function parse(stored: string): Parsed | null {
  const argon = ARGON2ID_PHC.exec(stored);
  if (argon) {
    const [memory, passes, lanes] = [Number(argon[1]), Number(argon[2]), Number(argon[3])];
    if (memory < 1024 || memory > 2 ** 20 || passes < 1 || passes > 10 || lanes < 1 || lanes > 4) return null;
    return { scheme: 'argon2id', memory, passes, lanes };
  }
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return null;
  const params = { n: Number(n), r: Number(r), p: Number(p) };
  if (!Number.isInteger(Math.log2(params.n)) || params.n < 2 ** 10 || params.n > 2 ** 20) return null;
  if (params.r < 1 || params.r > 16 || params.p < 1 || params.p > 4) return null;
  const hash = Buffer.from(hashText, 'base64url');
  if (hash.length === 0) return null;
  return { scheme: 'scrypt', ...params, salt: Buffer.from(saltText, 'base64url'), hash };
}

export async function verifyPassword(password: string, stored: string, options: HashOptions = {}): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  if (parsed.scheme === 'argon2id') return inHashTurn(() => argon2Verify(stored, normalized(password)), options);
  const { n, r, p, salt, hash } = parsed;
  const actual = await inHashTurn(
    () => scrypt(normalized(password), salt, hash.length, { N: n, r, p, maxmem: 128 * n * r + 16 * 1024 * 1024 }),
    options,
  );
  return crypto.timingSafeEqual(actual, hash);
}

/** True when a stored hash is not Argon2id, or was made with less memory or fewer passes than today's: hash again. */
export function needsRehash(stored: string, cost: number = DEFAULT_HASH_COST): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.scheme !== 'argon2id' || parsed.memory < 2 ** cost || parsed.passes < PASSES;
}

/** A hash to verify against when the account does not exist, so timing does not reveal it (one per cost). */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(cost: number = DEFAULT_HASH_COST): Promise<string> {
  let known = dummyHashes.get(cost);
  if (!known) {
    known = hashPassword(crypto.randomBytes(16).toString('hex'), cost);
    dummyHashes.set(cost, known);
    // A refusal (the queue was full) is not kept: the next caller makes it.
    known.catch(() => dummyHashes.delete(cost));
  }
  return known;
}
