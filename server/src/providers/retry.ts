import { fetch, Headers, Response, type Dispatcher, type RequestInit } from 'undici';
import { isBlockedAddressError } from '../lib/egress';
import { causes } from '../lib/errorCause';
import {
  MAX_ERROR_TEXT_BYTES,
  cappedResponse,
  discardBody,
  exchangeDeadline,
  isQuotaText,
  networkCode,
  readPrefix,
  sendFollowingRedirects,
} from './httpBodies';
import { ProviderError } from './providerError';
import { sharedProxyDispatcher, socksProxyErrorOf, type SocksFailure } from './proxies';

/**
 * Requests of the outbound media clients that make their own (speech, images, ElevenLabs; the
 * OpenAI one leaves that to the official `openai` package): a time-out per attempt, retries with
 * exponential backoff or the wait the server asks for, and how a request that got no answer at all
 * (a network failure, a proxy's refusal, an address users may not reach) maps to ProviderError.
 * How answers are read (size caps, deadlines, redirects, error bodies) is httpBodies.ts.
 */

/** Per attempt, including reading the answer: generous, since images and long narration are slow. */
export const DEFAULT_MEDIA_TIMEOUT_MS = 180_000;
export const DEFAULT_MEDIA_MAX_RETRIES = 2;
export const DEFAULT_BACKOFF_BASE_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** The longest `retry-after` honoured; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

export type OutboundInit = RequestInit & { dispatcher?: Dispatcher };

export interface FetchRetryOptions {
  /** Limit of each attempt, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Retries after the first attempt (0: one attempt only). */
  maxRetries: number;
  /** Used when `init.dispatcher` is absent: an http://, https:// or socks5:// proxy (see proxyDispatcher). */
  proxyUrl?: string;
  /** The caller's cancellation: aborts at once, is never retried, and rejects with its reason. */
  signal?: AbortSignal;
  /** Which answers to retry; default `defaultRetryOn` (429 and 5xx). */
  retryOn?: (status: number) => boolean;
  /** Base of the exponential backoff; default 500 ms (tests make it small). */
  backoffBaseMs?: number;
  /** Cap of a `retry-after` / `retry-after-ms` wait; default 60 s. */
  maxRetryAfterMs?: number;
}

