import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loggedOut, useLogoutMutation, useMeQuery } from '../../api';
import { useAppDispatch, useAppSelector } from '../hooks';
import { Brand } from './Brand';
import { LanguageToggle } from './LanguageToggle';
import { ThemeToggle } from './ThemeToggle';

export interface TopBarProps {
  /** Set on narrow screens, where the sidebar is a drawer opened from the menu button. */
  onOpenMenu?: () => void;
  drawerWidth: number;
}

export function TopBar({ onOpenMenu, drawerWidth }: TopBarProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: user } = useMeQuery();
  const token = useAppSelector((state) => state.auth.token);
  const [revoke] = useLogoutMutation();

  const logout = () => {
    // The server forgets the token (best effort: the session ends here whatever it answers).
    if (token) void revoke(token);
    // Navigate first so the guard does not remember this page as the one to come back to.
    navigate('/login', { replace: true });
    dispatch(loggedOut()); // the store's listener also drops the api cache
  };

  return (
    <AppBar
      position="fixed"
      color="inherit"
      elevation={0}
      sx={{
        width: { md: `calc(100% - ${drawerWidth}px)` },
        ml: { md: `${drawerWidth}px` },
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Toolbar sx={{ gap: 1 }}>
        {onOpenMenu && (
          <>
            <IconButton edge="start" color="inherit" onClick={onOpenMenu} aria-label={t('topBar.openMenu')}>
              <MenuIcon />
            </IconButton>
            <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
              <Brand />
            </Box>
          </>
        )}
        <Box sx={{ flex: 1 }} />
        <LanguageToggle />
        <ThemeToggle />
        {user && (
          <Box sx={{ textAlign: 'right', mx: 1, minWidth: 0, display: { xs: 'none', sm: 'block' } }}>
            <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.3 }} noWrap>
              {user.name}
            </Typography>
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block', lineHeight: 1.3 }} noWrap>
              {t('topBar.planName', { plan: user.plan_name })}
            </Typography>
          </Box>
        )}
        <Tooltip title={t('topBar.logout')}>
          <IconButton color="inherit" onClick={logout} aria-label={t('topBar.logout')} edge="end">
            <LogoutOutlined />
          </IconButton>
        </Tooltip>
      </Toolbar>
    </AppBar>
  );
}
