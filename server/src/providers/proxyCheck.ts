import net from 'node:net';
import { assertPublicUrl, isBlockedAddressError } from '../lib/egress';
import tls from 'node:tls';
import { translate, type MessageKey, type MessageParams } from '../messages';

/**
 * Checks that an outbound proxy works, with nothing but node:net and node:tls: connect to the
 * proxy (TLS for https:// proxies), open a tunnel to the target (HTTP CONNECT for http/https
 * proxies, SOCKS5 for socks5), speak TLS through the tunnel when the target is https, send
 * `HEAD <path>` and read the status line. Any valid HTTP answer means the proxy works.
 *
 * Never throws for network failures: the answer says why it failed, as a message key (so callers
 * can translate it) and as an English `error`. Credentials are sent only to the proxy and never
 * appear in the answer.
 */

/** Keys of the reasons a check fails (`proxies.failure.*` in messages.ts). */
export type ProxyFailureKey = Extract<MessageKey, `proxies.failure.${string}`>;

export interface ProxyFailure {
  key: ProxyFailureKey;
  params: MessageParams;
}

export interface ProxyCheckResult {
  ok: boolean;
  /** Milliseconds from the first connection to the target's status line; null on failure. */
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
  /** Overall limit; every socket is destroyed when it passes. Default 10 s. */
  timeoutMs?: number;
  /** Extra trusted certificates for the TLS connections (tests with self-signed certificates). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Let the proxy's address be private or local (ALLOW_PRIVATE_URLS); refused by default. */
  allowPrivate?: boolean;
}

export const DEFAULT_PROXY_CHECK_TIMEOUT_MS = 10_000;
const MAX_HEAD_BYTES = 16 * 1024;

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks5:': 1080 };

/** A failure with a known reason; anything else is classified in `toFailure`. */
class CheckFailure extends Error {
  constructor(
    readonly key: ProxyFailureKey,
    readonly params: MessageParams = {},
  ) {
    super(key);
  }
}

/** Reads a socket as a byte stream: exactly n bytes, or up to a delimiter. */
class SocketReader {
  private buffer = Buffer.alloc(0);
  private failure: Error | null = null;
  private ended = false;
  private wake: (() => void) | null = null;

  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.notify();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.notify();
  };
  private readonly onError = (error: Error) => {
    this.failure ??= error;
    this.notify();
  };

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onError);
  }

  /** Stops reading, so another layer (TLS) can take the socket over. */
  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async more(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.ended) throw new CheckFailure('proxies.failure.closed');
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  async bytes(n: number): Promise<Buffer> {
    while (this.buffer.length < n) await this.more();
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** Everything up to and including the delimiter; `tooLong` when it does not come in time. */
  async until(delimiter: string, tooLong: () => Error): Promise<string> {
    for (;;) {
      const at = this.buffer.indexOf(delimiter, 0, 'latin1');
      if (at >= 0) {
        const out = this.buffer.subarray(0, at + delimiter.length);
        this.buffer = this.buffer.subarray(at + delimiter.length);
        return out.toString('latin1');
      }
      if (this.buffer.length > MAX_HEAD_BYTES) throw tooLong();
      await this.more();
    }
  }
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
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 0);
}

/** host:port with IPv6 brackets, as CONNECT and error messages want it. */
function authority(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Waits for a plain TCP connection. */
function connectTcp(host: string, port: number, track: (s: net.Socket) => void): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    track(socket);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Waits for a TLS session, either to host:port or over an existing socket (a tunnel). */
function connectTls(
  options: { host: string; port?: number; socket?: net.Socket; ca?: ProxyCheckOptions['ca'] },
  track: (s: net.Socket) => void,
): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const servername = net.isIP(options.host) ? undefined : options.host;
    const socket = tls.connect({
      host: options.host,
      port: options.port,
      socket: options.socket,
      servername,
      ca: options.ca === undefined ? undefined : [...tls.rootCertificates, ...[options.ca].flat()],
    });
    track(socket);
    socket.once('secureConnect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (error: Error) => {
      const code = errorCode(error);
      if (code && NETWORK_CODES.has(code)) reject(error);
      else reject(new CheckFailure('proxies.failure.tls', { error: code ?? error.message }));
    };
    socket.once('error', onError);
  });
}

