import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { sessionEnded, type AuthState } from './authSlice';

export const API_BASE_URL = '/api/v1';

/**
 * The error every endpoint rejects with. `message` is what a screen shows: the answer's
 * `detail`, else "HTTP {status}: {statusText}"; for failures without an answer (network, time-out)
 * the underlying error text. `detail` is set only when the server sent one.
 */
export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message: string;
  detail?: string;
  data?: unknown;
}

/** The slices of the store the base query reads; declared here so api/ does not import app/. */
interface ApiRootState {
  auth: AuthState;
  preferences?: { language?: string };
}

/** Endpoints whose 401 means "wrong credentials", not "session expired". */
const CREDENTIAL_ENDPOINTS = new Set(['login']);

function detailOf(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || !('detail' in data)) return undefined;
  const { detail } = data as { detail: unknown };
  if (typeof detail === 'string' && detail.trim() !== '') return detail;
  // FastAPI-style validation lists: [{ msg: '...' }, ...]
  if (Array.isArray(detail)) {
    const messages = detail
      .map((item) => (item && typeof item === 'object' && 'msg' in item ? String((item as { msg: unknown }).msg) : ''))
      .filter(Boolean);
    if (messages.length > 0) return messages.join('; ');
  }
  return undefined;
}

function statusLine(status: number, statusText: string | undefined): string {
  return `HTTP ${status}: ${statusText ?? ''}`.trimEnd();
}

/** Turns fetchBaseQuery's error into an ApiError with the message rules of spec §7. */
export function toApiError(error: FetchBaseQueryError, response: Response | undefined): ApiError {
  if (typeof error.status === 'number') {
    const detail = detailOf(error.data);
    return { status: error.status, message: detail ?? statusLine(error.status, response?.statusText), detail, data: error.data };
  }
  if (error.status === 'PARSING_ERROR') {
    // The answer claimed JSON but was not; it is kept as text.
    const detail = undefined;
    const ok = error.originalStatus >= 200 && error.originalStatus < 300;
    return {
      status: ok ? 'PARSING_ERROR' : error.originalStatus,
      message: ok ? error.error : statusLine(error.originalStatus, response?.statusText),
      detail,
      data: error.data,
    };
  }
  return { status: error.status, message: error.error, data: error.data };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE_URL,
  // JSON answers are parsed, anything else comes back as text.
  responseHandler: 'content-type',
  prepareHeaders: (headers, { getState }) => {
    const state = getState() as ApiRootState;
    const token = state.auth.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    const language = state.preferences?.language;
    if (language) headers.set('accept-language', language);
    return headers;
  },
});

/**
 * fetchBaseQuery plus the app's rules: errors become ApiError, and a 401 on any call but login
 * ends the session (the token is cleared, the guard sends the visitor to /login).
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, object, FetchBaseQueryMeta> = async (
  args,
  api,
  extraOptions,
) => {
  const sentToken = (api.getState() as ApiRootState).auth.token;
  const result = await rawBaseQuery(args, api, extraOptions);
  if (!result.error) return { data: result.data, meta: result.meta };
  const error = toApiError(result.error, result.meta?.response);
  if (error.status === 401 && sentToken !== null && !CREDENTIAL_ENDPOINTS.has(api.endpoint)) {
    api.dispatch(sessionEnded());
  }
  return { error, meta: result.meta };
};

function isApiError(error: unknown): error is ApiError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    'message' in error &&
    typeof (error as ApiError).message === 'string'
  );
}

/** The status of a failed call, if it got an answer. */
export function errorStatus(error: unknown): number | undefined {
  return isApiError(error) && typeof error.status === 'number' ? error.status : undefined;
}

/** The server's `detail`, if it sent one. */
export function errorDetail(error: unknown): string | undefined {
  return isApiError(error) ? error.detail : undefined;
}

/**
 * The message a screen shows for a failed call: the server's detail, else "HTTP {status}:
 * {statusText}", else `fallback` for failures without an answer (network down, time-out).
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (isApiError(error)) {
    if (typeof error.status === 'number') return error.message;
    return fallback ?? error.message;
  }
  if (error instanceof Error) return fallback ?? error.message;
  return fallback ?? String(error);
}
