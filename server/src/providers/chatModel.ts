import OpenAI, { APIConnectionError, APIError, type ClientOptions } from 'openai';

/**
 * A small client of an OpenAI-compatible chat-model API (OpenAI itself or any server that speaks
 * its protocol), over the official `openai` package. Errors never carry the API key.
 */
export interface ChatModelClientOptions {
  apiKey: string;
  /** The API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  /** Per request; default 20 s. */
  timeoutMs?: number;
  /** Retries of connection errors, timeouts, 408, 409, 429 and 5xx; default 2. */
  maxRetries?: number;
  /** An undici dispatcher (a ProxyAgent) the requests go through. */
  dispatcher?: object;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteInput {
  /** Sent first, as a system message. */
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
}

/** Why a call failed: a refused key, no answer at all, or any other answer of the API. */
export type ChatModelFailure = 'invalid_key' | 'unreachable' | 'api_error';

export interface ConnectionResult {
  ok: boolean;
  /** A short English reason, without the key: 'invalid key', 'could not reach the server', or `status message`. */
  error?: string;
  /** The HTTP status of the failed answer, when there was one. */
  status?: number;
  kind?: ChatModelFailure;
}

export interface ChatModelClient {
  /** Lists models (first page); a server without /models (404) is tried with a one-token completion. */
  testConnection(): Promise<ConnectionResult>;
  /** One chat completion; answers the assistant's text. Throws ChatModelError. */
  complete(input: CompleteInput): Promise<string>;
}

export class ChatModelError extends Error {
  constructor(
    message: string,
    readonly kind: ChatModelFailure,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatModelError';
  }
}

export const DEFAULT_CHAT_MODEL_TIMEOUT_MS = 20_000;
const MAX_REASON_LENGTH = 300;

/** Removes every occurrence of the key from a text that came back from the network. */
function scrub(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.split(apiKey).join('***') : text;
}

/** Maps anything `openai` throws to a ChatModelError whose message is safe to show and log. */
export function toChatModelError(error: unknown, apiKey: string): ChatModelError {
  if (error instanceof ChatModelError) return error;
  // Connection errors, timeouts and aborts: no HTTP answer at all.
  if (error instanceof APIConnectionError || (error instanceof APIError && error.status === undefined)) {
    return new ChatModelError('could not reach the server', 'unreachable');
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    if (error.status === 401 || error.status === 403) return new ChatModelError('invalid key', 'invalid_key', error.status);
    // APIError messages already read `${status} ${message}`.
    const message = scrub(error.message, apiKey).slice(0, MAX_REASON_LENGTH);
    return new ChatModelError(
      message.startsWith(String(error.status)) ? message : `${error.status} ${message}`,
      'api_error',
      error.status,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ChatModelError(scrub(message, apiKey).slice(0, MAX_REASON_LENGTH), 'api_error');
}

export function createChatModelClient(options: ChatModelClientOptions): ChatModelClient {
  const { apiKey, model } = options;
  const client = new OpenAI({
    apiKey,
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    timeout: options.timeoutMs ?? DEFAULT_CHAT_MODEL_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? 2,
    ...(options.dispatcher ? { fetchOptions: { dispatcher: options.dispatcher } as ClientOptions['fetchOptions'] } : {}),
    // Never pick up an organization or project from this process's environment.
    organization: null,
    project: null,
  });

  async function testConnection(): Promise<ConnectionResult> {
    try {
      try {
        await client.models.list();
      } catch (error) {
        // Some OpenAI-compatible servers have no /models: one token of a completion proves the key.
        if (!(error instanceof APIError && error.status === 404)) throw error;
        await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
      }
      return { ok: true };
    } catch (error) {
      const failure = toChatModelError(error, apiKey);
      return {
        ok: false,
        error: failure.message,
        kind: failure.kind,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      };
    }
  }

  async function complete(input: CompleteInput): Promise<string> {
    const messages: ChatMessage[] = input.system
      ? [{ role: 'system', content: input.system }, ...input.messages]
      : input.messages;
    let content: string | null | undefined;
    try {
      const completion = await client.chat.completions.create({
        model,
        messages,
        ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
        ...(input.maxTokens === undefined ? {} : { max_tokens: input.maxTokens }),
      });
      content = completion.choices[0]?.message.content;
    } catch (error) {
      throw toChatModelError(error, apiKey);
    }
    if (typeof content !== 'string') throw new ChatModelError('the chat model answered no text', 'api_error');
    return content;
  }

  return { testConnection, complete };
}
