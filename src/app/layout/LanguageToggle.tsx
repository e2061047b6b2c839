import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../hooks';
import { languageToggled, selectLanguage } from '../preferencesSlice';

/** Shows the current language (PT/EN) and switches to the other one. */
export function LanguageToggle() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const language = useAppSelector(selectLanguage);
  const current = language.toUpperCase();
  const next = language === 'pt' ? 'en' : 'pt';
  return (
    <Button
      color="inherit"
      onClick={() => dispatch(languageToggled())}
      aria-label={t('language.toggle', { current, next: t(`language.${next}`) })}
      sx={{ minWidth: 0, px: 1.25, fontWeight: 700, letterSpacing: '0.04em' }}
    >
      {current}
    </Button>
  );
}
