import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The product's mark and name. */
export function Brand() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box component="svg" viewBox="0 0 64 64" aria-hidden sx={{ width: 28, height: 28, flexShrink: 0 }}>
        <rect width="64" height="64" rx="14" fill="#e53935" />
        <path d="M25 20v24l20-12z" fill="#fff" />
      </Box>
      <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.125rem', letterSpacing: '-0.01em' }}>
        {t('appName')}
      </Typography>
    </Box>
  );
}
