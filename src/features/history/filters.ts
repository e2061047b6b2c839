/**
 * The history's filters and paging, as they live in the address bar (so a reload or a shared link
 * keeps them): `?search=…&status=…&period=…&page=…&rows=…`. Defaults are left out of the address;
 * anything the page does not understand is ignored.
 */
import type { PublicationDateRange, PublicationFilters, PublicationStatus } from '../../api';
import { HISTORY_PERIODS_DAYS } from '../../lib/constants';

export const PUBLICATION_STATUSES = [
  'published',
  'processing',
  'awaiting_review',
  'failed',
] as const satisfies readonly PublicationStatus[];

/** TablePagination's choices. */
export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100] as const;
/** The spec's page of 100 rows, until the user picks another size (remembered in the preferences). */
export const DEFAULT_ROWS_PER_PAGE = 100;

/** Whether a number is one of the page sizes offered. */
export function isRowsPerPage(value: unknown): value is number {
  return (ROWS_PER_PAGE_OPTIONS as readonly unknown[]).includes(value);
}

/** The search is sent this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The API's limit on the search text. */
export const SEARCH_MAX_LENGTH = 200;

export interface HistoryQuery {
  /** Trimmed; '' for none. */
  search: string;
  /** '' for all. */
  status: PublicationStatus | '';
  /** null for all time. */
  period: PublicationDateRange | null;
  /** Zero-based (the address shows it one-based). */
  page: number;
  rowsPerPage: number;
}

export const DEFAULT_QUERY: HistoryQuery = {
  search: '',
  status: '',
  period: null,
  page: 0,
  rowsPerPage: DEFAULT_ROWS_PER_PAGE,
};

function isStatus(value: string | null): value is PublicationStatus {
  return (PUBLICATION_STATUSES as readonly (string | null)[]).includes(value);
}

function toPeriod(value: string | null): PublicationDateRange | null {
  const days = Number(value);
  return (HISTORY_PERIODS_DAYS as readonly number[]).includes(days) ? (days as PublicationDateRange) : null;
}

function toRowsPerPage(value: string | null, fallback: number): number {
  const rows = Number(value);
  return isRowsPerPage(rows) ? rows : fallback;
}

function toPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page - 1 : 0;
}

/**
 * What the address says, with every unknown or missing value at its default (`defaultRows`: the
 * page size the user chose last, else the spec's 100).
 */
export function readQuery(params: URLSearchParams, defaultRows: number = DEFAULT_ROWS_PER_PAGE): HistoryQuery {
  return {
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    status: isStatus(params.get('status')) ? (params.get('status') as PublicationStatus) : '',
    period: toPeriod(params.get('period')),
    page: toPage(params.get('page')),
    rowsPerPage: toRowsPerPage(params.get('rows'), defaultRows),
  };
}

/** The address of `query`, defaults left out. */
export function writeQuery(query: HistoryQuery, defaultRows: number = DEFAULT_ROWS_PER_PAGE): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.status) params.set('status', query.status);
  if (query.period !== null) params.set('period', String(query.period));
  if (query.page > 0) params.set('page', String(query.page + 1));
  if (query.rowsPerPage !== defaultRows) params.set('rows', String(query.rowsPerPage));
  return params;
}

/** The API's filters (the list's and the report's): only those set. */
export function toFilters({ search, status, period }: HistoryQuery): PublicationFilters {
  return {
    ...(search ? { search } : {}),
    ...(status ? { status } : {}),
    ...(period !== null ? { date_range: period } : {}),
  };
}

export function hasFilters(query: HistoryQuery): boolean {
  return query.search !== '' || query.status !== '' || query.period !== null;
}
