import Add from '@mui/icons-material/Add';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RUNS_POLL_MS } from '../../lib/constants';
import {
  isRunUnderWay,
  errorDetail,
  errorMessage,
  useDeleteProcessMutation,
  useExecuteProcessMutation,
  useGetProcessesQuery,
  useToggleProcessMutation,
  type Process,
} from '../../api';
import { PageHeader } from '../../components';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { ListBody } from '../../components/ListBody';
import { useListPage } from '../../components/ListPager';
import { CARD_GRID_SX, CardGridSkeleton } from '../../components/Skeletons';
import { useConfirmedDelete } from '../../components/useConfirmedDelete';
import { ChannelChangeDialog } from './ChannelChangeDialog';
import { ExecutionDialog } from './ExecutionDialog';
import { ProcessCard, type ProcessAction } from './ProcessCard';
import { ProcessDialog } from './ProcessDialog';

/** While a process runs, the list is fetched again this often, so its badge follows the run. */

type Dialog =
  { kind: 'create' } | { kind: 'edit'; id: string } | { kind: 'channel'; id: string } | { kind: 'execution'; id: string } | null;

/**
 * /processes: the user's processes as cards, with execute, enable/disable, edit, change channel,
 * execution details and delete; the create/edit dialog and the execution-status dialog.
 */
export default function ProcessesPage() {
  const { t } = useTranslation(['processes', 'common']);
  const [polling, setPolling] = useState(false);
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useGetProcessesQuery(pageArgs, {
    pollingInterval: polling ? RUNS_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const [executeProcess] = useExecuteProcessMutation();
  const [toggleProcess] = useToggleProcessMutation();
  const [deleteProcess] = useDeleteProcessMutation();
  const [toggling, setToggling] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const { feedback, show, clear } = useFeedback();
  const removal = useConfirmedDelete({
    remove: (process: Process) => deleteProcess(process.id).unwrap(),
    onDeleted: (process) => show('success', t('messages.removed', { name: process.name })),
    onFailed: (_process, failure) => show('error', errorDetail(failure) ?? t('messages.removeFailed')),
    failureLog: 'Failed to delete process',
  });

  // A list that failed to load is empty (spec §7); the alert says so and offers a retry.
  const processes = query.isError ? [] : (query.data?.processes ?? []);
  // A run under way (waiting in the queue or running) changes the list: it is fetched again meanwhile.
  const anyRunning = processes.some((process) => isRunUnderWay(process.status));
  useEffect(() => setPolling(anyRunning), [anyRunning]);

  // Dialogs follow the process in the list (fresh status, steps, latest execution).
  const target = dialog && 'id' in dialog ? processes.find((process) => process.id === dialog.id) : undefined;
  const close = () => setDialog(null);
  const saved = (message: string) => {
    setDialog(null);
    show('success', message);
  };

  const execute = async (process: Process) => {
    try {
      await executeProcess(process.id).unwrap();
      show('success', t('messages.executing', { name: process.name }));
    } catch (failure) {
      console.error('Failed to execute process', failure);
      show(
        'error',
        t('messages.executeFailed', { name: process.name, message: errorMessage(failure, t('common:errors.network')) }),
      );
    }
  };

  const toggle = async (process: Process) => {
    setToggling(process.id);
    try {
      const updated = await toggleProcess(process.id).unwrap();
      show('success', t(updated.is_active ? 'messages.enabled' : 'messages.disabled', { name: process.name }));
    } catch (failure) {
      console.error('Failed to toggle process', failure);
      show('error', errorDetail(failure) ?? t('messages.toggleFailed'));
    } finally {
      setToggling(null);
    }
  };

  const onAction = (action: ProcessAction, process: Process) => {
    if (action === 'execute') void execute(process);
    else if (action === 'toggle') void toggle(process);
    else if (action === 'edit') setDialog({ kind: 'edit', id: process.id });
    else if (action === 'channel') setDialog({ kind: 'channel', id: process.id });
    else if (action === 'details') setDialog({ kind: 'execution', id: process.id });
    else removal.ask(process);
  };

  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setDialog({ kind: 'create' })}>
      {t('create')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} action={createButton} />
      <Alert severity="info" variant="outlined" role="note" sx={{ mb: 3 }}>
        {t('info')}
      </Alert>
      <ListBody
        query={query}
        rows={processes}
        loadFailed={t('loadFailed')}
        reason={errorDetail(query.error)}
        empty={{ icon: <AccountTreeOutlined />, message: t('empty'), action: createButton }}
        page={page}
        onPage={setPage}
        skeleton={<CardGridSkeleton />}
      >
        {(rows) => (
          <Box component="section" aria-label={t('list')} sx={CARD_GRID_SX}>
            {rows.map((process) => (
              <ProcessCard key={process.id} process={process} toggling={toggling === process.id} onAction={onAction} />
            ))}
          </Box>
        )}
      </ListBody>
      {dialog?.kind === 'create' && <ProcessDialog onClose={close} onSaved={saved} />}
      {dialog?.kind === 'edit' && target && <ProcessDialog process={target} onClose={close} onSaved={saved} />}
      {dialog?.kind === 'channel' && target && <ChannelChangeDialog process={target} onClose={close} onSaved={saved} />}
      {dialog?.kind === 'execution' && target && <ExecutionDialog process={target} onClose={close} onFeedback={show} />}
      <ConfirmDialog
        {...removal.dialog}
        title={t('remove.title', { name: removal.target?.name ?? '' })}
        message={t('remove.message')}
        confirmLabel={t('remove.confirm')}
        busyLabel={t('remove.removing')}
      />
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
