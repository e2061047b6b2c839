/**
 * The plan and its usage.
 *
 * Tags: getSubscription provides 'Subscription'; changePlan invalidates 'Subscription' and 'User'
 * (the plan name in the top bar).
 */
import { apiSlice } from './apiSlice';
import type { PlanChange, Subscription } from './types';

export const subscriptionApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    /** Usage moves with channels and runs: the page asks afresh each time it opens. */
    getSubscription: builder.query<Subscription, void>({
      query: () => '/subscription/',
      providesTags: ['Subscription'],
    }),
    /** Recorded, never charged; the plan name in the top bar changes with it. */
    changePlan: builder.mutation<Subscription, PlanChange>({
      query: (body) => ({ url: '/subscription/', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Subscription', 'User'] : []),
    }),
  }),
});

export const { useGetSubscriptionQuery, useChangePlanMutation } = subscriptionApi;
