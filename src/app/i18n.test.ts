import { createI18n as createI18nWith } from './i18n';
import type { Language } from '../lib/language';
import { resources } from './resources';

const createI18n = (language: Language) => createI18nWith(language, resources);

describe('i18n', () => {
  it('translates in the chosen language and switches at run time', async () => {
    const i18n = createI18n('pt');
    expect(i18n.t('nav.settings')).toBe('Configurações');
    await i18n.changeLanguage('en');
    expect(i18n.t('nav.settings')).toBe('Settings');
    expect(i18n.t('auth:login.invalidCredentials')).toBe('Invalid credentials');
  });

  it('shows the key itself for an unknown key', () => {
    const i18n = createI18n('en');
    // Cast: typed keys reject unknown ones at compile time, which is the point.
    expect(i18n.t('nav.nowhere' as 'nav.settings')).toBe('nav.nowhere');
  });

  it('fills in the password minimum without the caller passing it', () => {
    expect(createI18n('en').t('validation.passwordTooShort')).toBe('Password must be at least 6 characters');
    expect(createI18n('pt').t('validation.passwordTooShort')).toBe('A senha deve ter pelo menos 6 caracteres');
  });

  it('carries the spec’s messages verbatim', () => {
    const en = createI18n('en');
    const pt = createI18n('pt');
    expect(en.t('validation.fillAllFields')).toBe('Please fill in all fields');
    expect(pt.t('validation.fillAllFields')).toBe('Por favor, preencha todos os campos');
    expect(en.t('validation.emailRequired')).toBe('Please enter your email address');
    expect(pt.t('validation.emailRequired')).toBe('Por favor, informe seu endereço de e-mail');
    expect(en.t('validation.passwordsDoNotMatch')).toBe('Passwords do not match');
    expect(pt.t('validation.passwordsDoNotMatch')).toBe('As senhas não coincidem');
    expect(pt.t('auth:login.invalidCredentials')).toBe('Credenciais inválidas');
  });
});

describe('i18n with namespaces loaded on demand', () => {
  const commonOnly = { en: { common: resources.en.common }, pt: { common: resources.pt.common } };

  it('fetches a namespace when asked for it, once', async () => {
    const load = jest.fn((language: Language, namespace: keyof typeof resources.en) =>
      Promise.resolve(resources[language][namespace]),
    );
    const i18n = createI18nWith('en', commonOnly, load);
    expect(i18n.t('nav.settings')).toBe('Settings');
    expect(i18n.hasLoadedNamespace('auth')).toBe(false);

    await i18n.loadNamespaces('auth');
    await i18n.loadNamespaces('auth');

    expect(i18n.t('auth:login.invalidCredentials')).toBe('Invalid credentials');
    expect(load.mock.calls).toEqual([['en', 'auth']]);
  });

  it('switches language only once the namespaces in use are in, in the new language', async () => {
    let release: () => void = () => undefined;
    const load = jest.fn(
      (language: Language, namespace: keyof typeof resources.en) =>
        new Promise<object>((resolve) => {
          if (language === 'en') resolve(resources.en[namespace]);
          else release = () => resolve(resources.pt[namespace]);
        }),
    );
    const i18n = createI18nWith('en', commonOnly, load);
    await i18n.loadNamespaces('auth');

    const switched = i18n.changeLanguage('pt');
    await Promise.resolve();
    expect(load).toHaveBeenLastCalledWith('pt', 'auth');
    expect(i18n.t('auth:login.invalidCredentials')).toBe('Invalid credentials');

    release();
    await switched;
    expect(i18n.t('auth:login.invalidCredentials')).toBe('Credenciais inválidas');
    expect(i18n.t('nav.settings')).toBe('Configurações');
  });
});
