import { BILLING_PERIODS, PLAN_IDS } from '../lib/plans';
import { dateTime, type Shape } from './common';

/** Accounts and sessions (routes/auth, services/auth.ts and services/sessions.ts). */

export const str = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** The signed-in user (GET /auth/me and every sign-in's `user`). */
export const userSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'email',
    'plan',
    'plan_name',
    'billing_period',
    'time_zone',
    'is_admin',
    'email_verified',
    'is_admin_pending',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    plan: { type: 'string', enum: PLAN_IDS },
    plan_name: { type: 'string' },
    billing_period: { type: 'string', enum: BILLING_PERIODS },
    time_zone: { type: 'string' },
    is_admin: { type: 'boolean' },
    /** The owner followed the confirmation link sent to this address. */
    email_verified: { type: 'boolean' },
    /** An administrator's address (ADMIN_EMAIL) not yet confirmed: admin rights come with the confirmation. */
    is_admin_pending: { type: 'boolean' },
    created_at: dateTime,
  },
} as const;
export type UserDto = Shape<typeof userSchema>;

export const authResultSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'user'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string' },
    user: userSchema,
  },
} as const;
export type AuthResult = Shape<typeof authResultSchema>;

/** One signed-in device of Settings › Security. */
export const sessionSchema = {
  type: 'object',
  required: ['id', 'created_at', 'last_used_at', 'user_agent', 'ip', 'current'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    created_at: dateTime,
    last_used_at: dateTime,
    /** The browser's User-Agent when the session opened (up to 200 characters; empty when none was sent). */
    user_agent: { type: 'string' },
    /** The client address it was opened from (empty when unknown). */
    ip: { type: 'string' },
    /** The session of the token that asked. */
    current: { type: 'boolean' },
  },
} as const;
export type SessionDto = Shape<typeof sessionSchema>;

/** POST /auth/register. `plan` is the billing period ('monthly' unless sent). */
export const registerBody = {
  type: 'object',
  required: ['name', 'email', 'password'],
  additionalProperties: false,
  properties: {
    name: str(200),
    email: str(320),
    password: str(1024),
    plan: { type: 'string', enum: BILLING_PERIODS },
    time_zone: str(64),
  },
} as const;
export type RegisterInput = Shape<typeof registerBody>;

/** PUT /auth/profile. */
export const profileBody = {
  type: 'object',
  required: ['name', 'email'],
  additionalProperties: false,
  properties: { name: str(200), email: str(320), time_zone: str(64), current_password: str(1024) },
} as const;
export type ProfileInput = Shape<typeof profileBody>;

/** POST /auth/reset-password/confirm. */
export const resetPasswordBody = {
  type: 'object',
  required: ['token', 'new_password'],
  additionalProperties: false,
  properties: { token: str(200), new_password: str(1024) },
} as const;
export type ResetPasswordInput = Shape<typeof resetPasswordBody>;
