import { Headers, Response, fetch as undiciFetch, type RequestInit } from 'undici';
import { causes } from '../lib/errorCause';
import { AUDIO_LIMITS, IMAGE_LIMITS } from '../lib/mediaInput';
import { ProviderError } from './providerError';

/**
 * Reading answers from outside servers (a user's chat-model, speech or image server, OpenAI,
 * ElevenLabs, an image left at a URL): every answer is bounded in size and in time, and redirects
 * are followed by hand.
 *
 * - Size: a `content-length` over the cap is refused before a byte of the body is read; a body
 *   without one (or lying) is read as a stream and the connection is dropped as soon as it passes
 *   the cap. The refusal is ProviderError `too_large` ("the server's answer was too large").
 * - Time: the deadline of an exchange covers the headers AND the body; a server that drips one
 *   byte a second is cut at the deadline (ProviderError `unreachable`, "the answer took too long").
 * - Error answers: only their first MAX_ERROR_TEXT_BYTES are read (the rest is never received),
 *   and parsed once, by linear code (`parseErrorBody`, below).
 * - Redirects: followed here, at most MAX_REDIRECTS hops, each hop sent through the same `send`
 *   (so the same dispatcher checks its address: lib/egress), credentials dropped when a hop leaves
 *   the first origin.
 * - Error answers become ProviderError (providerErrorFromResponse): the API's message, scrubbed of
 *   the key and cut short, and a kind (invalid_key, quota, invalid_input, api_error).
 */

/** A JSON answer (a chat completion, a model list, an error object): a few MB at most. */
export const MAX_JSON_ANSWER_BYTES = 4 * 1024 * 1024;
/** An image file (lib/mediaInput refuses a bigger one anyway). */
export const MAX_IMAGE_ANSWER_BYTES = IMAGE_LIMITS.maxBytes;
/** An image API's JSON answer, which may carry the image in base64 (4/3 of its size) plus a little JSON. */
export const MAX_IMAGE_JSON_ANSWER_BYTES = Math.ceil((MAX_IMAGE_ANSWER_BYTES * 4) / 3) + 64 * 1024;
/** What is kept of an error answer: enough for any API's message; the rest is never read. */
export const MAX_ERROR_TEXT_BYTES = 8 * 1024;
/** `readResponseBytes` without a cap of its own. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Redirects followed for one request. */
export const MAX_REDIRECTS = 5;
/** The most bytes a second of narration takes: 48 kHz, 16-bit, stereo WAV (OpenAI sends 24 kHz mono). */
export const MAX_SPEECH_BYTES_PER_SECOND = 48_000 * 2 * 2;

/**
 * The largest audio answer worth reading for `chars` characters of text: the longest that text
 * can take to say (5 characters a second, far slower than any voice; at least a minute) at
 * `bytesPerSecond`, plus room for headers; never more than lib/mediaInput's audio limit.
 */
export function speechAnswerCap(chars: number, bytesPerSecond = MAX_SPEECH_BYTES_PER_SECOND): number {
  const seconds = Math.max(60, Math.ceil(chars / 5));
  return Math.min(AUDIO_LIMITS.maxBytes, 64 * 1024 + seconds * bytesPerSecond);
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The refusal of an answer over `maxBytes`. */
export function answerTooLarge(maxBytes: number): ProviderError {
  return new ProviderError(`the server's answer was too large (more than ${megabytes(maxBytes)})`, 'too_large');
}

/** A time-out while the answer was being read. */
export function answerTooSlow(): ProviderError {
  return new ProviderError('could not reach the server (the answer took too long)', 'unreachable');
}

/** An errno-like code of a network failure (ECONNREFUSED, UND_ERR_SOCKET, ...), never a free text. */
export function networkCode(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The deadline of one exchange, joined to the caller's signal: aborts with a TimeoutError after
 * `ms`, or with the caller's reason. Its timer holds the signal: an `AbortSignal.timeout` that
 * nothing else references is garbage-collected, and the body being read then never times out.
 * `clear()` when the exchange is over (the timer is unref'd, so a forgotten one only runs late).
 */
export function exchangeDeadline(ms: number, caller?: AbortSignal | null): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(caller?.reason);
  const clear = () => {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onAbort);
  };
  const timer = setTimeout(() => {
    clear();
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
  }, ms);
  timer.unref();
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, clear };
}

/** What an answer needs to be read here: a fetch Response (undici's or the global one). */
/** What a body stream needs to be read here (a ReadableStream of bytes). */
interface ByteStream {
  getReader(): {
    read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
  };
  cancel(reason?: unknown): Promise<void>;
}

/**
 * An answer to read: a fetch Response, or anything with its `body`. The body is typed loosely so
 * that Node's and the DOM's ReadableStream both fit (the web app's type check sees this file
 * through the scripts, with the DOM's types); `bodyOf` reads it as a stream of bytes.
 */
