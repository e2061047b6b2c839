import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Screens are lazy chunks and the whole suite shares two cores with the server tests: give
// findBy*/waitFor five seconds rather than one before a test counts as failed.
configure({ asyncUtilTimeout: 5000 });

// Each test starts with empty storage (redux-persist writes to localStorage) and unmocked fetch.
// (A suite in Node's environment, the build-time rendering's, has no window.)
afterEach(() => {
  if (typeof window !== 'undefined') window.localStorage.clear();
});
