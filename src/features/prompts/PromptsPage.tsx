import Add from '@mui/icons-material/Add';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useListPromptsQuery, useMeQuery, type PromptSummary } from '../../api';
import { PageHeader } from '../../components';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { ListBody } from '../../components/ListBody';
import { useListPage } from '../../components/ListPager';
import { ListSkeleton } from '../../components/Skeletons';
import { PromptDeleteDialog } from './PromptDeleteDialog';
import { PromptDescriptionDialog } from './PromptDescriptionDialog';
import { PromptEditorDialog } from './PromptEditorDialog';
import { PromptCard } from './PromptCard';
import type { PromptAction } from './PromptParts';
import { PromptRow } from './PromptRow';
import { PromptViewDialog } from './PromptViewDialog';

type EditorState = { mode: 'create' } | { mode: 'edit'; id: string } | null;

/**
 * /prompts: the prompt catalogue as a table for everyone, each prompt readable in full (so a user
 * can read it before choosing it in a process); admins also get the other actions (edit
 * description, full edit, activate/deactivate, delete) and the prompt editor.
 */
export default function PromptsPage() {
  const { t } = useTranslation(['prompts', 'common']);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { data: user } = useMeQuery();
  const admin = user?.is_admin === true;
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListPromptsQuery(pageArgs);
  const [editor, setEditor] = useState<EditorState>(null);
  const [viewing, setViewing] = useState<PromptSummary | null>(null);
  const [describing, setDescribing] = useState<PromptSummary | null>(null);
  const [deleting, setDeleting] = useState<PromptSummary | null>(null);
  const { feedback, show, clear } = useFeedback();

  // A list that failed to load is empty (spec §7); the alert says so and offers a retry.
  const prompts = query.isError ? [] : (query.data?.prompts ?? []);
  const openCreate = () => setEditor({ mode: 'create' });
  const saved = (message: string) => {
    setEditor(null);
    setDescribing(null);
    show('success', message);
  };

  const onAction = (action: PromptAction, prompt: PromptSummary) => {
    if (action === 'view') setViewing(prompt);
    else if (action === 'description') setDescribing(prompt);
    else if (action === 'edit') setEditor({ mode: 'edit', id: prompt.id });
    else setDeleting(prompt);
  };

  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
      {t('create')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} action={admin ? createButton : undefined} />
      <ListBody
        query={query}
        rows={prompts}
        loadFailed={t('loadFailed')}
        reason={errorDetail(query.error)}
        empty={{
          icon: <ArticleOutlined />,
          message: admin ? t('emptyAdmin') : t('empty'),
          action: admin ? createButton : undefined,
        }}
        page={page}
        onPage={setPage}
        skeleton={<ListSkeleton rows={4} />}
      >
        {(rows) =>
          narrow ? (
            // Phones: a card per prompt; nothing to scroll sideways.
            <Box component="section" aria-label={t('table.label')} sx={{ display: 'grid', gap: 1.5 }}>
              {rows.map((prompt) => (
                <PromptCard key={prompt.id} prompt={prompt} admin={admin} onAction={onAction} onToggled={show} />
              ))}
            </Box>
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table aria-label={t('table.label')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('table.name')}</TableCell>
                    <TableCell>{t('table.description')}</TableCell>
                    <TableCell>{t('table.status')}</TableCell>
                    <TableCell>{t('table.updatedAt')}</TableCell>
                    <TableCell align="right">{t('table.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((prompt) => (
                    <PromptRow key={prompt.id} prompt={prompt} admin={admin} onAction={onAction} onToggled={show} />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )
        }
      </ListBody>
      {admin && editor && (
        <PromptEditorDialog
          promptId={editor.mode === 'edit' ? editor.id : undefined}
          onClose={() => setEditor(null)}
          onSaved={saved}
        />
      )}
      {viewing && <PromptViewDialog prompt={viewing} onClose={() => setViewing(null)} />}
      {admin && describing && <PromptDescriptionDialog prompt={describing} onClose={() => setDescribing(null)} onSaved={saved} />}
      {admin && <PromptDeleteDialog prompt={deleting} onClose={() => setDeleting(null)} onDone={show} />}
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
