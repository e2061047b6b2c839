import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';

const cardsGrid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
} as const;

/** The grid every card list uses (channels, voices): one column, two from sm, three from lg. */
export const CARD_GRID_SX = cardsGrid;

/** Loading placeholder of a card grid. */
export function CardGridSkeleton({ count = 6 }: { count?: number }) {
  const { t } = useTranslation();
  return (
    <Box sx={cardsGrid} role="status" aria-label={t('loading')} aria-busy>
      {Array.from({ length: count }, (_, index) => (
        <Paper key={index} variant="outlined" sx={{ p: 2.5 }}>
          <Skeleton variant="text" width="60%" height={32} />
          <Skeleton variant="text" width="40%" />
          <Skeleton variant="rounded" height={72} sx={{ my: 1.5 }} />
          <Skeleton variant="text" width="80%" />
        </Paper>
      ))}
    </Box>
  );
}

/** Loading placeholder of a list of rows (settings panels, tables). */
export function ListSkeleton({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('loading')} aria-busy sx={{ display: 'grid', gap: 1.5 }}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} variant="rounded" height={76} />
      ))}
    </Box>
  );
}
