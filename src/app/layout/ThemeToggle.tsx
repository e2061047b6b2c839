import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../hooks';
import { selectTheme, themeToggled } from '../preferencesSlice';

/** Switches between the dark (default) and the light theme. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const theme = useAppSelector(selectTheme);
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <IconButton color="inherit" onClick={() => dispatch(themeToggled())} aria-label={label}>
      {theme === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
    </IconButton>
  );
}
