import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicationDateRange, PublicationStatus } from '../../api';
import { HISTORY_PERIODS_DAYS } from '../../lib/constants';
import { hasFilters, PUBLICATION_STATUSES, SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH, type HistoryQuery } from './filters';

export interface HistoryFiltersProps {
  query: HistoryQuery;
  /** A filter changed: the page goes back to the first. */
  onChange: (changes: Partial<HistoryQuery>) => void;
}

const ALL = 'all';

/** The history's filters: a search over the title (sent 300 ms after typing stops), status, period. */
export function HistoryFilters({ query, onChange }: HistoryFiltersProps) {
  const { t } = useTranslation('history');
  const [text, setText] = useState(query.search);
  const [synced, setSynced] = useState(query.search);

  // The address changed under the box (cleared filters, back button): the box follows it.
  if (query.search !== synced) {
    setSynced(query.search);
    if (text.trim() !== query.search) setText(query.search);
  }

  useEffect(() => {
    const search = text.trim();
    if (search === query.search) return undefined;
    const timer = setTimeout(() => onChange({ search, page: 0 }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query.search, onChange]);

  const clear = () => {
    setText('');
    onChange({ search: '', status: '', period: null, page: 0 });
  };

  return (
    <Box
      role="search"
      aria-label={t('filters.label')}
      sx={{
        display: 'grid',
        gap: 2,
        mb: 2,
        alignItems: 'center',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) 180px 200px', md: 'minmax(0, 1fr) 200px 220px auto' },
      }}
    >
      <TextField
        type="search"
        size="small"
        label={t('filters.search')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        slotProps={{
          htmlInput: { maxLength: SEARCH_MAX_LENGTH },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        size="small"
        label={t('filters.status')}
        value={query.status || ALL}
        onChange={(event) =>
          onChange({ status: event.target.value === ALL ? '' : (event.target.value as PublicationStatus), page: 0 })
        }
      >
        <MenuItem value={ALL}>{t('filters.allStatuses')}</MenuItem>
        {PUBLICATION_STATUSES.map((status) => (
          <MenuItem key={status} value={status}>
            {t(`status.${status}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('filters.period')}
        value={query.period === null ? ALL : String(query.period)}
        onChange={(event) =>
          onChange({ period: event.target.value === ALL ? null : (Number(event.target.value) as PublicationDateRange), page: 0 })
        }
      >
        <MenuItem value={ALL}>{t('filters.allTime')}</MenuItem>
        {HISTORY_PERIODS_DAYS.map((days) => (
          <MenuItem key={days} value={String(days)}>
            {t('filters.lastDays', { count: days })}
          </MenuItem>
        ))}
      </TextField>
      {hasFilters(query) || text.trim() !== '' ? (
        <Button onClick={clear} sx={{ justifySelf: { xs: 'start', md: 'auto' } }}>
          {t('filters.clear')}
        </Button>
      ) : (
        <Box sx={{ display: { xs: 'none', md: 'block' } }} />
      )}
    </Box>
  );
}
