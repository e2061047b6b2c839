import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { proxies } from '../db/schema';
import { notFound, unprocessable } from '../errors';
import type { SecretBox } from '../lib/secrets';
import { translate, type Language } from '../messages';
import {
  checkProxy,
  DEFAULT_PROXY_CHECK_TIMEOUT_MS,
  type ProxyCheckOptions,
  type ProxyCheckResult,
} from '../providers/proxyCheck';
import { isProxySupported } from '../providers/proxies';
import type { Page } from './paging';
import type { CreateProxyInput, ProxyDto, ProxyTestDto, UpdateProxyInput } from '../contracts/proxies';

/**
 * Outbound proxies, managed by administrators and shared by all of them (`userId` only records
 * who created one). The URL is stored without its password; the password is sealed apart.
 */
type ProxyRow = typeof proxies.$inferSelect;

/** What answers carry instead of a proxy password. */
export const PASSWORD_MASK = '••••';
const PROTOCOLS = new Set(['http:', 'https:', 'socks5:']);
const HOSTNAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)$/;
const NAME_MAX = 200;

export interface ParsedProxyUrl {
  /** The URL without its password: protocol, user (percent-encoded) when any, host and port. */
  url: string;
  /** The decoded password; '' when there is none. */
  password: string;
  hasUsername: boolean;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** True for a password that is only the mask answered by this API (••••, or longer). */
function isMasked(password: string): boolean {
  return /^•+$/.test(password);
}

/**
 * Validates a proxy URL: http:, https: or socks5:, a host, an explicit port 1-65535, optional
 * `user:password@`, nothing after the port but an optional '/'.
 */
export function parseProxyUrl(raw: string): ParsedProxyUrl {
  const text = raw.trim();
  if (!text) throw unprocessable('proxies.urlRequired');
  const invalid = () => unprocessable('proxies.urlInvalid');
  const hasControl = [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (hasControl || /[\s\\]/.test(text)) throw invalid();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid();
  }
  if (!PROTOCOLS.has(url.protocol)) throw invalid();
  if (url.search || url.hash || text.includes('?') || text.includes('#')) throw invalid();
  if (url.pathname !== '' && url.pathname !== '/') throw invalid();

  // The port must be written out, even when it is the protocol's default (which URL hides).
  const rest = text.slice(text.indexOf('//') + 2);
  const authorityPart = rest.split('/')[0] ?? '';
  const hostPort = authorityPart.slice(authorityPart.lastIndexOf('@') + 1);
  const match = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(hostPort);
  if (!match) throw invalid();
  const port = Number(match[2]);
  if (port < 1 || port > 65535) throw invalid();

  const hostname = url.hostname.toLowerCase();
  if (!hostname || !HOSTNAME.test(hostname)) throw invalid();

  const username = url.username;
  const userinfo = username ? `${username}@` : '';
  return {
    url: `${url.protocol}//${userinfo}${hostname}:${port}`,
    password: safeDecode(url.password),
    hasUsername: username !== '',
  };
}

/** The stored URL with a password put back in: what the check connects with. */
function withPassword(storedUrl: string, password: string | null): URL {
  const url = new URL(storedUrl);
  if (password) url.password = password;
  return url;
}

function maskedUrl(storedUrl: string, hasPassword: boolean): string {
  if (!hasPassword) return storedUrl;
  const at = storedUrl.indexOf('//') + 2;
  const rest = storedUrl.slice(at);
  const userEnd = rest.lastIndexOf('@');
  const username = userEnd >= 0 ? rest.slice(0, userEnd) : '';
  const hostPort = userEnd >= 0 ? rest.slice(userEnd + 1) : rest;
  return `${storedUrl.slice(0, at)}${username}:${PASSWORD_MASK}@${hostPort}`;
}

function toDto(row: ProxyRow): ProxyDto {
  const hasPassword = row.passwordEnc !== null;
  return {
    id: row.id,
    name: row.name,
    url: maskedUrl(row.url, hasPassword),
    has_password: hasPassword,
    is_active: row.isActive,
    is_connected: row.isConnected,
    last_tested: row.lastTested?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw unprocessable('proxies.nameRequired');
  return trimmed.slice(0, NAME_MAX);
}

export interface ProxyServiceDeps {
  db: Db;
  now: () => Date;
  secrets: SecretBox;
  /** What a test reaches through the proxy (PROXY_CHECK_URL). */
  proxyCheckUrl: string;
  /** The test's overall limit; 10 s unless a test needs it shorter. */
  checkTimeoutMs?: number;
  /** The check itself; replaceable in tests. */
  check?: (options: ProxyCheckOptions) => Promise<ProxyCheckResult>;
  /** ALLOW_PRIVATE_URLS: a proxy may sit on a private or local address. */
  allowPrivate?: boolean;
}

/** How long a process reuses the list of active proxies it read (outboundUrls). */
export const OUTBOUND_URLS_TTL_MS = 5_000;

export function createProxyService({
  db,
  now,
  secrets,
  proxyCheckUrl,
  checkTimeoutMs = DEFAULT_PROXY_CHECK_TIMEOUT_MS,
  check = checkProxy,
  allowPrivate = false,
}: ProxyServiceDeps) {
  let outbound: { at: number; urls: Promise<readonly string[]> } | undefined;
  /** Forgets the cached outbound URLs after a change (see outboundUrls). */
  const changed = () => {
    outbound = undefined;
  };

  /** The stored password: null when there is none, undefined when it cannot be decrypted. */
  function openPassword(sealed: string | null): string | null | undefined {
    if (sealed === null) return null;
    try {
      return secrets.open(sealed);
    } catch {
      return undefined;
    }
  }

  async function row(id: string): Promise<ProxyRow> {
    const [found] = await db.select().from(proxies).where(eq(proxies.id, id));
    if (!found) throw notFound('proxies.notFound');
    return found;
  }

  async function get(id: string): Promise<ProxyDto> {
    return toDto(await row(id));
  }

  async function list(page: Page & { active_only?: boolean }): Promise<{ proxies: ProxyDto[]; total: number }> {
    const where = page.active_only ? eq(proxies.isActive, true) : undefined;
    const rows = await db
      .select()
      .from(proxies)
      .where(where)
      .orderBy(asc(proxies.createdAt), asc(proxies.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(proxies).where(where);
    return { proxies: rows.map(toDto), total: total?.n ?? 0 };
  }

  async function create(userId: string, input: CreateProxyInput): Promise<ProxyDto> {
    const name = cleanName(input.name);
    const parsed = parseProxyUrl(input.url);
    // A mask typed into a new proxy stands for nothing stored: no password.
    const password = parsed.password && !isMasked(parsed.password) ? parsed.password : null;
    const [created] = await db
      .insert(proxies)
      .values({ userId, name, url: parsed.url, passwordEnc: password === null ? null : secrets.seal(password) })
      .returning();
    changed();
    return toDto(created!);
  }

  /**
   * Changes name and/or URL. A URL whose password is blank or the mask keeps the stored password;
   * a URL without any credentials (no user, no password) removes it; another password replaces it.
   * A different URL or password resets is_connected.
   */
  const endpointOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  };

  async function update(id: string, input: UpdateProxyInput): Promise<ProxyDto> {
    const current = await row(id);
    const changes: Partial<typeof proxies.$inferInsert> = { updatedAt: now() };
    if (input.name !== undefined) changes.name = cleanName(input.name);
    if (input.url !== undefined) {
      const parsed = parseProxyUrl(input.url);
      const keep = parsed.password === '' ? parsed.hasUsername : isMasked(parsed.password);
      // A stored password only ever goes to the address it was given for: pointing the proxy
      // elsewhere needs the password typed again.
      if (keep && current.passwordEnc && endpointOf(parsed.url) !== endpointOf(current.url)) {
        throw unprocessable('proxies.passwordRequiredForNewAddress');
      }
      if (!keep) changes.passwordEnc = parsed.password === '' ? null : secrets.seal(parsed.password);
      const passwordChanged = !keep && (parsed.password || null) !== openPassword(current.passwordEnc);
      if (parsed.url !== current.url || passwordChanged) {
        changes.url = parsed.url;
        changes.isConnected = false;
      }
    }
    const [updated] = await db.update(proxies).set(changes).where(eq(proxies.id, id)).returning();
    changed();
    if (!updated) throw notFound('proxies.notFound');
    return toDto(updated);
  }

  async function toggle(id: string): Promise<ProxyDto> {
    const [updated] = await db
      .update(proxies)
      .set({ isActive: sql`not ${proxies.isActive}`, updatedAt: now() })
      .where(eq(proxies.id, id))
      .returning();
    changed();
    if (!updated) throw notFound('proxies.notFound');
    return toDto(updated);
  }

  async function remove(id: string): Promise<void> {
    const deleted = await db.delete(proxies).where(eq(proxies.id, id)).returning({ id: proxies.id });
    changed();
    if (deleted.length === 0) throw notFound('proxies.notFound');
  }

  /**
   * Opens a tunnel through the proxy to PROXY_CHECK_URL and reads an HTTP answer. Stores
   * is_connected and last_tested either way; 422 when the proxy is disabled.
   */
  async function test(id: string, language: Language): Promise<ProxyTestDto> {
    const proxy = await row(id);
    if (!proxy.isActive) throw unprocessable('proxies.disabled');

    const password = openPassword(proxy.passwordEnc);
    const result: ProxyCheckResult =
      password === undefined
        ? { ok: false, latencyMs: null, failure: { key: 'proxies.failure.passwordUnreadable', params: {} } }
        : await check({ url: withPassword(proxy.url, password), target: proxyCheckUrl, timeoutMs: checkTimeoutMs, allowPrivate });

    const testedAt = now();
    await db.update(proxies).set({ isConnected: result.ok, lastTested: testedAt }).where(eq(proxies.id, id));
    const detail = result.ok
      ? translate(language, 'proxies.connected', { latency: result.latencyMs ?? 0 })
      : translate(language, 'proxies.testFailed', {
          reason: result.failure ? translate(language, result.failure.key, result.failure.params) : (result.error ?? ''),
        });
    return {
      is_connected: result.ok,
      last_tested: testedAt.toISOString(),
      detail,
      latency_ms: result.ok ? result.latencyMs : null,
    };
  }

  /**
   * The URLs (with their passwords) of the enabled proxies, http(s) and socks5 alike, oldest first,
   * for the engine's outbound calls (providers/proxies.ts proxyDispatcher tunnels through each
   * kind). A proxy whose password cannot be decrypted is skipped.
   *
   * Read at most every OUTBOUND_URLS_TTL_MS in a process and shared by its callers (hence
   * read-only): every run asks at its start, and a burst of runs would otherwise read and decrypt
   * the same rows hundreds of times a second. A change made through this process is seen at once;
   * one made through another process (the API, for a worker) within OUTBOUND_URLS_TTL_MS.
   */
  function outboundUrls(): Promise<readonly string[]> {
    const at = now().getTime();
    if (!outbound || at - outbound.at >= OUTBOUND_URLS_TTL_MS || at < outbound.at) {
      const read = readOutboundUrls();
      outbound = { at, urls: read };
      read.catch(() => {
        if (outbound?.urls === read) outbound = undefined;
      });
    }
    return outbound.urls;
  }

  async function readOutboundUrls(): Promise<readonly string[]> {
    const rows = await db
      .select()
      .from(proxies)
      .where(eq(proxies.isActive, true))
      .orderBy(asc(proxies.createdAt), asc(proxies.id));
    const urls: string[] = [];
    for (const proxy of rows) {
      if (!isProxySupported(proxy.url)) continue;
      const password = openPassword(proxy.passwordEnc);
      if (password === undefined) continue;
      urls.push(withPassword(proxy.url, password).toString());
    }
    return urls;
  }

  return { list, get, create, update, toggle, test, remove, outboundUrls };
}

export type ProxyService = ReturnType<typeof createProxyService>;
