/**
 * The pieces of a publication that the table row (sm and up) and the card (xs) share, so both
 * layouts say the same things the same way.
 */
import Block from '@mui/icons-material/Block';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import TrendingDown from '@mui/icons-material/TrendingDown';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Publication } from '../../api';
import { useLocale } from '../../components';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../lib/dates';
import { UNKNOWN_FIGURE } from '../../lib/numbers';
import { isPublicationStatus, isVisibility, STATUS_TONE } from './labels';

/**
 * `publish` and `delete` act on the publication; `approve`, `publishNow` and `reject` answer the
 * review of the run that made it (through its execution).
 */
export type PublicationAction = 'publish' | 'delete' | 'approve' | 'publishNow' | 'reject';

export interface PublicationItemProps {
  publication: Publication;
  onAction: (action: PublicationAction, publication: Publication) => void;
  /** An action on this publication is on its way: its buttons wait. */
  busy?: boolean;
}

/**
 * A video waiting for its owner's review, with the run that made it: it is approved or rejected
 * through that run (which then ends), never published or deleted on its own.
 */
export function isReviewable(publication: Publication): boolean {
  return publication.status === 'awaiting_review' && publication.execution_id !== null;
}

/** "Publish as public" is offered for a video on YouTube that is not public yet. */
export function canPublish(publication: Publication): boolean {
  return Boolean(publication.video_id) && publication.visibility !== 'public';
}

/** The video's thumbnail from YouTube's image host; a placeholder without one or when it fails. */
export function Thumbnail({ publication, large = false }: { publication: Publication; large?: boolean }) {
  const { t } = useTranslation('history');
  const [failed, setFailed] = useState(false);
  const url = publication.thumbnail_url;
  const size = large ? { width: 112, height: 63 } : { width: { xs: 64, md: 80 }, height: { xs: 36, md: 45 } };
  const frame = { ...size, flexShrink: 0, borderRadius: 1, bgcolor: 'action.hover' } as const;
  if (!url || failed) {
    return (
      <Box
        role="img"
        aria-label={t('table.noThumbnail')}
        sx={{ ...frame, display: 'grid', placeItems: 'center', color: 'text.secondary' }}
      >
        <ImageNotSupportedOutlined fontSize="small" aria-hidden />
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={url}
      alt={t('table.thumbnail', { title: publication.video_title })}
      loading="lazy"
      onError={() => setFailed(true)}
      sx={{ ...frame, display: 'block', objectFit: 'cover' }}
    />
  );
}

/** Title, channel, and why a failed publication failed. */
export function TitleBlock({ publication }: { publication: Publication }) {
  const { t } = useTranslation('history');
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="span" sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}>
        {publication.video_title}
      </Typography>
      {publication.channel_name && (
        <Typography component="span" variant="caption" color="textSecondary" sx={{ display: 'block' }}>
          {publication.channel_name}
        </Typography>
      )}
      {publication.status === 'failed' && (
        <Typography component="span" variant="caption" color="error" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
          {publication.failure_reason ? t('table.failure', { reason: publication.failure_reason }) : t('table.failureUnknown')}
        </Typography>
      )}
    </Box>
  );
}

/** The status chip with the visibility under it. */
export function StatusBlock({ publication }: { publication: Publication }) {
  const { t } = useTranslation('history');
  const { status, visibility } = publication;
  const known = isPublicationStatus(status);
  return (
    <Box>
      <StatusChip tone={known ? STATUS_TONE[status] : 'neutral'} label={known ? t(`status.${status}`) : status} />
      <Typography component="span" variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.5 }}>
        {isVisibility(visibility) ? t(`visibility.${visibility}`) : visibility}
      </Typography>
    </Box>
  );
}

/** The publication date in the interface language's format; "scheduled" while in the future. */
export function PublishedDate({ publication }: { publication: Publication }) {
  const { t } = useTranslation('history');
  const locale = useLocale();
  const publishedAt = publication.published_at;
  if (!publishedAt) return <>{t('table.notPublished')}</>;
  const scheduled = new Date(publishedAt).getTime() > Date.now();
  return (
    <>
      {formatDate(publishedAt, { locale }) || UNKNOWN_FIGURE}
      {scheduled && (
        <Typography component="span" variant="caption" color="textSecondary" sx={{ display: 'block' }}>
          {t('table.scheduled')}
        </Typography>
      )}
    </>
  );
}

/** Under the channel's minimum views 7 days after publication; the tooltip says so in full. */
export function BelowMinFlag() {
  const { t } = useTranslation('history');
  return (
    <Tooltip title={t('table.belowMinHint')} describeChild>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<TrendingDown aria-hidden />}
        label={t('table.belowMin')}
        tabIndex={0}
      />
    </Tooltip>
  );
}

function Action({
  label,
  icon,
  onClick,
  color,
  disabled,
}: {
  label: string;
  icon: ReactElement;
  onClick: () => void;
  color?: 'error' | 'primary' | 'success';
  disabled?: boolean;
}) {
  return (
    <Tooltip title={label} describeChild>
      <span>
        <IconButton aria-label={label} onClick={onClick} color={color ?? 'default'} size="small" disabled={disabled}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/**
 * Watch on YouTube (new tab), then: for a video waiting for review, approve (published at its
 * process's next publication time), publish now and reject; otherwise publish as public (when it
 * is not) and delete.
 */
export function PublicationActions({ publication, onAction, busy = false }: PublicationItemProps) {
  const { t } = useTranslation('history');
  const title = publication.video_title;
  const watchLabel = t('table.watch', { title });
  return (
    <Box sx={{ display: 'inline-flex', gap: 0.25 }}>
      {publication.watch_url && (
        <Tooltip title={watchLabel}>
          <IconButton
            component="a"
            href={publication.watch_url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={watchLabel}
            size="small"
          >
            <OpenInNew />
          </IconButton>
        </Tooltip>
      )}
      {isReviewable(publication) ? (
        <>
          <Action
            label={t('table.approve', { title })}
            icon={<EventAvailableOutlined />}
            onClick={() => onAction('approve', publication)}
            color="success"
            disabled={busy}
          />
          <Action
            label={t('table.publishNow', { title })}
            icon={<PublicOutlined />}
            onClick={() => onAction('publishNow', publication)}
            color="primary"
            disabled={busy}
          />
          <Action
            label={t('table.reject', { title })}
            icon={<Block />}
            onClick={() => onAction('reject', publication)}
            color="error"
            disabled={busy}
          />
        </>
      ) : (
        <>
          {canPublish(publication) && (
            <Action
              label={t('table.publish', { title })}
              icon={<PublicOutlined />}
              onClick={() => onAction('publish', publication)}
              color="primary"
              disabled={busy}
            />
          )}
          <Action
            label={t('table.delete', { title })}
            icon={<DeleteOutlined />}
            onClick={() => onAction('delete', publication)}
            color="error"
            disabled={busy}
          />
        </>
      )}
    </Box>
  );
}
