import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import { fetch, type Dispatcher } from 'undici';
import { assertPublicUrl, isBlockedAddressError } from '../lib/egress';
import { causes, findCause } from '../lib/errorCause';
import { translate, type MessageKey, type MessageParams } from '../messages';
import { networkCode } from './httpBodies';
import { isProxySupported, proxyDispatcher, socksProxyErrorOf } from './proxies';

/**
 * Checks that an outbound proxy works with the video engine's own client: a dispatcher from
 * `proxyDispatcher` (an undici ProxyAgent for http:// and https:// proxies, fetch-socks for
 * socks5://), undici's fetch, and `HEAD <target>` through it. Any HTTP answer means the proxy
 * works, so "connected" means the engine's calls can go through it too.
 *
 * Never throws for network failures: the answer says why it failed, as a message key (so callers
 * can translate it) and as an English `error`. Credentials are sent only to the proxy and never
 * appear in the answer.
 */

/** Keys of the reasons a check fails (`proxies.failure.*` in the message catalogue). */
export type ProxyFailureKey = Extract<MessageKey, `proxies.failure.${string}`>;

export interface ProxyFailure {
  key: ProxyFailureKey;
  params: MessageParams;
}

export interface ProxyCheckResult {
  ok: boolean;
  /** Milliseconds from the start of the check to the target's answer; null on failure. */
  latencyMs: number | null;
  /** A short English reason when ok is false. */
  error?: string;
  /** The same reason, translatable. */
  failure?: ProxyFailure;
}

export interface ProxyCheckOptions {
  /** The proxy, with its credentials: http://, https:// or socks5://. */
  url: URL;
  /** What to reach through the proxy: an http:// or https:// URL. */
  target: string;
  /** Overall limit; the check's connections are destroyed when it passes. Default 10 s. */
  timeoutMs?: number;
  /** Extra trusted certificates for the TLS connections (tests with self-signed certificates). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Let the proxy's address be private or local (ALLOW_PRIVATE_URLS); refused by default. */
  allowPrivate?: boolean;
}

export const DEFAULT_PROXY_CHECK_TIMEOUT_MS = 10_000;

/** Published by undici's ProxyAgent when a proxy accepted a CONNECT (the tunnel exists). */
const PROXY_CONNECTED = 'undici:proxy:connected';

/** A failure with a known reason; anything else is classified in `toFailure`. */
class CheckFailure extends Error {
  constructor(
    readonly key: ProxyFailureKey,
    readonly params: MessageParams = {},
  ) {
    super(key);
  }
}

/** Host without IPv6 brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** host:port of a URL, the port written out, with IPv6 brackets: what a tunnel is asked for. */
function authorityOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = bareHost(url.hostname);
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** The first cause that is not fetch's own "fetch failed" wrapper. */
function rootOf(error: unknown): unknown {
  let depth = 0;
  for (const cause of causes(error, 5)) {
    // The fifth is answered whatever it is, as the walk stops there.
    if (!(cause instanceof TypeError && cause.message === 'fetch failed') || depth === 4) return cause;
    depth += 1;
  }
  return undefined;
}

/** What a TLS handshake failure is called (Node's or OpenSSL's code), or undefined for other errors. */
function tlsFailure(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      // undici's wrapper of a certificate that does not match the proxy's name: its cause says which.
      if (code === 'UND_ERR_PRX_TLS') continue;
      if (/^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|CERT_|HOSTNAME_MISMATCH|EPROTO$)/.test(code)) {
        return code;
      }
    }
    if (typeof (cause as { library?: unknown }).library === 'string') return cause instanceof Error ? cause.message : 'TLS';
  }
  return undefined;
}

/** undici's HTTPParserError: an answer that is not HTTP (its `code` is not always set). */
function isParserError(error: unknown): boolean {
  return findCause(error, (cause) => cause instanceof Error && cause.name === 'HTTPParserError') !== undefined;
}

/** An HTTP proxy's refusal of the tunnel, from undici's ProxyAgent error text (fetch wraps it twice). */
function tunnelRefusal(error: unknown): number | undefined {
  for (const cause of causes(error)) {
    const message = cause instanceof Error ? cause.message : '';
    const match = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
    if (match) return Number(match[1] ?? match[2]);
  }
  return undefined;
}

/** A failure named by its errno-like code (or, lacking one, its text). */
function byNetworkCode(code: string | undefined, proxy: URL, timeoutMs: number): ProxyFailure {
  if (code === 'ECONNREFUSED') return { key: 'proxies.failure.refused', params: {} };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return { key: 'proxies.failure.hostNotFound', params: { host: bareHost(proxy.hostname) } };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return { key: 'proxies.failure.closed', params: {} };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return { key: 'proxies.failure.timeout', params: { seconds: seconds(timeoutMs) } };
  }
  return { key: 'proxies.failure.network', params: { code: code ?? 'unknown' } };
}