export interface AnswerLike {
  readonly body?: unknown;
  readonly headers?: { get(name: string): string | null };
  arrayBuffer?(): Promise<ArrayBuffer>;
}

function bodyOf(answer: AnswerLike): ByteStream | null | undefined {
  return answer.body as ByteStream | null | undefined;
}

/** The plain `content-length` an answer declares, if any. */
export function declaredLength(headers: AnswerLike['headers']): number | undefined {
  const value = headers?.get('content-length')?.trim();
  if (!value || value.length > 16) return undefined;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  return Number(value);
}

/** Lets go of a body that will not be read (the connection is closed or goes back to the pool). */
export async function discardBody(answer: AnswerLike): Promise<void> {
  try {
    await bodyOf(answer)?.cancel();
  } catch {
    // Already broken or consumed: nothing to release.
  }
}

/** What a failure while reading a body means: the caller's abort as it is, else a ProviderError. */
function readFailure(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof ProviderError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'TimeoutError') return answerTooSlow();
  const code = networkCode(error);
  return new ProviderError(`could not reach the server (${code ?? 'the connection broke'})`, 'unreachable');
}

/**
 * Reads a whole answer of at most `maxBytes`. Throws ProviderError `too_large` past the cap
 * (without reading a body whose `content-length` says so), `unreachable` when the time-out fires or
 * the connection breaks while reading; the caller's abort (`signal`) rejects with its reason.
 */
export async function readCapped(answer: AnswerLike, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const declared = declaredLength(answer.headers);
  if (declared !== undefined && declared > maxBytes) {
    await discardBody(answer);
    throw answerTooLarge(maxBytes);
  }
  try {
    if (answer.body === undefined && answer.arrayBuffer) {
      // Not a stream (a test double): read it, then judge it.
      const bytes = Buffer.from(await answer.arrayBuffer());
      if (bytes.length > maxBytes) throw answerTooLarge(maxBytes);
      return bytes;
    }
    const body = bodyOf(answer);
    if (!body) return Buffer.alloc(0);
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      total += step.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw answerTooLarge(maxBytes);
      }
      chunks.push(step.value);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw readFailure(error, signal);
  }
}

/**
 * The first `maxBytes` of an answer; the rest is not read (the connection is dropped). Empty when
 * it cannot be read: for error answers, whose status says enough without them.
 */
export async function readPrefix(answer: AnswerLike, maxBytes = MAX_ERROR_TEXT_BYTES): Promise<Buffer> {
  if (!answer.body) {
    if (answer.body === undefined && answer.arrayBuffer) {
      try {
        return Buffer.from(await answer.arrayBuffer()).subarray(0, maxBytes);
      } catch {
        return Buffer.alloc(0);
      }
    }
    return Buffer.alloc(0);
  }
  const reader = bodyOf(answer)!.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const step = await reader.read();
      if (step.done) return Buffer.concat(chunks, total);
      const chunk = Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength);
      const kept = chunk.subarray(0, maxBytes - total);
      chunks.push(kept);
      total += kept.length;
    }
    await reader.cancel().catch(() => undefined);
  } catch {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A body stream that errors with ProviderError `too_large` once more than `maxBytes` came (and
 * drops the source), and turns read failures into ProviderErrors (see readFailure).
 */
function cappedStream(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  signal: AbortSignal | undefined,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let step: Awaited<ReturnType<typeof reader.read>>;
        try {
          step = await reader.read();
        } catch (error) {
          done();
          controller.error(readFailure(error, signal));
          return;
        }
        if (step.done) {
          done();
          controller.close();
          return;
        }
        total += step.value.byteLength;
        if (total > maxBytes) {
          done();
          controller.error(answerTooLarge(maxBytes));
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(step.value);
      },
      async cancel(reason) {
        done();
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Statuses whose answers have no body (a Response made with one throws). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with a body bounded to `maxBytes`: reading it (`json()`, `text()`, `arrayBuffer()`,
 * the stream) fails with ProviderError `too_large` past the cap, at once when `content-length`
 * says so, and with a ProviderError when the connection breaks or the deadline passes. `signal`
 * is the caller's: its abort is passed on as it is. `done` is called once the body is over (read,
 * failed or cancelled).
 */
export function cappedResponse(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal,
  done: () => void = () => undefined,
): Response {
  const { status, statusText } = response;
  const headers = new Headers(response.headers);
  if (NULL_BODY_STATUSES.has(status) || !response.body) {
    done();
    return new Response(null, { status, statusText, headers });
  }
  const declared = declaredLength(response.headers);
  let body: ReadableStream<Uint8Array>;
  if (declared !== undefined && declared > maxBytes) {
    done();
    void discardBody(response);
    body = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(answerTooLarge(maxBytes)) });
  } else {
    body = cappedStream(response.body as ReadableStream<Uint8Array>, maxBytes, signal, done);
  }
  return new Response(body as ConstructorParameters<typeof Response>[0], { status, statusText, headers });
}

