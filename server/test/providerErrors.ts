import { ProviderError } from '../src/providers/providerError';

/** Expects a promise to reject with a ProviderError and answers it, for the tests to look into. */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
