import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for Google's OAuth 2.0 endpoints and the YouTube Data API v3, on 127.0.0.1,
 * answering the documented requests with the documented shapes:
 * - GET  /o/oauth2/v2/auth        consent screen: redirects to redirect_uri with ?code&state (or ?error=access_denied)
 * - POST /token                   authorization_code and refresh_token grants (form-encoded)
 * - GET  /youtube/v3/channels     channels.list(part, mine=true) with a bearer access token
 */
export interface FakeChannel {
  id: string;
  title: string;
  subscriberCount: number;
  videoCount: number;
  viewCount: number;
  hiddenSubscriberCount?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  authorization?: string;
}

export interface FakeGoogle {
  url: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  requests: FakeRequest[];
  addClient(clientId: string, clientSecret: string): void;
  /** An account owning these channels; answers its id. */
  addAccount(channels: FakeChannel[]): string;
  /** The account that the next consent approves (the last one added by default). */
  useAccount(accountId: string): void;
  /** What the consent screen does next: approve (default) or deny. */
  setConsent(answer: 'approve' | 'deny'): void;
  /** Whether the code exchange gives a refresh token (Google omits it when access was granted before without prompt=consent). */
  setIssueRefreshToken(issue: boolean): void;
  issueRefreshToken(clientId: string, accountId: string): string;
  revoke(refreshToken: string): void;
  /** Answer the next channels.list calls with a quotaExceeded error. */
  failNextApiCalls(count: number, reason?: 'quotaExceeded' | 'backendError'): void;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

const token = (prefix: string) => `${prefix}${crypto.randomBytes(18).toString('base64url')}`;

export interface FakeGoogleOptions {
  port?: number;
  /**
   * For clicking through flows by hand (`npm run fakes`): any OAuth client is accepted (its secret
   * is remembered on first use), and consent is given by an account owning these channels.
   */
  lenient?: { channels: FakeChannel[] };
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const clients = new Map<string, string>();
  const accounts = new Map<string, FakeChannel[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; accountId: string; scope: string }>();
  const refreshTokens = new Map<string, { clientId: string; accountId: string }>();
  const accessTokens = new Map<string, { accountId: string; expiresAt: number }>();
  const requests: FakeRequest[] = [];
  let currentAccount: string | undefined;
  let consent: 'approve' | 'deny' = 'approve';
  let issueRefresh = true;
  let failures: { count: number; reason: string } = { count: 0, reason: 'quotaExceeded' };
  if (options.lenient) {
    currentAccount = 'acct-lenient';
    accounts.set(currentAccount, options.lenient.channels);
  }
  const knownClient = (clientId: string | undefined, clientSecret?: string): boolean => {
    if (!clientId) return false;
    if (options.lenient && !clients.has(clientId) && clientSecret !== undefined) clients.set(clientId, clientSecret);
    if (options.lenient && clientSecret === undefined) return true;
    return clients.has(clientId) && (clientSecret === undefined || clients.get(clientId) === clientSecret);
  };

