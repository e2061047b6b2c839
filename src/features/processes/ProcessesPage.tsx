import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { EmptyState, PageHeader } from '../../components';

/** Placeholder until the processes issue lands: says plainly that the page is not built yet. */
export default function ProcessesPage() {
  const { t } = useTranslation('processes');
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <EmptyState icon={<ConstructionOutlined />} message={t('notBuilt')} />
    </>
  );
}
