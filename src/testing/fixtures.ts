import type { AuthResult, User } from '../api';

export const testUser: User = {
  id: '5f0c6e9e-3d7a-4d2b-9d8e-2f4b1c0a9e11',
  name: 'Ana Souza',
  email: 'ana@example.com',
  plan: 'starter',
  plan_name: 'Starter',
  billing_period: 'monthly',
  time_zone: 'America/Sao_Paulo',
  is_admin: false,
  created_at: '2025-01-15T12:00:00.000Z',
};

export function authResult(user: User = testUser, token = 'token-123'): AuthResult {
  return { access_token: token, token_type: 'bearer', user };
}