/**
 * The reason of a failed check. `tunnelled`: the proxy had opened the tunnel, so a broken or
 * garbled answer came from the target, not from the proxy.
 */
function toFailure(error: unknown, proxy: URL, target: URL, tunnelled: boolean, timeoutMs: number): ProxyFailure {
  if (error instanceof CheckFailure) return { key: error.key, params: error.params };
  if (isBlockedAddressError(error)) return { key: 'proxies.failure.addressNotAllowed', params: {} };

  const socks = socksProxyErrorOf(error);
  if (socks) {
    const { failure } = socks;
    switch (failure.step) {
      case 'auth_required':
        return { key: 'proxies.failure.socksAuthRequired', params: {} };
      case 'no_method':
        return { key: 'proxies.failure.socksNoMethod', params: {} };
      case 'auth_failed':
        return { key: 'proxies.failure.socksAuthFailed', params: {} };
      case 'credentials_too_long':
        return { key: 'proxies.failure.credentialsTooLong', params: {} };
      case 'not_socks':
        return { key: 'proxies.failure.notProxy', params: { protocol: 'SOCKS5' } };
      case 'rejected':
        return { key: 'proxies.failure.socksConnectFailed', params: { target: authorityOf(target), reply: failure.reply } };
      case 'closed':
        return { key: 'proxies.failure.closed', params: {} };
      case 'timeout':
        return { key: 'proxies.failure.timeout', params: { seconds: seconds(timeoutMs) } };
      default:
        return byNetworkCode(failure.code, proxy, timeoutMs);
    }
  }

  const refused = tunnelRefusal(error);
  if (refused !== undefined) return { key: 'proxies.failure.tunnelRefused', params: { status: refused } };
  const root = rootOf(error);
  const tls = tlsFailure(root);
  if (tls !== undefined) return { key: 'proxies.failure.tls', params: { error: tls } };
  const code = networkCode(root);
  // A garbled or cut answer: the target's once the tunnel exists, else the proxy's own.
  const garbled = code?.startsWith('HPE_') === true || isParserError(root);
  const cut = code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
  if (tunnelled && (garbled || cut)) return { key: 'proxies.failure.badTargetAnswer', params: {} };
  if (garbled) return { key: 'proxies.failure.notProxy', params: { protocol: 'HTTP' } };
  return byNetworkCode(code ?? (root instanceof Error ? root.message : String(root)), proxy, timeoutMs);
}

export async function checkProxy(options: ProxyCheckOptions): Promise<ProxyCheckResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_CHECK_TIMEOUT_MS;
  const { url: proxy } = options;
  const target = new URL(options.target);
  const started = performance.now();
  const abort = new AbortController();
  let dispatcher: Dispatcher | undefined;
  // SOCKS5 failures before the tunnel exists are all SocksProxyErrors: anything after it is the target's.
  let tunnelled = proxy.protocol === 'socks5:';
  const onTunnel = (message: unknown) => {
    const params = (message as { connectParams?: { origin?: unknown; path?: unknown } }).connectParams;
    if (params?.origin === proxy.origin && params.path === authorityOf(target)) tunnelled = true;
  };

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const failure = new CheckFailure('proxies.failure.timeout', { seconds: seconds(timeoutMs) });
      abort.abort(failure);
      reject(failure);
    }, timeoutMs);
  });

  async function run(): Promise<void> {
    if (!isProxySupported(proxy.href)) {
      throw new CheckFailure('proxies.failure.unsupportedProtocol', { protocol: proxy.protocol.replace(/:$/, '') });
    }
    // The proxy is a user's address too: it may not lead into this server's own network.
    if (!options.allowPrivate) await assertPublicUrl(proxy.href);
    abort.signal.throwIfAborted();
    dispatcher = proxyDispatcher(proxy.href, { connectTimeoutMs: timeoutMs, ...(options.ca ? { ca: options.ca } : {}) });
    const response = await fetch(target, {
      method: 'HEAD',
      headers: { 'user-agent': 'proxy-check' },
      redirect: 'manual',
      dispatcher,
      signal: abort.signal,
    });
    await response.body?.cancel().catch(() => undefined);
  }

  diagnostics.subscribe(PROXY_CONNECTED, onTunnel);
  const work = run();
  // After a timeout the work fails on its aborted request; nobody waits for it any more.
  work.catch(() => undefined);
  try {
    await Promise.race([work, timeout]);
    return { ok: true, latencyMs: Math.max(0, Math.round(performance.now() - started)) };
  } catch (error) {
    const failure = toFailure(error, proxy, target, tunnelled, timeoutMs);
    return { ok: false, latencyMs: null, error: translate('en', failure.key, failure.params), failure };
  } finally {
    clearTimeout(timer);
    diagnostics.unsubscribe(PROXY_CONNECTED, onTunnel);
    // Nothing of the check stays open: its connections (to the proxy, through the tunnel) go now.
    await (dispatcher as Dispatcher | undefined)?.destroy().catch(() => undefined);
  }
}
