import '@testing-library/jest-dom';

// Each test starts with empty storage (redux-persist writes to localStorage) and unmocked fetch.
afterEach(() => {
  window.localStorage.clear();
});
