import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fetch, ProxyAgent, type Dispatcher, type RequestInit, type Response } from 'undici';
import { isBlockedAddressError } from '../lib/egress';

/**
 * The plumbing shared by the outbound media clients (OpenAI speech and images, ElevenLabs):
 * requests through an optional proxy with a per-attempt time-out and retries with backoff, the
 * ProviderError every client throws (never carrying the API key), and the small file helpers those
 * clients need (sentence splitting, WAV parsing and joining, atomic writes).
 *
 * Requests use undici's `fetch` (the package, not Node's global), so a `dispatcher` (a ProxyAgent)
 * can be given per request; the types below are undici's too.
 */

/** Why a provider call failed. */
export type ProviderFailure = 'invalid_key' | 'unreachable' | 'quota' | 'api_error' | 'invalid_input' | 'blocked';

/**
 * A failed provider call. `kind` says what to do about it: fix the key or the account
 * (invalid_key), try later or check the network/proxy (unreachable), buy credits (quota), change the
 * input (invalid_input), or anything else the API answered (api_error). The message is short,
 * English, and safe to show and log: it never carries the API key or proxy credentials.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderFailure,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Per attempt, including reading the answer: generous, since images and long narration are slow. */
export const DEFAULT_MEDIA_TIMEOUT_MS = 180_000;
export const DEFAULT_MEDIA_MAX_RETRIES = 2;
export const DEFAULT_BACKOFF_BASE_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** The longest `retry-after` honoured; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_REASON_LENGTH = 300;
/** Error answers are read up to this size; the rest is dropped. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Proxies

/**
 * A dispatcher that sends requests through `proxyUrl`, or undefined for none.
 *
 * - http:// and https:// proxies: an undici ProxyAgent. Credentials in the URL
 *   (`http://user:pass@host:port`, percent-encoded) go to the proxy as Basic
 *   `proxy-authorization` and nowhere else. Every target, https or plain http, goes through an
 *   HTTP CONNECT tunnel.
 * - socks5:// (and any other scheme): undefined, because undici's ProxyAgent cannot speak SOCKS.
 *   Callers that must not bypass a configured proxy check `isProxySupported` first; the video
 *   engine skips SOCKS proxies for these clients.
 *
 * Each call makes a new agent with its own connection pool: keep it for the life of the client and
 * `close()` it when done. Throws a TypeError for a URL that does not parse.
 */
export function proxyDispatcher(proxyUrl: string | undefined): Dispatcher | undefined {
  if (!proxyUrl || !proxyUrl.trim()) return undefined;
  const url = new URL(proxyUrl.trim());
  if (!isProxySupported(url.href)) return undefined;
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const token = url.username ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : undefined;
  // The agent keeps its URL (and error messages may quote it): give it one without credentials.
  url.username = '';
  url.password = '';
  return new ProxyAgent({ uri: url.origin, ...(token ? { token } : {}) });
}

