/**
 * The CSV report of the history (GET /publications/report.csv): fetched with the session's
 * bearer token and the interface language (the server writes the headers in it), then saved
 * under the server's file name through an object URL. Not an RTK Query endpoint: a file is no
 * state to cache, and a Blob does not belong in the store.
 */
import { useCallback, useState } from 'react';
import { useDispatch, useStore } from 'react-redux';
import { API_BASE_URL, errorStatus, sessionEnded, type ApiError, type AuthState, type PublicationFilters } from '../../api';

/** What the helper reads from the store; declared here so the feature does not import app/. */
interface ReportState {
  auth: AuthState;
  preferences?: { language?: string };
}

export interface ReportCredentials {
  token: string | null;
  language?: string;
}

/** `filename*=UTF-8''…` (RFC 5987) first, else `filename="…"`, else null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*utf-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = plain ? (plain[2] ?? plain[1]).trim() : '';
  return name || null;
}

/** The file name when the server gives none: publications-YYYY-MM-DD.csv (local day). */
function fallbackFilename(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `publications-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

async function failureOf(response: Response): Promise<ApiError> {
  let detail: string | undefined;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string' && body.detail.trim()) {
      detail = body.detail;
    }
  } catch {
    // Not JSON: the status line says what happened.
  }
  const statusLine = `HTTP ${response.status}: ${response.statusText}`.trimEnd();
  return { status: response.status, message: detail ?? statusLine, detail };
}

/** Offers `blob` to the user as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Some browsers read the URL after click() returns: let go of it a little later.
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  }
}

/**
 * Downloads the report of the publications matching `filters` and returns the file's name.
 * Rejects with an ApiError (`errorMessage()` turns it into what the user reads).
 */
export async function downloadPublicationReport(
  filters: PublicationFilters,
  { token, language }: ReportCredentials,
): Promise<string> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  const headers = new Headers({ accept: 'text/csv, application/json' });
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (language) headers.set('accept-language', language);

  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}/publications/report.csv${query ? `?${query}` : ''}`, { headers });
  } catch (error) {
    const failure: ApiError = { status: 'FETCH_ERROR', message: error instanceof Error ? error.message : String(error) };
    throw failure;
  }
  if (!response.ok) throw await failureOf(response);
  const filename = filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackFilename();
  saveBlob(await response.blob(), filename);
  return filename;
}

/**
 * The report download for a screen: reads the token and language from the store when called,
 * and, as every other call, ends the session when a call that carried a token answers 401.
 */
export function useReportDownload() {
  const store = useStore();
  const dispatch = useDispatch();
  const [downloading, setDownloading] = useState(false);

  const download = useCallback(
    async (filters: PublicationFilters) => {
      const { auth, preferences } = store.getState() as ReportState;
      setDownloading(true);
      try {
        return await downloadPublicationReport(filters, { token: auth.token, language: preferences?.language });
      } catch (error) {
        if (errorStatus(error) === 401 && auth.token !== null) dispatch(sessionEnded());
        throw error;
      } finally {
        setDownloading(false);
      }
    },
    [store, dispatch],
  );

  return { download, downloading };
}
