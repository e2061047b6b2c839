import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

export interface FactListProps {
  /** Label and value pairs, in order (labels are the keys: keep them distinct). */
  facts: readonly (readonly [string, ReactNode])[];
  /** Cards put values on the right; dialogs next to their label. */
  align?: 'left' | 'right';
  /** Entries drawn before the facts (a <dt> and a <dd> each). */
  children?: ReactNode;
  sx?: SxProps<Theme>;
}

/** A card's or dialog's facts as one description list: labels in a column, values beside them. */
export function FactList({ facts, align = 'right', children, sx }: FactListProps) {
  return (
    <Box
      component="dl"
      sx={[
        { m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 2, rowGap: 0.75 },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="textSecondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: align, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