/** True for the proxies `proxyDispatcher` can use: http:// and https://. */
export function isProxySupported(proxyUrl: string): boolean {
  try {
    const { protocol } = new URL(proxyUrl);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Agents made for `fetchWithRetry({ proxyUrl })`, one per proxy URL, reused across calls. */
const sharedDispatchers = new Map<string, Dispatcher>();

function sharedDispatcher(proxyUrl: string | undefined): Dispatcher | undefined {
  if (!proxyUrl) return undefined;
  let dispatcher = sharedDispatchers.get(proxyUrl);
  if (!dispatcher) {
    dispatcher = proxyDispatcher(proxyUrl);
    if (!dispatcher) return undefined;
    sharedDispatchers.set(proxyUrl, dispatcher);
  }
  return dispatcher;
}

/** Closes the agents `fetchWithRetry` made for `proxyUrl` options (at shutdown, in tests). */
export async function closeSharedDispatchers(): Promise<void> {
  const dispatchers = [...sharedDispatchers.values()];
  sharedDispatchers.clear();
  await Promise.allSettled(dispatchers.map((dispatcher) => dispatcher.close()));
}

// ---------------------------------------------------------------------------------------------
// Requests with time-out and retries

export type OutboundInit = RequestInit & { dispatcher?: Dispatcher };

export interface FetchRetryOptions {
  /** Limit of each attempt, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Retries after the first attempt (0: one attempt only). */
  maxRetries: number;
  /** Used when `init.dispatcher` is absent: http(s) proxies only (see proxyDispatcher). */
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

/** Lets the connection go back to the pool without reading an unwanted answer. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already broken or consumed: nothing to release.
  }
}

/** An errno-like code of a network failure (ECONNREFUSED, UND_ERR_SOCKET, ...), never a free text. */
function networkCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The proxy's refusal of a tunnel (407 credentials, 403, 502, ...), if that is what failed. */
function proxyRefusal(error: unknown): number | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const message = current instanceof Error ? current.message : '';
    const match = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
    if (match) return Number(match[1] ?? match[2]);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when a 429 says the account is out of credits, not just too fast: retrying cannot help. */
function isQuotaText(text: string): boolean {
  const parsed = parseErrorBody(text);
  return parsed.code === 'insufficient_quota' || parsed.code === 'quota_exceeded';
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
 * the body is read, so read it with `readResponseBytes`.
 *
 * Bodies are sent again on retries: give a string or a Buffer, not a stream.
 */
export async function fetchWithRetry(url: string, init: OutboundInit, opts: FetchRetryOptions): Promise<Response> {
  const retryOn = opts.retryOn ?? defaultRetryOn;
  const baseMs = opts.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const maxRetryAfter = opts.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const maxRetries = Math.max(0, Math.floor(opts.maxRetries));
  const dispatcher = init.dispatcher ?? sharedDispatcher(opts.proxyUrl);
  const callerSignals = [opts.signal, init.signal ?? undefined].filter((s): s is AbortSignal => s !== undefined);
  const callerSignal = callerSignals.length > 1 ? AbortSignal.any(callerSignals) : callerSignals[0];

  for (let attempt = 0; ; attempt += 1) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const retriesLeft = attempt < maxRetries;
    let wait: number;
    try {
      const response = await fetch(url, { ...init, signal, ...(dispatcher ? { dispatcher } : {}) });
      if (!retriesLeft || !retryOn(response.status)) return response;
      if (response.status === 429 && isQuotaText(await response.clone().text())) return response;
      const asked = retryAfterMs(response.headers);
      wait = asked === undefined ? backoffMs(attempt, baseMs) : Math.min(asked, maxRetryAfter);
      await discard(response);
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      let failure: ProviderError;
      if (timeout.aborted) {
        failure = new ProviderError(`could not reach the server (no answer within ${opts.timeoutMs} ms)`, 'unreachable');
      } else if (isBlockedAddressError(error)) {
        // A user's URL that leads to a private address: the same answer every time.
        throw new ProviderError('this address is not allowed', 'blocked');
      } else if (error instanceof TypeError && error.message === 'fetch failed') {
        const refused = proxyRefusal(error);
        if (refused !== undefined) {
          // The proxy said no (bad credentials, forbidden target): the same answer next time.
          throw new ProviderError(`could not reach the server (the proxy answered ${refused})`, 'unreachable');
        }
        const code = networkCode(error);
        failure = new ProviderError(`could not reach the server${code ? ` (${code})` : ''}`, 'unreachable');
      } else {
        // Not a network failure (a malformed URL or request): a bug, not worth retrying.
        throw error;
      }
      if (!retriesLeft) throw failure;
      wait = backoffMs(attempt, baseMs);
    }
    await sleep(wait, callerSignal);
  }
}

/**
 * Reads a whole answer from `fetchWithRetry`. A time-out or broken connection while reading
 * becomes ProviderError `unreachable`; the caller's abort rejects with its reason.
 */
export async function readResponseBytes(response: Response, signal?: AbortSignal): Promise<Buffer> {
  try {
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const name = error instanceof Error ? error.name : '';
    const detail = name === 'TimeoutError' ? 'the answer took too long' : (networkCode(error) ?? 'the connection broke');
    throw new ProviderError(`could not reach the server (${detail})`, 'unreachable');
  }
}

// ---------------------------------------------------------------------------------------------
// Error answers

/** Removes the secret, and anything shaped like an OpenAI key, from a text that came from the network. */
export function scrubSecret(text: string, secret: string | undefined): string {
  const withoutSecret = secret && secret.length >= 4 ? text.split(secret).join('***') : text;
  return withoutSecret.replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}

interface ParsedErrorBody {
  message?: string;
  code?: string;
}

/**
 * The message and code of an error answer: OpenAI's `{error: {message, code, type}}`, ElevenLabs'
 * `{detail: {status, message}}` or `{detail: "text"}`, FastAPI validation `{detail: [{msg, loc}]}`,
 * or the text itself when it is not JSON.
 */
function parseErrorBody(text: string): ParsedErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const plain = text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return plain ? { message: plain } : {};
  }
  if (!json || typeof json !== 'object') return {};
  const { error, detail, message } = json as { error?: unknown; detail?: unknown; message?: unknown };
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; code?: unknown; type?: unknown };
    return { message: str(e.message), code: str(e.code) ?? (e.type === 'insufficient_quota' ? 'insufficient_quota' : undefined) };
  }
  if (typeof error === 'string') return { message: error };
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) {
    const parts = detail.map((item: unknown) => {
      if (!item || typeof item !== 'object') return '';
      const { msg, loc } = item as { msg?: unknown; loc?: unknown };
      const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').join('.') : '';
      return typeof msg === 'string' ? (where ? `${where}: ${msg}` : msg) : '';
    });
    return { message: parts.filter(Boolean).join('; ') || undefined };
  }
  if (detail && typeof detail === 'object') {
    const d = detail as { message?: unknown; status?: unknown; code?: unknown };
    return { message: str(d.message), code: str(d.status) ?? str(d.code) };
  }
  return { message: str(message) };
}

