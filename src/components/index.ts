export { EmptyState, type EmptyStateProps } from './EmptyState';
export { translateFieldError, visibleFieldError, type ValidationKey } from './fieldError';
export { FullScreenSpinner, type FullScreenSpinnerProps } from './FullScreenSpinner';
export { PageHeader, type PageHeaderProps } from './PageHeader';
export { PageSpinner } from './PageSpinner';
export { PasswordField, type PasswordFieldProps } from './PasswordField';
export { TextInput, type TextInputProps } from './TextInput';
export { FormErrorAlert, SERVER_ERROR, type FormErrorAlertProps } from './FormErrorAlert';
