import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the OpenAI REST API for tests and local runs without a network: Bearer auth,
 * `GET /v1/models`, `GET /v1/models/{id}` and `POST /v1/chat/completions` (non-streaming), with the
 * real API's answer and error shapes. Point the `openai` client at `url`.
 */

export interface FakeOpenAIRequest {
  method: string;
  /** Path without the query string, e.g. /v1/models. */
  path: string;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown;
  /** The bearer key that came with the request, or null. */
  apiKey: string | null;
}

export interface FakeChatMessage {
  role: string;
  content: unknown;
}

/** What `respond` receives: the chat-completion request body. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  [field: string]: unknown;
}

export type FakeResponder = (request: FakeChatRequest) => string | Promise<string>;

export interface FakeOpenAIOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The keys accepted; absent means any non-empty key. */
  apiKeys?: string[];
  /** Refuses keys this says are wrong, on top of `apiKeys` (for clicking through both outcomes). */
  rejectKey?: (key: string) => boolean;
  /** Model ids answered by /v1/models and accepted by chat completions. */
  models?: string[];
  /** The assistant's text for a chat completion; default: an echo of the last user message. */
  respond?: FakeResponder;
  /** false: /v1/models answers 404, like OpenAI-compatible servers without it. Default true. */
  modelsEndpoint?: boolean;
}

export interface FakeFailureOptions {
  /** Sent as `retry-after-ms`, which the openai client honours (keeps retry tests fast). */
  retryAfterMs?: number;
  message?: string;
}

