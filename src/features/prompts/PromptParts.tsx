import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ReactElement } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useTogglePromptMutation, type PromptSummary } from '../../api';
import { SwitchOffDialog, stopsProcesses } from '../../components/SwitchOffDialog';
import { StatusChip } from '../../components/StatusChip';

export type PromptAction = 'view' | 'description' | 'edit' | 'delete';

/** What the table row and the phone card both take. */
export interface PromptItemProps {
  prompt: PromptSummary;
  /** Admins get every action; other users read the prompt only. */
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

/** What a user who is not an admin can do with a prompt: read it before choosing it in a process. */
export function PromptViewAction({ prompt, onAction }: Pick<PromptItemProps, 'prompt' | 'onAction'>) {
  const { t } = useTranslation('prompts');
  return (
    <Action
      label={t('actions.view', { name: prompt.name })}
      icon={<VisibilityOutlined />}
      onClick={() => onAction('view', prompt)}
    />
  );
}

/** The admin's actions on a prompt: view, edit the description, full edit, toggle, delete. */
export function PromptActions({ prompt, onAction, onToggled }: Omit<PromptItemProps, 'admin'>) {
  const { t } = useTranslation('prompts');
  const [togglePrompt, { isLoading: toggling }] = useTogglePromptMutation();
  const { name, is_active: active } = prompt;

  const [confirming, setConfirming] = useState(false);

  const toggle = async () => {
    try {
      const updated = await togglePrompt(prompt.id).unwrap();
      onToggled('success', t(updated.is_active ? 'messages.activated' : 'messages.deactivated', { name }));
    } catch (error) {
      console.error('Failed to toggle prompt', error);
      onToggled('error', errorDetail(error) ?? t('messages.updateFailed'));
    }
    setConfirming(false);
  };
  // Switching off what active processes use asks first: they stop with it.
  const onToggle = () => (stopsProcesses(active, prompt.active_process_count) ? setConfirming(true) : void toggle());

  return (
    <Box sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.25 }}>
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
        onClick={onToggle}
        disabled={toggling}
        color={active ? 'success' : 'default'}
      />
      <Action
        label={t('actions.delete', { name })}
        icon={<DeleteOutlined />}
        onClick={() => onAction('delete', prompt)}
        color="error"
      />
      <SwitchOffDialog
        open={confirming}
        name={prompt.name}
        count={prompt.active_process_count}
        onConfirm={toggle}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** Active or inactive, as a chip. */
export function PromptStatus({ active }: { active: boolean }) {
  const { t } = useTranslation('common');
  return <StatusChip tone={active ? 'success' : 'disabled'} label={active ? t('status.active') : t('status.inactive')} />;
}
