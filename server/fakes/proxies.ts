import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

/**
 * Small real servers for proxy tests, all on 127.0.0.1: an HTTP target, an HTTP CONNECT proxy
 * (optionally over TLS, optionally requiring Basic auth), a SOCKS5 proxy (optionally requiring
 * username/password) and a server that accepts connections and never answers.
 */

export interface Running {
  port: number;
  close(): Promise<void>;
}

function listen(server: net.Server, sockets: Set<net.Socket>, port = 0): Promise<Running> {
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Buffers a socket's bytes for a simple protocol parser. */
class Bytes {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  private closed = false;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.wake?.();
  };

  private async more(): Promise<void> {
    if (this.closed) throw new Error('closed');
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    this.wake = null;
  }

  async take(n: number): Promise<Buffer> {
    while (this.buffer.length < n) await this.more();
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  async head(): Promise<string> {
    for (;;) {
      const at = this.buffer.indexOf('\r\n\r\n');
      if (at >= 0) {
        const out = this.buffer.subarray(0, at + 4).toString('latin1');
        this.buffer = this.buffer.subarray(at + 4);
        return out;
      }
      await this.more();
    }
  }

  /** Hands the socket over to a pipe, with whatever was read past the parsed part. */
  release(): Buffer {
    this.socket.off('data', this.onData);
    return this.buffer;
  }
}

const REQUEST_LINE = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/;

/**
 * Notes each HTTP/1.1 request a client sends through a tunnel to a plain-HTTP target, as
 * `METHOD host:port/path`. A client sends its next request on a connection only after the answer
 * to the last one, so every request line starts a chunk.
 */
function tapRequests(client: net.Socket, leftover: Buffer, target: string, requests: string[]): void {
  const note = (chunk: Buffer) => {
    const line = REQUEST_LINE.exec(chunk.subarray(0, 4096).toString('latin1'));
    if (line) requests.push(`${line[1]} ${target}${line[2]}`);
  };
  if (leftover.length) note(leftover);
  client.on('data', note);
}

function pipeTo(client: net.Socket, leftover: Buffer, upstream: net.Socket): void {
  if (leftover.length) upstream.write(leftover);
  client.pipe(upstream);
  upstream.pipe(client);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}

/** An HTTP server answering every request 204; records what it received. */
export async function startTarget(): Promise<Running & { requests: { method: string; url: string; host: string }[] }> {
  const requests: { method: string; url: string; host: string }[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '' });
    res.writeHead(204).end();
  });
  const running = await listen(server, new Set());
  return {
    ...running,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** An HTTPS server answering every request 204, with the given key and certificate. */
export async function startTlsTarget(tlsOptions: tls.TlsOptions): Promise<Running & { requests: number }> {
  const state = { requests: 0 };
  const server = https.createServer(tlsOptions, (_req, res) => {
    state.requests += 1;
    res.writeHead(204).end();
  });
  server.on('tlsClientError', () => undefined);
  const running = await listen(server, new Set());
  return Object.assign(state, running, {
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  });
}

export interface ProxyLog {
  /** Tunnels opened: the host:port asked for. */
  tunnels: string[];
  /** Requests sent through the tunnels to plain-HTTP targets: `METHOD host:port/path?query`. */
  requests: string[];
  /** Authentication attempts refused. */
  refusals: number;
  /** SOCKS5 address types of CONNECT requests (1 IPv4, 3 domain, 4 IPv6). */
  addressTypes: number[];
}

/**
 * Where a proxy really connects for a target it was asked for: tests let a public address (which
 * the console's checks accept) stand for a server on 127.0.0.1. The log keeps what was asked.
 */
export type ProxyRoute = (host: string, port: number) => { host: string; port: number };

/** An HTTP CONNECT proxy; with credentials it answers 407 to anything without them. TLS with `tlsOptions`. */
export async function startHttpProxy(
  options: { username?: string; password?: string; tlsOptions?: tls.TlsOptions; port?: number; route?: ProxyRoute } = {},
): Promise<Running & ProxyLog> {
  const log: ProxyLog = { tunnels: [], requests: [], refusals: 0, addressTypes: [] };
  const expected =
    options.username === undefined
      ? undefined
      : `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
  const handle = async (client: net.Socket) => {
    const bytes = new Bytes(client);
    const head = await bytes.head();
    const [requestLine = '', ...headerLines] = head.split('\r\n');
    const match = /^CONNECT (\S+):(\d+) HTTP\/1\.[01]$/.exec(requestLine);
    if (!match) {
      client.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const auth = headerLines.find((l) => /^proxy-authorization:/i.test(l))?.replace(/^[^:]+:\s*/, '');
    if (expected !== undefined && auth !== expected) {
      log.refusals += 1;
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const host = match[1]!.replace(/^\[(.*)\]$/, '$1');
    const port = Number(match[2]);
    log.tunnels.push(`${match[1]}:${port}`);
    const upstream = net.connect(options.route ? options.route(host, port) : { host, port });
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const leftover = bytes.release();
      tapRequests(client, leftover, `${match[1]}:${port}`, log.requests);
      pipeTo(client, leftover, upstream);
    });
  };
  const onSocket = (client: net.Socket) => {
    handle(client).catch(() => client.destroy());
  };
  const server = options.tlsOptions ? tls.createServer(options.tlsOptions, onSocket) : net.createServer(onSocket);
  const sockets = new Set<net.Socket>();
  if (options.tlsOptions) server.on('tlsClientError', () => undefined);
  return Object.assign(log, await listen(server, sockets, options.port));
}

/** A SOCKS5 proxy (RFC 1928) with optional username/password authentication (RFC 1929). */
export async function startSocks5Proxy(
  options: { username?: string; password?: string; route?: ProxyRoute } = {},
): Promise<Running & ProxyLog> {
  const log: ProxyLog = { tunnels: [], requests: [], refusals: 0, addressTypes: [] };
  const needsAuth = options.username !== undefined;
  const handle = async (client: net.Socket) => {
    const bytes = new Bytes(client);
    const [version, methodCount] = await bytes.take(2);
    if (version !== 5) return client.destroy();
    const methods = [...(await bytes.take(methodCount!))];
    const method = needsAuth ? 0x02 : 0x00;
    if (!methods.includes(method)) {
      client.end(Buffer.from([5, 0xff]));
      return;
    }
    client.write(Buffer.from([5, method]));
    if (needsAuth) {
      const [, userLength] = await bytes.take(2);
      const username = (await bytes.take(userLength!)).toString('utf8');
      const [passwordLength] = await bytes.take(1);
      const password = (await bytes.take(passwordLength!)).toString('utf8');
      if (username !== options.username || password !== (options.password ?? '')) {
        log.refusals += 1;
        client.end(Buffer.from([1, 1]));
        return;
      }
      client.write(Buffer.from([1, 0]));
    }
    const [, command, , addressType] = await bytes.take(4);
    log.addressTypes.push(addressType!);
    let host: string;
    if (addressType === 1) host = [...(await bytes.take(4))].join('.');
    else if (addressType === 3) host = (await bytes.take((await bytes.take(1))[0]!)).toString('utf8');
    else if (addressType === 4) host = ((await bytes.take(16)).toString('hex').match(/.{4}/g) ?? []).join(':');
    else return client.destroy();
    const port = (await bytes.take(2)).readUInt16BE(0);
    const fail = (code: number) => client.end(Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]));
    if (command !== 1) return fail(7);
    log.tunnels.push(`${host}:${port}`);
    const upstream = net.connect(options.route ? options.route(host, port) : { host, port });
    upstream.once('error', () => fail(5));
    upstream.once('connect', () => {
      client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, port >> 8, port & 0xff]));
      const leftover = bytes.release();
      tapRequests(client, leftover, `${host}:${port}`, log.requests);
      pipeTo(client, leftover, upstream);
    });
  };
  const server = net.createServer((client) => {
    handle(client).catch(() => client.destroy());
  });
  return Object.assign(log, await listen(server, new Set()));
}

/** Accepts connections and never answers (a stuck proxy). */
export async function startSilentServer(): Promise<Running> {
  const server = net.createServer((socket) => socket.on('error', () => undefined));
  return listen(server, new Set());
}

/** A port on 127.0.0.1 nobody listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const running = await listen(server, new Set());
  await running.close();
  return running.port;
}
