import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * Said beside a sample's play button when the browser could not play it (the address answered
 * nothing, or no audio this browser plays), instead of the button silently going back to Play.
 */
export function SampleUnplayable({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <Typography variant="caption" color="error" role="status" component="p" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
      {t('sample.unplayable')}
    </Typography>
  );
}
