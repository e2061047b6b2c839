import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeSpeechPcm } from './openai';

/**
 * A fake of the ElevenLabs API for tests and local runs without a network: `xi-api-key` auth,
 * `GET /v1/voices` and `POST /v1/text-to-speech/{voice_id}?output_format=pcm_<rate>`, which answers
 * raw 16-bit little-endian mono PCM of a soft tone lasting about 0.35 s per word (at least 1 s).
 * Errors have the real API's shapes: `{detail: {status, message}}`, and FastAPI's
 * `{detail: [{type, loc, msg}]}` for a malformed body (422).
 */

export interface FakeElevenLabsRequest {
  method: string;
  /** Path without the query string, e.g. /v1/voices. */
  path: string;
  /** The query parameters (last value wins). */
  query: Record<string, string>;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown;
  /** The `xi-api-key` header, or null. */
  apiKey: string | null;
}

export interface FakeElevenLabsVoice {
  voice_id: string;
  name: string;
  category?: string;
  labels?: Record<string, string>;
}

export interface FakeElevenLabsOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The keys accepted; absent means any non-empty key. */
  apiKeys?: string[];
  /** Refuses keys this says are wrong, on top of `apiKeys`. */
  rejectKey?: (key: string) => boolean;
  /** Default FAKE_ELEVENLABS_VOICES. */
  voices?: FakeElevenLabsVoice[];
  /** Default FAKE_ELEVENLABS_MODELS. */
  models?: string[];
  /** Characters the account may speak in total; past it, 401 quota_exceeded. Default unlimited. */
  characterQuota?: number;
  /** Longest text of one request; default 10 000 (eleven_multilingual_v2's limit). */
  maxTextLength?: number;
}

export interface FakeElevenLabsFailureOptions {
  /** Sent as `retry-after` in seconds, rounded up, and as `retry-after-ms`. */
  retryAfterMs?: number;
  message?: string;
  /** `detail.status`; default too_many_concurrent_requests for 429, internal_server_error otherwise. */
  status?: string;
}

export interface FakeElevenLabs {
  /** The API root without /v1, e.g. http://127.0.0.1:PORT (as ELEVENLABS_BASE_URL takes it). */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: FakeElevenLabsRequest[];
  /** Characters spoken so far (counted against `characterQuota`). */
  readonly charactersUsed: number;
  /** The next `count` requests (any route) answer `status` with the API's error shape. */
  setFailure(status: number, count?: number, options?: FakeElevenLabsFailureOptions): void;
  /** Waits this long before every answer (to test timeouts); 0 to stop. */
  setDelay(ms: number): void;
  /** Forgets recorded requests, pending failures, the delay and the characters used. */
  reset(): void;
  close(): Promise<void>;
}

