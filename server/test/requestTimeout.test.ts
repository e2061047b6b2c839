import net from 'node:net';
import { ConfigError, loadConfig } from '../src/config';
import { buildTestApp, type TestContext } from './helper';

/**
 * A client has REQUEST_TIMEOUT_MS to send its whole request (docs/security.md, "Limits"): one that
 * sends its headers and then drips the body is answered 408 and cut off at that time, instead of
 * holding a connection for as long as it likes (Fastify's default has no limit).
 */

let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await buildTestApp({ REQUEST_TIMEOUT_MS: '1000' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await ctx.close();
});

interface Drip {
  /** What the server answered (its first line), if anything, before it closed. */
  statusLine: string | undefined;
  bytesSent: number;
  closedAfterMs: number;
}

/** Sends a POST's headers announcing `length` bytes, then one byte every `everyMs`, until the server closes or all is sent. */
function drip(length: number, everyMs: number, giveUpMs: number): Promise<Drip> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let bytesSent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ statusLine: answer.split('\r\n')[0] || undefined, bytesSent, closedAfterMs: Date.now() - started });
    };
    const giveUp = setTimeout(done, giveUpMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(
        `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      );
      timer = setInterval(() => {
        if (bytesSent >= length || socket.destroyed) return;
        socket.write(bytesSent === 0 ? '{' : ' ');
        bytesSent += 1;
      }, everyMs);
    });
  });
}

describe('the request timeout', () => {
  test('a body dripped slower than REQUEST_TIMEOUT_MS allows is answered 408 and the connection closed', async () => {
    // 60 bytes, one every 250 ms: 15 s to send, against a 1 s limit (Node checks it every 250 ms here).
    const result = await drip(60, 250, 20_000);
    expect(result.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(result.bytesSent).toBeLessThan(60);
    // Cut near the limit, not when the client was done: wide bounds for a busy machine.
    expect(result.closedAfterMs).toBeLessThan(10_000);
  }, 30_000);

  test('a request sent in time is answered as usual', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/health/live`);
    expect(response.status).toBe(200);
  });

  test('REQUEST_TIMEOUT_MS is 2 minutes unless set, and must be 1 s to 1 h', () => {
    expect(loadConfig({ APP_SECRET: 'x'.repeat(32) }).requestTimeoutMs).toBe(120_000);
    expect(ctx.app.server.requestTimeout).toBe(1000);
    expect(() => loadConfig({ APP_SECRET: 'x'.repeat(32), REQUEST_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_SECRET: 'x'.repeat(32), REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});
