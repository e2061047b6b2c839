import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { socksConnector } from 'fetch-socks';
import { Agent, Client, Dispatcher, fetch, Headers, ProxyAgent, Response, buildConnector, type RequestInit } from 'undici';
import { isBlockedAddressError, publicAddressOf, type PublicOnlyCapable } from '../lib/egress';
import {
  DEFAULT_MAX_ANSWER_BYTES,
  MAX_ERROR_TEXT_BYTES,
  cappedResponse,
  discardBody,
  exchangeDeadline,
  networkCode,
  readCapped,
  readPrefix,
  sendFollowingRedirects,
  type AnswerLike,
} from './httpBodies';
import { ProviderError } from './providerError';

export { ProviderError, type ProviderFailure } from './providerError';
export { networkCode } from './httpBodies';

/**
 * The plumbing shared by the outbound media clients (OpenAI speech and images, ElevenLabs):
 * proxies, requests with a per-attempt time-out and retries with backoff (`fetchWithRetry`, for the
 * clients that make their own requests; the OpenAI one leaves that to the official `openai`
 * package), the ProviderError every client throws (never carrying the API key) and how network
 * failures and error answers map to it, and the small file helpers those clients need (sentence
 * splitting, WAV parsing and joining, atomic writes). How answers are read (size caps, deadlines,
 * redirects) is httpBodies.ts.
 *
 * Requests use undici's `fetch` (the package, not Node's global), so a `dispatcher` (a proxy's
 * agent, see proxyDispatcher) can be given per request; the types below are undici's too.
 */

/** Per attempt, including reading the answer: generous, since images and long narration are slow. */
export const DEFAULT_MEDIA_TIMEOUT_MS = 180_000;
export const DEFAULT_MEDIA_MAX_RETRIES = 2;
export const DEFAULT_BACKOFF_BASE_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** The longest `retry-after` honoured; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_REASON_LENGTH = 300;

// ---------------------------------------------------------------------------------------------
// Proxies

/** A connection (to the proxy, its handshake, TLS) that takes longer fails; undici's own default. */
export const DEFAULT_PROXY_CONNECT_TIMEOUT_MS = 10_000;
const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:']);
/** fetch-socks' proxy settings (the `socks` package's SocksProxy). */
type SocksProxy = Exclude<Parameters<typeof socksConnector>[0], unknown[]>;
const SOCKS_DEFAULT_PORT = 1080;
/** RFC 1929: the username and the password are at most 255 bytes each. */
const SOCKS_MAX_CREDENTIAL_BYTES = 255;

export interface ProxyDispatcherOptions {
  /**
   * Certificates to trust besides the system's, for an https:// proxy and for https targets
   * reached through any proxy (tests with self-signed certificates).
   */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Limit of making each connection: to the proxy, its handshake, and TLS through it. Default 10 s. */
  connectTimeoutMs?: number;
}

/** What went wrong while a SOCKS5 proxy was opening a connection (RFC 1928 / RFC 1929). */
export type SocksFailure =
  /** The proxy wants a username and password, and the URL has none. */
  | { step: 'auth_required' }
  /** The proxy accepts none of the authentication methods offered (no authentication, username/password). */
  | { step: 'no_method' }
  /** The proxy refused the username or password. */
  | { step: 'auth_failed' }
  /** The username or the password is longer than SOCKS5 allows (255 bytes). */
  | { step: 'credentials_too_long' }
  /** The server's answers are not SOCKS5. */
  | { step: 'not_socks' }
  /** The proxy could not (or would not) connect to the target: its reply code, -1 when unknown. */
  | { step: 'rejected'; reply: number }
  /** The proxy closed the connection during the handshake. */
  | { step: 'closed' }
  /** The handshake took longer than the connect time-out. */
  | { step: 'timeout' }
  /** The proxy itself could not be reached: ECONNREFUSED, ENOTFOUND, ... */
  | { step: 'connect'; code: string | undefined };

/**
 * The failure of a connection through a SOCKS5 proxy. It stands for the `socks` package's error,
 * which carries the proxy's settings (its password among them): those never go further than here.
 */
export class SocksProxyError extends Error {
  /** An errno-like code: the network's (ECONNREFUSED, ...) when the proxy was not reached, else ESOCKS. */
  readonly code: string;
  constructor(readonly failure: SocksFailure) {
    super(socksFailureText(failure));
    this.name = 'SocksProxyError';
    this.code = failure.step === 'connect' ? (failure.code ?? 'ESOCKS') : 'ESOCKS';
  }
}

