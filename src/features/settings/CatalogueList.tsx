import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { errorDetail } from '../../api';
import type { EmptyStateProps } from '../../components';
import { ListBody, type ListQueryState } from '../../components/ListBody';

export interface CatalogueListProps<T extends { id: string }> {
  /** The list query's state (RTK Query's fields of the same names). */
  query: ListQueryState & { error?: unknown };
  /** The rows of the page; a list that failed to load shows none (spec §8). */
  rows: readonly T[];
  /** The list's accessible name. */
  label: string;
  loadFailed: string;
  empty: EmptyStateProps;
  page: number;
  onPage: (page: number) => void;
  /** One row, an `li`. */
  children: (row: T) => ReactNode;
}

/** The body of a settings panel's list (proxies, YouTube APIs, voices, music): ListBody with the rows in a `ul`. */
export function CatalogueList<T extends { id: string }>({ query, label, children, ...body }: CatalogueListProps<T>) {
  return (
    <ListBody query={query} reason={errorDetail(query.error)} {...body}>
      {(rows) => (
        <Box component="ul" aria-label={label} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
          {rows.map((row) => children(row))}
        </Box>
      )}
    </ListBody>
  );
}
