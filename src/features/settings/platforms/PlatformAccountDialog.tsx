import { yupResolver } from '@hookform/resolvers/yup';
import Stack from '@mui/material/Stack';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useCreatePlatformAccountMutation,
  useUpdatePlatformAccountMutation,
  type PlatformAccount,
  type PlatformAccountList,
} from '../../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR, TextInput } from '../../../components';
import { FormDialog } from '../../../components/FormDialog';
import { SelectInput } from '../../../components/SelectInput';
import { AppSetupHint } from '../AppSetupHint';
import { PLATFORM_NAME } from './PlatformIcon';
import {
  PLATFORMS,
  createBody,
  credentialsRequired,
  emptyValues,
  platformAccountSchema,
  type PlatformAccountFormValues,
} from './schema';

/** Where each platform's app is created (and its redirect URI registered). */
export const DEVELOPER_CONSOLES = {
  tiktok: 'https://developers.tiktok.com/apps',
  instagram: 'https://developers.facebook.com/apps',
} as const;

export interface PlatformAccountDialogProps {
  /** The account to rename; none to add one. */
  account?: PlatformAccount;
  /** From the list answer: the callback addresses and which platforms have the operator's app. */
  setup?: Pick<PlatformAccountList, 'redirect_uris' | 'operator_apps'>;
  /** Runs before each submit (the page clears its banner). */
  beforeSubmit?: () => void;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Adds a TikTok or Instagram account (platform, name, and the app's credentials: optional when
 * the operator configured an app for the platform), or renames one. The help names the developer
 * site where the app is created and the redirect URI to register there.
 */
export function PlatformAccountDialog({ account, setup, beforeSubmit, onClose, onSaved }: PlatformAccountDialogProps) {
  const { t } = useTranslation(['settings', 'common']);
  const editing = account !== undefined;
  const operatorApps = setup?.operator_apps;
  const [createAccount] = useCreatePlatformAccountMutation();
  const [updateAccount] = useUpdatePlatformAccountMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PlatformAccountFormValues>({
    resolver: yupResolver(platformAccountSchema(operatorApps, editing)),
    defaultValues: editing ? { ...emptyValues(account.platform), name: account.name } : emptyValues(),
  });
  const platform = useWatch({ control, name: 'platform' });
  const mustBringApp = credentialsRequired(platform, operatorApps);

  const onSubmit = async (values: PlatformAccountFormValues) => {
    clearErrors(SERVER_ERROR);
    beforeSubmit?.();
    try {
      if (editing) await updateAccount({ id: account.id, name: values.name }).unwrap();
      else await createAccount(createBody(values)).unwrap();
      onSaved();
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('platforms.form.saveFailed') });
    }
  };

  const secretToggle = (label: string) => ({
    show: t('common:secret.show', { field: label }),
    hide: t('common:secret.hide', { field: label }),
  });
  const idLabel = t(`platforms.form.clientId.${platform}`);
  const secretLabel = t(`platforms.form.clientSecret.${platform}`);
  const optional = mustBringApp ? undefined : t('platforms.form.operatorApp');

  return (
    <FormDialog
      open
      title={editing ? t('platforms.form.editTitle') : t('platforms.form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
    >
      <FormErrorAlert errors={errors} />
      {!editing && (
        <AppSetupHint
          hint={t(`platforms.form.hint.${platform}`)}
          redirectUri={setup?.redirect_uris[platform]}
          consoleUrl={DEVELOPER_CONSOLES[platform]}
          consoleLabel={t(`platforms.form.console.${platform}`)}
        />
      )}
      <Stack spacing={2.5}>
        {!editing && (
          <SelectInput<PlatformAccountFormValues>
            name="platform"
            control={control}
            label={t('platforms.form.platform')}
            required
            options={PLATFORMS.map((value) => ({ value, label: PLATFORM_NAME[value] }))}
          />
        )}
        <TextInput<PlatformAccountFormValues>
          name="name"
          control={control}
          label={t('platforms.form.name')}
          required
          autoFocus
          autoComplete="off"
        />
        {!editing && (
          <>
            <TextInput<PlatformAccountFormValues>
              name="client_id"
              control={control}
              label={idLabel}
              required={mustBringApp}
              autoComplete="off"
              helperText={optional}
            />
            <PasswordField<PlatformAccountFormValues>
              name="client_secret"
              control={control}
              label={secretLabel}
              required={mustBringApp}
              autoComplete="new-password"
              toggleLabels={secretToggle(secretLabel)}
              helperText={optional}
            />
          </>
        )}
      </Stack>
    </FormDialog>
  );
}
