import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readQuery, writeQuery, type HistoryQuery } from './filters';

/**
 * The history's filters and page, read from and written to the address's query string. Changes
 * replace the current history entry (typing a search should not fill the back button).
 */
export function useHistoryQuery() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readQuery(params), [params]);
  const update = useCallback(
    (changes: Partial<HistoryQuery>) =>
      setParams((current) => writeQuery({ ...readQuery(current), ...changes }), { replace: true }),
    [setParams],
  );
  return { query, update };
}
