import { AppRoutes } from '../app/router';
import { renderWithProviders, type ProviderOptions } from './renderWithProviders';

/** Renders the whole route table at `path`, as a visitor opening that address. */
export function renderApp(path: string, options: Omit<ProviderOptions, 'initialEntries'> = {}) {
  return renderWithProviders(<AppRoutes />, { ...options, initialEntries: [path] });
}
