export {
  adminUser,
  authResult,
  channelFixture,
  chatModelConfigFixture,
  OAUTH_REDIRECT_URI,
  PLATFORM_REDIRECT_URIS,
  platformAccountFixture,
  platformAccountList,
  processFixture,
  promptFixture,
  promptSummaryOf,
  promptTexts,
  proxyFixture,
  publicationFixture,
  signedInState,
  testUser,
  voiceFixture,
  musicFixture,
  youtubeApiFixture,
  youtubeApiList,
} from './fixtures';
export { deferred, mockApi, never, reply, type ApiMock, type MockHandler, type MockReply, type MockRequest } from './mockApi';
export { renderApp } from './renderApp';
export { invalidControls } from './formErrors';
export { renderWithProviders, testLocation, type ProviderOptions } from './renderWithProviders';
export { prerenderedCard, removePrerenderedCards } from './prerenderedCard';
