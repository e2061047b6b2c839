import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { StatusChip } from '../../components/StatusChip';

export interface CatalogueItemProps {
  /** The row's name: its heading and its accessible name. */
  name: string;
  /** Switched off: dimmed, with a "disabled" chip. */
  active: boolean;
  /** The "disabled" chip's words (their gender follows the thing in Portuguese). */
  disabledLabel: string;
  /** Chips after the name (mood, type, the active configuration). */
  chips?: ReactNode;
  /** The lines under the name. */
  children: ReactNode;
  /** A status on the right (connected or not). */
  status?: ReactNode;
  /** Between the details and the actions (a warning). */
  notice?: ReactNode;
  /** The row's actions (RowActions). */
  actions: ReactNode;
}

/** One row of a settings list (proxies, YouTube APIs, voices, music): a card in the list's `ul`. */
export function CatalogueItem({ name, active, disabledLabel, chips, children, status, notice, actions }: CatalogueItemProps) {
  return (
    <Paper component="li" variant="outlined" aria-label={name} sx={{ p: 2, listStyle: 'none' }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 1.5,
          opacity: active ? 1 : DIMMED_OPACITY,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            {chips}
            {!active && <StatusChip tone="disabled" label={disabledLabel} />}
          </Box>
          {children}
        </Box>
        {status}
      </Box>
      {notice}
      {actions}
    </Paper>
  );
}
