import http from 'node:http';
import net from 'node:net';

/**
 * A hostile server on 127.0.0.1 for tests of the console's outbound clients: each test says how it
 * answers (`answer`), with the helpers below for the shapes that hurt: error pages made to stall a
 * regular expression, answers that never end (generated on the fly, never held in memory), answers
 * that drip a byte a second, redirects. It counts the bytes it managed to send.
 */

export type HostileHandler = (req: http.IncomingMessage, res: http.ServerResponse, server: HostileServer) => void;

export interface HostileServer {
  url: string;
  port: number;
  /** Every request: method, path and Host header. */
  requests: Array<{ method: string; url: string; host: string }>;
  /** Body bytes written by the helpers below since the last reset. */
  bytesSent: number;
  answer(handler: HostileHandler): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const sockets = new Set<net.Socket>();
  let handler: HostileHandler = (_req, res) => res.writeHead(404).end();
  const state: HostileServer = {
    url: '',
    port: 0,
    requests: [],
    bytesSent: 0,
    answer(next) {
      handler = next;
    },
    reset() {
      state.requests.length = 0;
      state.bytesSent = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
  const server = http.createServer((req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '' });
    res.on('error', () => undefined);
    req.resume();
    handler(req, res, state);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as net.AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return state;
}

/** A whole answer at once, counted. */
export function sendWhole(
  res: http.ServerResponse,
  server: HostileServer,
  status: number,
  body: string | Buffer,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  server.bytesSent += bytes.length;
  res.writeHead(status, { 'content-length': bytes.length, ...headers }).end(bytes);
}

/**
 * An answer of `totalBytes` (default: endless) made of `chunk` again and again after `head`,
 * written as the client takes it (backpressure), so the server never holds more than a chunk.
 * `declare` sends `content-length: totalBytes` (a server that says how big it is).
 */
export function sendStream(
  res: http.ServerResponse,
  server: HostileServer,
  options: {
    status?: number;
    headers?: http.OutgoingHttpHeaders;
    head?: string | Buffer;
    chunk: string | Buffer;
    totalBytes?: number;
    declare?: boolean;
  },
): void {
  const total = options.totalBytes ?? Number.POSITIVE_INFINITY;
  const chunk = typeof options.chunk === 'string' ? Buffer.from(options.chunk) : options.chunk;
  const head = typeof options.head === 'string' ? Buffer.from(options.head) : (options.head ?? Buffer.alloc(0));
  res.writeHead(options.status ?? 200, {
    ...(options.declare && Number.isFinite(total) ? { 'content-length': total } : {}),
    ...options.headers,
  });
  let sent = 0;
  let stopped = false;
  res.on('close', () => {
    stopped = true;
  });
  const write = (bytes: Buffer): boolean => {
    sent += bytes.length;
    server.bytesSent += bytes.length;
    return res.write(bytes);
  };
  const pump = () => {
    while (!stopped && sent < total) {
      const left = total - sent;
      const next = sent === 0 && head.length ? head : chunk.length > left ? chunk.subarray(0, left) : chunk;
      if (!write(next)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!stopped) res.end();
  };
  pump();
}

/** Headers now, then one byte of `body` a second (a server that keeps a connection busy forever). */
export function sendDrip(
  res: http.ServerResponse,
  server: HostileServer,
  options: { status?: number; headers?: http.OutgoingHttpHeaders; body: string; intervalMs?: number },
): void {
  res.writeHead(options.status ?? 200, options.headers ?? {});
  res.flushHeaders();
  let at = 0;
  const timer = setInterval(() => {
    if (at >= options.body.length) {
      clearInterval(timer);
      res.end();
      return;
    }
    server.bytesSent += 1;
    res.write(options.body[at]!);
    at += 1;
  }, options.intervalMs ?? 1000);
  res.on('close', () => clearInterval(timer));
}

/** A redirect to `location`. */
export function sendRedirect(res: http.ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location, 'content-length': 0 }).end();
}
