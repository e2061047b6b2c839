import { yupResolver } from '@hookform/resolvers/yup';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useMeQuery, useUpdateProfileMutation, type User } from '../../../api';
import { FormErrorAlert, LoadErrorAlert, PasswordField, TextInput } from '../../../components';
import { ListSkeleton } from '../../../components/Skeletons';
import { browserTimeZone } from '../../../lib/dates';
import type { PanelProps, SettingsBanner } from '../banner';
import { PanelHeader } from '../PanelHeader';
import { emailChanged, profileSchema, profileValuesOf, type ProfileValues } from './schema';
import { TimeZoneInput } from './TimeZoneInput';

/**
 * Settings › Profile: name, email and time zone, saved through PUT /auth/profile. The time zone
 * places publication times ("the day after, at 09:00" happens in it). A new email asks for the
 * current password; once saved, the address must be confirmed again (the refetched /auth/me
 * brings the layout's banner back).
 */
export function ProfilePanel({ banner }: PanelProps) {
  const { t } = useTranslation('settings');
  const { data: user, error, isLoading, isFetching, refetch } = useMeQuery();

  let content;
  if (isLoading) content = <ListSkeleton rows={3} />;
  else if (!user)
    content = (
      <LoadErrorAlert
        message={t('profile.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else content = <ProfileForm user={user} banner={banner} />;
  return (
    <>
      <PanelHeader title={t('menu.profile')} subtitle={t('profile.subtitle')} />
      {content}
    </>
  );
}

function ProfileForm({ user, banner }: { user: User; banner: SettingsBanner }) {
  const { t } = useTranslation(['settings', 'common']);
  const [updateProfile] = useUpdateProfileMutation();
  const {
    control,
    handleSubmit,
    reset,
    setValue,
    formState: { isSubmitting, isDirty, errors },
  } = useForm<ProfileValues>({
    resolver: yupResolver(profileSchema),
    context: { currentEmail: user.email },
    mode: 'onTouched',
    defaultValues: profileValuesOf(user),
  });
  const here = browserTimeZone();
  const email = useWatch({ control, name: 'email' });
  const askPassword = emailChanged(email, user.email);
  const passwordLabel = t('profile.currentPassword');

  const onSubmit = async (values: ProfileValues) => {
    banner.clear();
    const changingEmail = emailChanged(values.email, user.email);
    try {
      const saved = await updateProfile({
        name: values.name.trim(),
        email: values.email.trim(),
        time_zone: values.time_zone,
        ...(changingEmail ? { current_password: values.current_password } : {}),
      }).unwrap();
      reset(profileValuesOf(saved));
      banner.show(
        'success',
        changingEmail ? t('profile.messages.emailChanged', { email: saved.email }) : t('profile.messages.updated'),
      );
    } catch (failure) {
      console.error('Failed to update the profile', failure);
      banner.show('error', errorDetail(failure) ?? t('profile.messages.updateFailed'));
    }
  };

  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit(onSubmit)} sx={{ p: 2.5, maxWidth: 640 }}>
      <FormErrorAlert errors={errors} />
      <Stack spacing={2.5}>
        <TextInput<ProfileValues> name="name" control={control} label={t('profile.name')} autoComplete="name" required />
        <TextInput<ProfileValues>
          name="email"
          control={control}
          label={t('profile.email')}
          type="email"
          autoComplete="email"
          required
        />
        {askPassword && (
          <PasswordField<ProfileValues>
            name="current_password"
            control={control}
            label={passwordLabel}
            required
            autoComplete="current-password"
            helperText={t('profile.currentPasswordHint')}
            toggleLabels={{
              show: t('common:secret.show', { field: passwordLabel }),
              hide: t('common:secret.hide', { field: passwordLabel }),
            }}
          />
        )}
        <Box>
          <TimeZoneInput control={control} label={t('profile.timeZone')} helperText={t('profile.timeZoneHint')} />
          {user.time_zone !== here && (
            <Button
              size="small"
              onClick={() => setValue('time_zone', here, { shouldDirty: true, shouldValidate: true })}
              sx={{ mt: 0.5 }}
            >
              {t('profile.useBrowserZone', { zone: here })}
            </Button>
          )}
        </Box>
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? t('common:actions.saving') : t('profile.save')}
          </Button>
          <Button color="inherit" disabled={isSubmitting || !isDirty} onClick={() => reset(profileValuesOf(user))}>
            {t('profile.discard')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