/**
 * The ProviderError for a failed answer. Reads (at most 64 KiB of) its body for the API's message,
 * scrubs `apiKey` from it and cuts it to about 300 characters.
 *
 * Kinds: a quota code (OpenAI `insufficient_quota`, ElevenLabs `quota_exceeded`, whatever the
 * status) → quota; 401 and 403 → invalid_key; 400, 404, 413 and 422 → invalid_input; anything
 * else → api_error. A plain refused key reads 'invalid key', without the API's text (which quotes
 * part of the key).
 */
export async function providerErrorFromResponse(response: Response, apiKey: string | undefined): Promise<ProviderError> {
  let text = '';
  try {
    const bytes = await readResponseBytes(response);
    text = bytes.subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
  } catch {
    // The status alone says enough.
  }
  const { status } = response;
  const parsed = parseErrorBody(text);
  const reason = scrubSecret(parsed.message ?? response.statusText ?? '', apiKey).trim();
  const message = `${status}${reason ? ` ${reason}` : ''}`.slice(0, MAX_REASON_LENGTH);
  if (parsed.code === 'insufficient_quota' || parsed.code === 'quota_exceeded') {
    return new ProviderError(message, 'quota', status);
  }
  if (status === 401) {
    const plainRefusal =
      !parsed.code || ['invalid_api_key', 'needs_authorization', 'invalid_authorization'].includes(parsed.code);
    return new ProviderError(plainRefusal ? 'invalid key' : message, 'invalid_key', status);
  }
  if (status === 403) return new ProviderError(message, 'invalid_key', status);
  if ([400, 404, 413, 422].includes(status)) return new ProviderError(message, 'invalid_input', status);
  return new ProviderError(message, 'api_error', status);
}

// ---------------------------------------------------------------------------------------------
// Files

/**
 * Splits a text into pieces of at most `maxChars` UTF-16 units, at sentence ends (. ! ? … and
 * their CJK forms, or line breaks) where possible, else at the last space, else anywhere outside a
 * surrogate pair. Pieces are trimmed; empty ones are dropped.
 */
