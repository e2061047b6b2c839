import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_ROWS_PER_PAGE, isRowsPerPage, readQuery, writeQuery, type HistoryQuery } from './filters';

/** Where the page size the user last chose is kept (this browser only). */
export const HISTORY_ROWS_KEY = 'storyflow:history-rows';

function rememberedRows(): number {
  try {
    const rows = Number(globalThis.localStorage?.getItem(HISTORY_ROWS_KEY));
    return isRowsPerPage(rows) ? rows : DEFAULT_ROWS_PER_PAGE;
  } catch {
    // Storage blocked by the browser's settings: the spec's default.
    return DEFAULT_ROWS_PER_PAGE;
  }
}

function remember(rows: number): void {
  try {
    globalThis.localStorage?.setItem(HISTORY_ROWS_KEY, String(rows));
  } catch {
    // Not remembered; the address still carries it.
  }
}

/**
 * The history's filters and page, read from and written to the address's query string. Changes
 * replace the current history entry (typing a search should not fill the back button). A page
 * size the user picks is remembered in this browser and is the default on the next visit.
 */
export function useHistoryQuery() {
  const [params, setParams] = useSearchParams();
  const [defaultRows, setDefaultRows] = useState(rememberedRows);
  const query = useMemo(() => readQuery(params, defaultRows), [params, defaultRows]);
  const update = useCallback(
    (changes: Partial<HistoryQuery>) => {
      const rows = changes.rowsPerPage;
      if (rows !== undefined) {
        remember(rows);
        setDefaultRows(rows);
      }
      setParams((current) => writeQuery({ ...readQuery(current, defaultRows), ...changes }, rows ?? defaultRows), {
        replace: true,
      });
    },
    [setParams, defaultRows],
  );
  return { query, update };
}
