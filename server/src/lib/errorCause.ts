/**
 * Walking an error's `cause` chain: fetch wraps a network failure ("fetch failed" with the socket's
 * error as its cause), undici wraps a proxy's refusal twice, drivers wrap the server's error. One
 * walk for every reader, bounded (a chain is never followed further than `maxDepth` links) and safe
 * against a chain that loops back on itself.
 */

/** How many errors of a chain are looked at unless the caller says otherwise: the error and three causes. */
export const DEFAULT_CAUSE_DEPTH = 4;

/**
 * `error`, then its cause, its cause's cause, ...: at most `maxDepth` of them, ending at the first
 * missing (null or undefined) cause and before one already seen.
 */
export function* causes(error: unknown, maxDepth = DEFAULT_CAUSE_DEPTH): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let current = error, depth = 0; current !== null && current !== undefined && depth < maxDepth; depth += 1) {
    if (seen.has(current)) return;
    seen.add(current);
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The first of `causes(error, maxDepth)` that `predicate` accepts, or undefined. */
export function findCause<T>(error: unknown, predicate: (cause: unknown) => cause is T, maxDepth?: number): T | undefined;
export function findCause(error: unknown, predicate: (cause: unknown) => boolean, maxDepth?: number): unknown;
export function findCause(error: unknown, predicate: (cause: unknown) => boolean, maxDepth = DEFAULT_CAUSE_DEPTH): unknown {
  for (const cause of causes(error, maxDepth)) if (predicate(cause)) return cause;
  return undefined;
}
