/**
 * Answers the web app's API calls in component tests. Installs a jest.fn on globalThis.fetch that
 * routes by "METHOD /path" (path relative to /api/v1, without the query string) to a reply.
 *
 *   const api = mockApi({
 *     'POST /auth/login': reply(200, { access_token: 't', token_type: 'bearer', user }),
 *     'GET /auth/me': (req) => (req.headers.get('authorization') ? reply(200, user) : reply(401, { detail: 'Not authenticated' })),
 *     'GET /processes/': never(),   // stays pending
 *   });
 *   expect(api.calls('POST /auth/login')[0].body).toEqual({ email: 'a@b.c', password: 'x' });
 *
 * An unmatched call answers 404 {detail: "No mock for ..."} and is listed by `unmatched()`.
 */
import { API_BASE_URL } from '../api';

export interface MockRequest {
  method: string;
  /** Path below /api/v1, e.g. "/auth/login". */
  path: string;
  url: URL;
  headers: Headers;
  /** The parsed JSON body (or the text, if not JSON; undefined if none). */
  body: unknown;
}

export interface MockReply {
  status: number;
  statusText?: string;
  /** Objects and arrays are sent as JSON; a string is sent as is (see contentType). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export type MockHandler = MockReply | Promise<MockReply> | ((request: MockRequest) => MockReply | Promise<MockReply>);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A JSON reply (or text, when `body` is a string and a content type is given). */
export function reply(status: number, body?: unknown, options: Omit<MockReply, 'status' | 'body'> = {}): MockReply {
  return { status, body, ...options };
}

/** A reply that never comes (the request stays pending). */
export function never(): () => Promise<MockReply> {
  return () => new Promise<MockReply>(() => undefined);
}

/** A reply that comes when the returned `resolve` is called. */
export function deferred(): { handler: () => Promise<MockReply>; resolve: (reply: MockReply) => void } {
  let resolve: (value: MockReply) => void = () => undefined;
  const promise = new Promise<MockReply>((r) => (resolve = r));
  return { handler: () => promise, resolve: (value) => resolve(value) };
}

function toResponse({ status, statusText, body, contentType, headers = {} }: MockReply): Response {
  const isText = typeof body === 'string';
  const text = body === undefined ? null : isText ? (body as string) : JSON.stringify(body);
  const type = contentType ?? (isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  const init = {
    status,
    statusText: statusText ?? STATUS_TEXT[status] ?? '',
    headers: text === null ? headers : { 'content-type': type, ...headers },
  };
  return new Response(status === 204 ? null : text, init);
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface ApiMock {
  fetch: jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]>;
  /** Every request received, in order. */
  requests: MockRequest[];
  /** The requests matching "METHOD /path". */
  calls(route: string): MockRequest[];
  /** Requests nobody answered. */
  unmatched(): MockRequest[];
  /** Adds or replaces handlers. */
  on(handlers: Record<string, MockHandler>): void;
}

export function mockApi(initial: Record<string, MockHandler> = {}): ApiMock {
  const handlers = new Map(Object.entries(initial));
  const requests: MockRequest[] = [];
  const misses: MockRequest[] = [];

  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.startsWith(API_BASE_URL) ? url.pathname.slice(API_BASE_URL.length) || '/' : url.pathname;
    const mockRequest: MockRequest = {
      method: request.method,
      path,
      url,
      headers: request.headers,
      body: await readBody(request),
    };
    requests.push(mockRequest);
    const handler = handlers.get(`${request.method} ${path}`);
    if (handler === undefined) {
      misses.push(mockRequest);
      return toResponse(reply(404, { detail: `No mock for ${request.method} ${path}` }));
    }
    const answer = typeof handler === 'function' ? await handler(mockRequest) : await handler;
    return toResponse(answer);
  });

  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return {
    fetch: fetchMock,
    requests,
    calls: (route) => requests.filter((request) => `${request.method} ${request.path}` === route),
    unmatched: () => [...misses],
    on: (more) => {
      for (const [route, handler] of Object.entries(more)) handlers.set(route, handler);
    },
  };
}
