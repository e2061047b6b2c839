import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';

/**
 * The console's status colours, one meaning each on every screen: idle or not
 * tested grey, running blue with a spinner, completed or connected green, error or disconnected
 * red, waiting for someone (a video to review) amber, waiting for a worker (queued) blue outlined,
 * disabled grey (the item itself is dimmed by its card).
 */
export type StatusTone = 'neutral' | 'waiting' | 'running' | 'success' | 'warning' | 'error' | 'disabled';

const COLOR = {
  neutral: 'default',
  waiting: 'info',
  running: 'info',
  success: 'success',
  warning: 'warning',
  error: 'error',
  disabled: 'default',
} as const;

export interface StatusChipProps {
  tone: StatusTone;
  label: string;
}

export function StatusChip({ tone, label }: StatusChipProps) {
  return (
    <Chip
      size="small"
      label={label}
      color={COLOR[tone]}
      variant={tone === 'disabled' || tone === 'waiting' ? 'outlined' : 'filled'}
      icon={tone === 'running' ? <CircularProgress size={12} color="inherit" aria-hidden /> : undefined}
      sx={{ fontWeight: 600 }}
    />
  );
}
