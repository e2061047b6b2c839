import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { errorDetail, useListVoicesQuery, useMeQuery, type Voice } from '../../api';
import { PageHeader, useLocale } from '../../components';
import { ListBody } from '../../components/ListBody';
import { useListPage } from '../../components/ListPager';
import { CARD_GRID_SX, CardGridSkeleton } from '../../components/Skeletons';
import { useSamplePlayer } from '../../components/useSamplePlayer';
import { formatCount } from '../../lib/numbers';
import { VoiceCard } from './VoiceCard';

/** The three counters above the gallery. */
function Counters({ voices }: { voices: readonly Voice[] }) {
  const { t } = useTranslation('voices');
  const locale = useLocale();
  const active = voices.filter((voice) => voice.is_active).length;
  const counters: [string, number][] = [
    [t('counters.total'), voices.length],
    [t('counters.active'), active],
    [t('counters.inactive'), voices.length - active],
  ];
  return (
    <Box
      component="dl"
      aria-label={t('counters.label')}
      sx={{ m: 0, mb: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}
    >
      {counters.map(([label, value]) => (
        <Paper key={label} variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column-reverse' }}>
          <Typography component="dt" variant="body2" color="textSecondary">
            {label}
          </Typography>
          <Typography component="dd" variant="h4" sx={{ m: 0, fontWeight: 700 }}>
            {formatCount(value, locale)}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** /voices: the voice gallery for everyone, with counters and a sample player. */
export default function VoicesPage() {
  const { t } = useTranslation(['voices', 'common']);
  const { data: user } = useMeQuery();
  const admin = user?.is_admin === true;
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListVoicesQuery(pageArgs);
  const { isLoading, isError } = query;
  const { playingId, failedId, toggle } = useSamplePlayer();

  // A list that failed to load is emptied (spec §8).
  const voices = isError ? [] : (query.data?.voices ?? []);
  const manage = admin ? (
    <Button variant="outlined" startIcon={<SettingsOutlined />} component={RouterLink} to="/settings?tab=voices">
      {t('manage')}
    </Button>
  ) : undefined;

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} action={manage} />
      {!isLoading && !isError && <Counters voices={voices} />}
      <ListBody
        query={query}
        rows={voices}
        loadFailed={t('loadFailed')}
        reason={errorDetail(query.error)}
        empty={{ icon: <RecordVoiceOverOutlined />, message: admin ? t('emptyAdmin') : t('empty'), action: manage }}
        page={page}
        onPage={setPage}
        skeleton={<CardGridSkeleton />}
      >
        {(rows) => (
          <Box component="section" aria-label={t('list')} sx={CARD_GRID_SX}>
            {rows.map((voice) => (
              <VoiceCard
                key={voice.id}
                voice={voice}
                playing={playingId === voice.id}
                unplayable={failedId === voice.id}
                onToggleSample={(target) => toggle(target.id, target.sample_url)}
              />
            ))}
          </Box>
        )}
      </ListBody>
    </>
  );
}
