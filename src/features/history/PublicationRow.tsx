import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
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

/**
 * One publication in the table: thumbnail and title (with its channel, and why it failed), video
 * id, status and visibility, publication date, views (flagged when under the channel's minimum),
 * likes, and the actions.
 */
export function PublicationRow({ publication, onAction, busy }: PublicationItemProps) {
  const locale = useLocale();
  return (
    <TableRow hover aria-label={publication.video_title}>
      <TableCell sx={{ minWidth: 240 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Thumbnail publication={publication} />
          <TitleBlock publication={publication} />
        </Box>
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8125rem', whiteSpace: 'nowrap' }}>
        {publication.video_id ?? UNKNOWN_FIGURE}
      </TableCell>
      <TableCell>
        <StatusBlock publication={publication} />
      </TableCell>
      <TableCell>
        <PublishedDate publication={publication} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {formatCount(publication.views, locale)}
        {publication.below_min_views && (
          <Box sx={{ mt: 0.5 }}>
            <BelowMinFlag />
          </Box>
        )}
      </TableCell>
      <TableCell align="right">{formatCount(publication.likes, locale)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <PublicationActions publication={publication} onAction={onAction} busy={busy} />
      </TableCell>
    </TableRow>
  );
}
