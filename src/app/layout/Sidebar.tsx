import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import { useMeQuery } from '../../api';
import { Brand } from './Brand';
import { NAV_ITEMS } from './navItems';

/**
 * The sidebar's content: brand and the eight sections, the current one highlighted. In the
 * narrow-screen drawer it also names the user, whom the top bar has no room for there.
 */
export function Sidebar({ onNavigate, showUser = false }: { onNavigate?: () => void; showUser?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useMeQuery();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ px: 2.5, height: 64, display: 'flex', alignItems: 'center' }}>
        <Brand />
      </Box>
      <Box component="nav" aria-label={t('nav.label')} sx={{ px: 1.5, py: 1 }}>
        <List disablePadding>
          {NAV_ITEMS.map((item) => {
            const active = pathname === item.path || pathname.startsWith(`${item.path}/`);
            return (
              <ListItem key={item.key} disablePadding>
                <ListItemButton
                  component={NavLink}
                  to={item.path}
                  selected={active}
                  onClick={onNavigate}
                  aria-current={active ? 'page' : undefined}
                  sx={{
                    borderRadius: 2,
                    mb: 0.5,
                    '&.Mui-selected': { color: 'primary.main', '& .MuiListItemIcon-root': { color: 'primary.main' } },
                    '&.Mui-selected .MuiListItemText-primary': { fontWeight: 600 },
                  }}
                >
                  <ListItemIcon sx={{ minWidth: 40 }} aria-hidden>
                    {item.icon}
                  </ListItemIcon>
                  <ListItemText primary={t(`nav.${item.key}`)} />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </Box>
      {showUser && user && (
        <Box sx={{ mt: 'auto', px: 2.5, py: 2, borderTop: 1, borderColor: 'divider' }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
            {user.name}
          </Typography>
          <Typography variant="caption" color="textSecondary" noWrap component="p">
            {t('topBar.planName', { plan: user.plan_name })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
