import Box from '@mui/material/Box';
import { Outlet } from 'react-router-dom';
import { Brand } from './Brand';
import { LanguageToggle } from './LanguageToggle';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the signed-out screens: brand, language and theme toggles, the centred card. */
export function AuthShell() {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default', color: 'text.primary' }}
    >
      <Box
        component="header"
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, sm: 3 }, py: 2 }}
      >
        <Brand />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <LanguageToggle />
          <ThemeToggle />
        </Box>
      </Box>
      <Box component="main" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, pb: 6 }}>
        <Outlet />
      </Box>
    </Box>
  );
}
