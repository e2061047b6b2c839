import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { chatModelConfigs } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { maskSecret, type SecretBox } from '../lib/secrets';
import { translate, type Language } from '../messages';
import type { Dispatcher } from 'undici';
import { userFetch } from '../lib/egress';
import { createChatModelClient, type ChatModelClient, type ChatModelClientOptions } from '../providers/chatModel';
import type { ChatModelConfigDto, ChatModelInput, ChatModelTestInput, ChatModelTestResult } from '../contracts/chatModel';

/** Where the engine sends one kind of media request (speech or images) for a user. */
export interface MediaEndpoint {
  baseUrl: string;
  /** The root is the user's own (checked like every user URL), not the operator's. */
  userRoot: boolean;
  /**
   * The user's key, or undefined when this root is on another host than the chat API's: a stored
   * key goes only to the host it was saved for (a local speech server needs none).
   */
  apiKey: string | undefined;
  /** The user's model; undefined: the server's default. */
  model: string | undefined;
}

export const DEFAULT_CHAT_MODEL = 'gpt-4o-mini';
export const API_KEY_MAX_LENGTH = 500;
export const BASE_URL_MAX_LENGTH = 500;
export const MODEL_MAX_LENGTH = 100;

type ChatModelRow = typeof chatModelConfigs.$inferSelect;

export interface ChatModelServiceDeps {
  db: Db;
  now: () => Date;
  secrets: SecretBox;
  /** OPENAI_BASE_URL: used when a configuration has no base URL of its own. */
  defaultBaseUrl: string;
  /** Builds the API client; tests may replace it. */
  createClient?: (options: ChatModelClientOptions) => ChatModelClient;
  /** ALLOW_PRIVATE_URLS: a user's base URL may reach private addresses (a local model server). */
  allowPrivateUrls?: boolean;
}

/** A key as typed: trimmed; blank (absent, null, '') is undefined. */
function cleanApiKey(value: string | null | undefined): string | undefined {
  const key = value?.trim();
  if (!key) return undefined;
  if (key.length > API_KEY_MAX_LENGTH) throw unprocessable('chatModel.apiKeyTooLong', { max: API_KEY_MAX_LENGTH });
  // Keys travel in an HTTP header: printable ASCII without spaces.
  if (!/^[\x21-\x7e]+$/.test(key)) throw unprocessable('chatModel.apiKeyInvalid');
  return key;
}

/** An http(s) API root without trailing slashes; blank is null (the server default). */
function cleanBaseUrl(value: string | null | undefined): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  const invalid = () => unprocessable('chatModel.baseUrlInvalid', { max: BASE_URL_MAX_LENGTH });
  if (raw.length > BASE_URL_MAX_LENGTH) throw invalid();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw invalid();
  return raw.replace(/\/+$/, '');
}

/** A media model: blank or null is the server's default (null); an over-long name is refused. */
function cleanMediaModel(value: string | null | undefined): string | null {
  const model = value?.trim();
  if (!model) return null;
  if (model.length > MODEL_MAX_LENGTH) throw unprocessable('chatModel.modelInvalid', { max: MODEL_MAX_LENGTH });
  return model;
}

/** null is the default model; a blank or over-long name is refused. */
function cleanModel(value: string | null | undefined): string {
  if (value === undefined || value === null) return DEFAULT_CHAT_MODEL;
  const model = value.trim();
  if (!model || model.length > MODEL_MAX_LENGTH) throw unprocessable('chatModel.modelInvalid', { max: MODEL_MAX_LENGTH });
  return model;
}

/** The part of an API root a key is sent to: scheme, host and port. */
const originOf = (url: string) => new URL(url).origin;

