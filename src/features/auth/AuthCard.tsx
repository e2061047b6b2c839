import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface AuthCardProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  maxWidth?: number;
}

/** The card every signed-out screen sits in: title, one-line subtitle, the form. */
export function AuthCard({ title, subtitle, children, maxWidth = 440 }: AuthCardProps) {
  return (
    <Paper variant="outlined" sx={{ width: '100%', maxWidth, mx: 'auto', p: { xs: 3, sm: 4 } }}>
      <Typography variant="h1" component="h1" sx={{ mb: subtitle ? 1 : 3 }}>
        {title}
      </Typography>
      {subtitle && (
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {subtitle}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