  const apiError = (res: http.ServerResponse, status: number, reason: string, message: string) =>
    json(res, status, { error: { code: status, message, errors: [{ message, domain: 'youtube.quota', reason }] } });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = req.method === 'POST' ? await readBody(req) : '';
    const body = Object.fromEntries(new URLSearchParams(raw));
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query, body, authorization: req.headers.authorization });

    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const redirect = query.redirect_uri;
      if (!redirect || !knownClient(query.client_id)) {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>');
        return;
      }
      const target = new URL(redirect);
      if (consent === 'deny' || !currentAccount) {
        target.searchParams.set('error', 'access_denied');
      } else {
        const code = token('4/0A');
        codes.set(code, { clientId: query.client_id, redirectUri: redirect, accountId: currentAccount, scope: query.scope ?? '' });
        target.searchParams.set('code', code);
        target.searchParams.set('scope', query.scope ?? '');
      }
      if (query.state) target.searchParams.set('state', query.state);
      res.writeHead(302, { location: target.toString() });
      res.end();
      return;
    }

    if (req.method === 'POST' && url.pathname === '/token') {
      let clientId = body.client_id;
      let clientSecret = body.client_secret;
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, 'base64').toString().split(':');
      if (!knownClient(clientId, clientSecret ?? '')) {
        json(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
        return;
      }
      if (body.grant_type === 'authorization_code') {
        const grant = body.code ? codes.get(body.code) : undefined;
        if (!grant || grant.clientId !== clientId || grant.redirectUri !== body.redirect_uri) {
          json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
          return;
        }
        codes.delete(body.code!);
        const access = token('ya29.');
        accessTokens.set(access, { accountId: grant.accountId, expiresAt: Date.now() + 3600_000 });
        const answer: Record<string, unknown> = { access_token: access, expires_in: 3599, scope: grant.scope, token_type: 'Bearer' };
        if (issueRefresh) {
          const refresh = token('1//0g');
          refreshTokens.set(refresh, { clientId, accountId: grant.accountId });
          answer.refresh_token = refresh;
        }
        json(res, 200, answer);
        return;
      }
      if (body.grant_type === 'refresh_token') {
        const grant = body.refresh_token ? refreshTokens.get(body.refresh_token) : undefined;
        if (!grant || grant.clientId !== clientId) {
          json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          return;
        }
        const access = token('ya29.');
        accessTokens.set(access, { accountId: grant.accountId, expiresAt: Date.now() + 3600_000 });
        json(res, 200, { access_token: access, expires_in: 3599, scope: 'https://www.googleapis.com/auth/youtube.upload', token_type: 'Bearer' });
        return;
      }
      json(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${body.grant_type ?? ''}` });
      return;
    }

    if (url.pathname === '/generate_204') {
      // What proxy tests reach (PROXY_CHECK_URL), like Google's own connectivity check.
      res.writeHead(204);
      res.end();
      return;
    }

    if (url.pathname.startsWith('/youtube/v3/')) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const session = bearer ? accessTokens.get(bearer) : undefined;
      if (!session || session.expiresAt < Date.now()) {
        json(res, 401, {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
            errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
            status: 'UNAUTHENTICATED',
          },
        });
        return;
      }
      if (failures.count > 0) {
        failures.count -= 1;
        if (failures.reason === 'quotaExceeded') {
          apiError(res, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.');
        } else {
          apiError(res, 503, 'backendError', 'Backend Error');
        }
        return;
      }
      if (req.method === 'GET' && url.pathname === '/youtube/v3/channels') {
        if (!query.part) {
          apiError(res, 400, 'required', 'Required parameter: part');
          return;
        }
        // googleapis sends repeated parameters (part=snippet&part=statistics); both forms are accepted.
        const parts = url.searchParams.getAll('part').flatMap((p) => p.split(','));
        const channels = query.mine === 'true' ? (accounts.get(session.accountId) ?? []) : [];
        json(res, 200, {
          kind: 'youtube#channelListResponse',
          etag: crypto.randomBytes(8).toString('hex'),
          pageInfo: { totalResults: channels.length, resultsPerPage: 5 },
          items: channels.map((c) => ({
            kind: 'youtube#channel',
            etag: crypto.randomBytes(8).toString('hex'),
            id: c.id,
            ...(parts.includes('snippet') ? { snippet: { title: c.title, description: '', customUrl: `@${c.title.toLowerCase().replace(/\W+/g, '')}` } } : {}),
            ...(parts.includes('statistics')
              ? {
                  statistics: {
                    viewCount: String(c.viewCount),
                    subscriberCount: c.hiddenSubscriberCount ? '0' : String(c.subscriberCount),
                    hiddenSubscriberCount: c.hiddenSubscriberCount ?? false,
                    videoCount: String(c.videoCount),
                  },
                }
              : {}),
          })),
        });
        return;
      }
    }

    json(res, 404, { error: { code: 404, message: `Not found: ${req.method} ${url.pathname}` } });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    authUrl: `${url}/o/oauth2/v2/auth`,
    tokenUrl: `${url}/token`,
    apiUrl: `${url}/`,
    requests,
    addClient: (clientId, clientSecret) => void clients.set(clientId, clientSecret),
    addAccount(channels) {
      const id = token('acct-');
      accounts.set(id, channels);
      currentAccount = id;
      return id;
    },
    useAccount: (accountId) => void (currentAccount = accountId),
    setConsent: (answer) => void (consent = answer),
    setIssueRefreshToken: (issue) => void (issueRefresh = issue),
    issueRefreshToken(clientId, accountId) {
      const refresh = token('1//0g');
      refreshTokens.set(refresh, { clientId, accountId });
      return refresh;
    },
    revoke: (refreshToken) => void refreshTokens.delete(refreshToken),
    failNextApiCalls: (count, reason = 'quotaExceeded') => void (failures = { count, reason }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