/** 429 (rate limit) and 5xx answers are worth another attempt. */
export function defaultRetryOn(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The wait a `retry-after-ms` or `retry-after` (seconds or HTTP date) header asks for, if any. */
export function retryAfterMs(headers: Headers | { get(name: string): string | null }): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter: retry n (0-based) waits between half and all of min(cap, base·2ⁿ). */
export function backoffMs(retry: number, baseMs = DEFAULT_BACKOFF_BASE_MS): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The proxy's refusal of a tunnel (407 credentials, 403, 502, ...), if that is what failed. */
function proxyRefusal(error: unknown): number | undefined {
  for (const cause of causes(error)) {
    const message = cause instanceof Error ? cause.message : '';
    const match = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
    if (match) return Number(match[1] ?? match[2]);
  }
  return undefined;
}

/** SOCKS5 failures that the next attempt would meet again: only a lost or slow connection is worth retrying. */
function isFinalSocksFailure(failure: SocksFailure): boolean {
  return failure.step !== 'connect' && failure.step !== 'closed' && failure.step !== 'timeout';
}

/** The failure of an attempt that got no answer within `timeoutMs`. */
export function timeoutFailure(timeoutMs: number): ProviderError {
  return new ProviderError(`could not reach the server (no answer within ${timeoutMs} ms)`, 'unreachable');
}

/**
 * What a failed `fetch` (undici's, which rejects with TypeError 'fetch failed' and the cause) means
 * for a media client: `blocked` for an address a user may not reach (lib/egress), else `unreachable`
 * with the proxy's refusal, the SOCKS5 failure or the network's error code (never a free text, which
 * could quote the proxy's credentials). `final` when another attempt would meet the same answer (a
 * blocked address, a proxy refusing the credentials or the target, a server that is not SOCKS5).
 * Undefined for anything else (a malformed request: a bug, not a network failure).
 */
export function connectionFailure(error: unknown): { error: ProviderError; final: boolean } | undefined {
  if (isBlockedAddressError(error)) {
    // A user's URL that leads to a private address: the same answer every time.
    return { error: new ProviderError('this address is not allowed', 'blocked'), final: true };
  }
  if (!(error instanceof TypeError && error.message === 'fetch failed')) return undefined;
  const refused = proxyRefusal(error);
  if (refused !== undefined) {
    // The proxy said no (bad credentials, forbidden target): the same answer next time.
    return { error: new ProviderError(`could not reach the server (the proxy answered ${refused})`, 'unreachable'), final: true };
  }
  const socks = socksProxyErrorOf(error);
  if (socks && isFinalSocksFailure(socks.failure)) {
    // Likewise for a SOCKS5 proxy: refused credentials, a refused target, not a SOCKS5 server.
    return { error: new ProviderError(`could not reach the server (${socks.message})`, 'unreachable'), final: true };
  }
  const code = networkCode(error);
  return { error: new ProviderError(`could not reach the server${code ? ` (${code})` : ''}`, 'unreachable'), final: false };
}

/**
 * `fetch` with a time-out per attempt and retries. Connection failures, time-outs and answers
 * `retryOn` accepts (429, 5xx) are tried again up to `maxRetries` times, after exponential backoff
 * with jitter (base 500 ms, cap 8 s) or the wait the answer's `retry-after-ms` / `retry-after` asks
 * for (capped). A 429 that reports an exhausted quota is not retried.
 *
 * Answers: the first non-retryable answer, or the last answer once retries run out, as they are;
 * map failures with `providerErrorFromResponse`. Throws ProviderError `unreachable` when no answer
 * came at all, and the caller's abort reason when `signal` aborts. The time-out keeps running while
 * the body is read, so read it with `readResponseBytes` (with a cap). Redirects are followed by
 * hand, at most 5, each through the same dispatcher (httpBodies' sendFollowingRedirects). Of a
 * retried answer only its first few KiB are read (to see whether a 429 is an empty quota).
 *
 * Bodies are sent again on retries: give a string or a Buffer, not a stream.
 */
export async function fetchWithRetry(url: string, init: OutboundInit, opts: FetchRetryOptions): Promise<Response> {
  const retryOn = opts.retryOn ?? defaultRetryOn;
  const baseMs = opts.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const maxRetryAfter = opts.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const maxRetries = Math.max(0, Math.floor(opts.maxRetries));
  const dispatcher = init.dispatcher ?? sharedProxyDispatcher(opts.proxyUrl);
  const callerSignals = [opts.signal, init.signal ?? undefined].filter((s): s is AbortSignal => s !== undefined);
  const callerSignal = callerSignals.length > 1 ? AbortSignal.any(callerSignals) : callerSignals[0];
  const send = (target: string, request: RequestInit) => fetch(target, request);

  for (let attempt = 0; ; attempt += 1) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    // Runs on while the caller reads the body (its timer keeps it alive: httpBodies).
    const timeout = exchangeDeadline(opts.timeoutMs, callerSignal);
    const { signal } = timeout;
    const retriesLeft = attempt < maxRetries;
    let wait: number;
    try {
      const response = await sendFollowingRedirects(send, url, { ...init, signal, ...(dispatcher ? { dispatcher } : {}) });
      // The deadline is over once the caller has read (or dropped) the body.
      if (!retriesLeft || !retryOn(response.status))
        return cappedResponse(response, Number.POSITIVE_INFINITY, callerSignal, timeout.clear);
      if (response.status === 429) {
        const text = (await readPrefix(response, MAX_ERROR_TEXT_BYTES)).toString('utf8');
        if (isQuotaText(text)) {
          timeout.clear();
          return answerWithText(response, text);
        }
      }
      const asked = retryAfterMs(response.headers);
      wait = asked === undefined ? backoffMs(attempt, baseMs) : Math.min(asked, maxRetryAfter);
      await discardBody(response);
      timeout.clear();
    } catch (error) {
      timeout.clear();
      if (callerSignal?.aborted) throw callerSignal.reason;
      let failure: ProviderError;
      if (signal.aborted) {
        failure = timeoutFailure(opts.timeoutMs);
      } else {
        const network = connectionFailure(error);
        // Not a network failure (a malformed URL or request, too many redirects): not worth retrying.
        if (!network) throw error;
        if (network.final) throw network.error;
        failure = network.error;
      }
      if (!retriesLeft) throw failure;
      wait = backoffMs(attempt, baseMs);
    }
    await sleep(wait, callerSignal);
  }
}

/** `response` again, with the text already read of it as its body. */
function answerWithText(response: Response, text: string): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
