import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE } from '../lib/constants';
import { formatCount } from '../lib/numbers';
import { useLocale } from './useLocale';

/** Rows per page of the lists (channels, configurations, prompts, voices, processes): the spec's 100. */
export const LIST_PAGE_SIZE = DEFAULT_PAGE.limit;

/**
 * A list's page and its query's arguments: none for the first page, so it shares the cache of every
 * other screen that reads the first 100 rows.
 */
export function useListPage() {
  const [page, setPage] = useState(0);
  const args = page === 0 ? undefined : { skip: page * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE };
  return { page, setPage, args };
}

export interface ListPagerProps {
  page: number;
  /** Rows on this page. */
  shown: number;
  /** Rows in the whole list. */
  total: number;
  onPage: (page: number) => void;
}

/**
 * "1–100 of 240" with the previous and next pages, under a list longer than one page; nothing
 * under a list that fits in one. A page left empty (its last rows were removed) steps back.
 */
export function ListPager({ page, shown, total, onPage }: ListPagerProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  useEffect(() => {
    if (page > 0 && shown === 0) onPage(page - 1);
  }, [page, shown, onPage]);
  if (page === 0 && total <= shown) return null;
  const from = shown === 0 ? 0 : page * LIST_PAGE_SIZE + 1;
  const to = page * LIST_PAGE_SIZE + shown;
  const last = Math.max(0, Math.ceil(total / LIST_PAGE_SIZE) - 1);
  return (
    <Box
      component="nav"
      aria-label={t('listPager.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 1, mt: 2 }}
    >
      <Typography variant="body2" color="textSecondary" role="status">
        {t('listPager.shown', {
          from: formatCount(from, locale),
          to: formatCount(to, locale),
          count: formatCount(total, locale),
        })}
      </Typography>
      <Button size="small" startIcon={<ChevronLeft />} disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('listPager.previous')}
      </Button>
      <Button size="small" endIcon={<ChevronRight />} disabled={page >= last} onClick={() => onPage(page + 1)}>
        {t('listPager.next')}
      </Button>
    </Box>
  );
}