export interface FakeOpenAI {
  /** The API root, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: FakeOpenAIRequest[];
  /** The next `count` requests (any route) answer `status` (429 rate limit, 5xx server error). */
  setFailure(status: number, count?: number, options?: FakeFailureOptions): void;
  /** Replaces the responder; undefined restores the echo. */
  setResponder(respond: FakeResponder | undefined): void;
  /** Waits this long before every answer (to test timeouts); 0 to stop. */
  setDelay(ms: number): void;
  /** Forgets recorded requests, pending failures and the delay. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1', 'gpt-3.5-turbo'];
const MODEL_CREATED = 1_715_367_049;
const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface ApiErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

function apiError(
  message: string,
  type = 'invalid_request_error',
  param: string | null = null,
  code: string | null = null,
): { error: ApiErrorBody } {
  return { error: { message, type, param, code } };
}

function maskKey(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 3)}...${key.slice(-4)}`;
}

/** The text of a message's content: a string, or the text parts of a content array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join(' ');
  }
  return '';
}

/** Rough token count: words and punctuation runs. */
function countTokens(text: string): number {
  return text.match(/\w+|[^\s\w]+/g)?.length ?? 0;
}

export const echoResponder: FakeResponder = (request) => {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  return `Echo: ${textOf(lastUser?.content).trim().slice(0, 200)}`;
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const acceptedKeys = options.apiKeys ? new Set(options.apiKeys) : undefined;
  const models = options.models ?? DEFAULT_FAKE_MODELS;
  const modelsEndpoint = options.modelsEndpoint ?? true;
  let respond: FakeResponder = options.respond ?? echoResponder;
  let failures: { status: number; remaining: number; options: FakeFailureOptions } | undefined;
  let delayMs = 0;
  let completions = 0;
  const requests: FakeOpenAIRequest[] = [];

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': `req_${crypto.randomBytes(12).toString('hex')}`,
      'openai-processing-ms': '1',
      ...headers,
    });
    res.end(text);
  }

  function modelObject(id: string) {
    return { id, object: 'model', created: MODEL_CREATED, owned_by: id.startsWith('gpt-') ? 'openai' : 'system' };
  }

  async function chatCompletion(body: unknown, res: http.ServerResponse): Promise<void> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return send(
        res,
        400,
        apiError(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        ),
      );
    }
    const request = body as Partial<FakeChatRequest>;
    if (typeof request.model !== 'string' || request.model === '') {
      return send(res, 400, apiError('you must provide a model parameter', 'invalid_request_error', 'model'));
    }
    if (!Array.isArray(request.messages) || request.messages.length === 0) {
      return send(
        res,
        400,
        apiError("Missing required parameter: 'messages'.", 'invalid_request_error', 'messages', 'missing_required_parameter'),
      );
    }
    if (request.stream === true) {
      return send(res, 400, apiError('stream is not supported by this fake', 'invalid_request_error', 'stream'));
    }
    if (!models.includes(request.model)) {
      return send(
        res,
        404,
        apiError(
          `The model \`${request.model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          null,
          'model_not_found',
        ),
      );
    }
    const chat = request as FakeChatRequest;
    let content = await respond(chat);
    let finishReason: 'stop' | 'length' = 'stop';
    const limit = chat.max_completion_tokens ?? chat.max_tokens;
    if (typeof limit === 'number' && limit >= 1) {
      const tokens = content.match(/\s*(\w+|[^\s\w]+)/g) ?? [];
      if (tokens.length > limit) {
        content = tokens.slice(0, limit).join('');
        finishReason = 'length';
      }
    }
    completions += 1;
    const promptTokens = chat.messages.reduce((n, m) => n + countTokens(textOf(m.content)) + 4, 3);
    const completionTokens = countTokens(content);
    send(res, 200, {
      id: `chatcmpl-fake${String(completions).padStart(6, '0')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: chat.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    let body: unknown;
    let invalidJson = false;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        invalidJson = true;
      }
    }
    const auth = /^Bearer\s+(.+)$/i.exec(req.headers.authorization?.trim() ?? '');
    const apiKey = auth?.[1]?.trim() || null;
    requests.push({ method, path, body, apiKey });

    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;

    if (failures && failures.remaining > 0) {
      failures.remaining -= 1;
      const { status, options: failure } = failures;
      if (failures.remaining === 0) failures = undefined;
      const headers: Record<string, string> =
        failure.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(failure.retryAfterMs) };
      const error =
        status === 429
          ? apiError(
              failure.message ?? 'Rate limit reached for requests. Please try again later.',
              'requests',
              null,
              'rate_limit_exceeded',
            )
          : apiError(
              failure.message ?? 'The server had an error while processing your request. Sorry about that!',
              'server_error',
            );
      return send(res, status, error, headers);
    }

    if (!apiKey) {
      return send(
        res,
        401,
        apiError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        ),
      );
    }
    if ((acceptedKeys && !acceptedKeys.has(apiKey)) || options.rejectKey?.(apiKey)) {
      return send(
        res,
        401,
        apiError(
          `Incorrect API key provided: ${maskKey(apiKey)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          null,
          'invalid_api_key',
        ),
      );
    }
    if (invalidJson) {
      return send(
        res,
        400,
        apiError(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        ),
      );
    }

    if (modelsEndpoint && method === 'GET' && path === '/v1/models') {
      return send(res, 200, { object: 'list', data: models.map(modelObject) });
    }
    const modelPath = /^\/v1\/models\/([^/]+)$/.exec(path);
    if (modelsEndpoint && method === 'GET' && modelPath) {
      const id = decodeURIComponent(modelPath[1]!);
      if (models.includes(id)) return send(res, 200, modelObject(id));
      return send(res, 404, apiError(`The model '${id}' does not exist`, 'invalid_request_error', 'model', 'model_not_found'));
    }
    if (method === 'POST' && path === '/v1/chat/completions') return chatCompletion(body, res);
    return send(res, 404, apiError(`Invalid URL (${method} ${path})`));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      send(res, 500, apiError(`fake OpenAI failed: ${error instanceof Error ? error.message : String(error)}`, 'server_error'));
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}/v1`,
    port,
    requests,
    setFailure(status, count = 1, failureOptions = {}) {
      failures = count > 0 ? { status, remaining: count, options: failureOptions } : undefined;
    },
    setResponder(next) {
      respond = next ?? options.respond ?? echoResponder;
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    reset() {
      requests.length = 0;
      failures = undefined;
      delayMs = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

// `node fakes/openai.js` (or ts-node): serve on FAKE_OPENAI_PORT (default 8787), accepting any key.
if (require.main === module) {
  const port = Number(process.env.FAKE_OPENAI_PORT ?? 8787);
  startFakeOpenAI({ port })
    .then((fake) => console.log(`fake OpenAI listening on ${fake.url}`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