/**
 * An error answer with its body cut to its first `maxBytes` (read now, under the exchange's
 * deadline): what a client keeps of it is small whatever the server sent.
 */
export async function shortenedErrorAnswer(response: Response, maxBytes = MAX_ERROR_TEXT_BYTES): Promise<Response> {
  const { status, statusText } = response;
  const headers = new Headers(response.headers);
  // The body below is the decoded prefix: its length and encoding are no longer the network's.
  headers.delete('content-length');
  headers.delete('content-encoding');
  if (NULL_BODY_STATUSES.has(status)) {
    await discardBody(response);
    return new Response(null, { status, statusText, headers });
  }
  const prefix = await readPrefix(response, maxBytes);
  return new Response(new Uint8Array(prefix), { status, statusText, headers });
}

// ---------------------------------------------------------------------------------------------
// Redirects by hand

/** Sends one request and answers its response as it is (redirects not followed). */
export type SendOnce = (url: string, init: RequestInit) => Promise<Response>;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers kept on a hop to another origin: nothing that authenticates the caller (keys, cookies). */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'user-agent']);

/** The URL of a request as fetch takes it: a string, a URL or a Request. */
export function urlOf(input: string | URL | { url: string }): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/**
 * Sends `init` to `url` with `send`, following up to `maxRedirects` redirects by hand: every hop
 * goes through `send` again (so its dispatcher checks the new address, lib/egress); a 303 (and a
 * 301/302 answering a POST) becomes a GET without body; a hop to another origin keeps only
 * harmless headers (no Authorization, no API key). Throws ProviderError `api_error` for too many
 * redirects or a redirect to anything but http(s).
 */
