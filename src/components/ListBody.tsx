import type { ReactNode } from 'react';
import { EmptyState, type EmptyStateProps } from './EmptyState';
import { ListPager } from './ListPager';
import { LoadErrorAlert } from './LoadErrorAlert';
import { ListSkeleton } from './Skeletons';

/** A list query's state: RTK Query's fields of the same names. */
export interface ListQueryState {
  data?: { total: number } | undefined;
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ListBodyProps<T> {
  query: ListQueryState;
  /** The rows of the page; a list that failed to load shows none (spec §7). */
  rows: readonly T[];
  /** What could not be loaded, e.g. "Your channels could not be loaded." */
  loadFailed: string;
  /** The server's reason for the failure, if it gave one (api's `errorDetail(query.error)`). */
  reason?: string;
  /** The empty state: icon, one sentence, the primary action. */
  empty: EmptyStateProps;
  page: number;
  onPage: (page: number) => void;
  /** The placeholder while the first page loads; rows of skeleton by default. */
  skeleton?: ReactNode;
  /** The rows, laid out (cards, a table, a list); only called with at least one row. */
  children: (rows: readonly T[]) => ReactNode;
}

/**
 * The body of every list page and panel: a skeleton while it loads, the error with a retry, the
 * empty state with its action, or the rows with the pager under them.
 */
export function ListBody<T>({
  query,
  rows,
  loadFailed,
  reason,
  empty,
  page,
  onPage,
  skeleton = <ListSkeleton />,
  children,
}: ListBodyProps<T>) {
  if (query.isLoading) return skeleton;
  if (query.isError) {
    return (
      <LoadErrorAlert message={loadFailed} reason={reason} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  }
  return (
    <>
      {rows.length === 0 ? <EmptyState {...empty} /> : children(rows)}
      {/* Also under an empty page past the last one, to go back. */}
      {query.data && <ListPager page={page} shown={rows.length} total={query.data.total} onPage={onPage} />}
    </>
  );
}
