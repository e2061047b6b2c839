export { authResult, testUser } from './fixtures';
export { deferred, mockApi, never, reply, type ApiMock, type MockReply, type MockRequest } from './mockApi';
export { renderApp } from './renderApp';
export { renderWithProviders, testLocation, type ProviderOptions } from './renderWithProviders';
