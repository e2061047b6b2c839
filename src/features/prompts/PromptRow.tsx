import Typography from '@mui/material/Typography';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { formatDateTime } from '../../lib/dates';
import { PromptActions, PromptStatus, PromptViewAction, type PromptItemProps } from './PromptParts';

export type { PromptAction } from './PromptParts';

/** One prompt of the table: name and ID, description, status, last update (pt-BR), actions. */
export function PromptRow({ prompt, admin, onAction, onToggled }: PromptItemProps) {
  const { t } = useTranslation('prompts');
  const dimmed = { opacity: prompt.is_active ? 1 : DIMMED_OPACITY };
  return (
    <TableRow hover aria-label={prompt.name}>
      <TableCell sx={{ ...dimmed, minWidth: 180 }}>
        <Typography component="span" sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {prompt.name}
        </Typography>
        <Typography
          component="span"
          variant="caption"
          color="textSecondary"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {t('table.id', { id: prompt.id })}
        </Typography>
      </TableCell>
      <TableCell sx={{ ...dimmed, minWidth: 220 }}>
        <Typography
          variant="body2"
          title={prompt.description}
          sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {prompt.description}
        </Typography>
      </TableCell>
      <TableCell>
        <PromptStatus active={prompt.is_active} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(prompt.updated_at)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {admin ? (
          <PromptActions prompt={prompt} onAction={onAction} onToggled={onToggled} />
        ) : (
          <PromptViewAction prompt={prompt} onAction={onAction} />
        )}
      </TableCell>
    </TableRow>
  );
}