export function createChatModelService(deps: ChatModelServiceDeps) {
  const { db, now, secrets } = deps;
  const defaultBaseUrl = deps.defaultBaseUrl.replace(/\/+$/, '');
  const createClient = deps.createClient ?? createChatModelClient;
  const allowPrivate = deps.allowPrivateUrls ?? false;

  /**
   * Client options for an API root: the operator's default as it is; a user's own root through
   * the checked fetch (no private addresses unless allowed, the proxy's target checked too).
   */
  function transport(baseUrl: string | null, dispatcher?: object): Pick<ChatModelClientOptions, 'fetch' | 'dispatcher'> {
    if (baseUrl === null) return dispatcher ? { dispatcher } : {};
    return {
      fetch: userFetch({
        allowPrivate,
        proxy: dispatcher as Dispatcher | undefined,
      }) as unknown as ChatModelClientOptions['fetch'],
    };
  }

  /** A stored key goes only to the host it was saved for: a new host needs the key typed again. */
  function checkKeyStaysHome(current: ChatModelRow, newBaseUrl: string | null, typedKey: string | undefined): void {
    if (typedKey !== undefined) return;
    if (originOf(newBaseUrl ?? defaultBaseUrl) !== originOf(current.baseUrl ?? defaultBaseUrl)) {
      throw unprocessable('chatModel.keyNeededForNewHost');
    }
  }

  /** The stored key in clear, or undefined when it cannot be read (APP_SECRET changed). */
  function storedKey(row: ChatModelRow): string | undefined {
    try {
      return secrets.open(row.apiKeyEnc);
    } catch {
      return undefined;
    }
  }

  function toDto(row: ChatModelRow): ChatModelConfigDto {
    const key = storedKey(row);
    return {
      has_api_key: key !== undefined,
      secret_unreadable: key === undefined,
      api_key_masked: key === undefined ? '' : maskSecret(key),
      base_url: row.baseUrl,
      model: row.model ?? DEFAULT_CHAT_MODEL,
      speech_base_url: row.speechBaseUrl,
      speech_model: row.speechModel,
      image_base_url: row.imageBaseUrl,
      image_model: row.imageModel,
      is_connected: row.isConnected,
      last_tested: row.lastTested?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  // Every run reads it: built once, prepared by name (issue 20).
  const byUser = db
    .select()
    .from(chatModelConfigs)
    .where(eq(chatModelConfigs.userId, sql.placeholder('userId')))
    .prepare('chat_model_by_user');

  async function find(userId: string): Promise<ChatModelRow | undefined> {
    const [row] = await byUser.execute({ userId });
    return row;
  }

  async function findOrFail(userId: string): Promise<ChatModelRow> {
    const row = await find(userId);
    if (!row) throw notFound('chatModel.notFound');
    return row;
  }

  async function get(userId: string): Promise<ChatModelConfigDto> {
    return toDto(await findOrFail(userId));
  }

  async function create(userId: string, input: ChatModelInput): Promise<ChatModelConfigDto> {
    const apiKey = cleanApiKey(input.api_key);
    if (!apiKey) throw unprocessable('chatModel.apiKeyRequired');
    const baseUrl = cleanBaseUrl(input.base_url);
    const model = cleanModel(input.model);
    const media = {
      speechBaseUrl: cleanBaseUrl(input.speech_base_url),
      speechModel: cleanMediaModel(input.speech_model),
      imageBaseUrl: cleanBaseUrl(input.image_base_url),
      imageModel: cleanMediaModel(input.image_model),
    };
    if (await find(userId)) throw conflict('chatModel.exists');
    try {
      const [row] = await db
        .insert(chatModelConfigs)
        .values({ userId, apiKeyEnc: secrets.seal(apiKey), baseUrl, model, ...media, isConnected: false })
        .returning();
      return toDto(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('chatModel.exists');
      throw error;
    }
  }

  /**
   * Absent fields are kept; a blank key keeps the stored one; a blank base URL or a null model
   * returns to the default. A new key or base URL has not been tested: is_connected and
   * last_tested are cleared.
   */
  async function update(userId: string, input: ChatModelInput): Promise<ChatModelConfigDto> {
    const current = await findOrFail(userId);
    const apiKey = cleanApiKey(input.api_key);
    const changes: Partial<typeof chatModelConfigs.$inferInsert> = { updatedAt: now() };
    let untested = false;
    if (apiKey !== undefined && apiKey !== storedKey(current)) {
      changes.apiKeyEnc = secrets.seal(apiKey);
      untested = true;
    }
    if (input.base_url !== undefined) {
      const baseUrl = cleanBaseUrl(input.base_url);
      checkKeyStaysHome(current, baseUrl, apiKey);
      if ((baseUrl ?? defaultBaseUrl) !== (current.baseUrl ?? defaultBaseUrl)) untested = true;
      changes.baseUrl = baseUrl;
    }
    if (input.model !== undefined) changes.model = cleanModel(input.model);
    // The speech and image servers are not part of the chat test: changing them keeps its outcome.
    if (input.speech_base_url !== undefined) changes.speechBaseUrl = cleanBaseUrl(input.speech_base_url);
    if (input.speech_model !== undefined) changes.speechModel = cleanMediaModel(input.speech_model);
    if (input.image_base_url !== undefined) changes.imageBaseUrl = cleanBaseUrl(input.image_base_url);
    if (input.image_model !== undefined) changes.imageModel = cleanMediaModel(input.image_model);
    if (untested) {
      changes.isConnected = false;
      changes.lastTested = null;
    }
    const [row] = await db.update(chatModelConfigs).set(changes).where(eq(chatModelConfigs.userId, userId)).returning();
    if (!row) throw notFound('chatModel.notFound');
    return toDto(row);
  }

  async function remove(userId: string): Promise<void> {
    const deleted = await db
      .delete(chatModelConfigs)
      .where(eq(chatModelConfigs.userId, userId))
      .returning({ id: chatModelConfigs.id });
    if (deleted.length === 0) throw notFound('chatModel.notFound');
  }

  /**
   * Tests the given key (blank: the stored one) against the given base URL (blank: the stored one,
   * else the default). The outcome is stored only when that is the stored key and base URL; an
   * unsaved key is only tested.
   */
  async function test(userId: string, input: ChatModelTestInput, language: Language): Promise<ChatModelTestResult> {
    const bodyKey = cleanApiKey(input.api_key);
    const bodyBaseUrl = cleanBaseUrl(input.base_url);
    const row = await find(userId);
    const saved = row ? storedKey(row) : undefined;
    const apiKey = bodyKey ?? saved;
    if (!apiKey) throw unprocessable('chatModel.apiKeyRequired');
    const storedBaseUrl = row?.baseUrl ?? defaultBaseUrl;
    const baseUrl = bodyBaseUrl ?? storedBaseUrl;
    const model = row?.model ?? DEFAULT_CHAT_MODEL;
    if (row && bodyBaseUrl !== null) checkKeyStaysHome(row, bodyBaseUrl, bodyKey);

    const ownRoot = bodyBaseUrl ?? row?.baseUrl ?? null;
    const result = await createClient({ apiKey, baseUrl, model, ...transport(ownRoot) }).testConnection();
    const testedAt = now();
    if (row && apiKey === saved && baseUrl === storedBaseUrl) {
      await db
        .update(chatModelConfigs)
        .set({ isConnected: result.ok, lastTested: testedAt })
        .where(eq(chatModelConfigs.id, row.id));
    }

    let detail: string;
    if (result.ok) {
      detail = translate(language, 'chatModel.connected');
    } else {
      const reason =
        result.kind === 'invalid_key'
          ? translate(language, 'chatModel.reasonInvalidKey')
          : result.kind === 'unreachable'
            ? translate(language, 'chatModel.reasonUnreachable')
            : result.kind === 'blocked'
              ? translate(language, 'common.addressNotAllowed')
              : result.kind === 'too_large'
                ? translate(language, 'reason.answerTooLarge')
                : translate(language, 'chatModel.reasonHttpStatus', { status: result.status ?? '?' });
      detail = translate(language, 'chatModel.connectionFailed', { reason });
    }
    return { is_connected: result.ok, last_tested: testedAt.toISOString(), detail };
  }

  /** A ready client for the user's stored configuration (for the video engine), or undefined. */
  async function clientFor(
    userId: string,
    options: { timeoutMs?: number; maxRetries?: number; dispatcher?: object } = {},
  ): Promise<ChatModelClient | undefined> {
    const row = await find(userId);
    const apiKey = row ? storedKey(row) : undefined;
    if (!row || !apiKey) return undefined;
    return createClient({
      apiKey,
      baseUrl: row.baseUrl ?? defaultBaseUrl,
      model: row.model ?? DEFAULT_CHAT_MODEL,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...transport(row.baseUrl, options.dispatcher),
    });
  }

  /**
   * Where the engine sends the user's speech and image requests: their own servers when set, else
   * the chat API's root, with the user's key only where the chat API lives (see MediaEndpoint).
   */
  async function mediaEndpointsFor(userId: string): Promise<{ speech: MediaEndpoint; image: MediaEndpoint } | undefined> {
    const row = await find(userId);
    const apiKey = row ? storedKey(row) : undefined;
    if (!row || !apiKey) return undefined;
    const chatRoot = row.baseUrl ?? defaultBaseUrl;
    const endpoint = (ownRoot: string | null, model: string | null): MediaEndpoint => {
      const baseUrl = ownRoot ?? chatRoot;
      return {
        baseUrl,
        userRoot: ownRoot !== null || row.baseUrl !== null,
        apiKey: originOf(baseUrl) === originOf(chatRoot) ? apiKey : undefined,
        model: model ?? undefined,
      };
    };
    return { speech: endpoint(row.speechBaseUrl, row.speechModel), image: endpoint(row.imageBaseUrl, row.imageModel) };
  }

  return { get, create, update, remove, test, clientFor, mediaEndpointsFor };
}

export type ChatModelService = ReturnType<typeof createChatModelService>;
