import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export interface FullScreenSpinnerProps {
  /** What is being waited for; also the spinner's accessible name. Defaults to "Loading…". */
  label?: string;
}

/** Covers the viewport while something the whole screen depends on loads. */
export function FullScreenSpinner({ label }: FullScreenSpinnerProps) {
  const { t } = useTranslation();
  const text = label ?? t('loading');
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        bgcolor: 'background.default',
      }}
    >
      <CircularProgress aria-label={text} />
      <Typography color="textSecondary" aria-hidden>
        {text}
      </Typography>
    </Box>
  );
}
