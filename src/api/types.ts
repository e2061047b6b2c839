/** Shapes of the API's answers (snake_case, as the server sends them). */
import type { BillingPeriod } from '../lib/constants';

export interface User {
  id: string;
  name: string;
  email: string;
  plan: string;
  plan_name: string;
  billing_period: BillingPeriod;
  time_zone: string;
  /** Set by the server (ADMIN_EMAIL); the client only uses it to hide admin-only things. */
  is_admin: boolean;
  created_at: string;
}

export interface AuthResult {
  access_token: string;
  token_type: 'bearer';
  user: User;
}

export interface Detail {
  detail: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
  plan: BillingPeriod;
  /** IANA zone, e.g. "America/Sao_Paulo". */
  time_zone: string;
}

export interface ProfileUpdate {
  name: string;
  email: string;
  time_zone?: string;
}

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

export interface PasswordResetConfirm {
  token: string;
  new_password: string;
}
