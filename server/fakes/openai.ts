import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * A fake of the OpenAI REST API for tests and local runs without a network: Bearer auth,
 * `GET /v1/models`, `GET /v1/models/{id}`, `POST /v1/chat/completions` (non-streaming),
 * `POST /v1/audio/speech` (real WAV or PCM audio, about 0.35 s per word of a soft tone) and
 * `POST /v1/images/generations` (real PNG gradients of the requested size), with the real API's
 * answer and error shapes. Point the `openai` client, or any HTTP client, at `url`.
 */

export interface FakeOpenAIRequest {
  method: string;
  /** Path without the query string, e.g. /v1/models. */
  path: string;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown;
  /** The bearer key that came with the request, or null. */
  apiKey: string | null;
  /**
   * The request's headers as received (to tell a request without an Authorization header from one
   * with an empty key). Not enumerable, so records still compare as the four fields above.
   */
  readonly headers: http.IncomingHttpHeaders;
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
  /** Answers requests without a key too, as local servers do (Kokoro-FastAPI, LocalAI). Default false. */
  keyless?: boolean;
  /** Refuses keys this says are wrong, on top of `apiKeys` (for clicking through both outcomes). */
  rejectKey?: (key: string) => boolean;
  /** Model ids answered by /v1/models and accepted by chat completions. */
  models?: string[];
  /** The assistant's text for a chat completion; default: an echo of the last user message. */
  respond?: FakeResponder;
  /** false: /v1/models answers 404, like OpenAI-compatible servers without it. Default true. */
  modelsEndpoint?: boolean;
  /** Models accepted by /v1/audio/speech; default DEFAULT_FAKE_SPEECH_MODELS. */
  speechModels?: string[];
  /** Models accepted by /v1/images/generations; default the keys of FAKE_IMAGE_SIZES. */
  imageModels?: string[];
  /** Image prompts to refuse as the moderation system would (400 moderation_blocked). */
  refusePrompt?: (prompt: string) => boolean;
  /**
   * Answers every image as a URL (served by this fake, without auth, like the API's signed links),
   * whatever was asked: some OpenAI-compatible servers do. Default false.
   */
  imageUrls?: boolean;
}

export interface FakeFailureOptions {
  /** Sent as `retry-after-ms`, which the openai client honours (keeps retry tests fast). */
  retryAfterMs?: number;
  message?: string;
  /**
   * The error code. With a 429, 'insufficient_quota' answers OpenAI's "exceeded your current quota"
   * error instead of a rate limit.
   */
  code?: string;
  /**
   * Answers this text as text/html instead of OpenAI's JSON error, as a gateway or proxy in front of
   * an OpenAI-compatible server does (tests that the console never shows what upstream answered).
   */
  rawBody?: string;
  /** Only requests to this path fail (e.g. /v1/images/generations); the others are answered. */
  path?: string;
}

