import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { errorDetail, useRegisterMutation } from '../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR, TextInput } from '../../components';
import { TAKING_OVER_SX, usePrerenderedForm } from '../../components/usePrerenderedForm';
import { BILLING_PERIODS } from '../../lib/constants';
import { browserTimeZone } from '../../lib/dates';
import { prepareMoneyFormat } from '../../lib/money';
import { AuthCard } from './AuthCard';
import { PlanChoice } from './PlanChoice';
import type { SignUpValues } from './schemas';

// The plans' prices: the page's first number formatter is made in a task of its own, not in the first render.
prepareMoneyFormat();

const FIELDS = ['name', 'email', 'password', 'plan'] as const satisfies ReadonlyArray<keyof SignUpValues>;

/** The form's values from what was typed into the prerendered card (what is missing: the defaults). */
function signUpValues(typed: Readonly<Record<string, string>> | null): SignUpValues {
  const plan = BILLING_PERIODS.find((period) => period === typed?.plan) ?? 'monthly';
  return { name: typed?.name ?? '', email: typed?.email ?? '', password: typed?.password ?? '', plan };
}

/**
 * The form's checks. yup and its resolver would be a third of the screen's chunks, and evaluating
 * them a long task on a phone's CPU before the form appears: they load when the visitor first
 * types (`onInput`) or sends the form, in a chunk of their own (signUpChecks.ts).
 */
let checks: Promise<Resolver<SignUpValues>> | undefined;
function loadChecks(): Promise<Resolver<SignUpValues>> {
  checks ??= import(/* webpackChunkName: "signup-checks" */ './signUpChecks').then(
    (module) => module.signUpResolver,
    (error: unknown) => {
      // A failed fetch (network) is tried again by the next submit.
      checks = undefined;
      throw error;
    },
  );
  return checks;
}
const resolver: Resolver<SignUpValues> = async (values, context, options) => (await loadChecks())(values, context, options);
const startLoadingChecks = () => void loadChecks().catch(() => undefined);

/**
 * Sign-up. The new account is signed in at once; the signed-out guard then leads to /dashboard.
 * The form is a component of its own: react-hook-form renders the component that holds the form
 * once more when it mounts, in the take-over's commit, and that render is only the form's (its
 * fields, memoised, are not rendered again).
 */
export default function SignUpPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('signup.title')} subtitle={t('signup.subtitle')} maxWidth={520}>
      <SignUpForm />
      <Typography variant="body2" color="textSecondary" sx={{ mt: 3, textAlign: 'center' }}>
        {t('signup.haveAccount')}{' '}
        <Link component={RouterLink} to="/login">
          {t('signup.signIn')}
        </Link>
      </Typography>
    </AuthCard>
  );
}

function SignUpForm() {
  const { t } = useTranslation('auth');
  const [register] = useRegisterMutation();
  // The card served already rendered, as the visitor left it before the app ran: what was typed
  // then, and again at the commit (React may have rendered this screen in slices, index.tsx).
  const { initial, focused, formProps } = usePrerenderedForm((typed) => {
    const now = signUpValues(typed);
    const changed = FIELDS.filter((name) => getValues(name) !== now[name]);
    for (const name of changed) setValue(name, now[name]);
    return changed.length > 0;
  });
  const {
    control,
    handleSubmit,
    setError,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({
    resolver,
    defaultValues: signUpValues(initial),
  });

  const onSubmit = async (values: SignUpValues) => {
    try {
      await register({ ...values, time_zone: browserTimeZone() }).unwrap();
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('signup.failed') });
    }
  };

  return (
    <>
      <FormErrorAlert errors={errors} />
      <Box
        component="form"
        {...formProps}
        noValidate
        onInput={startLoadingChecks}
        onSubmit={handleSubmit(onSubmit)}
        sx={TAKING_OVER_SX}
      >
        <Stack spacing={2.5}>
          <TextInput<SignUpValues>
            name="name"
            control={control}
            label={t('fields.name')}
            autoComplete="name"
            autoFocus={!initial}
            startsFocused={focused === 'name'}
          />
          <TextInput<SignUpValues>
            name="email"
            control={control}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            startsFocused={focused === 'email'}
          />
          <PasswordField<SignUpValues>
            name="password"
            control={control}
            label={t('fields.password')}
            autoComplete="new-password"
            startsFocused={focused === 'password'}
          />
          <PlanChoice control={control} disabled={isSubmitting} />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
            {isSubmitting ? t('signup.submitting') : t('signup.submit')}
          </Button>
        </Stack>
      </Box>
    </>
  );
}
