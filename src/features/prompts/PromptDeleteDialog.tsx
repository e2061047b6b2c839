import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useDeletePromptMutation, type PromptSummary } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { StatusChip } from '../../components/StatusChip';

export interface PromptDeleteDialogProps {
  /** The prompt to delete; null keeps the dialog closed. */
  prompt: PromptSummary | null;
  onClose: () => void;
  onDone: (severity: 'success' | 'error', message: string) => void;
}

/**
 * The confirmation of spec §2: name, ID and status, the warning that processes using the prompt
 * may be affected, and how many do. The success message is the answer's, which says how many
 * processes were switched off.
 */
export function PromptDeleteDialog({ prompt, onClose, onDone }: PromptDeleteDialogProps) {
  const { t } = useTranslation(['prompts', 'common']);
  const [deletePrompt] = useDeletePromptMutation();

  const remove = async () => {
    if (!prompt) return;
    try {
      const result = await deletePrompt(prompt.id).unwrap();
      onDone('success', result.detail?.trim() || t('messages.deleted'));
    } catch (error) {
      console.error('Failed to delete prompt', error);
      onDone('error', errorDetail(error) ?? t('messages.deleteFailed'));
    } finally {
      onClose();
    }
  };

  const facts: [string, ReactNode][] = prompt
    ? [
        [t('delete.name'), prompt.name],
        [
          t('delete.id'),
          <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {prompt.id}
          </Box>,
        ],
        [
          t('delete.status'),
          <StatusChip
            tone={prompt.is_active ? 'success' : 'disabled'}
            label={prompt.is_active ? t('common:status.active') : t('common:status.inactive')}
          />,
        ],
        [t('delete.processes'), String(prompt.process_count)],
      ]
    : [];

  return (
    <ConfirmDialog
      open={prompt !== null}
      title={t('delete.title', { name: prompt?.name ?? '' })}
      message={
        prompt && (
          <>
            <Box
              component="dl"
              sx={{
                m: 0,
                mb: 2,
                display: 'grid',
                gridTemplateColumns: 'auto minmax(0, 1fr)',
                columnGap: 2,
                rowGap: 1,
                alignItems: 'center',
              }}
            >
              {facts.map(([label, value]) => (
                <Box key={label} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="textSecondary">
                    {label}
                  </Typography>
                  <Typography component="dd" variant="body2" color="textPrimary" sx={{ m: 0 }}>
                    {value}
                  </Typography>
                </Box>
              ))}
            </Box>
            <Alert severity="warning">
              {t('delete.warning')} {t('delete.processes', { count: prompt.process_count })}
            </Alert>
          </>
        )
      }
      confirmLabel={t('delete.confirm')}
      busyLabel={t('common:actions.deleting')}
      onConfirm={remove}
      onClose={onClose}
    />
  );
}