export async function sendFollowingRedirects(
  send: SendOnce,
  url: string,
  init: RequestInit,
  maxRedirects = MAX_REDIRECTS,
): Promise<Response> {
  const first = new URL(url);
  let current = first;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  let headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
  for (let hop = 0; ; hop += 1) {
    const response = await send(current.href, { ...init, method, body, headers, redirect: 'manual' });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await discardBody(response);
    if (hop >= maxRedirects) {
      throw new ProviderError(`the server redirected more than ${maxRedirects} times`, 'api_error', response.status);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new ProviderError('the server redirected to an address that is not a URL', 'api_error', response.status);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ProviderError('the server redirected to an address that is not http(s)', 'api_error', response.status);
    }
    const toGet =
      (response.status === 303 && method !== 'GET' && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST');
    if (toGet) {
      method = 'GET';
      body = null;
      headers.delete('content-type');
      headers.delete('content-length');
    }
    if (next.origin !== first.origin) {
      const kept = new Headers();
      for (const [name, value] of headers) if (CROSS_ORIGIN_HEADERS.has(name)) kept.set(name, value);
      headers = kept;
    }
    current = next;
  }
}

export interface OutsideFetchOptions {
  /** Sends one request (default: undici's fetch, with the dispatcher of its init). */
  send?: SendOnce;
  /** Deadline of each exchange: headers, redirects and the whole body. */
  timeoutMs: number;
  /** Cap of a successful answer's body. */
  maxBytes: number;
  /** Kept of an error answer's body (status 400 and up); the rest is never read. Default 8 KiB. */
  maxErrorBytes?: number;
  maxRedirects?: number;
}

/**
 * A fetch for clients that take one (the official `openai` client): each call follows redirects
 * by hand (sendFollowingRedirects), ends at `timeoutMs` however slowly the body comes, answers a
 * body capped to `maxBytes` (cappedResponse) and an error answer cut to its first few KiB.
 */
export function outsideFetch(options: OutsideFetchOptions) {
  const send: SendOnce = options.send ?? ((url, init) => undiciFetch(url, init));
  return async (input: string | URL | { url: string }, init: RequestInit = {}): Promise<Response> => {
    const caller = (init.signal ?? undefined) as AbortSignal | undefined;
    const deadline = exchangeDeadline(options.timeoutMs, caller);
    let response: Response;
    try {
      response = await sendFollowingRedirects(send, urlOf(input), { ...init, signal: deadline.signal }, options.maxRedirects);
    } catch (error) {
      deadline.clear();
      throw error;
    }
    if (response.status >= 400) {
      try {
        return await shortenedErrorAnswer(response, options.maxErrorBytes);
      } catch (error) {
        throw readFailure(error, caller);
      } finally {
        deadline.clear();
      }
    }
    return cappedResponse(response, options.maxBytes, caller, deadline.clear);
  };
}

// ---------------------------------------------------------------------------------------------
// Whole answers and error answers

const MAX_REASON_LENGTH = 300;

/** How much of an answer `readResponseBytes` reads, and the caller's cancellation. */
export interface ReadLimits {
  /** Default 32 MiB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/**
 * Reads a whole answer (from `fetchWithRetry` or any fetch), at most `maxBytes` (default 32 MiB):
 * `readResponseBytes(response, maxBytes)`, `readResponseBytes(response, signal)`,
 * `readResponseBytes(response, maxBytes, signal)` or `readResponseBytes(response, { maxBytes, signal })`.
 * A `content-length` over the cap is refused before reading; a body that passes it is dropped there
 * (ProviderError `too_large`, "the server's answer was too large"). A time-out or broken connection
 * while reading becomes ProviderError `unreachable`; the caller's abort rejects with its reason.
 */
export async function readResponseBytes(
  response: AnswerLike,
  limits?: number | AbortSignal | ReadLimits,
  signal?: AbortSignal,
): Promise<Buffer> {
  let maxBytes = DEFAULT_MAX_ANSWER_BYTES;
  let abort = signal;
  if (typeof limits === 'number') maxBytes = limits;
  else if (limits instanceof AbortSignal) abort = limits;
  else if (limits) {
    maxBytes = limits.maxBytes ?? maxBytes;
    abort = limits.signal ?? abort;
  }
  return readCapped(response, maxBytes, abort);
}

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
 * A text without its markup: every `<...>` (an HTML tag, a comment) becomes a space. One pass over
 * the text, whatever it holds (a regular expression such as /<[^>]*>/g takes quadratic time on a
 * text of `<` without `>`): an unclosed `<` drops the rest, as no tag ends there.
 */
export function withoutTags(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    if (open < 0) return out + text.slice(from);
    out += `${text.slice(from, open)} `;
    const close = text.indexOf('>', open + 1);
    if (close < 0) return out;
    from = close + 1;
  }
}

/**
 * The message and code of an error answer: OpenAI's `{error: {message, code, type}}`, ElevenLabs'
 * `{detail: {status, message}}` or `{detail: "text"}`, FastAPI validation `{detail: [{msg, loc}]}`,
 * or the text itself when it is not JSON. Linear in the text, which is cut to 8 KiB first
 * (error answers are read no further: errorBodyText).
 */
function parseErrorBody(whole: string): ParsedErrorBody {
  const text = whole.length > MAX_ERROR_TEXT_BYTES ? whole.slice(0, MAX_ERROR_TEXT_BYTES) : whole;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const plain = withoutTags(text).replace(/\s+/g, ' ').trim();
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
    const parts = detail.slice(0, 20).map((item: unknown) => {
      if (!item || typeof item !== 'object') return '';
      const { msg, loc } = item as { msg?: unknown; loc?: unknown };
      const where = Array.isArray(loc)
        ? loc
            .slice(0, 10)
            .filter((p) => p !== 'body')
            .join('.')
        : '';
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
 * The ProviderError for a failed answer. Reads (at most 8 KiB of) its body for the API's message,
 * scrubs `apiKey` from it and cuts it to about 300 characters.
 *
 * Kinds: a quota code (OpenAI `insufficient_quota`, ElevenLabs `quota_exceeded`, whatever the
 * status) → quota; 401 and 403 → invalid_key; 400, 404, 413 and 422 → invalid_input; anything
 * else → api_error. A plain refused key reads 'invalid key', without the API's text (which quotes
 * part of the key).
 */
export async function providerErrorFromResponse(response: Response, apiKey: string | undefined): Promise<ProviderError> {
  return providerErrorFromBody(response.status, response.statusText, await errorBodyText(response), apiKey);
}

/**
 * The text of an error answer, its first 8 KiB (the rest is never read: the connection is
 * dropped); empty when it cannot be read (the status alone says enough).
 */
export async function errorBodyText(response: AnswerLike): Promise<string> {
  return (await readPrefix(response, MAX_ERROR_TEXT_BYTES)).toString('utf8');
}

/** `providerErrorFromResponse` for an answer already read: its status, status text and body text. */
export function providerErrorFromBody(
  status: number,
  statusText: string | undefined,
  text: string,
  apiKey: string | undefined,
): ProviderError {
  const parsed = parseErrorBody(text);
  const reason = scrubSecret(parsed.message ?? statusText ?? '', apiKey).trim();
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

/** True when an error answer's text says the account is out of credits, not just too fast: retrying cannot help. */
export function isQuotaText(text: string): boolean {
  const parsed = parseErrorBody(text);
  return parsed.code === 'insufficient_quota' || parsed.code === 'quota_exceeded';
}
