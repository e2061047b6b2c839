import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { formatDateTime } from '../../lib/dates';
import { PromptActions, PromptStatus, PromptViewAction, type PromptItemProps } from './PromptParts';

/** One prompt on a phone: the table's columns stacked in a card, nothing to scroll sideways. */
export function PromptCard({ prompt, admin, onAction, onToggled }: PromptItemProps) {
  const { t } = useTranslation('prompts');
  return (
    <Paper component="article" variant="outlined" aria-label={prompt.name} sx={{ p: 2, display: 'grid', gap: 1 }}>
      <Box sx={{ opacity: prompt.is_active ? 1 : DIMMED_OPACITY, minWidth: 0 }}>
        <Typography component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {prompt.name}
        </Typography>
        <Typography variant="caption" color="textSecondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {t('table.id', { id: prompt.id })}
        </Typography>
        <Typography
          variant="body2"
          sx={{ mt: 1, display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {prompt.description}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <PromptStatus active={prompt.is_active} />
        <Typography variant="body2" color="textSecondary">
          {t('card.updatedAt', { date: formatDateTime(prompt.updated_at) })}
        </Typography>
      </Box>
      {admin ? (
        <PromptActions prompt={prompt} onAction={onAction} onToggled={onToggled} />
      ) : (
        <Box>
          <PromptViewAction prompt={prompt} onAction={onAction} />
        </Box>
      )}
    </Paper>
  );
}
