import { OAuth2Client } from 'google-auth-library';
import { youtube, type youtube_v3 } from '@googleapis/youtube';

/**
 * The YouTube Data API through Google's official clients (google-auth-library + googleapis'
 * YouTube module). Endpoints are configurable so tests and private deployments can point them
 * elsewhere: GOOGLE_AUTH_URL (consent screen), GOOGLE_TOKEN_URL, YOUTUBE_API_URL (API root, used
 * for uploads too).
 */
export interface GoogleEndpoints {
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
  redirectUri?: string;
}

export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/youtube.readonly',
];

export interface ChannelInfo {
  id: string;
  title: string;
  subscriberCount: number | null;
  videoCount: number | null;
  viewCount: number | null;
}

/** Why a call to Google failed, in terms the user can act on. */
export type YoutubeErrorKind = 'invalid_grant' | 'invalid_client' | 'unauthorized' | 'quota' | 'network' | 'other';

export class YoutubeError extends Error {
  constructor(
    readonly kind: YoutubeErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'YoutubeError';
  }
}

const TIMEOUT_MS = 15_000;

function toNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

interface GaxiosLikeError {
  code?: string | number;
  status?: number;
  message?: string;
  response?: { status?: number; data?: unknown };
}

/** Classifies an error from google-auth-library / googleapis. */
export function classifyGoogleError(error: unknown): YoutubeError {
  if (error instanceof YoutubeError) return error;
  const e = (error ?? {}) as GaxiosLikeError;
  const status = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  const data = e.response?.data as
    { error?: string | { message?: string; errors?: { reason?: string }[] }; error_description?: string } | undefined;
  const oauthError = typeof data?.error === 'string' ? data.error : undefined;
  const apiError = typeof data?.error === 'object' ? data.error : undefined;
  const reason = apiError?.errors?.[0]?.reason;
  const message = data?.error_description ?? apiError?.message ?? e.message ?? 'Unknown error';
  if (oauthError === 'invalid_grant') return new YoutubeError('invalid_grant', message, status);
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client')
    return new YoutubeError('invalid_client', message, status);
  if (reason === 'quotaExceeded' || reason === 'uploadLimitExceeded' || reason === 'rateLimitExceeded') {
    return new YoutubeError('quota', message, status);
  }
  if (status === 401 || status === 403) return new YoutubeError('unauthorized', message, status);
  if (status === undefined && (typeof e.code === 'string' || /timeout|ECONN|ENOTFOUND|EAI_AGAIN|socket/i.test(message))) {
    return new YoutubeError('network', message);
  }
  return new YoutubeError('other', message, status);
}

export function createYoutubeProvider(endpoints: GoogleEndpoints) {
  function oauthClient(credentials: OAuthClientCredentials): OAuth2Client {
    return new OAuth2Client({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      redirectUri: credentials.redirectUri,
      endpoints: { oauth2TokenUrl: endpoints.tokenUrl, oauth2AuthBaseUrl: endpoints.authUrl },
    });
  }

  /** The Data API client for a stored refresh token; access tokens are fetched and refreshed by the library. */
  function api(credentials: OAuthClientCredentials & { refreshToken: string }): youtube_v3.Youtube {
    const auth = oauthClient(credentials);
    auth.setCredentials({ refresh_token: credentials.refreshToken });
    return youtube({ version: 'v3', auth, rootUrl: endpoints.apiUrl, timeout: TIMEOUT_MS });
  }

  /** Google's consent screen for offline access to the upload, force-ssl and readonly scopes. */
  function consentUrl(input: { clientId: string; redirectUri: string; state: string }): string {
    const url = new URL(endpoints.authUrl);
    url.search = new URLSearchParams({
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      response_type: 'code',
      scope: YOUTUBE_SCOPES.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: input.state,
    }).toString();
    return url.toString();
  }

  /** Exchanges an authorization code for tokens; answers the refresh token when Google gives one. */
  async function exchangeCode(
    input: OAuthClientCredentials & { code: string; redirectUri: string },
  ): Promise<{ refreshToken: string | null }> {
    try {
      const { tokens } = await oauthClient(input).getToken({ code: input.code, redirect_uri: input.redirectUri });
      return { refreshToken: tokens.refresh_token ?? null };
    } catch (error) {
      throw classifyGoogleError(error);
    }
  }

  /** channels.list(mine=true): the channels of the authorized account, with statistics. */
  async function myChannels(credentials: OAuthClientCredentials & { refreshToken: string }): Promise<ChannelInfo[]> {
    try {
      const response = await api(credentials).channels.list({ part: ['snippet', 'statistics'], mine: true, maxResults: 50 });
      return (response.data.items ?? []).map((item) => ({
        id: item.id ?? '',
        title: item.snippet?.title ?? '',
        subscriberCount: item.statistics?.hiddenSubscriberCount ? null : toNumber(item.statistics?.subscriberCount),
        videoCount: toNumber(item.statistics?.videoCount),
        viewCount: toNumber(item.statistics?.viewCount),
      }));
    } catch (error) {
      throw classifyGoogleError(error);
    }
  }

  return { consentUrl, exchangeCode, myChannels, api };
}

export type YoutubeProvider = ReturnType<typeof createYoutubeProvider>;
