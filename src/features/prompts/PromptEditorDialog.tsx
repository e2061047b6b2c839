import { yupResolver } from '@hookform/resolvers/yup';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useCreatePromptFullMutation, useGetPromptQuery, useUpdatePromptFullMutation, type Prompt } from '../../api';
import { FormErrorAlert, LoadErrorAlert, SERVER_ERROR, TextInput, useInterfaceLanguage } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { LanguageLabel } from '../../components/LanguageFlag';
import { SelectInput } from '../../components/SelectInput';
import {
  MIN_PROMPT_LANGUAGES,
  PROMPT_CATEGORIES,
  PROMPT_PLACEHOLDERS,
  PROMPT_TEXT_FIELDS,
  type PromptTextField,
} from '../../lib/constants';
import { languageName, missingLanguages, type LanguageCode } from '../../lib/languages';
import { categoryLabel } from './labels';
import { LanguageTabs, languageTabIds } from './LanguageTabs';
import { emptyTexts, formValuesOf, fullBody, newPromptValues, promptSchema, type PromptFormValues } from './schema';

export interface PromptEditorDialogProps {
  /** The prompt to edit (its full data is loaded); none to create one. */
  promptId?: string;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** Short texts fit one line; the others are long instructions. */
const SINGLE_LINE: readonly PromptTextField[] = ['title'];

/**
 * The prompt editor (admins, spec §2 and §4): name, category, description, base content, and the
 * six texts of each language in tabs. Languages are added from the supported ones not present yet
 * and removed, but never the last one.
 */
export function PromptEditorDialog({ promptId, onClose, onSaved }: PromptEditorDialogProps) {
  if (promptId === undefined) return <PromptEditorForm onClose={onClose} onSaved={onSaved} />;
  return <LoadingPromptEditor promptId={promptId} onClose={onClose} onSaved={onSaved} />;
}

/** Editing loads the full data first (GET /prompts/{id}), fresh, then opens the form on it. */
function LoadingPromptEditor({
  promptId,
  onClose,
  onSaved,
}: Required<Pick<PromptEditorDialogProps, 'promptId'>> & PromptEditorDialogProps) {
  const { t } = useTranslation(['prompts', 'common']);
  const titleId = useId();
  const { data, error, isError, isFetching, refetch } = useGetPromptQuery(promptId, { refetchOnMountOrArgChange: true });
  // The form starts from the first fresh answer and keeps it: later refetches (e.g. the one
  // a save triggers) do not reset what is on screen.
  const [loaded, setLoaded] = useState<Prompt | null>(null);
  if (loaded === null && data && !isFetching && !isError) setLoaded(data);

  if (loaded) return <PromptEditorForm prompt={loaded} onClose={onClose} onSaved={onSaved} />;
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('editor.editTitle')}</DialogTitle>
      <DialogContent>
        {isError ? (
          <LoadErrorAlert
            message={t('editor.loadFailed')}
            reason={errorDetail(error)}
            onRetry={() => void refetch()}
            retrying={isFetching}
          />
        ) : (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
            <CircularProgress aria-label={t('editor.loading')} />
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit">
          {t('common:actions.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PromptEditorForm({ prompt, onClose, onSaved }: { prompt?: Prompt } & Omit<PromptEditorDialogProps, 'promptId'>) {
  const { t } = useTranslation(['prompts', 'common']);
  const uiLanguage = useInterfaceLanguage();
  const idPrefix = useId();
  const editing = prompt !== undefined;
  const initial = useMemo(() => (prompt ? formValuesOf(prompt) : { values: newPromptValues(), basicOnly: false }), [prompt]);
  const [createPromptFull] = useCreatePromptFullMutation();
  const [updatePromptFull] = useUpdatePromptFullMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PromptFormValues>({ resolver: yupResolver(promptSchema), defaultValues: initial.values });
  const { fields, append, remove } = useFieldArray({ control, name: 'languages', keyName: 'key' });
  // The first language's tab is active after loading (spec §4).
  const [active, setActive] = useState<string>(initial.values.languages[0].code);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = `${idPrefix}-add-language`;

  const codes = fields.map((field) => field.code);
  const activeIndex = Math.max(0, codes.indexOf(active as LanguageCode));
  const activeCode = codes[activeIndex];
  const addable = missingLanguages(codes);
  const lastOne = fields.length <= MIN_PROMPT_LANGUAGES;
  const nameOf = (code: string) => languageName(code, uiLanguage);

  const addLanguage = (code: LanguageCode) => {
    append({ code, texts: emptyTexts() });
    setActive(code);
    setMenuAnchor(null);
  };

  /** Removes the active language; the first remaining one becomes active (spec §4). */
  const removeActive = () => {
    if (lastOne) return;
    const remaining = codes.filter((code) => code !== activeCode);
    remove(activeIndex);
    setActive(remaining[0]);
  };

  const onSubmit = async (values: PromptFormValues) => {
    clearErrors(SERVER_ERROR);
    try {
      const body = fullBody(values);
      if (editing) await updatePromptFull({ id: prompt.id, ...body }).unwrap();
      else await createPromptFull(body).unwrap();
      onSaved(t(editing ? 'messages.updated' : 'messages.created'));
    } catch (error) {
      console.error(editing ? 'Failed to update prompt' : 'Failed to create prompt', error);
      const fallback = t(editing ? 'messages.updateFailed' : 'messages.createFailed');
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? fallback });
    }
  };

  const placeholders = t('editor.placeholders', { list: PROMPT_PLACEHOLDERS.join(' ') });
  const ids = languageTabIds(idPrefix, activeCode);
  const removeLabel = t('editor.removeLanguage', { language: nameOf(activeCode) });

  return (
    <FormDialog
      open
      title={editing ? t('editor.editTitle') : t('editor.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
      submitLabel={editing ? undefined : t('editor.create')}
      savingLabel={editing ? undefined : t('editor.creating')}
      maxWidth="md"
    >
      <FormErrorAlert errors={errors} />
      {initial.basicOnly && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('editor.basicOnly')}
        </Alert>
      )}
      <Stack spacing={2.5}>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 3fr) minmax(0, 2fr)' } }}>
          <TextInput<PromptFormValues>
            name="name"
            control={control}
            label={t('editor.name')}
            required
            autoFocus
            autoComplete="off"
          />
          <SelectInput<PromptFormValues>
            name="category"
            control={control}
            label={t('editor.category')}
            required
            options={PROMPT_CATEGORIES.map((category) => ({ value: category, label: categoryLabel(t, category) }))}
          />
        </Box>
        <TextInput<PromptFormValues>
          name="description"
          control={control}
          label={t('editor.description')}
          required
          multiline
          minRows={2}
        />
        <TextInput<PromptFormValues>
          name="content"
          control={control}
          label={t('editor.content')}
          required
          multiline
          minRows={4}
          helperText={t('editor.contentHint')}
        />

        <Box component="section" aria-labelledby={`${idPrefix}-languages`}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
            <Typography variant="subtitle1" component="h3" id={`${idPrefix}-languages`} sx={{ fontWeight: 600 }}>
              {t('editor.languages')}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button
                size="small"
                variant="outlined"
                startIcon={<Add />}
                disabled={addable.length === 0}
                aria-haspopup="menu"
                aria-controls={menuAnchor ? menuId : undefined}
                aria-expanded={menuAnchor ? 'true' : undefined}
                onClick={(event) => setMenuAnchor(event.currentTarget)}
              >
                {t('editor.addLanguage')}
              </Button>
              <Tooltip title={lastOne ? t('editor.lastLanguage') : ''}>
                <span>
                  <Button
                    size="small"
                    variant="outlined"
                    color="error"
                    startIcon={<DeleteOutlined />}
                    disabled={lastOne}
                    onClick={removeActive}
                  >
                    {removeLabel}
                  </Button>
                </span>
              </Tooltip>
            </Box>
          </Box>
          <Menu
            id={menuId}
            anchorEl={menuAnchor}
            open={menuAnchor !== null}
            onClose={() => setMenuAnchor(null)}
            slotProps={{ list: { 'aria-label': t('editor.addLanguageMenu'), dense: true } }}
          >
            {addable.map((code) => (
              <MenuItem key={code} onClick={() => addLanguage(code)}>
                <LanguageLabel code={code} />
              </MenuItem>
            ))}
          </Menu>
          <LanguageTabs
            idPrefix={idPrefix}
            label={t('editor.languagesLabel')}
            codes={codes}
            value={activeCode}
            onChange={setActive}
          />
          <Stack role="tabpanel" id={ids.panel} aria-labelledby={ids.tab} spacing={2.5} sx={{ pt: 2.5 }}>
            {PROMPT_TEXT_FIELDS.map((field) => {
              const single = SINGLE_LINE.includes(field);
              return (
                <TextInput<PromptFormValues>
                  // A tab's fields are its own: switching language mounts the other language's.
                  key={`${fields[activeIndex].key}-${field}`}
                  name={`languages.${activeIndex}.texts.${field}`}
                  control={control}
                  label={t(`fields.${field}`)}
                  multiline={!single}
                  minRows={single ? undefined : field === 'premise' ? 2 : 3}
                  helperText={placeholders}
                />
              );
            })}
          </Stack>
        </Box>
      </Stack>
    </FormDialog>
  );
}
