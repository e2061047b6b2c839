import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components';
import { formatCount, UNKNOWN_FIGURE } from '../../lib/numbers';
import {
  BelowMinFlag,
  PublicationActions,
  PublishedDate,
  StatusBlock,
  Thumbnail,
  TitleBlock,
  type PublicationItemProps,
} from './PublicationParts';
import { FactList } from '../../components/FactList';

/** One publication on a phone: what the table row says, stacked, with the actions at the bottom. */
export function PublicationCard({ publication, onAction, busy }: PublicationItemProps) {
  const { t } = useTranslation('history');
  const locale = useLocale();
  const facts: [string, ReactNode][] = [
    [t('table.videoId'), publication.video_id ?? UNKNOWN_FIGURE],
    [t('table.publishedAt'), <PublishedDate key="date" publication={publication} />],
    [t('table.views'), formatCount(publication.views, locale)],
    [t('table.likes'), formatCount(publication.likes, locale)],
  ];
  return (
    <Paper component="article" variant="outlined" aria-label={publication.video_title} sx={{ p: 2, display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5 }}>
        <Thumbnail publication={publication} large />
        <TitleBlock publication={publication} />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1 }}>
        <StatusBlock publication={publication} />
        {publication.below_min_views && <BelowMinFlag />}
      </Box>
      <FactList facts={facts} sx={{ rowGap: 0.5 }} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', borderTop: 1, borderColor: 'divider', pt: 1 }}>
        <PublicationActions publication={publication} onAction={onAction} busy={busy} />
      </Box>
    </Paper>
  );
}
