import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useGetPromptQuery, type Prompt, type PromptSummary } from '../../api';
import { LoadErrorAlert } from '../../components';
import { StatusChip } from '../../components/StatusChip';
import { PROMPT_TEXT_FIELDS } from '../../lib/constants';
import { formatDateTime } from '../../lib/dates';
import { categoryLabel } from './labels';
import { LanguageTabs, languageTabIds } from './LanguageTabs';
import { FactList } from '../../components/FactList';

export interface PromptViewDialogProps {
  prompt: PromptSummary;
  onClose: () => void;
}

function Text({ children, empty }: { children: string; empty: string }) {
  const blank = children.trim() === '';
  return (
    <Paper
      variant="outlined"
      sx={{
        p: 1.5,
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        fontSize: '0.875rem',
        color: blank ? 'text.secondary' : undefined,
      }}
    >
      {blank ? empty : children}
    </Paper>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 2.5 }}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.75 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The full prompt, read-only: its facts, description, base content and the texts per language. */
function PromptDetails({ prompt }: { prompt: Prompt }) {
  const { t } = useTranslation(['prompts', 'common']);
  const idPrefix = useId();
  const codes = Object.keys(prompt.languages);
  const [active, setActive] = useState(codes[0] ?? '');
  const texts = prompt.languages[active];
  const ids = languageTabIds(idPrefix, active);
  const facts: [string, ReactNode][] = [
    [
      t('view.id'),
      <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {prompt.id}
      </Box>,
    ],
    [t('view.category'), categoryLabel(t, prompt.category)],
    [
      t('view.status'),
      <StatusChip
        tone={prompt.is_active ? 'success' : 'disabled'}
        label={prompt.is_active ? t('common:status.active') : t('common:status.inactive')}
      />,
    ],
    [t('view.updatedAt'), formatDateTime(prompt.updated_at)],
    [t('view.processes'), String(prompt.process_count)],
  ];
  return (
    <>
      <FactList facts={facts} align="left" sx={{ rowGap: 1, alignItems: 'center' }} />
      <Section title={t('view.description')}>
        <Text empty={t('view.emptyText')}>{prompt.description}</Text>
      </Section>
      <Section title={t('view.content')}>
        <Text empty={t('view.emptyText')}>{prompt.content}</Text>
      </Section>
      <Section title={t('view.languages')}>
        {codes.length === 0 ? (
          <Typography variant="body2" color="textSecondary">
            {t('view.noLanguages')}
          </Typography>
        ) : (
          <>
            <LanguageTabs idPrefix={idPrefix} label={t('view.languages')} codes={codes} value={active} onChange={setActive} />
            {texts && (
              <Box role="tabpanel" id={ids.panel} aria-labelledby={ids.tab} sx={{ pt: 1 }}>
                {PROMPT_TEXT_FIELDS.map((field) => (
                  <Section key={field} title={t(`fields.${field}`)}>
                    <Text empty={t('view.emptyText')}>{texts[field] ?? ''}</Text>
                  </Section>
                ))}
              </Box>
            )}
          </>
        )}
      </Section>
    </>
  );
}

/** View (everyone): the whole prompt, loaded with GET /prompts/{id}, in a read-only dialog. */
export function PromptViewDialog({ prompt, onClose }: PromptViewDialogProps) {
  const { t } = useTranslation(['prompts', 'common']);
  const titleId = useId();
  const { data, error, isError, isFetching, refetch } = useGetPromptQuery(prompt.id, { refetchOnMountOrArgChange: true });

  let content;
  if (isError) {
    content = (
      <LoadErrorAlert
        message={t('view.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (!data) {
    content = (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('view.loading')} />
      </Box>
    );
  } else {
    content = <PromptDetails prompt={data} />;
  }

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId}>{t('view.title', { name: data?.name ?? prompt.name })}</DialogTitle>
      <DialogContent dividers>{content}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} variant="contained">
          {t('common:actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
