/**
 * The auth feature: the signed-out screens. LoginPage is imported eagerly (it is the landing
 * page of every signed-out visit); the others are lazy chunks, imported by app/router.tsx from
 * their own files.
 */
export { default as LoginPage } from './LoginPage';
