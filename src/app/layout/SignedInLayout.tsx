import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { PageSpinner } from '../../components';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { VerifyEmailBanner } from './VerifyEmailBanner';

export const DRAWER_WIDTH = 248;

/**
 * The frame of every signed-in page: sidebar (permanent from 900px up, a temporary drawer opened
 * by the menu button below), top bar, the banner of an unconfirmed address, and the page.
 */
export default function SignedInLayout() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}>
      <TopBar drawerWidth={DRAWER_WIDTH} onOpenMenu={wide ? undefined : () => setMenuOpen(true)} />
      <Box sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        {wide ? (
          <Drawer
            variant="permanent"
            open
            sx={{
              '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', borderRight: 1, borderColor: 'divider' },
            }}
          >
            <Sidebar />
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={menuOpen}
            onClose={closeMenu}
            ModalProps={{ keepMounted: true }}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
          >
            <Sidebar onNavigate={closeMenu} showUser />
          </Drawer>
        )}
      </Box>
      <Box component="main" sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, lg: 4 }, pb: 4 }}>
        <Toolbar />
        <Box sx={{ pt: 3, maxWidth: 1280, mx: 'auto' }}>
          <VerifyEmailBanner />
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
