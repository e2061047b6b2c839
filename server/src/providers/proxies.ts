import net from 'node:net';
import tls from 'node:tls';
import { socksConnector } from 'fetch-socks';
import { Agent, Client, Dispatcher, fetch, ProxyAgent, buildConnector, type RequestInit, type Response } from 'undici';
import { publicAddressOf, type PublicOnlyCapable } from '../lib/egress';
import { findCause } from '../lib/errorCause';
import { networkCode } from './httpBodies';

/**
 * Proxies for the outbound clients (the chat model, OpenAI speech and images, ElevenLabs, YouTube):
 * the dispatcher that sends a client's requests through an http://, https:// or socks5:// proxy
 * (proxyDispatcher), its public-only twin for users' addresses (lib/egress), the dispatchers shared
 * per proxy URL, a fetch through a dispatcher, and what a SOCKS5 handshake failure was
 * (SocksProxyError, never carrying the proxy's password).
 *
 * Requests use undici's `fetch` (the package, not Node's global), so a `dispatcher` can be given
 * per request; the types here are undici's too.
 */

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
  return findCause(error, (cause): cause is SocksProxyError => cause instanceof SocksProxyError);
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
