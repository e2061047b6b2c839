import Box from '@mui/material/Box';
import type { ReactElement, ReactNode } from 'react';
import { errorDetail } from '../../api';
import { EmptyState, LoadErrorAlert } from '../../components';
import { ListPager } from '../../components/ListPager';
import { ListSkeleton } from '../../components/Skeletons';

export interface CatalogueListProps<T extends { id: string }> {
  /** The list query's state (RTK Query's fields of the same names). */
  query: {
    data?: { total: number } | undefined;
    error?: unknown;
    isLoading: boolean;
    isError: boolean;
    isFetching: boolean;
    refetch: () => unknown;
  };
  /** The rows of the page; a list that failed to load shows none (spec §8). */
  rows: readonly T[];
  /** The list's accessible name. */
  label: string;
  loadFailed: string;
  empty: { icon: ReactElement; message: string; action: ReactNode };
  page: number;
  onPage: (page: number) => void;
  /** One row, an `li`. */
  children: (row: T) => ReactNode;
}

/**
 * The body of an admin catalogue panel in Settings (voices, music): a skeleton while it loads, the
 * error with a retry, the empty state with its action, or the rows with the pager under them.
 */
export function CatalogueList<T extends { id: string }>({
  query,
  rows,
  label,
  loadFailed,
  empty,
  page,
  onPage,
  children,
}: CatalogueListProps<T>) {
  if (query.isLoading) return <ListSkeleton />;
  if (query.isError) {
    return (
      <LoadErrorAlert
        message={loadFailed}
        reason={errorDetail(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return (
    <>
      {rows.length === 0 ? (
        <EmptyState icon={empty.icon} message={empty.message} action={empty.action} />
      ) : (
        <Box component="ul" aria-label={label} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
          {rows.map((row) => children(row))}
        </Box>
      )}
      {/* Also under an empty page past the last one, to go back. */}
      {query.data && <ListPager page={page} shown={rows.length} total={query.data.total} onPage={onPage} />}
    </>
  );
}
