import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** A decorative icon (hidden from assistive technology). */
  icon?: ReactNode;
  /** One sentence saying why there is nothing here. */
  message: string;
  /** The primary action, e.g. a create button. */
  action?: ReactNode;
}

/** The shared empty state of lists and unfinished pages: icon, one sentence, the primary action. */
export function EmptyState({ icon, message, action }: EmptyStateProps) {
  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 2,
        px: 3,
        py: 6,
        borderStyle: 'dashed',
      }}
    >
      {icon && (
        <Box aria-hidden sx={{ color: 'text.secondary', '& svg': { fontSize: 48 } }}>
          {icon}
        </Box>
      )}
      <Typography color="textSecondary" sx={{ maxWidth: 520 }}>
        {message}
      </Typography>
      {action}
    </Paper>
  );
}
