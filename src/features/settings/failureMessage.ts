import { errorDetail, errorStatus } from '../../api';

/**
 * What the banner says when an action on a row failed: for a 404 (someone else deleted it) the
 * server's detail, else `notFound`; otherwise `failed`.
 */
export function failureMessage(failure: unknown, notFound: string, failed: string): string {
  return errorStatus(failure) === 404 ? (errorDetail(failure) ?? notFound) : failed;
}
