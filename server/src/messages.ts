/**
 * Every message the API answers in `detail`, in English and Portuguese. The caller's
 * Accept-Language picks the language (pt when it starts with pt, English otherwise).
 */
const en = {
  'common.notFound': 'Not found',
  'common.routeNotFound': 'Route {method} {url} not found',
  'common.invalidJson': 'The request body is not valid JSON',
  'common.invalidRequest': 'Invalid request: {reason}',
  'common.bodyTooLarge': 'The request body is too large',
  'common.unsupportedMediaType': 'Unsupported content type: send application/json',
  'common.internal': 'Internal server error',
  'common.unavailable': 'The service is starting or shutting down; try again shortly',
  'auth.notAuthenticated': 'Not authenticated',
  'auth.sessionExpired': 'Your session has expired; please sign in again',
  'auth.adminOnly': 'Only administrators can do this',
  'auth.invalidCredentials': 'Invalid credentials',
  'auth.fillAllFields': 'Please fill in all fields',
  'auth.passwordTooShort': 'Password must be at least {min} characters',
  'auth.passwordTooLong': 'Password must be at most {max} characters',
  'auth.invalidEmail': 'Please enter a valid email address',
  'auth.emailRequired': 'Please enter your email address',
  'auth.nameRequired': 'Please enter your name',
  'auth.emailTaken': 'An account with this email already exists',
  'auth.emailReserved': 'This email address is reserved',
  'auth.invalidPlan': 'The plan must be monthly or annual',
  'auth.invalidTimeZone': 'Unknown time zone: {timeZone}',
  'auth.currentPasswordWrong': 'The current password is incorrect',
  'auth.tooManyAttempts': 'Too many sign-in attempts. Try again in {minutes} minutes.',
  'auth.resetSent': 'If an account exists for this email, a link to reset the password has been sent.',
  'auth.resetTokenInvalid': 'This reset link is invalid or has expired. Ask for a new one.',
  'auth.passwordReset': 'Your password has been changed. You can sign in now.',
  'auth.passwordChanged': 'Password updated successfully',
  'auth.resetEmailSubject': 'Reset your password',
  'auth.resetEmailBody':
    'Hello {name},\n\nSomeone asked to reset the password of your account. Open this link within {minutes} minutes to choose a new one:\n\n{link}\n\nIf it was not you, ignore this email; your password stays the same.',
  'channels.notFound': 'Channel not found',
  'channels.channelIdRequired': 'The channel id is required',
  'channels.channelIdInvalid': 'The channel id may only contain letters, digits, - and _ (for example UCxxxxxxxxxxxxxxxxxxxxxx)',
  'channels.channelIdImmutable': 'The channel id cannot be changed',
  'channels.duplicate': 'This channel is already connected',
  'channels.minViewsInvalid': 'Minimum views must be a whole number of 0 or more',
} as const;

export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, string | number>;

const pt: Record<MessageKey, string> = {
  'common.notFound': 'Não encontrado',
  'common.routeNotFound': 'Rota {method} {url} não encontrada',
  'common.invalidJson': 'O corpo da requisição não é um JSON válido',
  'common.invalidRequest': 'Requisição inválida: {reason}',
  'common.bodyTooLarge': 'O corpo da requisição é grande demais',
  'common.unsupportedMediaType': 'Tipo de conteúdo não suportado: envie application/json',
  'common.internal': 'Erro interno do servidor',
  'common.unavailable': 'O serviço está iniciando ou encerrando; tente novamente em instantes',
  'auth.notAuthenticated': 'Não autenticado',
  'auth.sessionExpired': 'Sua sessão expirou; entre novamente',
  'auth.adminOnly': 'Apenas administradores podem fazer isso',
  'auth.invalidCredentials': 'Credenciais inválidas',
  'auth.fillAllFields': 'Por favor, preencha todos os campos',
  'auth.passwordTooShort': 'A senha deve ter pelo menos {min} caracteres',
  'auth.passwordTooLong': 'A senha deve ter no máximo {max} caracteres',
  'auth.invalidEmail': 'Informe um endereço de e-mail válido',
  'auth.emailRequired': 'Por favor, informe seu endereço de e-mail',
  'auth.nameRequired': 'Por favor, informe seu nome',
  'auth.emailTaken': 'Já existe uma conta com este e-mail',
  'auth.emailReserved': 'Este endereço de e-mail é reservado',
  'auth.invalidPlan': 'O plano deve ser mensal ou anual',
  'auth.invalidTimeZone': 'Fuso horário desconhecido: {timeZone}',
  'auth.currentPasswordWrong': 'A senha atual está incorreta',
  'auth.tooManyAttempts': 'Muitas tentativas de login. Tente novamente em {minutes} minutos.',
  'auth.resetSent': 'Se existir uma conta com este e-mail, enviamos um link para redefinir a senha.',
  'auth.resetTokenInvalid': 'Este link de redefinição é inválido ou expirou. Peça um novo.',
  'auth.passwordReset': 'Sua senha foi alterada. Você já pode entrar.',
  'auth.passwordChanged': 'Senha atualizada com sucesso',
  'auth.resetEmailSubject': 'Redefina sua senha',
  'auth.resetEmailBody':
    'Olá {name},\n\nAlguém pediu para redefinir a senha da sua conta. Abra este link em até {minutes} minutos para escolher uma nova:\n\n{link}\n\nSe não foi você, ignore este e-mail; sua senha continua a mesma.',
  'channels.notFound': 'Canal não encontrado',
  'channels.channelIdRequired': 'O ID do canal é obrigatório',
  'channels.channelIdInvalid': 'O ID do canal só pode conter letras, números, - e _ (por exemplo UCxxxxxxxxxxxxxxxxxxxxxx)',
  'channels.channelIdImmutable': 'O ID do canal não pode ser alterado',
  'channels.duplicate': 'Este canal já está conectado',
  'channels.minViewsInvalid': 'O mínimo de visualizações deve ser um número inteiro igual ou maior que 0',
};

export type Language = 'pt' | 'en';
const catalogues: Record<Language, Record<MessageKey, string>> = { en, pt };

export function languageFrom(acceptLanguage: string | undefined): Language {
  return acceptLanguage?.trim().toLowerCase().startsWith('pt') ? 'pt' : 'en';
}

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogues[language][key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