async function httpConnectTunnel(socket: net.Socket, proxy: URL, targetHost: string, targetPort: number): Promise<void> {
  const reader = new SocketReader(socket);
  const target = authority(targetHost, targetPort);
  const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
  if (proxy.username || proxy.password) {
    const basic = Buffer.from(`${safeDecode(proxy.username)}:${safeDecode(proxy.password)}`, 'utf8').toString('base64');
    lines.push(`Proxy-Authorization: Basic ${basic}`);
  }
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const notProxy = () => new CheckFailure('proxies.failure.notProxy', { protocol: 'HTTP' });
  const head = await reader.until('\r\n\r\n', notProxy);
  reader.detach();
  const status = /^HTTP\/1\.[01] (\d{3})(?: |\r)/.exec(head);
  if (!status) throw notProxy();
  const code = Number(status[1]);
  if (code < 200 || code > 299) throw new CheckFailure('proxies.failure.tunnelRefused', { status: code });
}

async function socks5Tunnel(socket: net.Socket, proxy: URL, targetHost: string, targetPort: number): Promise<void> {
  const reader = new SocketReader(socket);
  const notProxy = new CheckFailure('proxies.failure.notProxy', { protocol: 'SOCKS5' });
  const hasCredentials = Boolean(proxy.username || proxy.password);
  const username = Buffer.from(safeDecode(proxy.username), 'utf8');
  const password = Buffer.from(safeDecode(proxy.password), 'utf8');
  if (username.length > 255 || password.length > 255) throw new CheckFailure('proxies.failure.credentialsTooLong');

  // Greeting (RFC 1928): no authentication, plus username/password (RFC 1929) when we have them.
  socket.write(Buffer.from(hasCredentials ? [5, 2, 0x00, 0x02] : [5, 1, 0x00]));
  const [version, method] = await reader.bytes(2);
  if (version !== 5) throw notProxy;
  if (method === 0xff)
    throw new CheckFailure(hasCredentials ? 'proxies.failure.socksNoMethod' : 'proxies.failure.socksAuthRequired');
  if (method === 0x02 && hasCredentials) {
    socket.write(Buffer.concat([Buffer.from([1, username.length]), username, Buffer.from([password.length]), password]));
    const [, status] = await reader.bytes(2);
    if (status !== 0) throw new CheckFailure('proxies.failure.socksAuthFailed');
  } else if (method !== 0x00) {
    throw notProxy;
  }

  // CONNECT: IP literals as such, names as a domain (the proxy resolves them).
  let address: Buffer;
  if (net.isIPv4(targetHost)) {
    address = Buffer.from([1, ...targetHost.split('.').map(Number)]);
  } else if (net.isIPv6(targetHost)) {
    address = Buffer.concat([Buffer.from([4]), ipv6Bytes(targetHost)]);
  } else {
    const name = Buffer.from(targetHost, 'utf8');
    if (name.length > 255) throw notProxy;
    address = Buffer.concat([Buffer.from([3, name.length]), name]);
  }
  const port = Buffer.alloc(2);
  port.writeUInt16BE(targetPort);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), address, port]));

  const [replyVersion, reply, , addressType] = await reader.bytes(4);
  if (replyVersion !== 5) throw notProxy;
  if (reply !== 0) {
    throw new CheckFailure('proxies.failure.socksConnectFailed', {
      target: authority(targetHost, targetPort),
      reply: reply ?? -1,
    });
  }
  if (addressType === 1) await reader.bytes(4 + 2);
  else if (addressType === 4) await reader.bytes(16 + 2);
  else if (addressType === 3) await reader.bytes((await reader.bytes(1))[0]! + 2);
  else throw notProxy;
  reader.detach();
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail] = address.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const expand = (groups: string[]): number[] =>
    groups.flatMap((g) => {
      if (g.includes('.')) return g.split('.').map(Number); // embedded IPv4
      const n = parseInt(g, 16);
      return [n >> 8, n & 0xff];
    });
  const left = expand(parts(head));
  const right = tail === undefined ? [] : expand(parts(tail));
  const zeros = new Array<number>(16 - left.length - right.length).fill(0);
  return Buffer.from([...left, ...zeros, ...right]);
}

