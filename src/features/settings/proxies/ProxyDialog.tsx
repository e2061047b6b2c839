import { yupResolver } from '@hookform/resolvers/yup';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useCreateProxyMutation, useUpdateProxyMutation, type ProxyServer } from '../../../api';
import { FormErrorAlert, SERVER_ERROR, TextInput } from '../../../components';
import { FormDialog } from '../../../components/FormDialog';
import { formValuesOf, PROXY_URL_EXAMPLES, proxySchema, type ProxyFormValues } from './schema';

export interface ProxyDialogProps {
  proxy?: ProxyServer;
  beforeSubmit?: () => void;
  onClose: () => void;
  onSaved: () => void;
}

/** Adds or edits a proxy: a name and a URL, with the accepted URL formats as examples. */
export function ProxyDialog({ proxy, beforeSubmit, onClose, onSaved }: ProxyDialogProps) {
  const { t } = useTranslation('settings');
  const editing = proxy !== undefined;
  const [createProxy] = useCreateProxyMutation();
  const [updateProxy] = useUpdateProxyMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ProxyFormValues>({ resolver: yupResolver(proxySchema), defaultValues: formValuesOf(proxy) });

  const onSubmit = async (values: ProxyFormValues) => {
    clearErrors(SERVER_ERROR);
    beforeSubmit?.();
    try {
      if (editing) await updateProxy({ id: proxy.id, ...values }).unwrap();
      else await createProxy(values).unwrap();
      onSaved();
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('proxies.form.saveFailed') });
    }
  };

  return (
    <FormDialog
      open
      title={editing ? t('proxies.form.editTitle') : t('proxies.form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
    >
      <FormErrorAlert errors={errors} />
      <Stack spacing={2.5}>
        <TextInput<ProxyFormValues>
          name="name"
          control={control}
          label={t('proxies.form.name')}
          required
          autoFocus
          autoComplete="off"
        />
        <TextInput<ProxyFormValues>
          name="url"
          control={control}
          label={t('proxies.form.url')}
          required
          autoComplete="off"
          placeholder="http://host:port"
          helperText={proxy?.has_password ? t('proxies.form.passwordKept') : undefined}
          inputProps={{ spellCheck: false, autoCapitalize: 'off' }}
        />
        <Box>
          <Typography variant="body2" color="textSecondary" id="proxy-url-examples">
            {t('proxies.form.examples')}
          </Typography>
          <Box component="ul" aria-labelledby="proxy-url-examples" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
            {PROXY_URL_EXAMPLES.map((example) => (
              <Typography key={example} component="li" variant="body2" sx={{ fontFamily: 'monospace' }}>
                {example}
              </Typography>
            ))}
          </Box>
        </Box>
      </Stack>
    </FormDialog>
  );
}