export interface FakeOpenAI {
  /** The API root, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: FakeOpenAIRequest[];
  /**
   * The next `count` requests (any route) answer `status` (429 rate limit, 5xx server error, or
   * any other status with OpenAI's error shape).
   */
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
export const DEFAULT_FAKE_SPEECH_MODELS = ['gpt-4o-mini-tts', 'tts-1', 'tts-1-hd'];
/** The voices of /v1/audio/speech. */
export const FAKE_SPEECH_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];
/** The sizes each image model accepts, as the real API lists them. */
export const FAKE_IMAGE_SIZES: Readonly<Record<string, readonly string[]>> = {
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  'gpt-image-1-mini': ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
};
/** Longest prompt per image model. */
const IMAGE_PROMPT_LIMITS: Readonly<Record<string, number>> = { 'dall-e-2': 1000, 'dall-e-3': 4000 };
const SPEECH_MAX_INPUT = 4096;
/** OpenAI's speech PCM: 24 kHz, 16-bit, mono. */
export const FAKE_SPEECH_SAMPLE_RATE = 24_000;
/** Seconds of fake speech per word of input (at speed 1). */
export const FAKE_SECONDS_PER_WORD = 0.35;
const MODEL_CREATED = 1_715_367_049;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Images answered as URLs (DALL·E's default) are kept this many at a time. */
const MAX_STORED_IMAGES = 20;

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

/** Words of a text, as the fake counts them for speech duration. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * Fake narration: 16-bit little-endian mono PCM lasting `FAKE_SECONDS_PER_WORD` per word (at least
 * 1 s), divided by `speed`. Each word is a soft 220 Hz hum rising and falling, then a short pause.
 */
export function fakeSpeechPcm(text: string, sampleRate: number, speed = 1): Buffer {
  const seconds = Math.max(1, (countWords(text) * FAKE_SECONDS_PER_WORD) / speed);
  const samples = Math.round(seconds * sampleRate);
  // One word's sound, drawn once and repeated (long narrations have millions of samples).
  const wordSamples = Math.max(1, Math.round((FAKE_SECONDS_PER_WORD / speed) * sampleRate));
  const voiced = Math.round(wordSamples * 0.8);
  const word = Buffer.alloc(wordSamples * 2);
  for (let i = 0; i < voiced; i += 1) {
    const envelope = Math.sin((Math.PI * i) / voiced);
    word.writeInt16LE(Math.round(1200 * envelope * Math.sin((2 * Math.PI * 220 * i) / sampleRate)), i * 2);
  }
  const pcm = Buffer.alloc(samples * 2);
  for (let at = 0; at < pcm.length; at += word.length) word.copy(pcm, at, 0, Math.min(word.length, pcm.length - at));
  return pcm;
}

/** A canonical 44-byte-header WAV around 16-bit mono PCM. */
export function fakeWav(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG (8-bit RGB) of the given size: a diagonal gradient between two colours taken from a
 * hash of `seed`, so one prompt always draws the same picture and different prompts differ.
 */
export function fakePng(width: number, height: number, seed: string): Buffer {
  const hash = crypto.createHash('sha256').update(seed).digest();
  const from = [hash[0]!, hash[1]!, hash[2]!];
  const to = [hash[3]!, hash[4]!, hash[5]!];
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  const span = Math.max(1, width + height - 2);
  // The colour depends on x + y only: draw that diagonal once, and each row is a slice of it.
  const line = Buffer.alloc((width + height) * 3);
  for (let d = 0; d < width + height; d += 1) {
    const f = Math.min(1, d / span);
    for (let c = 0; c < 3; c += 1) line[d * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * f);
  }
  for (let y = 0; y < height; y += 1) {
    raw[y * stride] = 0; // filter: none
    line.copy(raw, y * stride + 1, y * 3, (y + width) * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw, { level: 6 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** OpenAI's list wording: 'a', 'b', and 'c'. */
function quotedList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}` : (quoted[0] ?? '');
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
  const speechModels = options.speechModels ?? DEFAULT_FAKE_SPEECH_MODELS;
  const imageModels = options.imageModels ?? Object.keys(FAKE_IMAGE_SIZES);
  /** Images answered as URLs, by file name, oldest first. */
  const storedImages = new Map<string, Buffer>();
  let baseUrl = '';
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

  function sendBytes(res: http.ServerResponse, contentType: string, bytes: Buffer): void {
    res.writeHead(200, {
      'content-type': contentType,
      'content-length': String(bytes.length),
      'x-request-id': `req_${crypto.randomBytes(12).toString('hex')}`,
      'openai-processing-ms': '1',
    });
    res.end(bytes);
  }

  const notJson = () =>
    apiError(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    );
  const missing = (param: string) =>
    apiError(`Missing required parameter: '${param}'.`, 'invalid_request_error', param, 'missing_required_parameter');
  const unknownModel = (model: string) =>
    apiError(
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      null,
      'model_not_found',
    );
  const tooLong = (param: string, max: number, length: number) =>
    apiError(
      `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${length} instead.`,
      'invalid_request_error',
      param,
      'string_above_max_length',
    );
  const invalidValue = (param: string, value: unknown, supported: readonly string[]) =>
    apiError(
      `Invalid value: '${String(value)}'. Supported values are: ${quotedList(supported)}.`,
      'invalid_request_error',
      param,
      'invalid_value',
    );

  /** POST /v1/audio/speech: validates like the API, answers WAV or raw PCM (24 kHz, 16-bit, mono). */
  function speech(body: unknown, res: http.ServerResponse): void {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return send(res, 400, notJson());
    const request = body as { model?: unknown; input?: unknown; voice?: unknown; response_format?: unknown; speed?: unknown };
    if (typeof request.model !== 'string' || request.model === '') {
      return send(res, 400, apiError('you must provide a model parameter', 'invalid_request_error', 'model'));
    }
    if (request.input === undefined || request.input === null) return send(res, 400, missing('input'));
    if (typeof request.input !== 'string') {
      return send(
        res,
        400,
        apiError("Invalid type for 'input': expected a string.", 'invalid_request_error', 'input', 'invalid_type'),
      );
    }
    if (request.voice === undefined || request.voice === null || request.voice === '') return send(res, 400, missing('voice'));
    if (!speechModels.includes(request.model)) return send(res, 404, unknownModel(request.model));
    const length = [...request.input].length;
    if (length === 0) {
      return send(
        res,
        400,
        apiError(
          "Invalid 'input': string too short. Expected a string with minimum length 1, but got an empty string instead.",
          'invalid_request_error',
          'input',
          'empty_string',
        ),
      );
    }
    if (length > SPEECH_MAX_INPUT) return send(res, 400, tooLong('input', SPEECH_MAX_INPUT, length));
    const voice = request.voice;
    const voiceOk =
      (typeof voice === 'string' && FAKE_SPEECH_VOICES.includes(voice)) ||
      (voice !== null && typeof voice === 'object' && typeof (voice as { id?: unknown }).id === 'string');
    if (!voiceOk) return send(res, 400, invalidValue('voice', voice, FAKE_SPEECH_VOICES));
    const speed = request.speed ?? 1;
    if (typeof speed !== 'number' || speed < 0.25 || speed > 4) {
      return send(
        res,
        400,
        apiError(
          `Invalid 'speed': expected a number between 0.25 and 4.0, got ${String(speed)}.`,
          'invalid_request_error',
          'speed',
          'invalid_value',
        ),
      );
    }
    // The API's default is mp3, which this fake cannot encode.
    const format = request.response_format ?? 'mp3';
    const formats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
    if (typeof format !== 'string' || !formats.includes(format)) {
      return send(res, 400, invalidValue('response_format', format, formats));
    }
    if (format !== 'wav' && format !== 'pcm') {
      return send(
        res,
        400,
        apiError(
          `The fake OpenAI API supports response_format 'wav' and 'pcm' only, not '${format}'.`,
          'invalid_request_error',
          'response_format',
          'unsupported_value',
        ),
      );
    }
    const pcm = fakeSpeechPcm(request.input, FAKE_SPEECH_SAMPLE_RATE, speed);
    if (format === 'pcm') return sendBytes(res, 'audio/pcm', pcm);
    return sendBytes(res, 'audio/wav', fakeWav(pcm, FAKE_SPEECH_SAMPLE_RATE));
  }

  /** POST /v1/images/generations: validates like the API, answers PNG gradients as base64 or URLs. */
  function images(body: unknown, res: http.ServerResponse): void {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return send(res, 400, notJson());
    const request = body as { model?: unknown; prompt?: unknown; size?: unknown; n?: unknown; response_format?: unknown };
    if (typeof request.prompt !== 'string' || request.prompt === '') return send(res, 400, missing('prompt'));
    // The API's default model is dall-e-2.
    const model = request.model ?? 'dall-e-2';
    if (typeof model !== 'string' || !imageModels.includes(model) || !FAKE_IMAGE_SIZES[model]) {
      return send(res, 404, unknownModel(String(model)));
    }
    const isDallE = model.startsWith('dall-e');
    const promptLimit = IMAGE_PROMPT_LIMITS[model] ?? 32_000;
    const promptLength = [...request.prompt].length;
    if (promptLength > promptLimit) return send(res, 400, tooLong('prompt', promptLimit, promptLength));
    const sizes = FAKE_IMAGE_SIZES[model]!;
    const size = request.size ?? (isDallE ? '1024x1024' : 'auto');
    if (typeof size !== 'string' || !sizes.includes(size)) return send(res, 400, invalidValue('size', size, sizes));
    const n = request.n ?? 1;
    const maxN = model === 'dall-e-3' ? 1 : 10;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > maxN) {
      return send(
        res,
        400,
        apiError(
          `Invalid 'n': expected an integer between 1 and ${maxN}, got ${String(n)}.`,
          'invalid_request_error',
          'n',
          'invalid_value',
        ),
      );
    }
    let responseFormat = 'b64_json';
    if (request.response_format !== undefined) {
      if (!isDallE) {
        return send(
          res,
          400,
          apiError("Unknown parameter: 'response_format'.", 'invalid_request_error', 'response_format', 'unknown_parameter'),
        );
      }
      if (request.response_format !== 'url' && request.response_format !== 'b64_json') {
        return send(res, 400, invalidValue('response_format', request.response_format, ['url', 'b64_json']));
      }
      responseFormat = request.response_format;
    } else if (isDallE) {
      responseFormat = 'url';
    }
    if (options.refusePrompt?.(request.prompt)) {
      return send(
        res,
        400,
        apiError(
          'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
          'image_generation_user_error',
          null,
          isDallE ? 'content_policy_violation' : 'moderation_blocked',
        ),
      );
    }
    const [width, height] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
    const data = Array.from({ length: n }, (_, index) => {
      const png = fakePng(width, height, `${request.prompt as string}#${index}`);
      const revised = model === 'dall-e-3' ? { revised_prompt: request.prompt as string } : {};
      if (responseFormat === 'b64_json' && !options.imageUrls) return { b64_json: png.toString('base64'), ...revised };
      const name = `${crypto.randomBytes(12).toString('hex')}.png`;
      storedImages.set(name, png);
      while (storedImages.size > MAX_STORED_IMAGES) storedImages.delete(storedImages.keys().next().value!);
      return { url: `${baseUrl}/fake-files/${name}`, ...revised };
    });
    const created = Math.floor(Date.now() / 1000);
    if (isDallE) return send(res, 200, { created, data });
    const inputTokens = countTokens(request.prompt);
    send(res, 200, {
      created,
      background: 'opaque',
      data,
      output_format: 'png',
      quality: 'high',
      size: `${width}x${height}`,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { image_tokens: 0, text_tokens: inputTokens },
        output_tokens: 4160 * n,
        total_tokens: inputTokens + 4160 * n,
      },
    });
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
    const request = { method, path, body, apiKey } as FakeOpenAIRequest;
    requests.push(Object.defineProperty(request, 'headers', { value: { ...req.headers }, enumerable: false }));

    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;

    if (failures && failures.remaining > 0 && (failures.options.path === undefined || failures.options.path === path)) {
      failures.remaining -= 1;
      const { status, options: failure } = failures;
      if (failures.remaining === 0) failures = undefined;
      const headers: Record<string, string> =
        failure.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(failure.retryAfterMs) };
      if (failure.rawBody !== undefined) {
        res.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8' });
        res.end(failure.rawBody);
        return;
      }
      const error =
        status === 429 && failure.code === 'insufficient_quota'
          ? apiError(
              failure.message ??
                'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
              'insufficient_quota',
              null,
              'insufficient_quota',
            )
          : status === 429
            ? apiError(
                failure.message ?? 'Rate limit reached for requests. Please try again later.',
                'requests',
                null,
                'rate_limit_exceeded',
              )
            : status < 500
              ? apiError(
                  failure.message ?? `Request failed with status ${status}.`,
                  'invalid_request_error',
                  null,
                  failure.code ?? null,
                )
              : apiError(
                  failure.message ?? 'The server had an error while processing your request. Sorry about that!',
                  'server_error',
                  null,
                  failure.code ?? null,
                );
      return send(res, status, error, headers);
    }

    // Images answered as URLs are fetched without the key, like the real API's signed links.
    const file = /^\/fake-files\/([0-9a-f]+\.png)$/.exec(path);
    if (method === 'GET' && file) {
      const png = storedImages.get(file[1]!);
      if (png) return sendBytes(res, 'image/png', png);
      return send(res, 404, { error: { code: 'BlobNotFound', message: 'The specified blob does not exist.' } });
    }

    if (!apiKey && !options.keyless) {
      return send(
        res,
        401,
        apiError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        ),
      );
    }
    if (apiKey && ((acceptedKeys && !acceptedKeys.has(apiKey)) || options.rejectKey?.(apiKey))) {
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
    if (method === 'POST' && path === '/v1/audio/speech') return speech(body, res);
    if (method === 'POST' && path === '/v1/images/generations') return images(body, res);
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
  baseUrl = `http://${host}:${port}`;

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
      storedImages.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

// `node fakes/openai.js` (or tsx): serve on FAKE_OPENAI_PORT (default 8787), accepting any key.
if (require.main === module) {
  const port = Number(process.env.FAKE_OPENAI_PORT ?? 8787);
  startFakeOpenAI({ port })
    .then((fake) => console.log(`fake OpenAI listening on ${fake.url}`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