/** RFC 1928 reply names as the `socks` package spells them in its messages. */
const SOCKS_REPLIES: Record<string, number> = {
  Failure: 1,
  NotAllowed: 2,
  NetworkUnreachable: 3,
  HostUnreachable: 4,
  ConnectionRefused: 5,
  TTLExpired: 6,
  CommandNotSupported: 7,
  AddressNotSupported: 8,
};

function socksFailureText(failure: SocksFailure): string {
  switch (failure.step) {
    case 'auth_required':
      return 'the SOCKS5 proxy requires a username and password';
    case 'no_method':
      return 'the SOCKS5 proxy accepts none of the offered authentication methods';
    case 'auth_failed':
      return 'the SOCKS5 proxy refused the username or password';
    case 'credentials_too_long':
      return 'SOCKS5 username and password must be at most 255 bytes each';
    case 'not_socks':
      return 'the server does not speak the SOCKS5 proxy protocol';
    case 'rejected':
      return `the SOCKS5 proxy could not reach the target (reply ${failure.reply})`;
    case 'closed':
      return 'the SOCKS5 proxy closed the connection';
    case 'timeout':
      return 'the SOCKS5 proxy did not answer in time';
    default:
      return `could not connect to the SOCKS5 proxy${failure.code ? ` (${failure.code})` : ''}`;
  }
}

/** Reads the `socks` package's error (a fixed English text per step) as a SocksFailure. */
function socksFailureOf(error: unknown, offeredCredentials: boolean): SocksFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (/no accepted authentication type/i.test(message)) return { step: offeredCredentials ? 'no_method' : 'auth_required' };
  if (/^Socks5 Authentication failed/i.test(message)) return { step: 'auth_failed' };
  const rejected = /^Socks5 proxy rejected connection - (\w+)/i.exec(message);
  if (rejected) return { step: 'rejected', reply: SOCKS_REPLIES[rejected[1]!] ?? -1 };
  if (/invalid Socks5|invalid socks version|unknown authentication type/i.test(message)) return { step: 'not_socks' };
  if (/^Socket closed/i.test(message)) return { step: 'closed' };
  if (/^Proxy connection timed out/i.test(message)) return { step: 'timeout' };
  // A socket error, whose text the package keeps: "connect ECONNREFUSED 127.0.0.1:1080", "getaddrinfo ENOTFOUND host".
  const code = networkCode(error) ?? /\b(E[A-Z][A-Z0-9_]{2,40})\b/.exec(message)?.[1];
  return { step: 'connect', code };
}

