import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useTogglePromptMutation, type PromptSummary } from '../../api';
import { StatusChip } from '../../components/StatusChip';
import { formatDateTime } from '../../lib/dates';
import { DIMMED_OPACITY } from '../../components/dimmed';

export type PromptAction = 'view' | 'description' | 'edit' | 'delete';

export interface PromptRowProps {
  prompt: PromptSummary;
  /** Admins get the actions column. */
  admin: boolean;
  onAction: (action: PromptAction, prompt: PromptSummary) => void;
  /** Reports the outcome of the activate/deactivate action. */
  onToggled: (severity: 'success' | 'error', message: string) => void;
}

function Action({
  label,
  icon,
  onClick,
  disabled,
  color,
}: {
  label: string;
  icon: ReactElement;
  onClick: () => void;
  disabled?: boolean;
  color?: 'error' | 'success' | 'default';
}) {
  return (
    <Tooltip title={label} describeChild>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={disabled} color={color ?? 'default'} size="small">
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** One prompt of the table: name and ID, description, status, last update (pt-BR), actions. */
export function PromptRow({ prompt, admin, onAction, onToggled }: PromptRowProps) {
  const { t } = useTranslation(['prompts', 'common']);
  const [togglePrompt, { isLoading: toggling }] = useTogglePromptMutation();
  const { name, is_active: active } = prompt;

  const toggle = async () => {
    try {
      const updated = await togglePrompt(prompt.id).unwrap();
      onToggled('success', t(updated.is_active ? 'messages.activated' : 'messages.deactivated', { name }));
    } catch (error) {
      console.error('Failed to toggle prompt', error);
      onToggled('error', errorDetail(error) ?? t('messages.updateFailed'));
    }
  };

  const dimmed = { opacity: active ? 1 : DIMMED_OPACITY };
  return (
    <TableRow hover aria-label={name}>
      <TableCell sx={{ ...dimmed, minWidth: 180 }}>
        <Typography component="span" sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {name}
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
        <StatusChip
          tone={active ? 'success' : 'disabled'}
          label={active ? t('common:status.active') : t('common:status.inactive')}
        />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(prompt.updated_at)}</TableCell>
      {admin && (
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          <Box sx={{ display: 'inline-flex', gap: 0.25 }}>
            <Action label={t('actions.view', { name })} icon={<VisibilityOutlined />} onClick={() => onAction('view', prompt)} />
            <Action
              label={t('actions.editDescription', { name })}
              icon={<EditNoteOutlined />}
              onClick={() => onAction('description', prompt)}
            />
            <Action label={t('actions.edit', { name })} icon={<EditOutlined />} onClick={() => onAction('edit', prompt)} />
            <Action
              label={active ? t('actions.disable', { name }) : t('actions.enable', { name })}
              icon={active ? <ToggleOn /> : <ToggleOff />}
              onClick={toggle}
              disabled={toggling}
              color={active ? 'success' : 'default'}
            />
            <Action
              label={t('actions.delete', { name })}
              icon={<DeleteOutlined />}
              onClick={() => onAction('delete', prompt)}
              color="error"
            />
          </Box>
        </TableCell>
      )}
    </TableRow>
  );
}
