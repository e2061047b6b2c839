/**
 * The notification settings (email, webhook).
 *
 * Tags: getNotificationSettings provides 'Notifications'; updating invalidates it.
 */
import { apiSlice } from './apiSlice';
import type { NotificationSettings, NotificationSettingsUpdate, WebhookTestResult } from './types';

export const notificationsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    getNotificationSettings: builder.query<NotificationSettings, void>({
      query: () => '/notifications/',
      providesTags: ['Notifications'],
    }),
    updateNotificationSettings: builder.mutation<NotificationSettings, NotificationSettingsUpdate>({
      query: (body) => ({ url: '/notifications/', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Notifications'] : []),
    }),
    /** Sends a signed test event to the saved webhook; answers whether it was delivered. */
    testWebhook: builder.mutation<WebhookTestResult, void>({
      query: () => ({ url: '/notifications/test', method: 'POST' }),
    }),
  }),
});

export const { useGetNotificationSettingsQuery, useUpdateNotificationSettingsMutation, useTestWebhookMutation } =
  notificationsApi;
