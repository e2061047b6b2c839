import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';

export interface AppSetupHintProps {
  /** What to create in the developer console, ending with what to register there. */
  hint: string;
  /** The redirect URI to register (the list answer's), shown in full so it can be copied. */
  redirectUri?: string;
  /** The developer console, opened in a new tab. */
  consoleUrl: string;
  consoleLabel: string;
}

/**
 * The note atop a dialog that takes an OAuth app's credentials (Google's, TikTok's, Meta's): where
 * the app is created and the redirect URI to register there, which wraps anywhere on a phone.
 */
export function AppSetupHint({ hint, redirectUri, consoleUrl, consoleLabel }: AppSetupHintProps) {
  return (
    <Alert severity="info" role="note" sx={{ mb: 2.5, alignItems: 'flex-start' }}>
      {hint}
      {redirectUri && (
        <Box
          component="code"
          sx={{ display: 'block', my: 1, px: 1, py: 0.5, borderRadius: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere' }}
        >
          {redirectUri}
        </Box>
      )}
      <Link
        href={consoleUrl}
        target="_blank"
        rel="noopener noreferrer"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        {consoleLabel}
        <OpenInNew fontSize="inherit" aria-hidden />
      </Link>
    </Alert>
  );
}
