/**
 * The platform account form (issue #31, "Connections"): the platform and a name; the app's
 * credentials (TikTok's client key and secret, Meta's app id and secret) are required unless the
 * server's operator configured an app for that platform, in which case blank uses the operator's.
 * Editing changes the name only (the platform and the app are fixed once authorized against them).
 */
import { mixed, object, string } from 'yup';
import type { Platform, PlatformAccountCreate, PlatformAccountList } from '../../../api';
import type { ValidationKey } from '../../../components';

const required: ValidationKey = 'validation.fillAllFields';

export const PLATFORMS: readonly Platform[] = ['tiktok', 'instagram'];

export type OperatorApps = PlatformAccountList['operator_apps'];

export interface PlatformAccountFormValues {
  platform: Platform;
  name: string;
  client_id: string;
  client_secret: string;
}

/** Whether a new account must bring its own app: the operator configured none for the platform. */
export function credentialsRequired(platform: Platform, operatorApps: OperatorApps | undefined): boolean {
  return operatorApps?.[platform] !== true;
}

export function platformAccountSchema(operatorApps: OperatorApps | undefined, editing: boolean) {
  // Both credentials or neither (the server's rule): one typed makes the other required even
  // where the operator's app would do.
  const credential = (other: 'client_id' | 'client_secret') =>
    string()
      .trim()
      .default('')
      .when(['platform', other], {
        is: (platform: Platform, otherValue: string | undefined) =>
          !editing && (credentialsRequired(platform, operatorApps) || !!otherValue?.trim()),
        then: (schema) => schema.required(required),
      });
  return object().shape(
    {
      platform: mixed<Platform>().oneOf(PLATFORMS).required(required),
      name: string().trim().required(required),
      client_id: credential('client_secret'),
      client_secret: credential('client_id'),
    },
    [['client_id', 'client_secret']],
  );
}

export function emptyValues(platform: Platform = 'tiktok'): PlatformAccountFormValues {
  return { platform, name: '', client_id: '', client_secret: '' };
}

/** Blank credentials are left out: the server then uses the operator's app. */
export function createBody(values: PlatformAccountFormValues): PlatformAccountCreate {
  return {
    platform: values.platform,
    name: values.name,
    ...(values.client_id ? { client_id: values.client_id } : {}),
    ...(values.client_secret ? { client_secret: values.client_secret } : {}),
  };
}
