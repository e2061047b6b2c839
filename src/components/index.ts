export { EmptyState, type EmptyStateProps } from './EmptyState';
export { translateFieldError, visibleFieldError, type ValidationKey } from './fieldError';
export { FullScreenSpinner, type FullScreenSpinnerProps } from './FullScreenSpinner';
export { PageHeader, type PageHeaderProps } from './PageHeader';
export { PageSpinner } from './PageSpinner';
export { PasswordField, type PasswordFieldProps } from './PasswordField';
export { TextInput, type TextInputProps } from './TextInput';
export { FormErrorAlert, SERVER_ERROR, type FormErrorAlertProps } from './FormErrorAlert';
export { LoadErrorAlert, type LoadErrorAlertProps } from './LoadErrorAlert';
export { SampleUnplayable } from './SampleUnplayable';
export { useInterfaceLanguage, useLocale } from './useLocale';
/*
 * Not re-exported here: ConfirmDialog, FormDialog, Feedback (snackbar), Skeletons and StatusChip.
 * The entry chunk (/login) imports this barrel, and webpack keeps every module a barrel
 * re-exports (the project declares no `sideEffects`), which would pull MUI's Dialog, Modal,
 * Snackbar, Chip and Skeleton into /login. Features import them from their own files:
 *   import { ConfirmDialog } from '../../components/ConfirmDialog';
 * LanguageFlag and LanguageLabel (the story languages' SVG flags) are kept out for the same
 * reason: the flags belong in the feature chunks that show a language, never in /login.
 */
