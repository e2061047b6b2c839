import SearchOff from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { EmptyState, PageHeader } from '../components';

/** Any unknown path of a signed-in visitor (signed-out visitors go to /login first). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title={t('notFound.title')} subtitle={t('notFound.subtitle')} />
      <EmptyState
        icon={<SearchOff />}
        message={t('notFound.message', { path: pathname })}
        action={
          <Button component={RouterLink} to="/dashboard" variant="contained">
            {t('notFound.back')}
          </Button>
        }
      />
    </>
  );
}