/** Two of the API's premade voices. */
export const FAKE_ELEVENLABS_VOICES: FakeElevenLabsVoice[] = [
  { voice_id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', category: 'premade', labels: { accent: 'american', gender: 'female' } },
  { voice_id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam', category: 'premade', labels: { accent: 'american', gender: 'male' } },
];
export const FAKE_ELEVENLABS_MODELS = [
  'eleven_multilingual_v2',
  'eleven_turbo_v2_5',
  'eleven_flash_v2_5',
  'eleven_turbo_v2',
  'eleven_monolingual_v1',
  'eleven_v3',
];
const PCM_RATES = [8000, 16_000, 22_050, 24_000, 44_100, 48_000];
const MAX_BODY_BYTES = 1024 * 1024;

const detail = (status: string, message: string) => ({ detail: { status, message } });

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

export async function startFakeElevenLabs(options: FakeElevenLabsOptions = {}): Promise<FakeElevenLabs> {
  const acceptedKeys = options.apiKeys ? new Set(options.apiKeys) : undefined;
  const voices = options.voices ?? FAKE_ELEVENLABS_VOICES;
  const models = options.models ?? FAKE_ELEVENLABS_MODELS;
  const maxTextLength = options.maxTextLength ?? 10_000;
  let failures: { status: number; remaining: number; options: FakeElevenLabsFailureOptions } | undefined;
  let delayMs = 0;
  let charactersUsed = 0;
  const requests: FakeElevenLabsRequest[] = [];

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'request-id': crypto.randomBytes(10).toString('hex'),
      ...headers,
    });
    res.end(text);
  }

  function speak(voiceId: string, query: Record<string, string>, body: unknown, res: http.ServerResponse): void {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return send(res, 422, {
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: body ?? null,
          },
        ],
      });
    }
    const request = body as { text?: unknown; model_id?: unknown };
    if (typeof request.text !== 'string') {
      return send(res, 422, {
        detail: [
          request.text === undefined
            ? { type: 'missing', loc: ['body', 'text'], msg: 'Field required', input: body }
            : { type: 'string_type', loc: ['body', 'text'], msg: 'Input should be a valid string', input: request.text },
        ],
      });
    }
    if (request.text.trim() === '') return send(res, 400, detail('empty_text', 'The text is empty.'));
    const voice = voices.find((v) => v.voice_id === voiceId);
    if (!voice) return send(res, 404, detail('voice_not_found', `A voice with the voice_id ${voiceId} was not found.`));
    const modelId = request.model_id ?? 'eleven_multilingual_v2';
    if (typeof modelId !== 'string' || !models.includes(modelId)) {
      return send(res, 400, detail('model_not_found', `A model with model ID ${String(modelId)} does not exist.`));
    }
    const length = [...request.text].length;
    if (length > maxTextLength) {
      return send(
        res,
        400,
        detail(
          'max_character_limit_exceeded',
          `Text is too long. The maximum length is ${maxTextLength} characters; this request has ${length}.`,
        ),
      );
    }
    const format = query.output_format ?? 'mp3_44100_128';
    const pcm = /^pcm_(\d+)$/.exec(format);
    if (!pcm || !PCM_RATES.includes(Number(pcm[1]))) {
      return send(
        res,
        400,
        detail(
          'invalid_output_format',
          `The fake ElevenLabs API supports output_format pcm_<rate> only (rates ${PCM_RATES.join(', ')}), not '${format}'.`,
        ),
      );
    }
    if (options.characterQuota !== undefined && charactersUsed + length > options.characterQuota) {
      const remaining = Math.max(0, options.characterQuota - charactersUsed);
      return send(
        res,
        401,
        detail(
          'quota_exceeded',
          `This request exceeds your quota of ${options.characterQuota}. You have ${remaining} credits remaining, while ${length} credits are required for this request.`,
        ),
      );
    }
    charactersUsed += length;
    const audio = fakeSpeechPcm(request.text, Number(pcm[1]));
    res.writeHead(200, {
      'content-type': 'audio/pcm',
      'content-length': String(audio.length),
      'character-cost': String(length),
      'request-id': crypto.randomBytes(10).toString('hex'),
    });
    res.end(audio);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams.entries());
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
    const header = req.headers['xi-api-key'];
    const apiKey = (Array.isArray(header) ? header[0] : header)?.trim() || null;
    requests.push({ method, path, query, body, apiKey });

    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;

    if (failures && failures.remaining > 0) {
      failures.remaining -= 1;
      const { status, options: failure } = failures;
      if (failures.remaining === 0) failures = undefined;
      const headers: Record<string, string> =
        failure.retryAfterMs === undefined
          ? {}
          : { 'retry-after': String(Math.ceil(failure.retryAfterMs / 1000)), 'retry-after-ms': String(failure.retryAfterMs) };
      const code = failure.status ?? (status === 429 ? 'too_many_concurrent_requests' : 'internal_server_error');
      const message =
        failure.message ??
        (status === 429
          ? 'Too many concurrent requests are being made. Please wait for previous requests to complete before sending more.'
          : 'An internal server error occurred.');
      return send(res, status, detail(code, message), headers);
    }

    if (!apiKey) {
      return send(
        res,
        401,
        detail('needs_authorization', 'Neither authorization header nor xi-api-key received, please provide one.'),
      );
    }
    if ((acceptedKeys && !acceptedKeys.has(apiKey)) || options.rejectKey?.(apiKey)) {
      return send(res, 401, detail('invalid_api_key', 'Invalid API key'));
    }
    if (invalidJson) {
      return send(res, 422, { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }] });
    }

    if (method === 'GET' && path === '/v1/voices') {
      return send(res, 200, {
        voices: voices.map((voice) => ({
          voice_id: voice.voice_id,
          name: voice.name,
          category: voice.category ?? 'premade',
          labels: voice.labels ?? {},
          description: null,
          preview_url: null,
          settings: null,
        })),
      });
    }
    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(path);
    if (method === 'POST' && tts) return speak(decodeURIComponent(tts[1]!), query, body, res);
    return send(res, 404, { detail: 'Not Found' });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      send(
        res,
        500,
        detail('internal_server_error', `fake ElevenLabs failed: ${error instanceof Error ? error.message : String(error)}`),
      );
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
    url: `http://${host}:${port}`,
    port,
    requests,
    get charactersUsed() {
      return charactersUsed;
    },
    setFailure(status, count = 1, failureOptions = {}) {
      failures = count > 0 ? { status, remaining: count, options: failureOptions } : undefined;
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    reset() {
      requests.length = 0;
      failures = undefined;
      delayMs = 0;
      charactersUsed = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

// `node fakes/elevenlabs.js` (or tsx): serve on FAKE_ELEVENLABS_PORT (default 8790), accepting any key.
if (require.main === module) {
  const port = Number(process.env.FAKE_ELEVENLABS_PORT ?? 8790);
  startFakeElevenLabs({ port })
    .then((fake) => console.log(`fake ElevenLabs listening on ${fake.url}`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
