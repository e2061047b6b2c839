import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components';
import { PanelHeader } from './PanelHeader';

export type PlannedSection = 'profile' | 'security' | 'dangerZone';

/** A panel that comes in a later issue: it says so plainly, with no make-believe form. */
export function PlannedPanel({ section }: { section: PlannedSection }) {
  const { t } = useTranslation('settings');
  return (
    <>
      <PanelHeader title={t(`menu.${section}`)} subtitle={t(`planned.${section}.subtitle`)} />
      <EmptyState icon={<ConstructionOutlined />} message={t(`planned.${section}.message`)} />
    </>
  );
}