/** The SocksProxyError in `error`'s causes, if a SOCKS5 handshake is what failed. */
export function socksProxyErrorOf(error: unknown): SocksProxyError | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if (current instanceof SocksProxyError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Host without IPv6 brackets. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/**
 * The connection options of a target, pinned to the address lib/egress checked: the same name for
 * TLS (SNI, certificate check) and the Host header, the checked IP literal to connect to.
 */
async function pinned<T extends { hostname: string; servername?: string | null }>(options: T): Promise<T> {
  const name = bareHost(options.hostname);
  const address = await publicAddressOf(name);
  const servername = options.servername || (net.isIP(name) ? undefined : name);
  return { ...options, hostname: address, ...(servername ? { servername } : {}) };
}

/**
 * An undici Agent whose connections go through a SOCKS5 proxy (fetch-socks). Targets are asked
 * for by name (the proxy resolves them), IP literals as such; with `publicOnly`, the name is
 * resolved here, every address checked (lib/egress) and the proxy asked for the checked address.
 * https targets get TLS through the tunnel, to the name. Failures become SocksProxyError.
 */
function socksAgent(url: URL, connect: buildConnector.BuildOptions, publicOnly = false): Dispatcher {
  const username = safeDecode(url.username);
  const password = safeDecode(url.password);
  const offeredCredentials = Boolean(url.username || url.password);
  const tooLong =
    Buffer.byteLength(username) > SOCKS_MAX_CREDENTIAL_BYTES || Buffer.byteLength(password) > SOCKS_MAX_CREDENTIAL_BYTES;
  const proxy: SocksProxy = {
    type: 5,
    host: bareHost(url.hostname),
    port: url.port ? Number(url.port) : SOCKS_DEFAULT_PORT,
    ...(offeredCredentials ? { userId: username, password } : {}),
  };
  const connector = socksConnector(proxy, connect);
  const open: typeof connector = (options, callback) => {
    connector(options, (error, socket) => {
      if (!error) return callback(null, socket!);
      // TLS with the target, after the tunnel was made, fails with Node's own errors: passed on as they are.
      const fromSocks = (error as { constructor?: { name?: string } }).constructor?.name === 'SocksClientError';
      callback(fromSocks ? new SocksProxyError(socksFailureOf(error, offeredCredentials)) : error, null);
    });
  };
  return new Agent({
    connect: (options, callback) => {
      // The socks package cannot frame longer credentials (RFC 1929): refuse before any byte is sent.
      if (tooLong) return callback(new SocksProxyError({ step: 'credentials_too_long' }), null);
      if (!publicOnly) return open(options, callback);
      pinned(options).then(
        (target) => open(target, callback),
        (error: unknown) => callback(error as Error, null),
      );
    },
  });
}

/**
 * An undici Agent whose connections go through an HTTP CONNECT tunnel of an http:// or https://
 * proxy, to the address lib/egress checked: the name is resolved here, every address checked, and
 * the proxy asked for `IP:port` (so it cannot resolve the name to another address); https
 * targets get TLS through the tunnel with the name as SNI and for the certificate check. A
 * refused tunnel fails as undici's ProxyAgent fails ("Proxy response (407) ...").
 */
function pinnedTunnelAgent(proxyOrigin: string, token: string | undefined, connect: buildConnector.BuildOptions): Dispatcher {
  const proxyClient = new Client(proxyOrigin, { connect });
  const toTarget = buildConnector(connect);
  return new Agent({
    connect: (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      pinned(options)
        .then(async (target) => {
          const authority = `${net.isIPv6(target.hostname) ? `[${target.hostname}]` : target.hostname}:${port}`;
          const { socket, statusCode } = await proxyClient.connect({
            path: authority,
            headers: { host: authority, ...(token ? { 'proxy-authorization': token } : {}) },
          });
          if (statusCode !== 200) {
            socket.on('error', () => undefined).destroy();
            throw new Error(`Proxy response (${statusCode}) !== 200 when HTTP Tunneling`);
          }
          // The tunnel's socket is a net.Socket (undici types it as the wider Duplex).
          const tunnel = socket as net.Socket;
          if (options.protocol !== 'https:') return callback(null, tunnel);
          toTarget({ ...target, httpSocket: tunnel }, callback);
        })
        .catch((error: unknown) => callback(error as Error, null));
    },
  });
}

/**
 * A proxy's dispatcher (what proxyDispatcher answers): requests go through `plain`, as the
 * operator's own addresses need; `publicOnly()` (lib/egress' userDispatcher) is its twin for users'
 * addresses, made on first use, closed with it.
 */
class OutboundProxy extends Dispatcher implements PublicOnlyCapable {
  #twin: Dispatcher | undefined;
  constructor(
    private readonly plain: Dispatcher,
    private readonly makeTwin: () => Dispatcher,
  ) {
    super();
  }

  publicOnly(): Dispatcher {
    this.#twin ??= this.makeTwin();
    return this.#twin;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.plain.dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = Promise.all([this.plain.close(), this.#twin?.close()]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const done = Promise.all([this.plain.destroy(error), this.#twin?.destroy(error)]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback, callback);
  }
}

/**
 * A dispatcher that sends requests through `proxyUrl`, or undefined for none. Every client of the
 * video engine takes it (the chat model, speech, images, ElevenLabs, YouTube), so a run's calls
 * all leave through the run's proxy.
 *
 * - http:// and https:// proxies: an undici ProxyAgent. Credentials in the URL
 *   (`http://user:pass@host:port`, percent-encoded) go to the proxy as Basic
 *   `proxy-authorization` and nowhere else. Every target, https or plain http, goes through an
 *   HTTP CONNECT tunnel.
 * - socks5:// proxies: an undici Agent with fetch-socks' connector. Credentials in the URL
 *   (percent-encoded) go to the proxy as SOCKS5 username/password (RFC 1929) and nowhere else;
 *   without them only "no authentication" is offered. Handshake failures are SocksProxyError.
 * - any other scheme: undefined (see `isProxySupported`).
 *
 * Whether the proxy's own address may be private is the caller's rule (the engine and the proxy
 * test refuse it unless ALLOW_PRIVATE_URLS). Targets that are users' addresses go through the
 * dispatcher's `publicOnly()` twin (lib/egress userDispatcher): it resolves each target itself,
 * refuses private addresses, and asks the proxy for the checked IP (pinnedTunnelAgent, socksAgent).
 *
 * Each call makes a new agent with its own connection pool: keep it for the life of the client and
 * `close()` it when done. Throws a TypeError for a URL that does not parse.
 */
export function proxyDispatcher(proxyUrl: string | undefined, options: ProxyDispatcherOptions = {}): Dispatcher | undefined {
  if (!proxyUrl || !proxyUrl.trim()) return undefined;
  const url = new URL(proxyUrl.trim());
  if (!isProxySupported(url.href)) return undefined;
  const connect: buildConnector.BuildOptions = {
    timeout: options.connectTimeoutMs ?? DEFAULT_PROXY_CONNECT_TIMEOUT_MS,
    ...(options.ca === undefined ? {} : { ca: [...tls.rootCertificates, ...[options.ca].flat()] }),
  };
  if (url.protocol === 'socks5:') {
    return new OutboundProxy(socksAgent(url, connect), () => socksAgent(url, connect, true));
  }

  const username = safeDecode(url.username);
  const password = safeDecode(url.password);
  const token = url.username ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : undefined;
  // The agent keeps its URL (and error messages may quote it): give it one without credentials.
  url.username = '';
  url.password = '';
  const plain = new ProxyAgent({ uri: url.origin, ...(token ? { token } : {}), proxyTls: connect, requestTls: connect });
  return new OutboundProxy(plain, () => pinnedTunnelAgent(url.origin, token, connect));
}

/** True for the proxies `proxyDispatcher` can use: http://, https:// and socks5://. */
export function isProxySupported(proxyUrl: string): boolean {
  try {
    return PROXY_PROTOCOLS.has(new URL(proxyUrl).protocol);
  } catch {
    return false;
  }
}

/** Agents made for `proxyUrl` options (fetchWithRetry, the YouTube publisher), one per proxy URL, reused across calls. */
const sharedDispatchers = new Map<string, Dispatcher>();

/** The one dispatcher kept for `proxyUrl` (made on first use), or undefined for none. */
export function sharedProxyDispatcher(proxyUrl: string | undefined): Dispatcher | undefined {
  if (!proxyUrl) return undefined;
  let dispatcher = sharedDispatchers.get(proxyUrl);
  if (!dispatcher) {
    dispatcher = proxyDispatcher(proxyUrl);
    if (!dispatcher) return undefined;
    sharedDispatchers.set(proxyUrl, dispatcher);
  }
  return dispatcher;
}

/** Closes the agents made for `proxyUrl` options (at shutdown, in tests). */
export async function closeSharedDispatchers(): Promise<void> {
  const dispatchers = [...sharedDispatchers.values()];
  sharedDispatchers.clear();
  await Promise.allSettled(dispatchers.map((dispatcher) => dispatcher.close()));
}

/**
 * A fetch that sends every request through `dispatcher` with undici's own fetch, for clients that
 * take a fetch rather than a dispatcher (the official `openai` client, gaxios). Answers undici's
 * Response, which has what those clients read of one.
 */
export function fetchThrough(dispatcher: Dispatcher) {
  return (input: string | URL | { url: string }, init?: RequestInit): Promise<Response> =>
    fetch(typeof input === 'string' || input instanceof URL ? input : input.url, { ...init, dispatcher });
}

// ---------------------------------------------------------------------------------------------
// Requests with time-out and retries

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
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const message = current instanceof Error ? current.message : '';
    const match = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
    if (match) return Number(match[1] ?? match[2]);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** SOCKS5 failures that the next attempt would meet again: only a lost or slow connection is worth retrying. */
function isFinalSocksFailure(failure: SocksFailure): boolean {
  return failure.step !== 'connect' && failure.step !== 'closed' && failure.step !== 'timeout';
}

/** True when an error answer's text says the account is out of credits, not just too fast: retrying cannot help. */
export function isQuotaText(text: string): boolean {
  const parsed = parseErrorBody(text);
  return parsed.code === 'insufficient_quota' || parsed.code === 'quota_exceeded';
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