export function splitText(text: string, maxChars: number): string[] {
  if (maxChars < 2) throw new RangeError('maxChars must be at least 2');
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let cut = -1;
    // The last sentence end in the window: punctuation (and closing quotes) followed by a space.
    for (const match of window.matchAll(/[.!?…。！？]+["'”’»)\]]*(?=\s)|\n/g)) {
      const end = match.index + match[0].length;
      if (end <= maxChars) cut = end;
    }
    if (cut <= 0) cut = window.lastIndexOf(' ', maxChars);
    if (cut <= 0) {
      cut = maxChars;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    const piece = rest.slice(0, cut).trim();
    if (piece) pieces.push(piece);
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

export interface WavFormat {
  /** 1 PCM, 3 IEEE float, 0xFFFE extensible. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}

export interface ParsedWav {
  format: WavFormat;
  /** The body of the `fmt ` chunk, as found (kept whole when joining). */
  fmtChunk: Buffer;
  /** The samples: the body of the `data` chunk. */
  data: Buffer;
}

/**
 * Parses a RIFF/WAVE file: finds the `fmt ` and `data` chunks wherever they are, skipping others
 * (LIST, fact, ...). A `data` size that is 0 or runs past the end (streamed WAVs leave it unknown,
 * e.g. 0xFFFFFFFF) means "up to the end of the file", cut to whole frames. Throws on anything else.
 */
export function parseWav(buffer: Buffer): ParsedWav {
  if (buffer.length < 12 || buffer.toString('ascii', 0, 4) !== 'RIFF' || buffer.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let fmtChunk: Buffer | undefined;
  let data: Buffer | undefined;
  let offset = 12;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (id === 'data') {
      const end = size === 0 || start + size > buffer.length ? buffer.length : start + size;
      data = buffer.subarray(start, end);
      if (fmtChunk) break;
      offset = end + (end % 2);
      continue;
    }
    if (start + size > buffer.length) throw new Error(`truncated WAV chunk '${id}'`);
    if (id === 'fmt ') fmtChunk = buffer.subarray(start, start + size);
    offset = start + size + (size % 2);
  }
  if (!fmtChunk || fmtChunk.length < 16) throw new Error("WAV without a 'fmt ' chunk");
  if (!data) throw new Error("WAV without a 'data' chunk");
  const format: WavFormat = {
    audioFormat: fmtChunk.readUInt16LE(0),
    channels: fmtChunk.readUInt16LE(2),
    sampleRate: fmtChunk.readUInt32LE(4),
    blockAlign: fmtChunk.readUInt16LE(12),
    bitsPerSample: fmtChunk.readUInt16LE(14),
  };
  if (format.channels < 1 || format.sampleRate < 1 || format.blockAlign < 1) throw new Error('invalid WAV format');
  const whole = data.length - (data.length % format.blockAlign);
  return { format, fmtChunk, data: data.subarray(0, whole) };
}

/** Seconds of audio in a parsed WAV. */
export function wavDurationSeconds(wav: ParsedWav): number {
  return wav.data.length / wav.format.blockAlign / wav.format.sampleRate;
}

function riff(fmtChunk: Buffer, data: Buffer): Buffer {
  const fmtPadded = fmtChunk.length + (fmtChunk.length % 2);
  const riffSize = 4 + 8 + fmtPadded + 8 + data.length + (data.length % 2);
  if (riffSize > 0xffffffff) throw new Error('audio too long for one WAV file');
  const header = Buffer.alloc(12 + 8 + fmtPadded + 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(riffSize, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(fmtChunk.length, 16);
  fmtChunk.copy(header, 20);
  const dataAt = 20 + fmtPadded;
  header.write('data', dataAt, 'ascii');
  header.writeUInt32LE(data.length, dataAt + 4);
  return Buffer.concat(data.length % 2 ? [header, data, Buffer.alloc(1)] : [header, data]);
}

/** A WAV file around raw little-endian integer PCM. */
export function pcmToWav(pcm: Buffer, format: { sampleRate: number; channels?: number; bitsPerSample?: number }): Buffer {
  const channels = format.channels ?? 1;
  const bitsPerSample = format.bitsPerSample ?? 16;
  const blockAlign = channels * (bitsPerSample / 8);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(format.sampleRate, 4);
  fmt.writeUInt32LE(format.sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bitsPerSample, 14);
  return riff(fmt, pcm.subarray(0, pcm.length - (pcm.length % blockAlign)));
}

/** Joins WAV files that share one format into one, back to back. Throws when formats differ. */
export function concatWav(parts: Buffer[]): Buffer {
  if (parts.length === 0) throw new Error('no audio to join');
  const parsed = parts.map(parseWav);
  const first = parsed[0]!;
  for (const part of parsed) {
    const a = first.format;
    const b = part.format;
    if (
      a.audioFormat !== b.audioFormat ||
      a.channels !== b.channels ||
      a.sampleRate !== b.sampleRate ||
      a.bitsPerSample !== b.bitsPerSample ||
      a.blockAlign !== b.blockAlign
    ) {
      throw new Error('the audio parts have different formats');
    }
  }
  return riff(first.fmtChunk, Buffer.concat(parsed.map((p) => p.data)));
}

/**
 * Writes a file so readers never see half of it: into a temporary file beside it, then a rename.
 * The directory must exist. The temporary file is removed when anything fails.
 */
export async function writeFileAtomic(file: string, data: Buffer | Uint8Array): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