async function run(options: ProxyCheckOptions, track: (s: net.Socket) => void): Promise<void> {
  const { url: proxy } = options;
  const target = new URL(options.target);
  const targetHost = bareHost(target.hostname);
  const targetPort = portOf(target);
  const proxyHost = bareHost(proxy.hostname);
  const proxyPort = portOf(proxy);

  if (!(proxy.protocol in DEFAULT_PORTS)) {
    throw new CheckFailure('proxies.failure.unsupportedProtocol', { protocol: proxy.protocol.replace(/:$/, '') });
  }
  // The proxy is a user's address too: it may not lead into this server's own network.
  if (!options.allowPrivate) await assertPublicUrl(proxy.href);

  const first =
    proxy.protocol === 'https:'
      ? await connectTls({ host: proxyHost, port: proxyPort, ca: options.ca }, track)
      : await connectTcp(proxyHost, proxyPort, track);
  if (proxy.protocol === 'socks5:') await socks5Tunnel(first, proxy, targetHost, targetPort);
  else await httpConnectTunnel(first, proxy, targetHost, targetPort);

  const tunnel =
    target.protocol === 'https:' ? await connectTls({ host: targetHost, socket: first, ca: options.ca }, track) : first;
  const reader = new SocketReader(tunnel);
  tunnel.write(
    `HEAD ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUser-Agent: proxy-check\r\nConnection: close\r\n\r\n`,
  );
  const badAnswer = () => new CheckFailure('proxies.failure.badTargetAnswer');
  let statusLine: string;
  try {
    statusLine = await reader.until('\r\n', badAnswer);
  } catch (error) {
    if (error instanceof CheckFailure && error.key === 'proxies.failure.closed') throw badAnswer();
    throw error;
  }
  reader.detach();
  if (!/^HTTP\/\d(?:\.\d)? \d{3}(?: |\r)/.test(statusLine)) throw badAnswer();
}

function toFailure(error: unknown, proxy: URL): ProxyFailure {
  if (error instanceof CheckFailure) return { key: error.key, params: error.params };
  if (isBlockedAddressError(error)) return { key: 'proxies.failure.addressNotAllowed', params: {} };
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return { key: 'proxies.failure.refused', params: {} };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return { key: 'proxies.failure.hostNotFound', params: { host: bareHost(proxy.hostname) } };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') return { key: 'proxies.failure.closed', params: {} };
  return { key: 'proxies.failure.network', params: { code: code ?? (error instanceof Error ? error.message : String(error)) } };
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

export async function checkProxy(options: ProxyCheckOptions): Promise<ProxyCheckResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_CHECK_TIMEOUT_MS;
  const sockets: net.Socket[] = [];
  const track = (socket: net.Socket) => {
    sockets.push(socket);
    // Errors are read by whichever step uses the socket; this keeps a late one from crashing.
    socket.on('error', () => undefined);
  };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const work = run(options, track);
  // After a timeout the work fails on its destroyed sockets; nobody waits for it any more.
  work.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure('proxies.failure.timeout', { seconds: seconds(timeoutMs) })), timeoutMs);
  });
  try {
    await Promise.race([work, timeout]);
    return { ok: true, latencyMs: Math.max(0, Math.round(performance.now() - started)) };
  } catch (error) {
    const failure = toFailure(error, options.url);
    return { ok: false, latencyMs: null, error: translate('en', failure.key, failure.params), failure };
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
}
